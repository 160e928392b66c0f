// A shot's paths as the server sends them (onered.web.play.shot_json): each piece
// [t0, t1, x0, y0, vx, vy, ax, ay], a piece in the air followed by [z0, vz, az] (the height
// of the ball's lowest point above the slate). Where a ball is, how high, the path drawn on
// the table (in the air dashed over its shadow), and a ball's height against the distance it
// travelled (the side view's samples).
import { SHADOW_SHIFT } from "./common.js";

/** Whether a piece is in the air. */
export function airborne(piece) {
  return piece.length > 8 && piece[10] !== 0;
}

/** A piece's centre and height at time tt (held to its span). */
function pieceAt(piece, tt) {
  const [t0, t1, x, y, vx, vy, ax, ay] = piece;
  const d = Math.min(Math.max(tt, t0), t1) - t0;
  const z = airborne(piece) ? piece[8] + piece[9] * d + 0.5 * piece[10] * d * d : 0;
  return [x + vx * d + 0.5 * ax * d * d, y + vy * d + 0.5 * ay * d * d, z];
}

/** The centre [x, y] and height z of a ball at time tt on its path (its first point before
 * the path starts, its last after it ends; `fallback` without a path). */
export function stateAt(path, tt, fallback) {
  if (!path || !path.length) return [fallback[0], fallback[1], 0];
  if (tt < path[0][0]) return pieceAt(path[0], path[0][0]);
  for (const piece of path) if (tt >= piece[0] && tt <= piece[1]) return pieceAt(piece, tt);
  const last = path[path.length - 1];
  return pieceAt(last, last[1]);
}

/** Path colours by ball (the SVG drawer's). */
const PATH_COLOURS = { white: "#ffffff", yellow: "#ffe14d", red: "#ff6b78" };

/**
 * The shot's paths up to time `upTo` on a TableView's canvas, under the balls: on the bed a
 * thin line in the ball's colour, in the air a dashed line over its shadow (which leaves
 * and meets the path where the ball leaves and lands); where a ball came down a dashed
 * ring, where one left the table a red cross. Each piece is its exact quadratic curve.
 * Returns the numbers of pieces drawn on the bed and in the air.
 */
export function drawTrail(view, shot, upTo) {
  const g = view.canvas.getContext("2d");
  const s = view.scale;
  const shift = SHADOW_SHIFT * s;
  const counts = { ground: 0, air: 0 };
  g.save();
  g.lineCap = "round";
  g.lineJoin = "round";
  for (const [name, path] of Object.entries(shot.paths)) {
    const colour = PATH_COLOURS[name] || "#9aa0a6";
    for (const piece of path) {
      const [t0, t1, x, y, vx, vy] = piece;
      if (t0 >= upTo || !(t1 > t0) || (vx === 0 && vy === 0 && piece[6] === 0 && piece[7] === 0)) continue;
      const end = Math.min(t1, upTo);
      const T = end - t0;
      const p0 = view.px([x, y]);
      const c = view.px([x + (vx * T) / 2, y + (vy * T) / 2]);
      const e = pieceAt(piece, end);
      const p1 = view.px([e[0], e[1]]);
      if (airborne(piece)) {
        counts.air += 1;
        const z0 = piece[8];
        const zc = z0 + (piece[9] * T) / 2;
        g.setLineDash([]);
        g.strokeStyle = "rgba(10,42,20,0.45)";
        g.lineWidth = Math.max(2, 0.009 * s);
        g.beginPath();
        g.moveTo(p0[0] + z0 * shift, p0[1] + z0 * shift);
        g.quadraticCurveTo(c[0] + zc * shift, c[1] + zc * shift, p1[0] + e[2] * shift, p1[1] + e[2] * shift);
        g.stroke();
        g.setLineDash([0.012 * s, 0.009 * s]);
        g.strokeStyle = colour;
        g.globalAlpha = 0.95;
      } else {
        counts.ground += 1;
        g.setLineDash([]);
        g.strokeStyle = colour;
        g.globalAlpha = 0.55;
      }
      g.lineWidth = Math.max(1.5, 0.005 * s);
      g.beginPath();
      g.moveTo(p0[0], p0[1]);
      g.quadraticCurveTo(c[0], c[1], p1[0], p1[1]);
      g.stroke();
      g.globalAlpha = 1;
    }
  }
  g.setLineDash([]);
  const r = view.table.ball_radius * s;
  for (const e of shot.events || []) {
    if (e.t > upTo || (e.type !== "land" && e.type !== "off_table")) continue;
    let [x, y] = stateAt(shot.paths[e.balls[0]], e.t, shot.before[e.balls[0]] || [0, 0]);
    // a ball that left beyond the rail is crossed on the rail's edge, where it went out of sight
    const edge = view.border - view.table.ball_radius;
    x = Math.min(Math.max(x, -edge), view.table.width + edge);
    y = Math.min(Math.max(y, -edge), view.table.length + edge);
    const [cx, cy] = view.px([x, y]);
    if (e.type === "land") {
      g.setLineDash([3 * view.dpr, 3 * view.dpr]);
      g.strokeStyle = "rgba(255,255,255,0.9)";
      g.lineWidth = Math.max(1, 0.003 * s);
      g.beginPath();
      g.arc(cx, cy, r * 0.6, 0, 2 * Math.PI);
      g.stroke();
      g.setLineDash([]);
    } else {
      g.strokeStyle = "#d7263d";
      g.lineWidth = Math.max(2, 0.008 * s);
      g.beginPath();
      g.moveTo(cx - r, cy - r);
      g.lineTo(cx + r, cy + r);
      g.moveTo(cx - r, cy + r);
      g.lineTo(cx + r, cy - r);
      g.stroke();
    }
  }
  g.restore();
  return counts;
}

/**
 * One ball's side view samples: [t, distance travelled (m), height of its lowest point (m)],
 * each piece from its start to its end (a flight finely), the distance the length of the
 * polyline through the centres (onered.svg.side_profile).
 */
export function sideProfile(path) {
  const out = [];
  let dist = 0;
  let last = null;
  for (const piece of path || []) {
    const [t0, t1] = piece;
    const span = t1 - t0;
    if (!(span >= 0) || !Number.isFinite(span)) continue;
    const moving = piece[4] !== 0 || piece[5] !== 0 || piece[6] !== 0 || piece[7] !== 0;
    const n = airborne(piece) ? Math.min(200, Math.max(8, Math.ceil(span / 0.004)))
      : moving ? Math.min(40, Math.max(1, Math.ceil(span / 0.05))) : 1;
    for (let i = 0; i <= n; i++) {
      const tt = i === n ? t1 : t0 + (span * i) / n;
      const [x, y, z] = pieceAt(piece, tt);
      if (last) dist += Math.hypot(x - last[0], y - last[1]);
      last = [x, y];
      const prev = out[out.length - 1];
      if (prev && prev[0] === tt && prev[1] === dist && prev[2] === z) continue;
      out.push([tt, dist, z]);
    }
  }
  return out.length ? out : [[0, 0, 0]];
}
