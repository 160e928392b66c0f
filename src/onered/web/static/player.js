// A player's page: his figures over his games, plotted game by game, his top breaks.
import { api, el, fmtTime, gameIdFromPath, setupPage, showError, t, tn, who } from "./common.js";
import { gameChart } from "./plot.js";

const name = gameIdFromPath();
const $ = (x) => document.getElementById(x);
let view = null;
let rating = null; // his overall rating (onered.web.api_ratings), if a match rated him

function resultText(g) {
  return g.result ? t(`player.result.${g.result}`) : t("player.result.on");
}

function render() {
  if (!view) return;
  const s = view.totals;
  const fouls = Object.values(s.fouls).reduce((a, b) => a + b, 0);
  $("name").textContent = who(view.name);
  if (rating && rating.ratings.length) {
    const r = rating.ratings[0];
    $("rating").hidden = false;
    $("rating").replaceChildren(`${t("rating.col.rating")}: ${Math.round(r.rating)} ± ${Math.round(2 * r.deviation)} · `,
      el("a", { href: `/ratings/${encodeURIComponent(view.name)}`, text: t("rating.title") }));
  }
  $("summary").textContent = t("player.summary", {
    games: s.games, wins: s.wins, ppv: s.points_per_visit.toFixed(2), best: s.highest_break, fouls,
  });
  $("read").textContent = view.games_total > view.games_read
    ? tn("player.read", view.games_total, { read: view.games_read })
    : "";
  const labels = view.games.map((g, i) => `${i + 1}. ${fmtTime(g.created)} — ${who(g.opponent)}: ${g.score.join(":")}`);
  const xLabel = t("player.plot.x");
  $("charts").replaceChildren(
    gameChart({ values: view.games.map((g) => g.points_per_visit), labels, title: t("player.plot.ppv"), xLabel, kind: "line", decimals: 1 }),
    gameChart({ values: view.games.map((g) => g.top_break), labels, title: t("player.plot.break"), xLabel, kind: "bar" }),
    gameChart({ values: view.games.map((g) => g.fouls), labels, title: t("player.plot.fouls"), xLabel, kind: "bar", colour: "#b3261e" }),
  );
  $("breaks").replaceChildren(...view.top_breaks.map((b) => el("a", {
    class: "break", href: `/games/${b.game}`, text: String(b.points), title: `${who(b.opponent)} · ${fmtTime(b.created)}`,
  })));
  const head = el("thead", {}, el("tr", {},
    el("th", { text: t("player.col.date") }), el("th", { text: t("player.col.opponent") }),
    el("th", { class: "num", text: t("common.score") }), el("th", { text: t("player.col.result") }),
    el("th", { class: "num", text: t("player.col.visits") }), el("th", { class: "num", text: t("player.col.points") }),
    el("th", { class: "num", text: t("player.col.ppv") }), el("th", { class: "num", text: t("player.col.break") }),
    el("th", { class: "num", text: t("player.col.fouls") }), el("th", { text: t("home.col.open") })));
  const rows = [...view.games].reverse().map((g) => el("tr", { dataset: { game: g.id } },
    el("td", { class: "small", text: fmtTime(g.created) }),
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(g.opponent)}`, text: who(g.opponent) })),
    el("td", { class: "num", text: g.score.join(" : ") }),
    el("td", { class: g.result || "", text: resultText(g) }),
    el("td", { class: "num", text: String(g.visits) }),
    el("td", { class: "num", text: String(g.points) }),
    el("td", { class: "num", text: g.points_per_visit.toFixed(2) }),
    el("td", { class: "num", text: String(g.top_break) }),
    el("td", { class: "num", text: String(g.fouls) }),
    el("td", { class: "small" },
      el("a", { href: `/games/${g.id}`, text: t("common.record_link") }),
      g.match ? [" · ", el("a", { href: `/matches/${g.match}`, text: t("match.title") })] : null)));
  $("games").replaceChildren(head, el("tbody", {}, ...rows));
  document.title = `${who(view.name)} · ${t("app.title")}`;
}

async function main() {
  await setupPage(render);
  try {
    view = await api("GET", `/api/players/${encodeURIComponent(name)}`);
    rating = await api("GET", `/api/ratings/${encodeURIComponent(name)}`);
  } catch (e) {
    showError($("error"), e);
    return;
  }
  render();
  document.body.dataset.ready = "1";
}

main();
