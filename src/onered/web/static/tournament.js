// A tournament's page: players, the bracket and league tables, what is played where; for
// its organiser (who holds its secret, or a club admin signed in) the buttons that run it.
import { api, el, saveToken, sendChange, setupPage, showError, t } from "./common.js";
import {
  bracket, fixtureName, formatText, leagueFixtures, leagueTable, loadTournament, tableQr, tournamentId,
} from "./tournament_view.js";

const id = tournamentId();
const $ = (x) => document.getElementById(x);
const KEY = `onered.tournament.${id}`;
const POLL_MS = 4000;
let view = null;

const token = () => localStorage.getItem(KEY);
const mine = () => !!token();

async function change(path, body = {}) {
  showError($("error"), null);
  try {
    const got = await sendChange(`/api/tournaments/${encodeURIComponent(id)}${path}`, { ...body, revision: view.revision }, token());
    if (got.tournament) view = got.tournament;
    render();
    return got;
  } catch (e) {
    showError($("error"), e);
    await load().catch(() => {});
    return null;
  }
}

/** Players from the text box: one a line, "Name" or "Name, rating". */
export function parsePlayers(text) {
  return text.split("\n").map((line) => line.trim()).filter(Boolean).map((line) => {
    const m = line.match(/^(.*?)[,;\t ]+(\d{2,4}(?:\.\d+)?)$/);
    return m ? { name: m[1].trim(), rating: Number(m[2]) } : { name: line };
  });
}

function stateText(f) {
  return t(`tournament.state.${f.state}`);
}

async function startMatch(f) {
  const got = await change(`/fixtures/${f.key}/match`, {});
  if (!got) return;
  saveToken(got.game.id, got.game.token);
  localStorage.setItem(`onered.match.${got.id}`, got.token);
  const link = `${got.game.urls.mark}#token=${got.game.token}`;
  const box = $("started");
  box.hidden = false;
  box.replaceChildren(
    el("div", { text: t("tournament.started", { key: f.key, a: f.a.name, b: f.b.name }) }),
    el("div", { class: "row" },
      el("a", { class: "button primary", href: got.game.urls.mark, text: t("tournament.mark_here") }),
      el("span", { class: "small muted", text: t("tournament.mark_qr") })),
    el("div", { class: "qr-box", id: "marker-qr" }));
  // the marker's link carries the game's secret: its QR code is drawn by POST (never a query)
  const r = await fetch("/api/qr", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ path: link }),
  });
  if (r.ok) $("marker-qr").innerHTML = await r.text();
}

/** A result from paper: the games each won, "2:1" (the first player's first). */
export function parseGames(text) {
  const m = (text || "").match(/^\s*(\d+)\s*[:\-–— ]\s*(\d+)\s*$/);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

async function enterResult(f) {
  const games = parseGames(prompt(t("tournament.result_prompt", { a: f.a.name, b: f.b.name }), ""));
  if (!games || games[0] === games[1]) return;
  const winner = games[0] > games[1] ? f.a.id : f.b.id;
  await change(`/fixtures/${f.key}/result`, { winner, games });
}

function actions(f) {
  if (!mine()) return [];
  const out = [];
  if (f.state === "ready") {
    out.push(el("button", { class: "primary", dataset: { act: "start" }, text: t("tournament.start"), onclick: () => startMatch(f) }));
  }
  if (f.state === "ready" || f.state === "playing") {
    out.push(el("button", { class: "small", dataset: { act: "result" }, text: t("tournament.result"), onclick: () => enterResult(f) }));
    for (const who of ["a", "b"]) {
      out.push(el("button", {
        class: "small", dataset: { act: `walkover-${who}` }, text: t("tournament.walkover_to", { name: f[who].name }),
        onclick: () => change(`/fixtures/${f.key}/walkover`, { winner: f[who].id }),
      }));
    }
  }
  if (f.state === "done" && !f.bye) {
    out.push(el("button", { class: "small danger", dataset: { act: "undo" }, text: t("tournament.undo"), onclick: () => change(`/fixtures/${f.key}/undo`) }));
  }
  return out;
}

function fixtureRow(f) {
  const r = f.result;
  const score = r ? (r.walkover ? t("tournament.wo") : `${r.games[0]} : ${r.games[1]}`) : "";
  return el("tr", { class: f.state, dataset: { key: f.key, state: f.state } },
    el("td", { class: "small", text: `${f.key}` }),
    el("td", { class: "small muted", text: fixtureName(view, f) }),
    el("td", { text: f.a ? f.a.name : "—" }),
    el("td", { class: "num", text: score }),
    el("td", { text: f.b ? f.b.name : f.bye ? t("tournament.bye") : "—" }),
    el("td", { class: "num", text: f.table ? String(f.table) : "" }),
    el("td", { class: "small", text: stateText(f) },
      f.match ? el("span", {}, " · ", el("a", { href: f.match.url, text: t("tournament.match_link") })) : null),
    el("td", { class: "actions" }, el("div", { class: "row" }, ...actions(f))));
}

function render() {
  if (!view) return;
  $("name").textContent = view.name;
  $("format").textContent = formatText(view);
  $("status").textContent = t(`tournament.status.${view.status}`);
  document.title = `${view.name} · ${t("tournament.title")}`;
  $("screen-link").href = view.urls.screen;
  $("print-link").href = view.urls.print;
  const w = $("winner");
  w.hidden = !view.winner;
  w.textContent = view.winner ? t("tournament.won_by", { name: view.winner.name }) : "";
  // the organiser's part
  $("organise").hidden = !mine() || view.status === "over";
  $("entry").hidden = view.status !== "entry";
  $("running").hidden = view.status !== "playing";
  $("draw").disabled = view.entrants.length < 2;
  $("withdraw-who").replaceChildren(...view.entrants.filter((e) => !e.withdrawn)
    .map((e) => el("option", { value: e.id, text: e.name })));
  // players
  $("players").replaceChildren(...view.entrants.map((e) => el("li", { class: e.withdrawn ? "withdrawn" : "" },
    el("span", { text: e.name }),
    e.rating != null ? el("span", { class: "muted small", text: ` ${Math.round(e.rating)}` }) : null,
    e.withdrawn ? el("span", { class: "muted small", text: ` (${t("tournament.withdrawn")})` }) : null)));
  // what is played where now
  const now = view.fixtures.filter((f) => f.state === "playing" || (f.state === "ready" && f.table));
  $("now-panel").hidden = !now.length;
  $("now").replaceChildren(el("tbody", {}, ...now.map((f) => el("tr", { dataset: { key: f.key } },
    el("td", { class: "num strong", text: f.table ? t("tournament.table", { n: f.table }) : "" }),
    el("td", { text: `${f.a.name} — ${f.b.name}` }),
    el("td", { class: "small muted", text: `${fixtureName(view, f)} · ${stateText(f)}` }),
    el("td", {}, f.table ? tableQr(view, f.table, 84) : null)))));
  // league tables, the bracket, the fixtures
  $("leagues").replaceChildren(...view.standings.map((s) => leagueTable(view, s)));
  const b = bracket(view);
  $("bracket-panel").hidden = !b;
  $("bracket").replaceChildren(...(b ? [b] : []));
  const listed = [...leagueFixtures(view), ...view.fixtures.filter((f) => f.stage === "knockout" && !f.bye)];
  $("fixtures-panel").hidden = !listed.length;
  $("fixtures").replaceChildren(el("tbody", {}, ...listed.map(fixtureRow)));
}

async function load() {
  view = await loadTournament(id);
  render();
}

async function main() {
  const m = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  if (m) {
    localStorage.setItem(KEY, m[1]);
    history.replaceState(null, "", location.pathname);
  }
  await setupPage(render);
  $("players-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const players = parsePlayers($("players-text").value);
    if (!players.length) return;
    if (await change("/players", { players })) $("players-text").value = "";
  });
  $("draw").addEventListener("click", () => change("/draw"));
  $("assign").addEventListener("click", () => change("/tables"));
  $("withdraw").addEventListener("click", () => {
    const who = $("withdraw-who").value;
    if (who && confirm(t("tournament.withdraw_confirm"))) change("/withdraw", { player: who });
  });
  try {
    await load();
  } catch (e) {
    showError($("error"), e);
    return;
  }
  document.body.dataset.ready = "1";
  setInterval(async () => {
    if (!view || view.status === "over") return;
    try {
      await load();
    } catch (e) {
      showError($("error"), e);
    }
  }, POLL_MS);
}

main();
