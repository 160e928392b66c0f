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
