// The coach page: set a position up by dragging balls onto the table (or open one from a
// game's stroke), ask for advice, and see the best strokes drawn on the table, best first.
import {
  I, TableView, api, el, setupPage, showError, t, tableGeometry, word,
} from "./common.js";

const $ = (x) => document.getElementById(x);
const BALLS = ["white", "yellow", "red"];
const DEFAULT_BALLS = { white: [0.62, 2.05], yellow: [1.35, 1.2], red: [1.18, 2.75] };

const page = {
  table: null,
  geometry: null,
  balls: { ...DEFAULT_BALLS },
  advice: null, // the last answer, for the balls as they were asked about
  played: null, // the stroke a game played in this position ({placed, strike}), until it changes
  selected: null, // rank of the suggestion singled out, or null for all
  drag: null, // { name, at: [x, y] | null, from: [x, y] | null }
  colours: ["#ffd23f", "#3fc1ff", "#ff5fa2", "#8cff5a", "#ff9b3f"],
  lane: 0.01, // metres between the lanes of the ranks' paths (the API's)
  busy: false,
};

// --- the position ------------------------------------------------------------------------

function num(id, fallback = 0) {
  const v = Number($(id).value);
  return Number.isFinite(v) ? Math.round(v) : fallback;
}

function positionJson() {
  return {
    balls: Object.fromEntries(Object.entries(page.balls).filter(([, p]) => p)),
    to_play: $("to-play").value,
    score: [num("score-white"), num("score-yellow")],
    break: num("break"),
    target: num("target", 100),
    counters: { cannons: num("cannons"), hazards: num("hazards"), red_run: num("red-run") },
    baulk_crossed: $("baulk-crossed").checked,
  };
}

function setPosition(pos) {
  page.balls = {};
  for (const [name, p] of Object.entries(pos.balls || {})) page.balls[name] = p;
  $("to-play").value = pos.to_play || "white";
  $("score-white").value = (pos.score || [0, 0])[0];
  $("score-yellow").value = (pos.score || [0, 0])[1];
  $("break").value = pos.break || 0;
  $("target").value = pos.target || 100;
  const c = pos.counters || {};
  $("cannons").value = c.cannons || 0;
  $("hazards").value = c.hazards || 0;
  $("red-run").value = c.red_run || 0;
  $("baulk-crossed").checked = !!pos.baulk_crossed;
}

function changed() {
  page.advice = null;
  page.played = null; // the position is no longer the game's
  page.selected = null;
  renderList();
  render();
}

// --- drawing -----------------------------------------------------------------------------

function polyline(g, table, points, colour, width, dash) {
  strokeLine(g, points.map((p) => table.px(p)), colour, width, dash);
}

/** A polyline of canvas points moved ``d`` pixels to the side of its travel: each point
 * along the normal of the chord through its neighbours (at a cushion, the bisector). */
function inLane(points, d) {
  if (!d) return points;
  // where the chord is nought (a point repeated, a reversal straight back) the last normal
  // holds; before any, the first piece's
  let normal = [0, 0];
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    const n = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (n > 1e-9) {
      normal = [-(b[1] - a[1]) / n, (b[0] - a[0]) / n];
      break;
    }
  }
  return points.map((p, i) => {
    const a = points[Math.max(0, i - 1)];
    const b = points[Math.min(points.length - 1, i + 1)];
    const tx = b[0] - a[0];
    const ty = b[1] - a[1];
    const n = Math.hypot(tx, ty);
    if (n > 1e-9) normal = [-ty / n, tx / n];
    return [p[0] + d * normal[0], p[1] + d * normal[1]];
  });
}

/** The point ``dist`` pixels along a polyline (its end when it is shorter). */
function along(points, dist) {
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    const step = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (step >= dist && dist > 0) {
      const u = dist / step;
      return [a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1])];
    }
    dist -= step;
  }
  return points[points.length - 1];
}

function strokeLine(g, points, colour, width, dash) {
  if (points.length < 2) return;
  g.save();
  g.strokeStyle = colour;
  g.lineWidth = width;
  g.lineCap = "round";
  g.lineJoin = "round";
  g.setLineDash(dash);
  g.beginPath();
  points.forEach(([x, y], i) => (i === 0 ? g.moveTo(x, y) : g.lineTo(x, y)));
  g.stroke();
  g.restore();
}

/** A rank's paths, each in the rank's own lane (the best on the true line, the others
 * one, two lanes to either side), so paths over the same line are drawn side by side;
 * the labels it wants (where the cue ball stops, a tag where its path leaves the cue ball,
 * where each object ball stops) are pushed to ``labels``. */
function drawSuggestion(s, cue, alpha, labels) {
  const table = page.table;
  const g = table.canvas.getContext("2d");
  const colour = page.colours[(s.rank - 1) % page.colours.length];
  const w = Math.max(1.5, 0.006 * table.scale);
  const k = s.rank - 1;
  const lane = page.lane * table.scale * Math.ceil(k / 2) * (k % 2 ? 1 : -1);
  const tag = Math.max(7, 0.02 * table.scale);
  g.save();
  g.globalAlpha = alpha;
  for (const [name, pts] of Object.entries(s.paths)) {
    const dash = name === cue ? [] : [w * 2.2, w * 1.6];
    const line = inLane(pts.map((p) => table.px(p)), lane);
    strokeLine(g, line, "rgba(0,0,0,0.45)", w + 2 * table.dpr, dash);
    strokeLine(g, line, colour, w, dash);
    if (line.length < 2) continue;
    if (name === cue) labels.push({ at: along(line, 0.16 * table.scale), r: tag, colour, alpha, text: String(s.rank) });
    else labels.push({ at: line[line.length - 1], r: tag, colour, alpha, text: String(s.rank) });
  }
  if (s.action.placed) table.drawBall(cue, s.action.placed, { ghost: true, outline: colour });
  g.restore();
  const path = s.paths[cue];
  let end = s.action.placed || page.balls[cue];
  if (path && path.length) end = inLane(path.map((p) => table.px(p)), lane).at(-1);
  else if (end) end = table.px(end);
  if (end) labels.unshift({ at: end, r: Math.max(9, 0.03 * table.scale), colour, alpha, text: String(s.rank) });
}

/** The ranks' labels as numbered discs, none over another: each where it belongs or, when
 * that is taken, at the nearest free place of rings around it with a thin line back to
 * it; the first placed first (the best rank's), drawn on top. */
function drawLabels(labels) {
  const g = page.table.canvas.getContext("2d");
  const placed = [];
  const spots = [];
  for (const lab of labels) {
    const [ax, ay] = lab.at;
    const ring = [[ax, ay]];
    for (const d of [2.2, 3.4, 4.6]) {
      for (let t = 0; t < 8; t++) ring.push([ax + d * lab.r * Math.cos((t * Math.PI) / 4), ay + d * lab.r * Math.sin((t * Math.PI) / 4)]);
    }
    const free = ring.find(([x, y]) => placed.every((q) => Math.hypot(x - q[0], y - q[1]) >= lab.r + q[2] + 2)) || ring[0];
    placed.push([free[0], free[1], lab.r]);
    spots.push(free);
  }
  for (let i = labels.length - 1; i >= 0; i--) {
    const lab = labels[i];
    const [x, y] = spots[i];
    g.save();
    g.globalAlpha = lab.alpha;
    if (x !== lab.at[0] || y !== lab.at[1]) strokeLine(g, [lab.at, [x, y]], lab.colour, Math.max(1, page.table.dpr), []);
    g.beginPath();
    g.arc(x, y, lab.r, 0, 2 * Math.PI);
    g.fillStyle = lab.colour;
    g.fill();
    g.lineWidth = Math.max(1, page.table.dpr * 1.5);
    g.strokeStyle = "#1a1a1a";
    g.stroke();
    g.fillStyle = "#1a1a1a";
    g.font = `bold ${Math.round(lab.r * 1.2)}px system-ui, sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(lab.text, x, y + lab.r * 0.05);
    g.restore();
  }
}

/** The stroke the game played here: its paths in white, dashed. */
function drawPlayed(s, cue) {
  const table = page.table;
  const g = table.canvas.getContext("2d");
  const w = Math.max(2, 0.006 * table.scale);
  for (const [name, pts] of Object.entries(s.paths)) {
    polyline(g, table, pts, "rgba(0,0,0,0.45)", w + 2 * table.dpr, [w * 3, w * 2]);
    polyline(g, table, pts, name === cue ? "#ffffff" : "#d8d8d8", w, [w * 3, w * 2]);
  }
}

function render() {
  const table = page.table;
  if (!table) return;
  table.resize();
  table.drawCloth();
  const advice = page.advice;
  if (advice && advice.played && page.selected === null) drawPlayed(advice.played, advice.cue_ball);
  if (advice) {
    const items = [...advice.suggestions].reverse();
    const labels = []; // by rank, the best's first
    for (const s of items) {
      const alpha = page.selected === null || page.selected === s.rank ? 1 : 0.18;
      const own = [];
      drawSuggestion(s, advice.cue_ball, alpha, own);
      labels.unshift(...own);
    }
    drawLabels(labels);
  }
  for (const name of BALLS) {
    const p = page.balls[name];
    if (p && !(page.drag && page.drag.name === name)) table.drawBall(name, p);
  }
  if (page.drag && page.drag.at) table.drawBall(page.drag.name, page.drag.at, { outline: "#ffd34d" });
  // what is drawn, for the page's tests (read through selectors)
  table.canvas.dataset.balls = BALLS.filter((b) => page.balls[b]).join(" ");
  table.canvas.dataset.red = page.balls.red ? page.balls.red.map((c) => c.toFixed(2)).join(",") : "";
  table.canvas.dataset.drawn = advice ? String(advice.suggestions.length) : "0";
  const cue = $("to-play").value;
  $("hand-note").hidden = !!page.balls[cue];
  renderTray();
}

function renderTray() {
  const tray = $("tray");
  const off = BALLS.filter((b) => !page.balls[b] && !(page.drag && page.drag.name === b && page.drag.at));
  tray.replaceChildren(
    ...off.map((name) => {
      const chip = el("button", { type: "button", class: "ball-chip", "data-ball": name },
        el("span", { class: `ball-dot ${name}` }), word("balls", name));
      chip.addEventListener("pointerdown", (e) => startDrag(e, name, null));
      return chip;
    }),
  );
}

function renderList() {
  const list = $("suggestions");
  const advice = page.advice;
  if (!advice) {
    list.replaceChildren();
    $("meta").textContent = "";
    return;
  }
  if (!advice.suggestions.length) {
    list.replaceChildren(el("li", { class: "muted", text: t("coach.none") }));
    return;
  }
  list.replaceChildren(
    ...advice.suggestions.map((s) => {
      const w = s.words;
      const item = el("li", {
        class: page.selected === s.rank ? "selected" : "",
        style: `--rank:${page.colours[(s.rank - 1) % page.colours.length]}`,
        "data-rank": String(s.rank),
      },
      el("div", { class: "head" }, el("span", { class: "rank", text: String(s.rank) }), el("span", { text: w.stroke })),
      el("div", { class: "action", text: w.action }),
      el("div", { class: "numbers", text: w.numbers }),
      el("div", { class: "odds", text: w.odds }),
      w.reason ? el("div", { class: "reason", text: w.reason }) : "");
      item.addEventListener("click", () => {
        page.selected = page.selected === s.rank ? null : s.rank;
        renderList();
        render();
      });
      return item;
    }),
  );
  if (advice.played) {
    const w = advice.played.words;
    const best = advice.suggestions[0];
    const gap = best ? best.odds.value - advice.played.odds.value : 0;
    list.append(el("li", { class: "played", style: "--rank:#ffffff", "data-rank": "played" },
      el("div", { class: "head" }, el("span", { text: `${t("coach.played")}:` }), el("span", { text: w.stroke })),
      el("div", { class: "action", text: w.action }),
      el("div", { class: "numbers", text: w.numbers }),
      el("div", { class: "odds", text: w.odds }),
      gap > 0.05 ? el("div", { class: "reason", text: t("coach.gap", { gap: fmtNumber(gap) }) }) : ""));
  }
  $("meta").textContent = t("coach.meta", { n: advice.samples, level: levelName(advice.level), ms: advice.ms });
}

/** A figure with one decimal, as the page's language writes it. */
function fmtNumber(x) {
  return x.toLocaleString(I.lang === "ru" ? "ru-RU" : "en-GB", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

function levelName(level) {
  return word("ai_levels", level);
}

// --- dragging ----------------------------------------------------------------------------

function onCloth(p) {
  const g = page.geometry;
  return p[0] >= 0 && p[0] <= g.width && p[1] >= 0 && p[1] <= g.length;
}

function clampToCloth(p) {
  const g = page.geometry;
  const r = g.ball_radius;
  const mm = (v) => Math.round(v * 1000) / 1000; // a place on the table to the millimetre
  return [mm(Math.min(g.width - r, Math.max(r, p[0]))), mm(Math.min(g.length - r, Math.max(r, p[1])))];
}

function overCanvas(e) {
  const r = page.table.canvas.getBoundingClientRect();
  return e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
}

function startDrag(e, name, from) {
  e.preventDefault();
  page.drag = { name, at: from, from };
  window.addEventListener("pointermove", moveDrag);
  window.addEventListener("pointerup", endDrag, { once: true });
  render();
}

function moveDrag(e) {
  if (!page.drag) return;
  const p = page.table.toTable(e);
  page.drag.at = overCanvas(e) && onCloth(p) ? clampToCloth(p) : null;
  render();
}

function endDrag(e) {
  window.removeEventListener("pointermove", moveDrag);
  const drag = page.drag;
  page.drag = null;
  if (!drag) return;
  const p = page.table.toTable(e);
  if (overCanvas(e) && onCloth(p)) {
    const at = clampToCloth(p);
    const r = page.geometry.ball_radius;
    const clash = BALLS.some((b) => b !== drag.name && page.balls[b] && Math.hypot(page.balls[b][0] - at[0], page.balls[b][1] - at[1]) < 2 * r + 1e-4);
    if (!clash) page.balls[drag.name] = at;
  } else {
    delete page.balls[drag.name]; // dragged off the table
  }
  changed();
}

function ballAt(p) {
  const r = page.geometry.ball_radius;
  let best = null;
  for (const name of BALLS) {
    const q = page.balls[name];
    if (!q) continue;
    const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (d < 1.6 * r && (!best || d < best.d)) best = { name, d };
  }
  return best && best.name;
}

// --- asking ------------------------------------------------------------------------------

/** Ask for advice on the position set up (or on a written one, ``text``). */
async function askAdvice(text = null) {
  if (page.busy) return;
  showError($("error"), null);
  page.busy = true;
  $("advise").disabled = true;
  $("status").textContent = t("coach.thinking");
  const started = performance.now();
  try {
    const answer = await api("POST", "/api/advise", {
      position: text === null ? positionJson() : text,
      level: $("level").value,
      lang: I.lang,
      played: page.played,
    });
    answer.ms = Math.round(performance.now() - started);
    if (text !== null) {
      setPosition(answer.position);
      page.played = null;
    }
    page.advice = answer;
    $("written").value = answer.written;
    page.selected = null;
    document.body.dataset.advised = String(answer.suggestions.length);
  } catch (e) {
    page.advice = null;
    showError($("error"), e);
  } finally {
    page.busy = false;
    $("advise").disabled = false;
    $("status").textContent = "";
  }
  renderList();
  render();
}

async function openFromGame(game, stroke) {
  const answer = await api("GET", `/api/coach/position?game=${encodeURIComponent(game)}&stroke=${encodeURIComponent(stroke)}`);
  const pos = answer.position;
  const missing = Object.entries(pos.balls).filter(([, p]) => p === null).map(([b]) => word("balls", b));
  setPosition(pos);
  for (const [b, p] of Object.entries(page.balls)) if (p === null) delete page.balls[b];
  page.played = answer.played && answer.played.strike ? { placed: answer.played.placed || null, strike: answer.played.strike } : null;
  const notice = [t("coach.from_game", { stroke })];
  if (missing.length) notice.push(t("coach.place_missing", { balls: missing.join(", ") }));
  $("notice").textContent = notice.join(" ");
  $("notice").hidden = false;
  return missing.length === 0;
}

async function main() {
  await setupPage(() => { renderList(); render(); if (page.advice) askAdvice(); });
  for (const option of $("to-play").options) option.textContent = word("balls", option.value);
  $("written").placeholder = 'W0.6,2.2/Y0.4,1.2/R1.5,3.0 W 10:4 6 0/0/0 - - play 1 100 0:0 WY ["A","B"]';
  try {
    page.geometry = await tableGeometry();
    const levels = await api("GET", "/api/coach/levels");
    page.colours = levels.colours;
    page.lane = levels.lane;
    $("level").replaceChildren(...levels.levels.map((l) => el("option", { value: l, text: levelName(l) })));
    $("level").value = levels.default;
  } catch (e) {
    showError($("error"), e);
    return;
  }
  page.table = new TableView($("table"), page.geometry);
  const canvas = page.table.canvas;
  canvas.addEventListener("pointerdown", (e) => {
    const name = ballAt(page.table.toTable(e));
    if (name) startDrag(e, name, page.balls[name]);
  });
  window.addEventListener("resize", render);
  $("advise").addEventListener("click", () => askAdvice());
  $("use-written").addEventListener("click", () => askAdvice($("written").value.trim()));
  for (const id of ["to-play", "score-white", "score-yellow", "break", "target", "hazards", "cannons", "red-run", "baulk-crossed"]) {
    $(id).addEventListener("change", changed);
  }
  const params = new URLSearchParams(location.search);
  let ready = true;
  if (params.get("game") && params.get("stroke")) {
    try {
      ready = await openFromGame(params.get("game"), params.get("stroke"));
    } catch (e) {
      showError($("error"), e);
      ready = false;
    }
  }
  render();
  document.body.dataset.ready = I.lang;
  if (params.get("game") && ready) await askAdvice();
}

main();
