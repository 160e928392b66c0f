// Play on the simulated table: aim by dragging, power, tip offset, elevation; the shot is
// animated from the simulator's own trajectories (the server's), then the referee's verdict.
import {
  GameModel, I, TableView, api, describe, el, gameIdFromPath, renderLast, notes,
  renderScoreboard, setupPage, showError, t, tableGeometry, tokenFor, word,
} from "./common.js";

const id = gameIdFromPath();
const model = new GameModel(id);
const token = tokenFor(id);
const $ = (x) => document.getElementById(x);
const errorBox = $("error");
const AIM_LINE_KEY = "onered.aimline";
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
let lastShot = null;
let stopped = false; // the computer's last turn failed: wait for "Try again"

function entrant(name) {
  return (view.settings.entrants || {})[name] || "human";
}
function isAI(name) {
  return entrant(name).startsWith("ai:");
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
function humanTurn() {
  const s = view.state;
  return !!token && !s.winner && s.to_play && !isAI(s.to_play);
}

function inD(p) {
  const d = geo.d;
  return p[1] <= geo.baulk_y + 1e-6 && Math.hypot(p[0] - d.centre[0], p[1] - d.centre[1]) <= d.radius + 1e-6;
}
function clearOfBalls(p) {
  return Object.entries(balls).every(([name, q]) => name === me() || Math.hypot(p[0] - q[0], p[1] - q[1]) > 2 * geo.ball_radius + 1e-6);
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

function draw() {
  if (!table || !view) return;
  table.drawCloth();
  for (const [name, p] of Object.entries(balls)) if (p) table.drawBall(name, p);
  if (animating) return;
  const s = view.state;
  if (!humanTurn()) return;
  if (s.from_d && placing && hover) {
    table.drawBall(s.ball, hover, { ghost: true, outline: inD(hover) && clearOfBalls(hover) ? "#ffffff" : "#ff4a5e" });
  }
  const c = cuePosition();
  if (c) {
    if (s.from_d) table.drawBall(s.ball, c);
    if (!view.state.options.length) drawAim(c);
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
  g.arc(W / 2, W / 2, r * 0.8, 0, 2 * Math.PI);
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

function setTip(event) {
  const c = $("tip");
  const rect = c.getBoundingClientRect();
  const r = rect.width * 0.42;
  let sx = (event.clientX - rect.left - rect.width / 2) / r;
  let sy = -(event.clientY - rect.top - rect.height / 2) / r;
  const len = Math.hypot(sx, sy);
  if (len > 0.8) {
    sx = (sx / len) * 0.8;
    sy = (sy / len) * 0.8;
  }
  side = Math.round(sx * 100) / 100;
  height = Math.round(sy * 100) / 100;
  drawTip();
}

function renderControls() {
  $("speed-out").textContent = t("play.speed", { speed: speed().toFixed(2) });
  $("elev-out").textContent = `${elevation()}°`;
  $("aim-out").textContent = `${(((aim % 360) + 360) % 360).toFixed(2)}°`;
  const s = view.state;
  const mine = humanTurn();
  const choicePending = mine && s.options.length > 0;
  $("strike").disabled = !mine || busy || animating || choicePending || (s.from_d && !placed);
  $("move").hidden = !(mine && s.from_d && placed);
  $("controls").hidden = !token;
  $("readonly").hidden = !!token;
  $("choice").hidden = !choicePending;
  $("choice-options").replaceChildren(
    ...s.options.map((o) => el("button", { type: "button", dataset: { option: o }, disabled: busy, onclick: () => choose(o) }, word("options", o))),
  );
  let status = "";
  let hint = "";
  if (s.winner) status = t("common.winner", { name: s.winner });
  else if (animating) status = "";
  else if (!mine && isAI(s.to_play) && stopped) status = t("play.stopped", { name: s.to_play });
  else if (!mine) status = isAI(s.to_play) ? t("play.thinking", { name: s.to_play }) : t("common.to_play", { name: s.to_play });
  else if (choicePending) status = t("common.chooses", { name: s.to_play });
  else {
    status = t("play.your_turn", { name: s.to_play });
    hint = s.from_d && !placed ? t("play.place") : t("play.aim_hint");
  }
  $("status").textContent = status;
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

function render() {
  if (!view) return;
  renderScoreboard($("scoreboard"), view);
  renderVerdict();
  renderControls();
  $("watch-link").href = `/watch/${id}`;
  $("record-link").href = `/games/${id}`;
  draw();
  drawTip();
  document.body.dataset.version = String(view.state.version);
  document.body.dataset.busy = String(busy || animating);
}

function takeView(v) {
  view = v;
  balls = {};
  for (const [name, p] of Object.entries(v.state.table)) if (p) balls[name] = p;
  placed = null;
  placing = v.state.from_d;
  if (!v.state.from_d) defaultAim();
}

// --- the shot's animation ------------------------------------------------------------------

function positionAt(path, tt, fallback) {
  if (!path || !path.length) return fallback;
  for (const [t0, t1, x, y, vx, vy, ax, ay] of path) {
    if (tt >= t0 && tt <= t1) {
      const d = tt - t0;
      return [x + vx * d + 0.5 * ax * d * d, y + vy * d + 0.5 * ay * d * d];
    }
  }
  if (tt < path[0][0]) return [path[0][2], path[0][3]];
  const [t0, t1, x, y, vx, vy, ax, ay] = path[path.length - 1];
  const d = t1 - t0;
  return [x + vx * d + 0.5 * ax * d * d, y + vy * d + 0.5 * ay * d * d];
}

function animate(shot) {
  lastShot = shot;
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
      for (const [name, before] of Object.entries(shot.before)) {
        const path = shot.paths[name];
        const end = path && path.length ? path[path.length - 1][1] : 0;
        if (shot.rest[name] === null && tt >= end) continue; // fell into a pocket
        balls[name] = positionAt(path, tt, before);
      }
      table.drawCloth();
      for (const [name, p] of Object.entries(balls)) table.drawBall(name, p);
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
    const answer = await api("POST", `/api/games/${id}/${path}`, { ...body, after: model.version }, token);
    if (answer.shot) await animate(answer.shot);
    model.apply(answer.game);
    takeView(model.view);
    return true;
  } catch (e) {
    showError(errorBox, e);
    if (e.status === 409) {
      try {
        model.log.length = 0;
        await model.load();
        takeView(model.view);
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

async function strike() {
  if ($("strike").disabled) return;
  const body = { strike: { speed: speed(), aim: ((aim % 360) + 360) % 360, side, height, elevation: elevation() } };
  if (view.state.from_d) body.placed = placed;
  if (await send("play", body)) computerTurns();
}

async function choose(option) {
  if (await send("choice", { option })) computerTurns();
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
    if (inD(p) && clearOfBalls(p)) {
      placed = p;
      placing = false;
      hover = null;
      defaultAim();
      render();
    }
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
  const target = e.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
  if (target instanceof HTMLButtonElement && (e.key === " " || e.key === "Enter")) return;
  const step = e.shiftKey ? 0.05 : e.altKey ? 5 : 0.5;
  if (e.key === "ArrowLeft") { aim += step; e.preventDefault(); render(); }
  else if (e.key === "ArrowRight") { aim -= step; e.preventDefault(); render(); }
  else if (e.key === "ArrowUp") { $("speed").value = String(speed() + 0.1); e.preventDefault(); render(); }
  else if (e.key === "ArrowDown") { $("speed").value = String(speed() - 0.1); e.preventDefault(); render(); }
  else if (e.key === " " || e.key === "Enter") { e.preventDefault(); strike(); }
}

async function main() {
  await setupPage(render);
  try {
    geo = await tableGeometry();
    table = new TableView($("table"), geo);
    await model.load();
    takeView(model.view);
  } catch (e) {
    showError(errorBox, e);
    return;
  }
  const aimLine = localStorage.getItem(AIM_LINE_KEY);
  $("aimline").checked = aimLine !== "off";
  $("aimline").addEventListener("change", () => {
    localStorage.setItem(AIM_LINE_KEY, $("aimline").checked ? "on" : "off");
    draw();
  });
  $("speed").addEventListener("input", render);
  $("elevation").addEventListener("input", render);
  $("strike").addEventListener("click", strike);
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
  computerTurns();
}

main();
