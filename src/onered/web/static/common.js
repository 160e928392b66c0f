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

/** A counted label in the form that follows ``n`` by the page language's plural rule
 * (Intl.PluralRules): the bundle's ``key.one`` / ``key.few`` / ``key.many`` (from
 * onered.texts.counted), with {n} and the other fields filled in. */
export function tn(key, n, vars = {}) {
  const ui = (I.bundle && I.bundle.ui) || {};
  const cat = new Intl.PluralRules(I.lang).select(n);
  const form = `${key}.${cat}`;
  const text = ui[form] || ui[`${key}.many`] || form;
  return fill(text, { ...vars, n });
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
  await Promise.all([loadLang(lang), loadPlayerSpec()]);
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
  // status 0: no answer (the network); code: the catalogue entry "error.<code>", if any;
  // params: the values the catalogue's text names ({ball}, {name} …)
  constructor(status, message, code = null, params = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

/** A request's answer as JSON. ``key``: the change's Idempotency-Key (a repeat of the same
 * change is answered with the first answer, never entered twice). */
export async function api(method, path, body, token, key = null) {
  // the server's own messages (an error without words in the bundle) in the page's language
  const headers = { "Accept-Language": I.lang };
  if (key) headers["Idempotency-Key"] = key;
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
  // a game's secret, or a player's own seat secret ({seat: "..."}) on a two-device game
  if (token && typeof token === "object") headers["X-Seat-Token"] = token.seat;
  else if (token) headers["X-Game-Token"] = token;
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
    // the server's words in the page's language (it read Accept-Language); English if none
    const message = (data && (data.message || data.error)) || `${response.status} ${response.statusText}`;
    const code = (data && data.code) || (response.status >= 500 ? "server" : null);
    throw new ApiError(response.status, message, code, (data && data.params) || null);
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

/** Keeps a game's view and its log, applying the partial answers of the API. ``log`` is
 * indexed by line (``log.length``: the game's lines); a view carries at most the latest page
 * of it, so the lines before ``start`` are holes until ``loadEarlier`` fetches them (an
 * array's filter and some skip holes). */
export class GameModel {
  constructor(id) {
    this.id = id;
    this.view = null;
    this.log = [];
    this.start = 0; // the first line held: the lines before it are not loaded
  }
  apply(view) {
    const start = view.log_start === undefined ? view.log_from : view.log_start;
    const keep = Math.min(this.log.length, view.log_from); // the lines held still true
    if (start > keep) {
      // lines left out between those kept and those sent: the older ones are dropped too,
      // so that the lines held are always the log's end
      this.log.length = 0;
      this.start = start;
    } else {
      this.start = Math.min(this.start, start);
    }
    this.log.length = start;
    for (const entry of view.log) this.log.push(entry);
    this.view = view;
    setEntrants(view);
  }
  /** Whether older lines than those held are still to be fetched. */
  get hasEarlier() {
    return this.start > 0;
  }
  /** Fetch the page of the log before the first line held (``GET /api/games/{id}/log``);
   * a page of another revision than the view's is taken only after the view is brought up to
   * date (one more try). */
  async loadEarlier() {
    for (let attempt = 0; attempt < 2 && this.start > 0; attempt++) {
      const page = await api("GET", `/api/games/${encodeURIComponent(this.id)}/log?before=${this.start}`);
      if (!this.view || page.revision !== this.view.revision) {
        await this.poll();
        continue;
      }
      page.log.forEach((entry, k) => { this.log[page.log_start + k] = entry; });
      this.start = Math.min(this.start, page.log_start);
      return true;
    }
    return false;
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

// --- players' names ----------------------------------------------------------------------

/** Who plays in the game on this page: name -> "human" or "ai:<level>" (the match line's
 * entrants), set by every view the page takes. */
export function setEntrants(view) {
  I.entrants = (view && view.settings && view.settings.entrants) || {};
}

/** The grammar of a player's description, from the server (its one reader,
 * onered.players.spec): kinds, separators, levels, the AI's parameters. */
export async function loadPlayerSpec() {
  if (!I.playerSpec) I.playerSpec = await api("GET", "/api/player-spec");
  return I.playerSpec;
}

/** A player's description ("human", "ai:pro", "ai:pro,noise.aim=0.05") read with the
 * server's grammar: { kind, level, params }, or null when it names no known player. */
export function parsePlayer(text) {
  const g = I.playerSpec;
  if (!g || typeof text !== "string") return null;
  const [head, ...rest] = text.trim().split(g.param_separator);
  const at = head.indexOf(g.kind_separator);
  const kind = (at < 0 ? head : head.slice(0, at)).trim();
  if (kind === g.human) return at < 0 && rest.length === 0 ? { kind, level: null, params: {} } : null;
  const level = at < 0 ? "" : head.slice(at + 1).trim();
  if (kind !== g.ai || !g.levels.includes(level)) return null;
  const params = {};
  for (const part of rest.map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf("=");
    const key = eq < 0 ? "" : part.slice(0, eq).trim();
    const value = Number(part.slice(eq + 1));
    if (!g.params.includes(key) || key in params || !Number.isFinite(value)) return null;
    params[key] = value;
  }
  return { kind, level, params };
}

/** The level of a computer player ("pro"), or null for a person; ``entrants``: those of
 * another game than the page's (a list of games). */
export function aiLevel(name, entrants = I.entrants) {
  const spec = parsePlayer((entrants || {})[name] || "");
  return spec && spec.level !== null ? spec.level : null;
}

/** A player's name as the page shows it: a computer player is named in the page's language
 * from its level ("Computer (pro)" / «Компьютер (профессионал)»), whatever language it was
 * created in; a person by his name. */
export function who(name, entrants = I.entrants) {
  if (name === null || name === undefined) return "";
  const level = aiLevel(name, entrants);
  if (level === null) {
    // a computer's name in any language (the bundle's ai_names), where no entrants say it
    const named = I.bundle && I.bundle.ai_names && I.bundle.ai_names[name];
    return named ? t("ai.name", { level: word("ai_levels", named) }) : name;
  }
  return t("ai.name", { level: word("ai_levels", level) });
}

// --- keys by position -------------------------------------------------------------------------

/** The Russian (ЙЦУКЕН) letter on each letter key, so a label can show both. */
const RU_LETTERS = {
  KeyQ: "Й", KeyW: "Ц", KeyE: "У", KeyR: "К", KeyT: "Е", KeyY: "Н", KeyU: "Г", KeyI: "Ш",
  KeyO: "Щ", KeyP: "З", KeyA: "Ф", KeyS: "Ы", KeyD: "В", KeyF: "А", KeyG: "П", KeyH: "Р",
  KeyJ: "О", KeyK: "Л", KeyL: "Д", KeyZ: "Я", KeyX: "Ч", KeyC: "С", KeyV: "М", KeyB: "И",
  KeyN: "Т", KeyM: "Ь",
};

/** The label of a physical key (a KeyboardEvent.code): "C", or "C · С" on a Russian page,
 * where a marker's keyboard shows both letters; digits and named keys as they are. */
export function keyLabel(code) {
  if (code.startsWith("Key")) {
    const latin = code.slice(3);
    return I.lang === "ru" && RU_LETTERS[code] ? `${latin} · ${RU_LETTERS[code]}` : latin;
  }
  if (code.startsWith("Digit")) return code.slice(5);
  return { Minus: "-", Enter: "Enter", Escape: "Esc", Space: "Space", Backspace: "⌫" }[code] || code;
}

/** Whether a key event is typed into a field (then no shortcut applies). */
export function typing(e) {
  const x = e.target;
  return x instanceof HTMLInputElement || x instanceof HTMLSelectElement || x instanceof HTMLTextAreaElement;
}

/** Whether a key belongs to the focused control, not to the page's shortcuts: any key typed
 * into a field, and Enter or Space on a button, link or summary (they press it). The control
 * then acts once and no shortcut (such as the marker's Enter, "record the stroke") also does. */
export function controlKey(e) {
  if (typing(e)) return true;
  const press = e.code === "Enter" || e.code === "NumpadEnter" || e.code === "Space" || e.key === " ";
  const x = e.target;
  return press && x instanceof Element && !!x.closest("button, a[href], summary, [role=button], [role=link]");
}

// --- the outbox: changes kept until the server has them ----------------------------------------

/** How many lines each change adds to a game (its "after" moves by it). */
const DELTA = { mark: 1, lines: 1, choice: 1, play: 1, ai: 1, claim: 0, undo: -1, "seat/play": 1, "seat/choice": 1 };
const RETRY_MS = [1000, 2000, 4000, 8000, 15000, 30000];

/** A random UUID (version 4) for an Idempotency-Key: crypto.randomUUID where the page is a
 * secure context, else from crypto.getRandomValues (a club's server on plain http). */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Whether a failed request had no answer of the server's to go by (the network, a
 * timeout, a server fault, 408, 429): worth sending again with the same Idempotency-Key. */
export function transient(e) {
  return e.status === 0 || e.status >= 500 || e.status === 408 || e.status === 429;
}

/** One change to a game sent until answered (a take-back, seats, the computer's stroke: the
 * requests a page does not queue in its Outbox): one Idempotency-Key made here goes with
 * every try, so a try whose answer was lost is answered with the first answer and the change
 * is never made twice; a try without an answer (``transient``) is sent again after the
 * Outbox's pauses, at most ``tries`` times; a refusal is thrown at once. */
export async function sendChange(path, body, token, tries = 4) {
  const key = newKey();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await api("POST", path, body, token, key);
    } catch (e) {
      if (!transient(e) || attempt >= tries) throw e;
      await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(attempt - 1, RETRY_MS.length - 1)]));
    }
  }
}

/** Changes to a game kept in the browser (localStorage) until the server has judged them:
 * sent one at a time, in order, each with the game's version it was made at ("after"), so a
 * change made while another device changed the game is refused, not misapplied. No answer
 * (the network, a timeout, a server fault) is retried with a growing pause and at once when
 * the browser is back online; a refusal (the game changed: "stale"; the referee's or the
 * server's no: "rejected") stops the queue with the item shown until the user discards it or
 * sends the queue again at the current position. A reload keeps the queue. Each change
 * carries an Idempotency-Key made when it is queued and kept with it: a try whose answer was
 * lost (or cut by a reload) is sent again with the same key and the server answers with the
 * first answer — the change is never entered twice nor refused as "stale". */
export class Outbox {
  constructor(gameId, { token, apply, changed, version, refused = null }) {
    this.key = `onered.outbox.${gameId}`;
    this.gameId = gameId;
    this.token = token;
    this.apply = apply; // (answer, item) => void: the page takes the server's answer
    this.changed = changed; // () => void: re-render
    this.version = version; // () => the game's version the page has now
    this.refused = refused; // (item) => void: an item was refused (stale or rejected)
    this.items = this.load();
    this.sending = false;
    this.attempt = 0;
    this.timer = null;
    this.lastError = null;
    window.addEventListener("online", () => this.pump(true));
  }
  load() {
    try {
      const items = JSON.parse(localStorage.getItem(this.key) || "[]");
      return Array.isArray(items)
        ? items.map((x) => ({ ...x, key: x.key || newKey(), state: x.state === "sending" ? "waiting" : x.state }))
        : [];
    } catch (e) {
      return [];
    }
  }
  save() {
    if (this.items.length) localStorage.setItem(this.key, JSON.stringify(this.items));
    else localStorage.removeItem(this.key);
  }
  get length() {
    return this.items.length;
  }
  get blocked() {
    return this.items.some((x) => x.state === "stale" || x.state === "rejected");
  }
  /** The version the game will have once every queued change is in. */
  expected() {
    return this.items.reduce((v, x) => v + DELTA[x.path], this.version());
  }
  /** Queue a change (``label``: what it is, in words) and start sending. */
  add(path, body, label) {
    const last = this.items[this.items.length - 1];
    const after = last ? last.after + DELTA[last.path] : this.version();
    this.items.push({ n: Date.now() + Math.random(), key: newKey(), path, body, after, label, state: "waiting", error: null });
    this.save();
    this.changed();
    this.pump();
  }
  /** Take back the last queued change that the server has not got (undo while waiting). */
  dropLast() {
    const last = this.items[this.items.length - 1];
    if (!last || last.state === "sending") return false;
    this.items.pop();
    this.save();
    this.changed();
    return true;
  }
  /** Give the queued changes the current position's version, in order (after the game
   * changed elsewhere, or an item was discarded), and send them again. */
  rebase() {
    let v = this.version();
    for (const x of this.items) {
      x.after = v;
      v += DELTA[x.path];
      x.state = "waiting";
      x.error = null;
    }
    this.save();
    this.attempt = 0;
    this.changed();
    this.pump(true);
  }
  discard(n) {
    this.items = this.items.filter((x) => x.n !== n);
    this.rebase();
  }
  async pump(now = false) {
    if (now && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.sending || this.timer || this.blocked) return;
    const item = this.items[0];
    if (!item) return;
    this.sending = true;
    item.state = "sending";
    this.changed();
    try {
      const answer = await api("POST", `/api/games/${encodeURIComponent(this.gameId)}/${item.path}`,
        { ...item.body, after: item.after }, this.token, item.key);
      this.items.shift();
      this.attempt = 0;
      this.lastError = null;
      this.save();
      try {
        await this.apply(answer, item);
      } finally {
        this.sending = false;
      }
      this.changed();
      this.pump();
    } catch (e) {
      this.sending = false;
      const again = transient(e);
      if (again) {
        item.state = "waiting";
        this.lastError = e;
        const wait = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
        this.attempt += 1;
        this.timer = setTimeout(() => { this.timer = null; this.pump(); }, wait);
      } else {
        const stale = e.status === 409 && (e.code === "stale" || String(e.message).startsWith("after:"));
        item.state = stale ? "stale" : "rejected";
        item.error = { status: e.status, code: e.code || null, message: e.message, params: e.params || null };
        this.lastError = null;
      }
      this.save();
      this.changed();
      if (!again && this.refused) this.refused(item);
    }
  }
}

/** "Send again" for a page's outbox: the game read again (``reload``), then the waiting
 * items rebased on it; a failed read is shown in ``errorBox`` and nothing is rebased. */
export async function resendOutbox(outbox, reload, errorBox) {
  try {
    await reload();
  } catch (e) {
    showError(errorBox, e);
    return;
  }
  outbox.rebase();
}

/** The outbox's panel: what waits, each item's state, and for a refused one its reason
 * with "Discard" and "Send again" (``onResend``: reload, then rebase). ``extra``: a row of
 * the page's own under the list. Hidden when nothing waits. */
export function renderOutbox(box, outbox, onResend, extra = null) {
  if (!outbox || !outbox.length) {
    box.hidden = true;
    document.body.dataset.queued = "0";
    return;
  }
  box.hidden = false;
  document.body.dataset.queued = String(outbox.length);
  const items = outbox.items.map((x) =>
    el("li", { class: `queued ${x.state}`, dataset: { state: x.state } },
      el("span", { class: "what", text: x.label }),
      el("span", { class: "state", text: t(`outbox.state.${x.state}`) }),
      x.error ? el("div", { class: "small detail", text: errorText(x.error) }) : null,
      x.state === "stale" || x.state === "rejected"
        ? el("span", { class: "row" },
          el("button", { type: "button", class: "danger", dataset: { act: "discard" }, onclick: () => outbox.discard(x.n) }, t("outbox.discard")),
          el("button", { type: "button", dataset: { act: "resend" }, onclick: onResend }, t("outbox.resend")))
        : null));
  const offline = outbox.lastError && !outbox.blocked;
  box.replaceChildren(...[
    el("h2", { text: t("outbox.title", { n: outbox.length }) }),
    offline ? el("p", { class: "small", dataset: { offline: "1" }, text: t("outbox.offline") }) : null,
    outbox.blocked ? el("p", { class: "small", text: t("outbox.blocked") }) : null,
    el("ol", { class: "outbox-list" }, ...items),
    el("div", { class: "row" },
      extra,
      offline ? el("button", { type: "button", dataset: { act: "send-now" }, onclick: () => outbox.pump(true) }, t("outbox.send_now")) : null),
  ].filter(Boolean));
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

/** Why a tap or an aim is not offered, in the page's language (a reason of
 * onered.rules.possible: {"reason": code, "ball": colour}). */
export function reasonText(why) {
  if (!why) return "";
  const ball = why.ball ? ballName(why.ball) : "";
  const text = (I.bundle && I.bundle.reasons && I.bundle.reasons[why.reason]) || why.reason;
  return fill(text, { ball, ball_cap: capital(ball) });
}

/** A log entry's points: "+5", "−2" for a foul (to the opponent), "" for none. */
export function pointsText(entry) {
  const out = entry.out;
  if (out.foul) return `−${out.foul.penalty}`;
  return out.points ? `+${out.points}` : "";
}

/** The stroke log, newest first: each stroke with its number, a foul option on a row of
 * its own under the stroke it follows (no number of its own, so no number repeats), the
 * points and the score. ``limit``: the rows shown. */
export function renderLog(tableEl, view, log, { limit = 60, points = true } = {}) {
  const players = view.match.players;
  const head = el("thead", {}, el("tr", {},
    el("th", { class: "num", text: t("log.col.no") }),
    el("th", { text: t("log.col.striker") }),
    el("th", { text: t("log.col.what") }),
    points ? el("th", { class: "num", text: t("log.col.points") }) : null,
    el("th", { class: "num", text: t("log.col.score") })));
  const rows = log.filter((e) => e.in.type !== "match").slice(-limit).reverse().map((e) => {
    const option = e.in.type === "choice";
    const cls = [e.out.foul ? "foul" : "", option ? "option-row" : ""].filter(Boolean).join(" ");
    return el("tr", { class: cls, dataset: { seq: String(e.seq), kind: e.in.type } },
      el("td", { class: "num", text: option ? "↳" : String(e.out.stroke), title: option ? t("mark.option_row") : null }),
      el("td", { text: who(e.out.striker) }),
      el("td", {}, describe(e), e.out.calls.length ? el("div", { class: "small muted", text: callsText(e.out.calls) }) : null),
      points ? el("td", { class: "num pts", text: option ? "" : pointsText(e) }) : null,
      el("td", { class: "num", text: players.map((p) => e.out.score[p]).join(":") }));
  });
  tableEl.replaceChildren(head, el("tbody", {}, ...rows));
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
  if (turn && st.winner) out.push(t("common.winner", { name: who(st.winner) }));
  else if (turn && st.options.length) out.push(t("common.chooses", { name: who(st.to_play) }));
  else if (turn && st.to_play) out.push(t("common.to_play", { name: who(st.to_play) }));
  for (const p of last.placements) out.push(placementText(p));
  const s = view.state;
  if (s.to_play && s.from_d) out.push(`${who(s.to_play)}: ${t("common.in_hand", { ball: capital(ballName(s.ball)) })}`);
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
    : tn("common.scored", last.points);
  const head = entry.in.type === "choice"
    ? `${who(last.striker)}: `
    : `${t("common.stroke")} ${last.stroke} · ${who(last.striker)}: `;
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
          el("span", { class: "player-name", text: who(name) })),
        el("div", { class: "player-score", text: String(s.score[i]) }),
        el("div", { class: "player-sub" },
          atTable ? `${t("common.break")}: ${s.break}` : "",
          atTable && s.from_d ? ` · ${t("common.from_d")}` : "",
          won ? t("common.winner", { name: who(name) }) : ""),
      );
    }),
    el("div", { class: "target", text: `${t("common.target")} ${view.match.target}` }),
  );
}

// --- the table -------------------------------------------------------------------------------

export const BALL_COLOURS = { white: "#f7f5ee", yellow: "#f4cf1a", red: "#c4122f" };
const CUSHION = 0.045;
const RAIL = 0.08;
/** How far a flying ball's shadow falls, screen metres a metre of height, along both screen
 * axes (a light from the upper left: onered.svg's shadow, 0.8 m a metre diagonally). */
export const SHADOW_SHIFT = 0.8 * Math.SQRT1_2;

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
  /** A ball at table point p; `lift` (m) above the slate, its shadow falls further off
   * (SHADOW_SHIFT screen metres a metre of height, to the lower right). */
  drawBall(name, p, { ghost = false, outline = null, lift = 0 } = {}) {
    const g = this.canvas.getContext("2d");
    const [x, y] = this.px(p);
    const r = this.table.ball_radius * this.scale;
    const off = lift * SHADOW_SHIFT * this.scale;
    g.save();
    if (ghost) g.globalAlpha = 0.45;
    g.beginPath();
    g.arc(x + r * 0.12 + off, y + r * 0.18 + off, r, 0, 2 * Math.PI);
    g.fillStyle = lift > 0 ? "rgba(0,0,0,0.28)" : "rgba(0,0,0,0.35)";
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

/** The error in the page's language when the catalogue has its code ("error.<code>",
 * filled with the error's params: balls and options named in the page's language), else
 * the server's own message. */
export function errorText(error) {
  const code = error && error.code;
  if (code && I.bundle && I.bundle.ui[`error.${code}`]) {
    const raw = (error && error.params) || {};
    const params = {};
    for (const [k, v] of Object.entries(raw)) {
      params[k] = typeof v === "string" && I.bundle.balls[v] ? ballName(v) : v;
    }
    // {why}: a reason of the rules (onered.rules.possible) said from its own catalogue
    if (raw.reason) params.why = reasonText(raw);
    return t(`error.${code}`, params);
  }
  return String((error && error.message) || error);
}

/** Show an error (null: hide the box); the server's own words (in the page's language) follow the
 * catalogue's when they say more. */
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
