// The home page's list of games: all games or "my games" (those whose secrets this browser
// holds), searched by player, date, kind and status, a page at a time; delete with a secret.
import { api, el, fmtTime, forgetToken, showError, t, who } from "./common.js";

const PAGE = 20;
const TOKEN_PREFIX = "onered.token.";
const $ = (x) => document.getElementById(x);
const state = { tab: "all", offset: 0, total: 0, games: [] };
let errorBox = null;

/** The ids of the games whose secrets this browser holds. */
export function myGameIds() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(TOKEN_PREFIX)) ids.push(key.slice(TOKEN_PREFIX.length));
  }
  return ids;
}

function localDay(value, plusDays = 0) {
  const d = new Date(`${value}T00:00`);
  d.setDate(d.getDate() + plusDays);
  return d.getTime() / 1000;
}

function query() {
  const form = $("find-form");
  const q = new URLSearchParams({ limit: String(PAGE), offset: String(state.offset) });
  const player = form.elements.player.value.trim();
  if (player) q.set("player", player);
  if (form.elements.since.value) q.set("since", String(localDay(form.elements.since.value)));
  if (form.elements.until.value) q.set("until", String(localDay(form.elements.until.value, 1)));
  if (form.elements.kind.value) q.set("kind", form.elements.kind.value);
  if (form.elements.finished.value) q.set("finished", form.elements.finished.value);
  if (state.tab === "mine") q.set("ids", myGameIds().join(","));
  return q;
}

let asked = 0; // the number of the newest request: an older answer arriving late is dropped

export async function loadGames() {
  const mine = asked += 1;
  let found = { games: [], total: 0 };
  if (state.tab !== "mine" || myGameIds().length) found = await api("GET", `/api/find?${query()}`);
  if (mine !== asked) return;
  Object.assign(state, { games: found.games, total: found.total });
  renderGames();
}

async function reload() {
  try {
    await loadGames();
    showError(errorBox, null);
  } catch (e) {
    showError(errorBox, e);
  }
}

async function remove(g) {
  const players = `${who(g.players[0], g.entrants)} — ${who(g.players[1], g.entrants)}`;
  if (!window.confirm(t("home.delete.confirm", { players }))) return;
  try {
    await api("DELETE", `/api/games/${encodeURIComponent(g.id)}`, undefined, localStorage.getItem(TOKEN_PREFIX + g.id));
    forgetToken(g.id);
    if (state.offset && state.games.length === 1) state.offset = Math.max(0, state.offset - PAGE);
    await reload();
  } catch (e) {
    showError(errorBox, e);
  }
}

/** A player's page, named as the pages name him (a computer player from its level). */
function playerLink(name, entrants) {
  return el("a", { href: `/players/${encodeURIComponent(name)}`, class: "player-link", text: who(name, entrants) });
}

function row(g) {
  const status = g.winner ? t("home.status.won", { name: who(g.winner, g.entrants) }) : t("home.status.on");
  const mine = localStorage.getItem(TOKEN_PREFIX + g.id);
  const links = [el("a", { href: `/games/${g.id}`, text: t("common.record_link") })];
  if (!g.winner) {
    links.push(" · ", el("a", { href: `/watch/${g.id}`, text: t("common.watch_link") }));
    if (mine) {
      const href = g.mode === "play" ? `/play/${g.id}` : `/mark/${g.id}`;
      const label = g.mode === "play" ? t("common.play_link") : t("common.mark_link");
      links.push(" · ", el("a", { href, text: label }));
    }
  }
  if (mine) links.push(" ", el("button", { type: "button", class: "danger small delete", text: t("home.delete"), onclick: () => remove(g) }));
  return el(
    "tr",
    { dataset: { game: g.id } },
    el("td", {}, playerLink(g.players[0], g.entrants), " — ", playerLink(g.players[1], g.entrants)),
    el("td", { class: "num", text: `${g.score[0]} : ${g.score[1]}` }),
    el("td", { class: "num", text: String(g.target) }),
    el("td", { text: t(`home.mode.${g.mode}`) }),
    el("td", { class: "num", text: String(g.strokes) }),
    el("td", { text: status }),
    el("td", { class: "small muted", text: fmtTime(g.updated) }),
    el("td", {}, ...links),
  );
}

export function renderGames() {
  const box = $("games");
  $("tab-all").classList.toggle("on", state.tab === "all");
  $("tab-mine").classList.toggle("on", state.tab === "mine");
  $("mine-hint").hidden = state.tab !== "mine";
  const first = state.total ? state.offset + 1 : 0;
  const last = state.offset + state.games.length;
  $("page").textContent = t("home.page", { first, last, total: state.total });
  $("newer").textContent = t("home.newer");
  $("older").textContent = t("home.older");
  $("newer").disabled = state.offset === 0;
  $("older").disabled = last >= state.total;
  if (!state.games.length) {
    const filtered = [...new FormData($("find-form")).values()].some((v) => v);
    const empty = state.tab === "all" && !filtered ? t("home.games.empty") : t("home.find.none");
    box.replaceChildren(el("p", { class: "muted", text: empty }));
    return;
  }
  const head = el("thead", {}, el("tr", {},
    el("th", { text: t("home.col.players") }), el("th", { class: "num", text: t("common.score") }),
    el("th", { class: "num", text: t("common.target") }), el("th", { text: t("home.col.mode") }),
    el("th", { class: "num", text: t("common.strokes") }), el("th", { text: t("home.col.status") }),
    el("th", { text: t("home.col.updated") }), el("th", { text: t("home.col.open") })));
  box.replaceChildren(el("table", { class: "list" }, head, el("tbody", {}, ...state.games.map(row))));
}

/** Wire the list's tabs, search form and pager; `box` shows errors. */
export function setupGames(box) {
  errorBox = box;
  const form = $("find-form");
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    state.offset = 0;
    reload();
  });
  form.addEventListener("reset", () => {
    state.offset = 0;
    setTimeout(reload, 0); // after the fields are cleared
  });
  for (const tab of ["all", "mine"]) {
    $(`tab-${tab}`).addEventListener("click", () => {
      state.tab = tab;
      state.offset = 0;
      reload();
    });
  }
  $("newer").addEventListener("click", () => {
    state.offset = Math.max(0, state.offset - PAGE);
    reload();
  });
  $("older").addEventListener("click", () => {
    state.offset += PAGE;
    reload();
  });
}
