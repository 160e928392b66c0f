// A match: the score in games, the clock, each game's score and winner, the next game.
import { api, el, fmtTime, gameIdFromPath, saveToken, sendChange, setupPage, showError, t, tn } from "./common.js";

const id = gameIdFromPath();
const $ = (x) => document.getElementById(x);
const MATCH_KEY = `onered.match.${id}`;
const POLL_MS = 3000;
let view = null;
let fetchedAt = 0; // performance.now() when `view` arrived: the clock runs on from there

/** Seconds as h:mm:ss (or m:ss). */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

function running() {
  return view && view.clock.running ? (performance.now() - fetchedAt) / 1000 : 0;
}

function tick() {
  if (!view) return;
  $("clock").textContent = clockText(view.clock.total + running());
  const last = view.games[view.games.length - 1];
  const cell = document.querySelector("td[data-running]");
  if (cell && last) cell.textContent = clockText(last.seconds + running());
}

function board() {
  const won = view.winner;
  return view.players.map((name, i) => {
    const ball = view.settings.balls[i];
    return el("div", { class: `side${i ? " right" : ""}${won === name ? " won" : ""}`, dataset: { player: String(i) } },
      el("div", { class: "name" },
        el("span", { class: `ball-dot ${ball}` }),
        el("a", { href: `/players/${encodeURIComponent(name)}`, text: name, title: t("player.link") })),
      el("div", { class: "wins", dataset: { wins: String(view.wins[name]) }, text: String(view.wins[name]) }),
      el("div", { class: "sub", text: tn("match.games_won", view.wins[name]) }));
  });
}

function gameRow(g) {
  const n = g.number + 1;
  if (g.missing) {
    return el("tr", {}, el("td", { class: "num", text: String(n) }), el("td", { class: "muted", colspan: 5, text: t("match.missing") }));
  }
  const score = view.players.map((p) => g.score[p] ?? 0).join(" : ");
  const links = [el("a", { href: g.urls.record, text: t("common.record_link") })];
  if (!g.over) {
    links.push(" · ", el("a", { href: g.urls.watch, text: t("common.watch_link") }));
    if (localStorage.getItem(`onered.token.${g.id}`)) links.push(" · ", el("a", { href: g.urls.mark, text: t("common.mark_link") }));
  }
  const current = !g.over && g.number === view.games.length - 1;
  return el("tr", { class: current ? "current" : "", dataset: { game: g.id, number: String(n) } },
    el("td", { class: "num", text: String(n) }),
    el("td", { text: g.breaker }),
    el("td", { class: "num score", text: score }),
    el("td", { class: "winner-cell", text: g.winner || t("match.on") }),
    el("td", { class: "num", text: clockText(g.seconds), dataset: current && view.clock.running ? { running: "1" } : {} }),
    el("td", { class: "small" }, ...links, el("span", { class: "muted", text: ` · ${fmtTime(g.started)}` })));
}

function render() {
  if (!view) return;
  const s = view.settings;
  $("match-board").replaceChildren(board()[0], el("div", { class: "versus", text: ":" }), board()[1]);
  $("format").textContent = t("match.format", {
    best_of: tn("match.of_games", s.best_of), wins: tn("match.wins", view.wins_needed), target: tn("match.to_points", s.target),
  });
  const given = view.players.map((p, i) => [p, s.handicap[i]]).filter(([, h]) => h > 0);
  $("handicap").textContent = given.length
    ? t("match.handicap", { list: given.map(([p, h]) => `${p} +${h}`).join(", ") })
    : t("match.no_handicap");
  const w = $("winner");
  w.hidden = !view.winner;
  w.textContent = view.winner ? t("match.winner", { name: view.winner }) : "";
  const head = el("thead", {}, el("tr", {},
    el("th", { class: "num", text: t("match.col.no") }), el("th", { text: t("match.col.breaker") }),
    el("th", { class: "num", text: t("common.score") }), el("th", { text: t("match.col.winner") }),
    el("th", { class: "num", text: t("match.col.time") }), el("th", { text: t("home.col.open") })));
  $("games").replaceChildren(head, el("tbody", {}, ...view.games.map(gameRow)));
  const next = $("next");
  const mine = localStorage.getItem(MATCH_KEY);
  next.hidden = !(mine && view.can_start_next);
  next.textContent = t("match.next", { number: (view.next_game ?? 0) + 1 });
  $("next-hint").hidden = !mine || view.over;
  document.title = `${view.players.join(" — ")} · ${t("match.title")}`;
  tick();
}

async function load() {
  const got = await api("GET", `/api/matches/${encodeURIComponent(id)}`);
  view = got;
  fetchedAt = performance.now();
  render();
}

async function startNext() {
  showError($("error"), null);
  try {
    const made = await sendChange(`/api/matches/${encodeURIComponent(id)}/next`, { after: view.games.length }, localStorage.getItem(MATCH_KEY));
    saveToken(made.game.id, made.game.token);
    location.href = made.game.urls.mark;
  } catch (e) {
    showError($("error"), e);
  }
}

async function main() {
  // the match's secret may come in the link (#token=…): kept, then taken out of the address
  const m = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  if (m) {
    localStorage.setItem(MATCH_KEY, m[1]);
    history.replaceState(null, "", location.pathname);
  }
  await setupPage(render);
  $("next").addEventListener("click", startNext);
  try {
    await load();
  } catch (e) {
    showError($("error"), e);
    return;
  }
  document.body.dataset.ready = "1";
  setInterval(tick, 1000);
  setInterval(async () => {
    if (view && view.over) return;
    try {
      await load();
      showError($("error"), null);
    } catch (e) {
      showError($("error"), e);
    }
  }, POLL_MS);
}

main();
