// Play on the simulated table: aim by dragging, power, tip offset, elevation; the shot is
// animated from the simulator's own trajectories (the server's), then the referee's verdict.
// A stroke waits in the outbox until the server has it (a lost connection is retried). Two
// people can play on two devices, each with his own seat secret: each strikes on his own
// turn and sees the other's strokes animated. Take-back against the computer, at one screen,
// or when the opponent agrees. From hand, balls in baulk are ringed and a straight aim at one
// is warned of before the strike (the referee's reading, asked of the server). The last
// stroke's paths stay drawn (a ball in the air dashed over its shadow), and its cue ball's
// path can be seen from the side.
import {
  BALL_COLOURS, GameModel, I, Outbox, TableView, aiLevel, api, controlKey, el, gameIdFromPath, notes, reasonText,
  renderLast, renderOutbox, renderScoreboard, resendOutbox, sendChange, setupPage, showError, t, tableGeometry,
  tokenFor, who, word,
} from "./common.js";
import { drawTrail, sideProfile, stateAt } from "./flight.js";
import { sideChart } from "./plot.js";
import { Speaker } from "./speech.js";

const id = gameIdFromPath();
const model = new GameModel(id);
let token = tokenFor(id);
const SEAT_KEY = `onered.seat.${id}`;
let seatToken = seatFromLink();
let seat = null; // the player (0/1) this device plays on a two-device game, else null
let outbox = null;
let speaker = null;
let seen = 0; // log lines this page has shown (others' newer strokes are animated)
let club = { seats: false, takeback: null };
let warning = null; // from hand: the straight aim reaches a ball in baulk first
let warnedAim = null; // the aim the player was warned of and confirmed
let aimTimer = null;
const POLL_MS = 1000;
const $ = (x) => document.getElementById(x);
const errorBox = $("error");
const AIM_LINE_KEY = "onered.aimline";
const SHOW_PATH_KEY = "onered.showpath";
const SIDE_VIEW_KEY = "onered.sideview";
const MAX_ANIMATION_S = 4.5;

let geo = null;
let table = null;
let view = null;
let balls = {}; // name -> [x, y] on the table now
let aim = 90;
let side = 0;
let height = 0;
let placed = null;
let placing = false;
let hover = null;
let dragging = false;
let animating = false;
let busy = false;
let lastShot = null; // the last stroke animated here: its paths stay drawn
let sideShot = null; // the shot the side view was drawn for
let stopped = false; // the computer's last turn failed: wait for "Try again"

function isAI(name) {
  return aiLevel(name, view.settings.entrants) !== null;
}
function me() {
  return view.state.ball;
}
function cuePosition() {
  const s = view.state;
  if (!s.ball) return null;
  if (s.from_d) return placed;
  return balls[s.ball] || null;
}
/** The secret this device acts with: its seat's on a two-device game, else the game's. */
function actor() {
  return seat !== null ? { seat: seatToken } : token;
}
function canAct() {
  return seat !== null || !!token;
}
function humanTurn() {
  const s = view.state;
  if (!canAct() || s.winner || !s.to_play || isAI(s.to_play)) return false;
  return seat === null || s.to_play_index === seat;
}
/** The seat secret from a link's #seat=… (then kept), or kept before. */
function seatFromLink() {
  const m = location.hash.match(/seat=([A-Za-z0-9_-]+)/);
  if (m) {
    localStorage.setItem(SEAT_KEY, m[1]);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return localStorage.getItem(SEAT_KEY);
}

function inD(p) {
  const d = geo.d;
  return p[1] <= geo.baulk_y + 1e-6 && Math.hypot(p[0] - d.centre[0], p[1] - d.centre[1]) <= d.radius + 1e-6;
}
function clearOfBalls(p) {
  return Object.entries(balls).every(([name, q]) => name === me() || Math.hypot(p[0] - q[0], p[1] - q[1]) > 2 * geo.ball_radius + 1e-6);
}

// --- the cue ball in the D by keyboard --------------------------------------------------
// The table is drawn with the baulk end on the left: ←/→ move the ball along the table,
// ↑/↓ across it (1 cm a press; Shift 2 mm, Alt 5 cm), never out of the D; Enter or Space
// puts it there. The line under the table says where it is, for a screen reader too.

/** The point of the D nearest to p: on or behind the baulk line, inside the semicircle. */
function intoD(p) {
  const d = geo.d;
  let [x, y] = [p[0], Math.min(p[1], geo.baulk_y)];
  const [dx, dy] = [x - d.centre[0], y - d.centre[1]];
  const r = Math.hypot(dx, dy);
  const max = d.radius - 1e-4;
  if (r > max) [x, y] = [d.centre[0] + (dx * max) / r, d.centre[1] + (dy * max) / r];
  return [x, y];
}

function moveInD(key, step) {
  const start = hover && inD(hover) ? hover : [geo.d.centre[0], geo.baulk_y - geo.d.radius / 2];
  const delta = { ArrowLeft: [0, -step], ArrowRight: [0, step], ArrowUp: [-step, 0], ArrowDown: [step, 0] }[key];
  hover = intoD([start[0] + delta[0], start[1] + delta[1]]);
  draw();
  describeD();
}

function placeAt(p) {
  placed = p;
  placing = false;
  hover = null;
  defaultAim();
  render();
  checkAim();
}

/** Where the ball in hand stands (the keyboard's ghost), in words. */
function describeD() {
  const box = $("d-place");
  const active = !!view && view.state.from_d && placing && humanTurn() && !animating;
  box.hidden = !active || !hover;
  if (box.hidden) return;
  const cm = (m) => (Math.abs(m) * 100).toLocaleString(I.lang === "ru" ? "ru-RU" : "en-GB", { maximumFractionDigits: 1 });
  const across = hover[0] - geo.d.centre[0];
  const side = Math.abs(across) < 5e-4 ? t("play.d_centre")
    : across < 0 ? t("play.d_up", { cm: cm(across) }) : t("play.d_down", { cm: cm(across) });
  const where = t("play.d_at", { back: cm(geo.baulk_y - hover[1]), side });
  box.textContent = clearOfBalls(hover) ? where : `${where} · ${t("play.d_blocked")}`;
  box.dataset.x = hover[0].toFixed(4);
  box.dataset.y = hover[1].toFixed(4);
}

function speed() {
  return Number($("speed").value);
}
function elevation() {
  return Number($("elevation").value);
}

function defaultAim() {
  const c = cuePosition();
  const red = balls.red;
  if (c && red) aim = (Math.atan2(red[1] - c[1], red[0] - c[0]) * 180) / Math.PI;
}

// --- drawing ---------------------------------------------------------------------------

function aimGeometry(c) {
  const R = geo.ball_radius;
  const u = [Math.cos((aim * Math.PI) / 180), Math.sin((aim * Math.PI) / 180)];
  let best = Infinity;
  let hit = null;
  for (const [name, b] of Object.entries(balls)) {
    if (name === me()) continue;
    const w = [c[0] - b[0], c[1] - b[1]];
    const bq = w[0] * u[0] + w[1] * u[1];
    const cq = w[0] * w[0] + w[1] * w[1] - 4 * R * R;
    const disc = bq * bq - cq;
    if (disc < 0) continue;
    const s = -bq - Math.sqrt(disc);
    if (s > 0 && s < best) {
      best = s;
      hit = name;
    }
  }
  let wall = Infinity;
  for (const [k, lo, hi] of [[0, R, geo.width - R], [1, R, geo.length - R]]) {
    if (u[k] > 1e-9) wall = Math.min(wall, (hi - c[k]) / u[k]);
    else if (u[k] < -1e-9) wall = Math.min(wall, (lo - c[k]) / u[k]);
  }
  wall = Math.max(0, wall); // a ball in a pocket's jaws lies beyond the cushion lines
  if (wall < best) {
    best = wall;
    hit = null;
  }
  const end = [c[0] + best * u[0], c[1] + best * u[1]];
  const object = hit;
  return { u, end, object };
}

function drawAim(c) {
  const g = table.canvas.getContext("2d");
  const { u, end, object } = aimGeometry(c);
  const [x0, y0] = table.px(c);
  const [x1, y1] = table.px(end);
  const s = table.scale;
  if ($("aimline").checked) {
    g.save();
    g.strokeStyle = "rgba(255,255,255,0.8)";
    g.setLineDash([6 * table.dpr, 5 * table.dpr]);
    g.lineWidth = Math.max(1, 0.004 * s);
    g.beginPath();
    g.moveTo(x0, y0);
    g.lineTo(x1, y1);
    g.stroke();
    g.setLineDash([]);
    g.beginPath();
    g.arc(x1, y1, geo.ball_radius * s, 0, 2 * Math.PI);
    g.stroke();
    if (object) {
      const b = balls[object];
      const n = [b[0] - end[0], b[1] - end[1]];
      const len = Math.hypot(n[0], n[1]) || 1;
      const tip = [b[0] + (n[0] / len) * 0.35, b[1] + (n[1] / len) * 0.35];
      const [bx, by] = table.px(b);
      const [tx, ty] = table.px(tip);
      g.strokeStyle = "rgba(255,230,120,0.9)";
      g.beginPath();
      g.moveTo(bx, by);
      g.lineTo(tx, ty);
      g.stroke();
    }
    g.restore();
  }
  // the cue, behind the ball, pulled back with the power
  const back = 0.05 + speed() * 0.03;
  const butt = [c[0] - u[0] * (back + 1.1), c[1] - u[1] * (back + 1.1)];
  const tipP = [c[0] - u[0] * (back + geo.ball_radius), c[1] - u[1] * (back + geo.ball_radius)];
  const [bx, by] = table.px(butt);
  const [tx, ty] = table.px(tipP);
  g.save();
  g.lineCap = "round";
  g.strokeStyle = "#c9a46a";
  g.lineWidth = Math.max(3, 0.014 * s);
  g.beginPath();
  g.moveTo(bx, by);
  g.lineTo(tx, ty);
  g.stroke();
  g.strokeStyle = "#2b6cb0";
  g.lineWidth = Math.max(3, 0.012 * s);
  const tip2 = [tipP[0] - u[0] * 0.012, tipP[1] - u[1] * 0.012];
  const [ux, uy] = table.px(tip2);
  g.beginPath();
  g.moveTo(ux, uy);
  g.lineTo(tx, ty);
  g.stroke();
  g.restore();
}

/** The last stroke's paths under the balls, when asked for; how many pieces were drawn on
 * the bed and in the air is kept on the table (for tests and tools). */
function drawLastPaths(upTo) {
  const c = table.canvas;
  const counts = lastShot && $("showpath").checked ? drawTrail(table, lastShot, upTo) : { ground: 0, air: 0 };
  c.dataset.groundPieces = String(counts.ground);
  c.dataset.airPieces = String(counts.air);
}

function draw() {
  if (!table || !view) return;
  table.drawCloth();
  if (!animating) drawLastPaths(lastShot ? lastShot.duration : 0);
  for (const [name, p] of Object.entries(balls)) if (p) table.drawBall(name, p);
  if (animating) return;
  const s = view.state;
  if (!humanTurn()) return;
  if (s.from_d) ringBaulkBalls();
  if (s.from_d && placing && hover) {
    table.drawBall(s.ball, hover, { ghost: true, outline: inD(hover) && clearOfBalls(hover) ? "#ffffff" : "#ff4a5e" });
  }
  const c = cuePosition();
  if (c) {
    if (s.from_d) table.drawBall(s.ball, c);
    if (!view.state.options.length) drawAim(c);
  }
}

/** From hand: the balls in baulk (not to be struck directly) ringed with a dashed line,
 * the one the aim reaches first in red. */
function ringBaulkBalls() {
  const g = table.canvas.getContext("2d");
  const r = geo.ball_radius * table.scale;
  const inBaulk = (view.state.possible && view.state.possible.in_baulk) || [];
  for (const name of inBaulk) {
    const p = balls[name];
    if (!p) continue;
    const [x, y] = table.px(p);
    g.save();
    g.setLineDash([4 * table.dpr, 3 * table.dpr]);
    g.lineWidth = Math.max(2, r * 0.25);
    g.strokeStyle = warning && warning.ball === name ? "#ff4a5e" : "rgba(255,255,255,0.9)";
    g.beginPath();
    g.arc(x, y, r * 1.75, 0, 2 * Math.PI);
    g.stroke();
    g.restore();
  }
}

function drawTip() {
  const c = $("tip");
  const g = c.getContext("2d");
  const W = c.width;
  const r = W * 0.42;
  g.clearRect(0, 0, W, W);
  g.beginPath();
  g.arc(W / 2, W / 2, r, 0, 2 * Math.PI);
  const grad = g.createRadialGradient(W * 0.4, W * 0.4, 5, W / 2, W / 2, r);
  grad.addColorStop(0, "#ffffff");
  grad.addColorStop(1, "#d9d4c5");
  g.fillStyle = grad;
  g.fill();
  g.strokeStyle = "#8a8578";
  g.lineWidth = 2;
  g.stroke();
  g.setLineDash([6, 5]);
  g.beginPath();
  g.arc(W / 2, W / 2, r * geo.strike_limits.max_tip_offset, 0, 2 * Math.PI);
  g.stroke();
  g.setLineDash([]);
  g.beginPath();
  g.moveTo(W / 2 - r, W / 2);
  g.lineTo(W / 2 + r, W / 2);
  g.moveTo(W / 2, W / 2 - r);
  g.lineTo(W / 2, W / 2 + r);
  g.strokeStyle = "rgba(0,0,0,0.12)";
  g.stroke();
  g.beginPath();
  g.arc(W / 2 + side * r, W / 2 - height * r, W * 0.06, 0, 2 * Math.PI);
  g.fillStyle = "#2b6cb0";
  g.fill();
  $("tip-out").textContent = `${side >= 0 ? "+" : ""}${side.toFixed(2)}, ${height >= 0 ? "+" : ""}${height.toFixed(2)} R`;
}

/** The power and elevation sliders' ranges kept within the engine's strike limits (served
 * with the table): the page's own ranges are narrower, for a finer slider. */
function keepWithin(limits) {
  for (const [input, lo, hi] of [
    [$("speed"), limits.min_speed, limits.max_speed],
    [$("elevation"), limits.min_elevation, limits.max_elevation],
  ]) {
    input.min = String(Math.max(Number(input.min), lo));
    input.max = String(Math.min(Number(input.max), hi));
  }
}

function setTip(event) {
  const c = $("tip");
  const rect = c.getBoundingClientRect();
  const r = rect.width * 0.42;
  let sx = (event.clientX - rect.left - rect.width / 2) / r;
  let sy = -(event.clientY - rect.top - rect.height / 2) / r;
  const len = Math.hypot(sx, sy);
  const most = geo.strike_limits.max_tip_offset;
  if (len > most) {
    sx = (sx / len) * most;
    sy = (sy / len) * most;
  }
  // to hundredths toward the centre, so that the offset stays within the limit
  side = Math.trunc(sx * 100) / 100;
  height = Math.trunc(sy * 100) / 100;
  drawTip();
}

function renderControls() {
  $("speed-out").textContent = t("play.speed", { speed: speed().toFixed(2) });
  $("elev-out").textContent = `${elevation()}°`;
  $("aim-out").textContent = `${(((aim % 360) + 360) % 360).toFixed(2)}°`;
  const s = view.state;
  const mine = humanTurn();
  const choicePending = mine && s.options.length > 0;
  const waiting = outbox && outbox.length > 0;
  $("strike").disabled = !mine || busy || animating || waiting || choicePending || (s.from_d && !placed);
  $("move").hidden = !(mine && s.from_d && placed);
  $("controls").hidden = !canAct();
  $("readonly").hidden = canAct();
  $("choice").hidden = !choicePending;
  $("choice-options").replaceChildren(
    ...s.options.map((o) => el("button", { type: "button", dataset: { option: o }, disabled: busy, onclick: () => choose(o) }, word("options", o))),
  );
  let status = "";
  let hint = "";
  const name = who(s.to_play);
  if (s.winner) status = t("common.winner", { name: who(s.winner) });
  else if (animating) status = "";
  else if (!mine && isAI(s.to_play) && stopped) status = t("play.stopped", { name });
  else if (!mine && seat !== null) status = t("play.their_turn", { name });
  else if (!mine) status = isAI(s.to_play) ? t("play.thinking", { name }) : t("common.to_play", { name });
  else if (choicePending) status = t("common.chooses", { name });
  else {
    status = t("play.your_turn", { name });
    hint = s.from_d && !placed ? t("play.place") : t("play.aim_hint");
    if (s.from_d && (s.possible && s.possible.in_baulk.length)) hint += ` ${t("play.baulk_marked")}`;
  }
  $("status").textContent = status;
  const warn = mine && s.from_d && placed && warning ? reasonText(warning) : "";
  $("baulk-warn").hidden = !warn;
  $("baulk-warn-text").textContent = warn;
  $("strike-anyway").hidden = !(warn && pendingConfirm);
  $("retry").hidden = !(stopped && token && !s.winner && isAI(s.to_play));
  $("retry").disabled = busy || animating;
  $("hint").textContent = hint;
  document.body.dataset.turn = s.winner ? "over" : mine ? "human" : isAI(s.to_play) ? "ai" : "other";
}

function renderVerdict() {
  const last = view.last;
  $("calls").replaceChildren(...last.calls.map((c) => el("span", { class: `call ${c.code}`, dataset: { call: c.code }, text: word("calls", c.code) })));
  renderLast($("last"), view, model.log);
  $("notes").replaceChildren(...notes(view, { turn: false }).map((n) => el("li", { text: n })));
}

let pendingConfirm = false;

function renderClub() {
  const s = view.state;
  const twoHumans = view.match.players.every((n) => !isAI(n));
  const hasStroke = model.log.some((e) => e.in.type === "stroke");
  // take-back: at once against the computer or at one screen; asked of the opponent with seats
  $("takeback").hidden = !canAct() || !hasStroke || (seat !== null && !!club.takeback);
  $("takeback").textContent = seat !== null ? t("play.takeback_ask") : t("play.takeback");
  $("takeback").disabled = busy || animating || (outbox && outbox.length > 0);
  const tb = club.takeback;
  const asked = seat !== null && tb && tb.player !== seat;
  $("takeback-ask").hidden = !asked;
  if (asked) $("takeback-ask-text").textContent = t("play.takeback_asked", { name: who(view.match.players[tb.player]) });
  $("takeback-wait").hidden = !(seat !== null && tb && tb.player === seat);
  // invite a second device: the game's creator, two people, no seats yet
  const invite = !!token && seat === null && twoHumans && !club.seats && !s.winner;
  $("invite").hidden = !invite && !$("invite-link").value;
  $("invite-buttons").replaceChildren(...view.match.players.map((n, i) =>
    el("button", { type: "button", dataset: { seat: String(i) }, onclick: () => makeSeats(i) }, t("play.invite_make", { name: who(n) }))));
  $("invite-buttons").hidden = !invite;
  $("you-are").hidden = seat === null;
  if (seat !== null) $("you-are").textContent = t("play.you_are", { name: who(view.match.players[seat]) });
  document.body.dataset.seat = seat === null ? "" : String(seat);
}

function render() {
  if (!view) return;
  renderScoreboard($("scoreboard"), view);
  renderVerdict();
  renderControls();
  renderClub();
  if (outbox) renderOutbox($("outbox"), outbox, resend);
  $("watch-link").href = `/watch/${id}`;
  $("record-link").href = `/games/${id}`;
  $("board-link").href = `/board/${id}`;
  draw();
  renderSide();
  drawTip();
  describeD();
  $("table").setAttribute("aria-label", view.state.from_d && placing && humanTurn() ? t("play.place") : t("play.table"));
  document.body.dataset.version = String(view.state.version);
  document.body.dataset.busy = String(busy || animating);
}

function takeView(v) {
  view = v;
  balls = {};
  for (const [name, p] of Object.entries(v.state.table)) if (p) balls[name] = p;
  placed = null;
  placing = v.state.from_d;
  warning = null;
  pendingConfirm = false;
  if (!v.state.from_d) defaultAim();
  seen = model.log.length;
}

// --- the side view of the last stroke's cue ball ------------------------------------------

/** The side view of the cue ball's path in the last stroke: drawn once a stroke (a panel
 * that opens and closes, remembered), with its words under it for every reader. */
function renderSide() {
  const shot = animating ? null : lastShot;
  const cue = shot && shot.cue;
  $("side-panel").hidden = !cue;
  if (!cue || sideShot === shot) return;
  sideShot = shot;
  const path = shot.paths[cue] || [];
  const profile = sideProfile(path);
  const distanceAt = (tt) => {
    let best = profile[0];
    for (const p of profile) if (p[0] <= tt) best = p;
    return best[1];
  };
  const mine = shot.events.filter((e) => e.balls[0] === cue);
  const lands = mine.filter((e) => e.type === "land").map((e) => distanceAt(e.t));
  const over = mine.filter((e) => e.type === "over" && e.balls.length === 2).map((e) => {
    const below = e.balls[1];
    const down = mine.find((l) => l.t > e.t && (l.type === "land" || l.type === "off_table"));
    const flight = profile.filter((p) => p[0] >= e.t && p[0] <= (down ? down.t : Infinity));
    let near = flight[0] || [e.t, distanceAt(e.t), 0];
    let gap = Infinity;
    for (const p of flight) {
      const a = stateAt(path, p[0], shot.before[cue]);
      const b = stateAt(shot.paths[below], p[0], shot.before[below] || [0, 0]);
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (d < gap) { gap = d; near = p; }
    }
    return { distance: near[1], ball: below, colour: BALL_COLOURS[below] || "#999", name: word("balls", below) };
  });
  const number = (x, digits) => x.toLocaleString(I.lang === "ru" ? "ru-RU" : "en-GB", { maximumFractionDigits: digits });
  const chart = sideChart({
    profile, lands, over, cushion: geo.cushion_height, radius: geo.ball_radius, colour: BALL_COLOURS[cue] || "#999",
    text: {
      label: t("play.side_label"), distance: t("play.side_distance"), height: t("play.side_height"),
      slate: t("play.side_slate"), cushion: t("play.side_cushion"), cm: (v) => number(v, 1),
    },
  });
  $("side-view").replaceChildren(chart);
  let inAir = 0;
  let highest = 0;
  for (let i = 1; i < profile.length; i++) {
    if (profile[i][2] > 1e-6 || profile[i - 1][2] > 1e-6) inAir += profile[i][1] - profile[i - 1][1];
    highest = Math.max(highest, profile[i][2]);
  }
  const said = highest > 0
    ? [t("play.side_highest", { cm: number(highest * 100, 1), m: number(inAir, 2) })]
    : [t("play.side_ground")];
  if (over.length) said.push(t("play.side_over", { balls: over.map((o) => o.name).join(", ") }));
  if (mine.some((e) => e.type === "off_table")) said.push(t("play.side_off"));
  $("side-summary").textContent = said.join(" ");
}

// --- the shot's animation ------------------------------------------------------------------

function animate(shot) {
  lastShot = shot;
  document.body.dataset.animated = String(Number(document.body.dataset.animated || 0) + 1);
  return new Promise((resolve) => {
    animating = true;
    render();
    const factor = Math.max(1, shot.duration / MAX_ANIMATION_S);
    const start = performance.now();
    let skip = false;
    const onSkip = () => (skip = true);
    table.canvas.addEventListener("pointerdown", onSkip, { once: true });
    const frame = (now) => {
      const tt = skip ? shot.duration : Math.min(shot.duration, ((now - start) / 1000) * factor);
      balls = {};
      const lifts = {};
      for (const [name, before] of Object.entries(shot.before)) {
        const path = shot.paths[name];
        const end = path && path.length ? path[path.length - 1][1] : 0;
        if (shot.rest[name] === null && tt >= end) continue; // fell into a pocket, or off the table
        const [x, y, z] = stateAt(path, tt, before);
        balls[name] = [x, y];
        lifts[name] = z;
      }
      table.drawCloth();
      drawLastPaths(tt);
      for (const [name, p] of Object.entries(balls)) table.drawBall(name, p, { lift: lifts[name] });
      if (tt < shot.duration) {
        requestAnimationFrame(frame);
      } else {
        table.canvas.removeEventListener("pointerdown", onSkip);
        animating = false;
        resolve();
      }
    };
    requestAnimationFrame(frame);
  });
}

// --- actions -----------------------------------------------------------------------------

async function send(path, body) {
  busy = true;
  showError(errorBox, null);
  render();
  try {
    const answer = await sendChange(`/api/games/${id}/${path}`, { ...body, after: model.version }, actor());
    if (answer.shot) await animate(answer.shot);
    const before = model.log.length;
    model.apply(answer.game);
    takeView(model.view);
    speaker.sayNew(model.view, model.log, before); // the computer's turn, called aloud
    return true;
  } catch (e) {
    showError(errorBox, e);
    if (e.status === 409) {
      try {
        await reload();
      } catch (again) {
        showError(errorBox, again);
      }
    }
    return false;
  } finally {
    busy = false;
    render();
  }
}

function strike(confirmed = false) {
  if ($("strike").disabled) return;
  const a = ((aim % 360) + 360) % 360;
  // From hand, straight at a ball in baulk: say so first; a second press strikes.
  if (view.state.from_d && warning && !confirmed && warnedAim !== a) {
    pendingConfirm = true;
    warnedAim = a;
    render();
    return;
  }
  pendingConfirm = false;
  const body = { strike: { speed: speed(), aim: a, side, height, elevation: elevation() } };
  if (view.state.from_d) body.placed = placed;
  const label = t("outbox.play_item", { speed: speed().toFixed(2), aim: a.toFixed(1) });
  outbox.add(seat !== null ? "seat/play" : "play", body, label);
}

function choose(option) {
  outbox.add(seat !== null ? "seat/choice" : "choice", { option }, `${t("common.choice")}: ${word("options", option)}`);
}

/** The server's answer to a queued stroke or choice: animate it, take the new position. */
async function applyAnswer(answer) {
  const from = model.log.length;
  if (answer.shot) await animate(answer.shot);
  if (answer.game) model.apply(answer.game);
  else await model.poll();
  takeView(model.view);
  speaker.sayNew(model.view, model.log, from);
  render();
  computerTurns();
}

/** The whole game read again (after a take-back, a refusal, a change elsewhere). */
async function reload() {
  lastShot = null;
  model.log.length = 0;
  await model.load();
  takeView(model.view);
}

function resend() {
  return resendOutbox(outbox, reload, errorBox);
}

// --- the aim check, take-back, seats ---------------------------------------------------------

/** Ask the referee whether the straight aim from hand reaches a ball in baulk first. */
function checkAim() {
  clearTimeout(aimTimer);
  const s = view.state;
  if (!humanTurn() || !s.from_d || !placed || !(s.possible && s.possible.in_baulk.length)) {
    if (warning) { warning = null; render(); }
    return;
  }
  const a = ((aim % 360) + 360) % 360;
  aimTimer = setTimeout(async () => {
    try {
      const q = `x=${placed[0]}&y=${placed[1]}&aim=${a}`;
      const answer = await api("GET", `/api/games/${id}/aim?${q}`);
      const before = warning && warning.ball;
      warning = answer.warning;
      if (!warning) pendingConfirm = false;
      if ((warning && warning.ball) !== before) render();
      else renderControls();
    } catch (e) {
      // no answer: no warning shown; the referee still judges the stroke
    }
  }, 120);
}

async function takeBack() {
  busy = true;
  render();
  try {
    await sendChange(`/api/games/${id}/takeback`, { after: model.version }, actor());
    if (seat === null) await reload();
    await refreshClub();
  } catch (e) {
    showError(errorBox, e);
  } finally {
    busy = false;
    render();
  }
}

async function answerTakeBack(agree) {
  try {
    await sendChange(`/api/games/${id}/takeback/answer`, { agree, after: model.version }, actor());
    await reload();
    await refreshClub();
  } catch (e) {
    showError(errorBox, e);
  }
  render();
}

async function makeSeats(player) {
  try {
    const made = await sendChange(`/api/games/${id}/seats`, { player }, token);
    seatToken = made.mine;
    localStorage.setItem(SEAT_KEY, seatToken);
    seat = made.player;
    $("invite-link").value = `${location.origin}${made.url}`;
    $("invite-hint").textContent = t("play.invite_hint", { me: who(view.match.players[seat]) });
    $("invite-share").hidden = false;
    showSeatQr(made.url);
    outbox.token = actor();
    await refreshClub();
  } catch (e) {
    showError(errorBox, e);
  }
  render();
}

/** The other seat's link as a QR code, for the other player's phone (drawn by the server:
 * POST, as the link carries the seat's secret; onered.web.qr). */
async function showSeatQr(path) {
  try {
    const r = await fetch("/api/qr", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ path }),
    });
    if (r.ok) $("invite-qr").innerHTML = await r.text();
  } catch {
    // the link itself is shown: the code is a convenience
  }
}

async function refreshClub() {
  // seats and take-back requests are for two people; against the computer nothing to ask
  if (view && !view.match.players.every((n) => !isAI(n))) return;
  try {
    club = await api("GET", `/api/games/${id}/club`);
  } catch (e) {
    // the club's state is a nicety: the game goes on without it
  }
}

/** On a two-device game (or a watched one): follow the other player's strokes, animated. */
async function follow() {
  try {
    if (!animating && !busy && !(outbox && outbox.length)) {
      const before = model.log.length;
      const last = view ? view.revision : null;
      const changed = await model.poll();
      if (changed) {
        const fresh = model.log.slice(Math.min(before, seen, model.view.log_from));
        if (model.view.log_from >= seen) {
          for (const e of fresh) {
            if (!e || e.in.type !== "stroke" || !e.in.strike) continue; // a hole: not loaded
            try {
              const shot = await api("GET", `/api/games/${id}/shots/${e.seq}`);
              balls = Object.fromEntries(Object.entries(shot.before));
              await animate(shot);
            } catch (err) {
              break; // no animation: the position is shown all the same
            }
          }
        }
        takeView(model.view);
        speaker.sayNew(model.view, model.log, before);
        render();
      } else if (last !== null && view.revision !== last) {
        render();
      }
      const tb = club.takeback;
      await refreshClub();
      if ((tb && tb.version) !== (club.takeback && club.takeback.version)) render();
    }
  } catch (e) {
    // offline: try again on the next beat
  }
  setTimeout(follow, POLL_MS);
}

// The computer plays while it is to play. A failed turn (the server's error, or none at
// all) stops the loop with the error shown and a "Try again" button: never a page that
// says "thinking" for ever.
async function computerTurns() {
  stopped = false;
  while (view && token && !view.state.winner && isAI(view.state.to_play)) {
    await new Promise((r) => setTimeout(r, 350));
    if (!(await send("ai", {}))) {
      stopped = true;
      break;
    }
  }
  render();
}

function retry() {
  if (busy || animating) return;
  showError(errorBox, null);
  computerTurns();
}

// --- input -------------------------------------------------------------------------------

function onPointerDown(e) {
  if (!humanTurn() || animating || busy) return;
  const p = table.toTable(e);
  const s = view.state;
  if (s.from_d && placing) {
    if (inD(p) && clearOfBalls(p)) placeAt(p);
    return;
  }
  const c = cuePosition();
  if (!c) return;
  dragging = true;
  table.canvas.setPointerCapture(e.pointerId);
  aimAt(p, c);
}

function aimAt(p, c) {
  if (Math.hypot(p[0] - c[0], p[1] - c[1]) < 1e-3) return;
  aim = (Math.atan2(p[1] - c[1], p[0] - c[0]) * 180) / Math.PI;
  render();
  checkAim();
}

function onPointerMove(e) {
  if (!view || animating) return;
  const p = table.toTable(e);
  if (view.state.from_d && placing && humanTurn()) {
    hover = p;
    draw();
    return;
  }
  if (dragging) {
    const c = cuePosition();
    if (c) aimAt(p, c);
  }
}

function onKey(e) {
  if (!view || !humanTurn() || animating) return;
  // a field's keys, and Enter or Space on a focused button or link, are that control's own
  if (controlKey(e)) return;
  if (view.state.from_d && placing) {
    if (e.key.startsWith("Arrow")) {
      e.preventDefault();
      moveInD(e.key, e.shiftKey ? 0.002 : e.altKey ? 0.05 : 0.01);
    } else if (e.code === "Space" || e.code === "Enter" || e.code === "NumpadEnter") {
      e.preventDefault();
      if (hover && inD(hover) && clearOfBalls(hover)) placeAt(hover);
      else describeD();
    }
    return;
  }
  const step = e.shiftKey ? 0.05 : e.altKey ? 5 : 0.5;
  if (e.key === "ArrowLeft") { aim += step; e.preventDefault(); render(); checkAim(); }
  else if (e.key === "ArrowRight") { aim -= step; e.preventDefault(); render(); checkAim(); }
  else if (e.key === "ArrowUp") { $("speed").value = String(speed() + 0.1); e.preventDefault(); render(); }
  else if (e.key === "ArrowDown") { $("speed").value = String(speed() - 0.1); e.preventDefault(); render(); }
  else if (e.code === "Space" || e.code === "Enter" || e.code === "NumpadEnter") { e.preventDefault(); strike(); }
}

async function main() {
  await setupPage(render);
  speaker = new Speaker($("speech-box"));
  try {
    geo = await tableGeometry();
    keepWithin(geo.strike_limits);
    table = new TableView($("table"), geo);
    await model.load();
    takeView(model.view);
    if (seatToken) {
      try {
        seat = (await api("GET", `/api/games/${id}/seat`, undefined, { seat: seatToken })).player;
      } catch (e) {
        if (e.status === 403 || e.status === 401) localStorage.removeItem(SEAT_KEY);
        else throw e;
      }
    }
    await refreshClub();
  } catch (e) {
    showError(errorBox, e);
    return;
  }
  outbox = new Outbox(id, {
    token: actor(),
    apply: applyAnswer,
    changed: render,
    version: () => model.version,
    refused: async () => {
      try {
        await reload();
      } catch (e) {
        showError(errorBox, e);
      }
      render();
    },
  });
  $("takeback").addEventListener("click", takeBack);
  $("takeback-agree").addEventListener("click", () => answerTakeBack(true));
  $("takeback-refuse").addEventListener("click", () => answerTakeBack(false));
  $("strike-anyway").addEventListener("click", () => strike(true));
  const aimLine = localStorage.getItem(AIM_LINE_KEY);
  $("aimline").checked = aimLine !== "off";
  $("aimline").addEventListener("change", () => {
    localStorage.setItem(AIM_LINE_KEY, $("aimline").checked ? "on" : "off");
    draw();
  });
  $("showpath").checked = localStorage.getItem(SHOW_PATH_KEY) !== "off";
  $("showpath").addEventListener("change", () => {
    localStorage.setItem(SHOW_PATH_KEY, $("showpath").checked ? "on" : "off");
    draw();
  });
  $("side-details").open = localStorage.getItem(SIDE_VIEW_KEY) === "open";
  $("side-details").addEventListener("toggle", () => {
    localStorage.setItem(SIDE_VIEW_KEY, $("side-details").open ? "open" : "closed");
  });
  $("speed").addEventListener("input", render);
  $("elevation").addEventListener("input", render);
  $("strike").addEventListener("click", () => strike());
  $("move").addEventListener("click", () => { placing = true; placed = null; render(); });
  $("retry").addEventListener("click", retry);
  const tip = $("tip");
  let tipDrag = false;
  tip.addEventListener("pointerdown", (e) => { tipDrag = true; tip.setPointerCapture(e.pointerId); setTip(e); });
  tip.addEventListener("pointermove", (e) => { if (tipDrag) setTip(e); });
  tip.addEventListener("pointerup", () => (tipDrag = false));
  tip.addEventListener("dblclick", () => { side = 0; height = 0; drawTip(); });
  const c = table.canvas;
  c.addEventListener("pointerdown", onPointerDown);
  c.addEventListener("pointermove", onPointerMove);
  c.addEventListener("pointerup", () => (dragging = false));
  c.addEventListener("pointerleave", () => { hover = null; draw(); });
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", () => { table.resize(); draw(); });
  render();
  document.body.dataset.ready = I.lang;
  outbox.pump();
  setTimeout(follow, POLL_MS);
  computerTurns();
}

main();
