// The tournament on paper: a score sheet per fixture to be played (the players, the table,
// a row per game with room for the score, the signatures, a QR code to follow the table),
// then the bracket and the league tables on a page of their own. Printed with print CSS.
import { el, setupPage, showError, t } from "./common.js";
import { bracket, fixtureName, formatText, leagueTable, loadTournament, tableQr, tournamentId } from "./tournament_view.js";

const id = tournamentId();
const $ = (x) => document.getElementById(x);
let view = null;

function sheet(f) {
  const games = [];
  for (let n = 1; n <= f.best_of; n += 1) {
    games.push(el("tr", {}, el("td", { class: "num", text: String(n) }), el("td", { class: "box" }), el("td", { class: "box" }), el("td", { class: "box" })));
  }
  return el("article", { class: "sheet score-sheet", dataset: { key: f.key } },
    el("header", { class: "sheet-head" },
      el("div", {},
        el("h1", { text: view.name }),
        el("div", { class: "muted", text: formatText(view) }),
        el("h2", { text: `${fixtureName(view, f)} · ${f.key}` }),
        el("div", { class: "sheet-table", text: f.table ? t("tournament.table", { n: f.table }) : t("tournament.table_tbd") })),
      f.table ? el("figure", { class: "sheet-qr" }, tableQr(view, f.table, 110), el("figcaption", { class: "small", text: t("tournament.qr_follow") })) : null),
    el("table", { class: "sheet-games" },
      el("thead", {}, el("tr", {},
        el("th", { class: "num", text: t("match.col.no") }),
        el("th", { text: f.a ? f.a.name : "" }), el("th", { text: f.b ? f.b.name : "" }),
        el("th", { text: t("tournament.sheet.breaks") }))),
      el("tbody", {}, ...games),
      el("tfoot", {}, el("tr", {}, el("th", { text: t("tournament.sheet.games") }), el("td", { class: "box" }), el("td", { class: "box" }), el("td", {})))),
    el("div", { class: "signatures" },
      ...[t("tournament.sheet.winner"), t("tournament.sheet.referee"), t("tournament.sheet.player_a"), t("tournament.sheet.player_b")]
        .map((label) => el("div", { class: "sign" }, el("span", { class: "line" }), el("span", { class: "small", text: label })))));
}

function render() {
  if (!view) return;
  document.title = `${view.name} · ${t("tournament.print_title")}`;
  $("back").href = view.urls.page;
  const every = $("all").checked;
  const fs = view.fixtures.filter((f) => !f.bye && f.state !== "done" && (every || f.a && f.b));
  $("sheets").replaceChildren(...fs.map(sheet));
  const b = bracket(view);
  $("bracket-page").replaceChildren(
    el("h1", { text: view.name }),
    el("div", { class: "muted", text: formatText(view) }),
    ...view.standings.map((s) => leagueTable(view, s)),
    b ? b : null);
}

async function main() {
  await setupPage(render);
  $("print").addEventListener("click", () => window.print());
  $("all").addEventListener("change", render);
  try {
    view = await loadTournament(id);
  } catch (e) {
    showError($("error"), e);
    return;
  }
  render();
  document.body.dataset.ready = "1";
}

main();
