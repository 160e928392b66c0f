// Charts drawn as SVG in the page: the pieces every chart needs, and a chart of one figure
// per game (points, a line, or bars) for the player's page.
import { el } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with its attributes (and text). */
export function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A round step for about five grid lines up to `max`. */
export function niceStep(max) {
  const raw = max / 5;
  const p = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/**
 * One value per game, in order: `values` (numbers), `labels` (each point's tooltip),
 * drawn as bars (`kind: "bar"`) or a line with dots (`"line"`); `title` above, `xLabel`
 * under the axis. Returns a <figure>.
 */
export function gameChart({ values, labels, title, xLabel, kind = "line", colour = "#17733e", decimals = 0 }) {
  const W = 420;
  const H = 200;
  const L = 40;
  const R = 12;
  const T = 12;
  const B = 34;
  const n = values.length;
  const top = Math.max(1, ...values) * 1.1;
  const slot = (W - L - R) / Math.max(1, n);
  const x = (i) => L + slot * (i + 0.5);
  const y = (v) => H - B - ((H - T - B) * v) / top;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title });
  const step = niceStep(top);
  for (let v = 0; v <= top; v += step) {
    root.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    root.append(svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, String(v)));
  }
  const every = Math.max(1, Math.ceil(n / 12));
  for (let i = 0; i < n; i += every) {
    root.append(svg("text", { x: x(i), y: H - B + 15, "text-anchor": "middle" }, String(i + 1)));
  }
  root.append(svg("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle" }, xLabel));
  root.append(svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "axis" }));
  root.append(svg("line", { x1: L, x2: L, y1: T, y2: y(0), class: "axis" }));
  if (kind === "bar") {
    const w = Math.min(28, slot * 0.7);
    values.forEach((v, i) => {
      const bar = svg("rect", { x: x(i) - w / 2, y: y(v), width: w, height: Math.max(0, y(0) - y(v)), fill: colour, rx: 2 });
      bar.append(svg("title", {}, labels[i]));
      root.append(bar);
    });
  } else {
    if (n > 1) {
      root.append(svg("path", {
        d: values.map((v, i) => `${i ? "L" : "M"}${x(i)},${y(v)}`).join(""),
        fill: "none", stroke: colour, "stroke-width": 2.5,
      }));
    }
    values.forEach((v, i) => {
      const dot = svg("circle", { cx: x(i), cy: y(v), r: 4, fill: colour });
      dot.append(svg("title", {}, labels[i]));
      root.append(dot);
    });
  }
  if (n === 1 || n <= 20) {
    values.forEach((v, i) => {
      root.append(svg("text", { x: x(i), y: y(v) - 7, "text-anchor": "middle", class: "value" }, v.toFixed(decimals)));
    });
  }
  return el("figure", { class: "game-chart" }, el("figcaption", { text: title }), root);
}

/** Vertical exaggerations the side view may use (heights of centimetres along metres). */
const EXAGGERATIONS = [1, 2, 5, 10, 20, 50, 100, 200];

/**
 * A ball's path seen from the side (onered.svg.draw_side_view, smaller): the height of its
 * lowest point against the distance it travelled (`profile`: [t, distance, height] in
 * metres), the slate, the cushion's nose at `cushion` m, the balls it passed over (`over`:
 * [{ distance, ball, colour, name }], balls of `radius`), where it came down (`lands`:
 * distances) and each flight's height. Heights are drawn larger than distances when they
 * would be too flat to read (`data-exaggeration`). `text`: { label, distance, height,
 * slate, cushion, cm(value) }. Returns an <svg> (role img, labelled).
 */
export function sideChart({ profile, cushion, radius, over = [], lands = [], colour = "#fff", text }) {
  const W = 640;
  const L = 46;
  const R = 12;
  const T = 14;
  const B = 40;
  const topD = Math.max(profile[profile.length - 1][1], 0.05);
  const highest = Math.max(...profile.map((p) => p[2]));
  let topZ = Math.max(highest, 2 * radius, cushion) * 1.35;
  let sx = (W - L - R) / topD;
  const ex = EXAGGERATIONS.find((e) => topZ * sx * e >= 110) || EXAGGERATIONS[EXAGGERATIONS.length - 1];
  if (ex === 1 && topZ * sx > 180) sx = 180 / topZ;
  const sz = sx * ex;
  const plotH = Math.max(110, Math.min(180, topZ * sz));
  topZ = plotH / sz;
  const base = T + plotH;
  const H = base + B;
  const x = (d) => L + d * sx;
  const y = (z) => base - z * sz;
  const right = x(topD);
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "chart side-chart", role: "img", "aria-label": text.label,
    "data-highest": highest.toFixed(4), "data-exaggeration": ex,
  });
  root.append(svg("rect", { x: L, y: T, width: right - L, height: plotH, fill: "#eef2f4" }));
  root.append(svg("rect", { x: L, y: base, width: right - L, height: 7, fill: "#1f8a4c", class: "slate" }));
  const step = niceStep(topD * 100) / 100;
  for (let d = 0; d <= topD + 1e-9; d += step) {
    root.append(svg("line", { x1: x(d), x2: x(d), y1: T, y2: base, class: "grid" }));
    root.append(svg("text", { x: x(d), y: base + 20, "text-anchor": "middle" }, String(+d.toFixed(3))));
  }
  const zstep = niceStep(topZ * 1000) / 1000;
  for (let z = 0; z <= topZ + 1e-9; z += zstep) {
    root.append(svg("line", { x1: L, x2: right, y1: y(z), y2: y(z), class: "grid" }));
    root.append(svg("text", { x: L - 5, y: y(z) + 4, "text-anchor": "end" }, String(+(z * 100).toFixed(2))));
  }
  root.append(svg("text", { x: (L + right) / 2, y: H - 4, "text-anchor": "middle" }, text.distance));
  root.append(svg("text", { x: 12, y: (T + base) / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${(T + base) / 2})` }, text.height));
  root.append(svg("text", { x: right - 4, y: base - 4, "text-anchor": "end" }, text.slate));
  root.append(svg("line", { x1: L, x2: right, y1: y(cushion), y2: y(cushion), class: "cushion-height", stroke: "#7a4a25", "stroke-width": 1.5, "stroke-dasharray": "6 4" }));
  root.append(svg("text", { x: right - 4, y: y(cushion) - 4, "text-anchor": "end" }, text.cushion));
  for (const o of over) {
    const ball = svg("ellipse", {
      cx: x(o.distance), cy: y(radius), rx: radius * sx, ry: radius * sz, fill: o.colour, stroke: "#1a1a1a",
      "stroke-width": 1, class: "passed-over", "data-ball": o.ball,
    });
    ball.append(svg("title", {}, o.name));
    root.append(ball);
    root.append(svg("text", { x: x(o.distance) + radius * sx + 4, y: y(radius) + 4 }, o.name));
  }
  for (const d of lands) {
    root.append(svg("path", { d: `M${x(d) - 5},${base + 7} L${x(d) + 5},${base + 7} L${x(d)},${base} Z`, fill: "#1a1a1a", class: "land" }));
  }
  // each flight's highest point, labelled
  let best = null;
  const apexes = [];
  for (const p of [...profile, [0, 0, 0]]) {
    if (p[2] > 1e-6) best = !best || p[2] > best[2] ? p : best;
    else if (best) { apexes.push(best); best = null; }
  }
  // small bounces, and labels that would overlap the last one, keep only their dot
  const tallest = Math.max(0, ...apexes.map((a) => a[2]));
  let labelled = -Infinity;
  for (const a of apexes) {
    root.append(svg("circle", { cx: x(a[1]), cy: y(a[2]), r: 2.5, fill: "#1a1a1a" }));
    if (a[2] < 0.15 * tallest || x(a[1]) - 22 < labelled) continue;
    labelled = x(a[1]) + 22;
    root.append(svg("text", { x: x(a[1]), y: y(a[2]) - 7, "text-anchor": "middle", class: "value" }, text.cm(a[2] * 100)));
  }
  const points = profile.map((p) => `${x(p[1]).toFixed(1)},${y(p[2]).toFixed(1)}`).join(" ");
  root.append(svg("polyline", { points, fill: "none", stroke: "#1a1a1a", "stroke-width": 4, "stroke-linejoin": "round" }));
  root.append(svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2, "stroke-linejoin": "round", class: "side-path" }));
  return root;
}
