// The club's screen for a tournament: the tables in play now (with a QR code to follow each
// one on a phone), then in turn each league table and the bracket, a part every few seconds.
import { el, setupPage, showError, t } from "./common.js";
import { bracket, fixtureName, formatText, leagueTable, loadTournament, tableQr, tournamentId } from "./tournament_view.js";

const id = tournamentId();
const $ = (x) => document.getElementById(x);
const POLL_MS = 5000;
const CYCLE_MS = 12000;
let view = null;
let part = 0;

/** The parts shown in turn: each league table, then the bracket. */
function parts() {
  const out = view.standings.map((s) => () => leagueTable(view, s));
  const b = bracket(view);
  if (b) out.push(() => el("section", { class: "panel" }, el("h2", { text: t("tournament.bracket") }), bracket(view)));
  return out;
}

function render() {
  if (!view) return;
  $("name").textContent = view.name;
  $("format").textContent = formatText(view);
  const w = $("winner");
  w.hidden = !view.winner;
  w.textContent = view.winner ? t("tournament.won_by", { name: view.winner.name }) : "";
  const now = view.fixtures.filter((f) => f.state === "playing" || (f.state === "ready" && f.table))
    .sort((x, y) => (x.table || 99) - (y.table || 99));
  $("now").replaceChildren(...now.map((f) => el("div", { class: `screen-table ${f.state}`, dataset: { key: f.key } },
    el("div", { class: "screen-table-no", text: f.table ? t("tournament.table", { n: f.table }) : "" }),
    el("div", { class: "screen-players" }, el("span", { text: f.a.name }), el("span", { class: "vs", text: "—" }), el("span", { text: f.b.name })),
    el("div", { class: "screen-round", text: `${fixtureName(view, f)} · ${t(`tournament.state.${f.state}`)}` }),
    f.table ? tableQr(view, f.table, 110) : null)));
  if (!now.length) $("now").replaceChildren(el("div", { class: "muted", text: t(`tournament.status.${view.status}`) }));
  const all = parts();
  if (!all.length) {
    $("part").replaceChildren();
    return;
  }
  part %= all.length;
  $("part").replaceChildren(all[part]());
  $("page-no").textContent = all.length > 1 ? `${part + 1} / ${all.length}` : "";
}

async function load() {
  view = await loadTournament(id);
  render();
}

async function main() {
  await setupPage(render);
  $("fullscreen").addEventListener("click", () => document.documentElement.requestFullscreen?.());
  try {
    await load();
  } catch (e) {
    showError($("error"), e);
    return;
  }
  document.body.dataset.ready = "1";
  setInterval(() => load().then(() => showError($("error"), null)).catch((e) => showError($("error"), e)), POLL_MS);
  setInterval(() => {
    part += 1;
    render();
  }, CYCLE_MS);
}

main();
