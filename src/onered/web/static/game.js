// A game's record: the score progression, the breaks, the stroke log, and the exports. The
// view carries the log's latest page; "show earlier strokes" fetches the page before it.
import {
  GameModel, I, api, callsText, describe, el, fmtTime, gameIdFromPath, renderScoreboard, setupPage,
  showError, t, who,
} from "./common.js";
import { niceStep, svg } from "./plot.js";

const id = gameIdFromPath();
const model = new GameModel(id);
const $ = (x) => document.getElementById(x);
const LINE_COLOURS = { white: "#4b5563", yellow: "#d4a500" };
let chartData = null; // GET /api/games/{id}/chart: the progression and the highest breaks

function chart(view, progression) {
  const W = 760;
  const H = 320;
  const L = 48;
  const R = 16;
  const T = 14;
  const B = 36;
  const strokes = Math.max(1, progression[progression.length - 1].stroke);
  const top = Math.max(view.match.target, ...progression.map((p) => Math.max(...p.score)));
  const x = (s) => L + ((W - L - R) * s) / strokes;
  const y = (v) => H - B - ((H - T - B) * v) / top;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": t("record.progression") });
  const stepY = niceStep(top);
  for (let v = 0; v <= top; v += stepY) {
    root.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    root.append(svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, String(v)));
  }
  const stepX = niceStep(strokes);
  for (let s = 0; s <= strokes; s += stepX) {
    root.append(svg("text", { x: x(s), y: H - B + 16, "text-anchor": "middle" }, String(s)));
  }
  root.append(svg("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle" }, t("common.stroke")));
  root.append(svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "axis" }));
  root.append(svg("line", { x1: L, x2: L, y1: T, y2: y(0), class: "axis" }));
  root.append(svg("line", { x1: L, x2: W - R, y1: y(view.match.target), y2: y(view.match.target), stroke: "#b8860b", "stroke-dasharray": "5 4" }));
  view.match.players.forEach((name, i) => {
    let d = "";
    let prev = null;
    for (const p of progression) {
      const px = x(p.stroke);
      const py = y(p.score[i]);
      d += prev === null ? `M${px},${py}` : `H${px}V${py}`;
      prev = py;
    }
    root.append(svg("path", { d, fill: "none", stroke: LINE_COLOURS[view.match.balls[i]], "stroke-width": 2.5, "data-player": i }));
  });
  return root;
}

function render() {
  const view = model.view;
  if (!view) return;
  renderScoreboard($("scoreboard"), view);
  const s = view.state;
  $("summary").textContent = [
    t("record.mode", { mode: t(`home.mode.${view.mode}`) }),
    `${t("common.strokes")}: ${s.strokes}`,
    fmtTime(view.created),
  ].join(" · ");
  $("export-jsonl").href = `/api/games/${id}/export.jsonl`;
  $("export-record").href = `/api/games/${id}/record.jsonl`;
  const links = [];
  if (!s.winner) links.push(el("a", { href: `/watch/${id}`, text: t("common.watch_link") }));
  if (!s.winner && localStorage.getItem(`onered.token.${id}`)) {
    if (view.mode === "play") links.push(" · ", el("a", { href: `/play/${id}`, text: t("common.play_link") }));
    else links.push(" · ", el("a", { href: `/mark/${id}`, text: t("common.mark_link") }));
  }
  $("links").replaceChildren(...links);
  $("legend").replaceChildren(...view.match.players.map((name, i) =>
    el("span", {}, el("i", { style: `background:${LINE_COLOURS[view.match.balls[i]]}` }), who(name))));
  if (chartData) $("chart").replaceChildren(chart(view, chartData.progression));
  const best = chartData ? chartData.breaks : [];
  $("breaks").replaceChildren(
    best.length
      ? el("tbody", {}, el("tr", {}, el("th", { text: t("common.player") }), el("th", { class: "num", text: t("common.break") }), el("th", { class: "num", text: t("record.col.strokes") })),
        ...best.map((v) => el("tr", {}, el("td", { text: who(v.player) }), el("td", { class: "num", text: String(v.points) }), el("td", { class: "num", text: `${v.first}–${v.last}` }))))
      : el("tbody", {}, el("tr", {}, el("td", { class: "muted", text: t("record.no_breaks") }))),
  );
  const head = el("thead", {}, el("tr", {},
    el("th", { class: "num", text: t("record.col.no") }), el("th", { text: t("record.col.striker") }),
    el("th", { text: t("record.col.what") }), el("th", { class: "num", text: t("record.col.points") }),
    el("th", { class: "num", text: t("record.col.break") }), el("th", { class: "num", text: t("record.col.score") }),
    el("th", { text: t("record.col.calls") })));
  const rows = model.log.filter((e) => e.in.type !== "match").map((e) =>
    el("tr", { class: e.out.foul ? "foul" : "" },
      el("td", { class: "num" }, e.in.type === "choice" ? "" : el("a", { href: `/coach?game=${encodeURIComponent(id)}&stroke=${e.out.stroke}`, title: t("coach.ask"), class: "coach-link", text: String(e.out.stroke) })),
      el("td", { text: who(e.out.striker) }),
      el("td", { text: describe(e) }),
      el("td", { class: "num", text: e.out.foul ? `−${e.out.foul.penalty}` : e.out.points ? `+${e.out.points}` : "" }),
      el("td", { class: "num", text: e.in.type === "choice" ? "" : String(e.out.break) }),
      el("td", { class: "num", text: view.match.players.map((p) => e.out.score[p]).join(":") }),
      el("td", { class: "small", text: callsText(e.out.calls) })));
  $("log").replaceChildren(head, el("tbody", {}, ...rows));
  $("earlier").hidden = !model.hasEarlier;
}

async function earlier() {
  $("earlier").disabled = true;
  try {
    await model.loadEarlier();
    showError($("error"), null);
  } catch (e) {
    showError($("error"), e);
  }
  $("earlier").disabled = false;
  render();
}

async function main() {
  await setupPage(render);
  try {
    await model.load();
    chartData = await api("GET", `/api/games/${encodeURIComponent(id)}/chart`);
  } catch (e) {
    showError($("error"), e);
    return;
  }
  $("earlier").addEventListener("click", earlier);
  render();
  document.body.dataset.ready = I.lang;
}

main();
