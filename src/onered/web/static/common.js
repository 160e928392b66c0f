// onered web pages: what every page shares — language, API calls, secrets, the table drawing,
// and the words for strokes and verdicts. Plain ES modules, no build step.

export const LANGS = ["ru", "en"];
const LANG_KEY = "onered.lang";
const TOKEN_KEY = (id) => `onered.token.${id}`;

export const I = { lang: "en", bundle: null };

/** The page's language: the one chosen before, else the browser's (Russian or English). */
export function currentLang() {
  const saved = localStorage.getItem(LANG_KEY);
  if (LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").toLowerCase();
  return nav.startsWith("ru") ? "ru" : "en";
}

export async function loadLang(lang) {
  const bundle = await api("GET", `/api/i18n/${lang}`);
  I.lang = lang;
  I.bundle = bundle;
  document.documentElement.lang = lang;
  localStorage.setItem(LANG_KEY, lang);
  return bundle;
}

/** A label with its {fields} filled in. */
export function t(key, vars = {}) {
  const text = (I.bundle && I.bundle.ui[key]) || key;
  return fill(text, vars);
}

export function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/** Texts of the referee's codes: calls, fouls, scores, options, balls, spots. */
export function word(kind, code) {
  return (I.bundle && I.bundle[kind] && I.bundle[kind][code]) || code;
}

export function applyI18n(root = document) {
  root.querySelectorAll("[data-i18n]").forEach((el) => {
    el.textContent = t(el.dataset.i18n);
  });
  root.querySelectorAll("[data-i18n-title]").forEach((el) => {
    el.title = t(el.dataset.i18nTitle);
  });
  root.querySelectorAll("[data-i18n-placeholder]").forEach((el) => {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  });
  const title = document.querySelector("title[data-i18n-page]");
  if (title) title.textContent = `${t(title.dataset.i18nPage)} · ${t("app.title")}`;
}

/** The header's language switch; `rerender` runs after the words change. */
export async function setupPage(rerender) {
  const select = document.getElementById("lang");
  const lang = currentLang();
  await loadLang(lang);
  if (select) {
    select.value = lang;
    select.addEventListener("change", async () => {
      await loadLang(select.value);
      applyI18n();
      if (rerender) rerender();
    });
  }
  applyI18n();
}

// --- the API -----------------------------------------------------------------------------

/** Longest wait for an answer (the computer's stroke takes a few seconds at most). */
export const API_TIMEOUT_MS = 120_000;

export class ApiError extends Error {
  // status 0: no answer (the network); code: the catalogue entry "error.<code>", if any
  constructor(status, message, code = null) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body, token) {
  const headers = {};
  const init = { method, headers };
  if (body !== undefined) {
    if (typeof body === "string") {
      headers["Content-Type"] = "text/plain; charset=utf-8";
      init.body = body;
    } else {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
  }
  if (token) headers["X-Game-Token"] = token;
  // No request waits for ever: a server that never answers is an error the page shows.
  const abort = new AbortController();
  init.signal = abort.signal;
  const timer = setTimeout(() => abort.abort(), API_TIMEOUT_MS);
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    const code = abort.signal.aborted ? "timeout" : "network";
    throw new ApiError(0, String((e && e.message) || e), code);
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    const message = (data && data.error) || `${response.status} ${response.statusText}`;
    const code = (data && data.code) || (response.status >= 500 ? "server" : null);
    throw new ApiError(response.status, message, code);
  }
  return data;
}

// --- a game's secret -----------------------------------------------------------------------

export function gameIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[parts.length - 1] || "");
}

/** The secret of a game: from the link's #token=… (then kept), or kept before. */
export function tokenFor(id) {
  const m = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  if (m) {
    localStorage.setItem(TOKEN_KEY(id), m[1]);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return localStorage.getItem(TOKEN_KEY(id));
}

export function saveToken(id, token) {
  localStorage.setItem(TOKEN_KEY(id), token);
}

export function forgetToken(id) {
  localStorage.removeItem(TOKEN_KEY(id));
}

// --- a game as it goes: the view and its log -------------------------------------------------

/** Keeps a game's view and its full log, applying the partial answers of the API. */
export class GameModel {
  constructor(id) {
    this.id = id;
    this.view = null;
    this.log = [];
    this.progression = null;
    this.visits = null;
  }
  apply(view) {
    this.log.length = Math.min(this.log.length, view.log_from);
    for (const entry of view.log) this.log.push(entry);
    if (view.progression) this.progression = view.progression;
    if (view.visits) this.visits = view.visits;
    this.view = view;
  }
  async load() {
    this.apply(await api("GET", `/api/games/${encodeURIComponent(this.id)}`));
    return this.view;
  }
  async poll() {
    const v = this.view;
    const q = v ? `?since=${this.log.length}&revision=${v.revision}` : "";
    const view = await api("GET", `/api/games/${encodeURIComponent(this.id)}${q}`);
    const changed = !v || view.revision !== v.revision;
    this.apply(view);
    return changed;
  }
  get version() {
    return this.view ? this.view.state.version : null;
  }
}

// --- words for strokes -------------------------------------------------------------------

export function ballName(ball) {
  return word("balls", ball);
}

export function capital(s) {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/** What a stroke did, in words: "cannon + red potted", "foul: miss", "play from the D". */
export function describe(entry) {
  const out = entry.out;
  const line = entry.in;
  if (line.type === "match") return "";
  if (line.type === "choice") return `${t("common.choice")}: ${word("options", line.option)}`;
  if (out.foul) {
    return `${word("calls", "foul")}: ${out.foul.codes.map((c) => word("fouls", c)).join(", ")}`;
  }
  const parts = Object.keys(out.scored).map((k) => word("scores", k));
  if (!parts.length) return t("common.no_score");
  return parts.join(" + ");
}

export function callsText(calls) {
  return calls.map((c) => word("calls", c.code)).join(" · ");
}

export function placementText(p) {
  const ball = capital(ballName(p.ball));
  if (typeof p.at === "string") return t("common.place", { ball, spot: word("spots", p.at) });
  return t("common.place_point", { ball, point: `(${p.at[0].toFixed(3)}, ${p.at[1].toFixed(3)})` });
}

/** The marker's and spectators' notes after the last line: placements, who plays from the D,
 * the counters and the baulk-line requirement. */
export function notes(view, { turn = true } = {}) {
  const out = [];
  const last = view.last;
  const st = view.state;
  if (turn && st.winner) out.push(t("common.winner", { name: st.winner }));
  else if (turn && st.options.length) out.push(t("common.chooses", { name: st.to_play }));
  else if (turn && st.to_play) out.push(t("common.to_play", { name: st.to_play }));
  for (const p of last.placements) out.push(placementText(p));
  const s = view.state;
  if (s.to_play && s.from_d) out.push(`${s.to_play}: ${t("common.in_hand", { ball: capital(ballName(s.ball)) })}`);
  if (s.baulk_required) {
    const hundred = Math.floor(s.break / 100) * 100;
    out.push(t("common.baulk_required", { lo: hundred + 80, hi: hundred + 99 }));
  }
  return out;
}

/** The last line in words: "Stroke 7 · Petrov: cannon + red potted — 5 pts". */
export function renderLast(container, view, log) {
  const last = view.last;
  const entry = log[log.length - 1];
  if (!entry || entry.in.type === "match") {
    container.textContent = "";
    return;
  }
  const pts = last.foul
    ? t("common.penalty", { points: last.foul.penalty })
    : t("common.scored", { points: last.points });
  const head = entry.in.type === "choice"
    ? `${last.striker}: `
    : `${t("common.stroke")} ${last.stroke} · ${last.striker}: `;
  container.replaceChildren(
    el("span", { class: "muted", text: head }),
    el("span", { class: "what", text: describe(entry) }),
    entry.in.type === "choice" ? "" : " — ",
    entry.in.type === "choice" ? "" : el("span", { class: "pts", text: pts }),
  );
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** The scoreboard: both players, their balls, scores, the break of the one at the table. */
export function renderScoreboard(container, view) {
  const s = view.state;
  const players = view.match.players;
  container.replaceChildren(
    ...players.map((name, i) => {
      const atTable = s.to_play === name;
      const won = s.winner === name;
      const ball = view.match.balls[i];
      return el(
        "div",
        { class: `player${atTable ? " at-table" : ""}${won ? " won" : ""}`, dataset: { player: String(i) } },
        el("div", { class: "player-head" },
          el("span", { class: `ball-dot ${ball}`, title: ballName(ball) }),
          el("span", { class: "player-name", text: name })),
        el("div", { class: "player-score", text: String(s.score[i]) }),
        el("div", { class: "player-sub" },
          atTable ? `${t("common.break")}: ${s.break}` : "",
          atTable && s.from_d ? ` · ${t("common.from_d")}` : "",
          won ? t("common.winner", { name }) : ""),
      );
    }),
    el("div", { class: "target", text: `${t("common.target")} ${view.match.target}` }),
  );
}

// --- the table -------------------------------------------------------------------------------

export const BALL_COLOURS = { white: "#f7f5ee", yellow: "#f4cf1a", red: "#c4122f" };
const CUSHION = 0.045;
const RAIL = 0.08;

/** The table drawn to scale on a canvas, seen from the side with the baulk end on the left
 * (the top cushion on the right, the left cushion — seen from baulk — at the top). */
export class TableView {
  constructor(canvas, table) {
    this.canvas = canvas;
    this.table = table;
    this.border = CUSHION + RAIL;
    this.resize();
  }
  resize() {
    const c = this.canvas;
    const cssWidth = c.clientWidth || c.parentElement.clientWidth || 800;
    const w = this.table.length + 2 * this.border;
    const h = this.table.width + 2 * this.border;
    const cssHeight = (cssWidth * h) / w;
    const dpr = window.devicePixelRatio || 1;
    c.style.height = `${cssHeight}px`;
    c.width = Math.round(cssWidth * dpr);
    c.height = Math.round(cssHeight * dpr);
    this.scale = (cssWidth * dpr) / w;
    this.dpr = dpr;
  }
  /** Table metres to canvas pixels. */
  px(p) {
    return [(p[1] + this.border) * this.scale, (p[0] + this.border) * this.scale];
  }
  /** Canvas CSS pixels (from a pointer event) to table metres. */
  toTable(event) {
    const r = this.canvas.getBoundingClientRect();
    const X = (event.clientX - r.left) * this.dpr;
    const Y = (event.clientY - r.top) * this.dpr;
    return [Y / this.scale - this.border, X / this.scale - this.border];
  }
  drawCloth() {
    const g = this.canvas.getContext("2d");
    const s = this.scale;
    const T = this.table;
    const W = this.canvas.width;
    const H = this.canvas.height;
    g.clearRect(0, 0, W, H);
    // rail
    g.fillStyle = "#5a3a22";
    roundRect(g, 0, 0, W, H, 0.05 * s);
    g.fill();
    // cushions
    g.fillStyle = "#0d5c2e";
    g.fillRect(RAIL * s, RAIL * s, W - 2 * RAIL * s, H - 2 * RAIL * s);
    // cloth
    const [x0, y0] = this.px([0, 0]);
    const [x1, y1] = this.px([T.width, T.length]);
    const grad = g.createRadialGradient((x0 + x1) / 2, (y0 + y1) / 2, 10, (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 1.2);
    grad.addColorStop(0, "#1f8a4c");
    grad.addColorStop(1, "#17733e");
    g.fillStyle = grad;
    g.fillRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
    // pockets
    g.fillStyle = "#0b0b0b";
    for (const p of T.pockets) {
      let c;
      let r;
      if (p.jaws) {
        const [a, b] = p.jaws;
        const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        const open = Math.hypot(a[0] - b[0], a[1] - b[1]);
        c = [(mid[0] + p.fall[0]) / 2, (mid[1] + p.fall[1]) / 2];
        r = open / 2;
      } else {
        c = p.centre;
        r = 0.043;
      }
      const [cx, cy] = this.px(c);
      g.beginPath();
      g.arc(cx, cy, r * s, 0, 2 * Math.PI);
      g.fill();
    }
    // baulk line and D
    g.strokeStyle = "rgba(255,255,255,0.75)";
    g.lineWidth = Math.max(1, 0.004 * s);
    const [bx0, by0] = this.px([0, T.baulk_y]);
    const [bx1, by1] = this.px([T.width, T.baulk_y]);
    g.beginPath();
    g.moveTo(bx0, by0);
    g.lineTo(bx1, by1);
    g.stroke();
    const [dx, dy] = this.px(T.d.centre);
    g.beginPath();
    // the D lies on the baulk side (smaller y = left on screen)
    g.arc(dx, dy, T.d.radius * s, Math.PI / 2, (3 * Math.PI) / 2);
    g.stroke();
    // spots
    g.fillStyle = "rgba(255,255,255,0.8)";
    for (const name of ["billiards", "pyramid", "centre", "baulk_middle"]) {
      const [sx, sy] = this.px(T.spots[name]);
      g.beginPath();
      g.arc(sx, sy, Math.max(1.5, 0.006 * s), 0, 2 * Math.PI);
      g.fill();
    }
  }
  drawBall(name, p, { ghost = false, outline = null } = {}) {
    const g = this.canvas.getContext("2d");
    const [x, y] = this.px(p);
    const r = this.table.ball_radius * this.scale;
    g.save();
    if (ghost) g.globalAlpha = 0.45;
    g.beginPath();
    g.arc(x + r * 0.12, y + r * 0.18, r, 0, 2 * Math.PI);
    g.fillStyle = "rgba(0,0,0,0.35)";
    g.fill();
    const grad = g.createRadialGradient(x - r * 0.35, y - r * 0.35, r * 0.1, x, y, r);
    grad.addColorStop(0, "#ffffff");
    grad.addColorStop(0.35, BALL_COLOURS[name] || "#999");
    grad.addColorStop(1, shade(BALL_COLOURS[name] || "#999"));
    g.beginPath();
    g.arc(x, y, r, 0, 2 * Math.PI);
    g.fillStyle = grad;
    g.fill();
    if (outline) {
      g.lineWidth = Math.max(1.5, r * 0.18);
      g.strokeStyle = outline;
      g.stroke();
    }
    g.restore();
  }
  /** Everything: cloth, then the balls ({name: [x, y]}). */
  draw(balls) {
    this.drawCloth();
    for (const [name, p] of Object.entries(balls)) if (p) this.drawBall(name, p);
  }
}

function roundRect(g, x, y, w, h, r) {
  g.beginPath();
  g.moveTo(x + r, y);
  g.arcTo(x + w, y, x + w, y + h, r);
  g.arcTo(x + w, y + h, x, y + h, r);
  g.arcTo(x, y + h, x, y, r);
  g.arcTo(x, y, x + w, y, r);
  g.closePath();
}

function shade(hex) {
  const n = parseInt(hex.slice(1), 16);
  const f = (v) => Math.max(0, Math.round(v * 0.55));
  return `rgb(${f(n >> 16)}, ${f((n >> 8) & 255)}, ${f(n & 255)})`;
}

let tableCache = null;
export async function tableGeometry() {
  if (!tableCache) tableCache = await api("GET", "/api/table");
  return tableCache;
}

/** The balls the referee knows of (the marker is told no positions: only the balls the
 * referee placed are known), the ones it has just placed ringed in gold. */
export function drawPosition(table, view) {
  const placed = new Set(view.last.placements.map((p) => p.ball));
  table.resize();
  table.drawCloth();
  for (const [name, p] of Object.entries(view.state.table)) {
    if (p) table.drawBall(name, p, { outline: placed.has(name) ? "#ffd34d" : null });
  }
}

/** The error in the page's language when the catalogue has its code ("error.<code>"),
 * else the server's own message. */
export function errorText(error) {
  const code = error && error.code;
  if (code && I.bundle && I.bundle.ui[`error.${code}`]) return t(`error.${code}`);
  return String((error && error.message) || error);
}

/** Show an error (null: hide the box); the server's own message follows a translated one. */
export function showError(box, error) {
  if (!box) return;
  box.replaceChildren();
  box.hidden = !error;
  delete box.dataset.code;
  if (!error) return;
  const text = errorText(error);
  box.append(text);
  const detail = String(error.message || "");
  if (detail && detail !== text) box.append(" ", el("span", { class: "detail", text: `(${detail})` }));
  if (error.code) box.dataset.code = error.code;
}

export function fmtTime(seconds) {
  const d = new Date(seconds * 1000);
  return d.toLocaleString(I.lang === "ru" ? "ru-RU" : "en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}
