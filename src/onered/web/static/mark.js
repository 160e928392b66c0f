// The marker's page: one tap (or key) per stroke outcome; the referee does the rest.
// Keys are read by their position (KeyboardEvent.code), so they work on a Russian layout as
// on an English one. Every tap goes through the outbox: kept in the browser and sent in
// order, so a tap made while the wifi is down is sent when it is back, never lost.
import {
  GameModel, I, Outbox, TableView, drawPosition, api, applyI18n, ballName, capital, el,
  fill, gameIdFromPath, keyLabel, notes, reasonText, renderLast, renderLog, renderOutbox,
  resendOutbox,
  renderScoreboard, saveToken, setupPage, showError, t, tableGeometry, tokenFor, typing, who, word,
  controlKey,
} from "./common.js";
import { keepConfirmed, registerWorker, renderOffline, restoreConfirmed } from "./offline.js";
import { Speaker } from "./speech.js";

const PARTS = ["cannon", "pot_red", "pot_opponent", "in_off_red", "in_off_opponent", "no_score", "miss"];
/** The physical key of each tap (the letters of the English layout's keys). */
const PART_KEYS = {
  cannon: "KeyC", pot_red: "KeyR", pot_opponent: "KeyP", in_off_red: "KeyI",
  in_off_opponent: "KeyO", no_score: "KeyN", miss: "KeyM",
};
const FOUL_KEYS = ["Digit1", "Digit2", "Digit3", "Digit4", "Digit5", "Digit6", "Digit7", "Digit8", "Digit9", "Digit0", "Minus"];
const FLAG_KEYS = { crossed: "KeyB", touching: "KeyT", noStroke: "KeyX", firstHit: "KeyH" };
const KEYS = { claim: "KeyA", undo: "KeyU", enter: "Enter", clear: "Escape" };
const FIRST_HITS = [null, "red", "opponent", "both"];

const id = gameIdFromPath();
const model = new GameModel(id);
let token = tokenFor(id);
let table = null;
let view = null;
let outbox = null;
let speaker = null;
// When the server last confirmed the view shown (ms), and whether the page opened without
// the server (the view then is the one kept on this device: offline.js).
let confirmedAt = null;
let openedOffline = false;

// What the marker has collected for the next stroke.
const pad = {
  combine: false,
  parts: new Set(),
  fouls: new Set(),
  outOfTurn: false,
  crossed: false,
  touching: false,
  noStroke: false,
  firstHit: null,
  offTable: new Set(),
  claim: false,
};

const $ = (x) => document.getElementById(x);
const errorBox = $("error");

function resetPad() {
  pad.parts.clear();
  pad.fouls.clear();
  pad.offTable.clear();
  pad.outOfTurn = pad.crossed = pad.touching = pad.noStroke = pad.claim = false;
  pad.firstHit = null;
  pad.combine = false;
}

function opponentBall() {
  const s = view.state;
  if (s.to_play_index === null) return view.match.balls[1];
  return view.match.balls[1 - s.to_play_index];
}

function partLabel(part) {
  const forms = I.bundle.ball_forms[opponentBall()];
  return fill(word("parts", part), { opp: forms.en, opp_ru: forms.ru, opp_gen: forms.gen });
}

function keyFor(code) {
  const all = [...I.bundle.caller_fouls, "out_of_turn"];
  return FOUL_KEYS[all.indexOf(code)];
}

function kbd(code) {
  return el("kbd", { text: keyLabel(code) });
}

/** Why a tap is impossible now (the referee's reading of the position, served with the
 * state), or null. Unknown while taps wait in the outbox: the position is not known then. */
function why(group, name) {
  if (outbox && outbox.length) return null;
  const possible = view.state.possible;
  return (possible && possible[group] && possible[group][name]) || null;
}

/** A tap button; an impossible one stays tappable but only says why (hover and touch). */
function tapButton(attrs, why_, onTap, ...children) {
  const reason = why_ ? reasonText(why_) : null;
  const cls = [attrs.class || "", why_ ? "impossible" : ""].filter(Boolean).join(" ");
  return el("button", {
    ...attrs, type: "button", class: cls, title: reason, "aria-disabled": why_ ? "true" : null,
    dataset: { ...(attrs.dataset || {}), ...(why_ ? { reason: why_.reason } : {}) },
    onclick: (e) => (why_ ? explain(why_) : onTap(e)),
  }, ...children);
}

function explain(why_) {
  showNote(reasonText(why_));
}

/** A short note in the toast (a tap refused here, not queued). */
function showNote(text) {
  const box = $("reason");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(showNote.timer);
  showNote.timer = setTimeout(() => (box.hidden = true), 4000);
}

function hitLabel(h) {
  return h === null ? t("mark.first_hit.auto") : h === "both" ? t("mark.first_hit.both")
    : h === "red" ? ballName("red") : ballName(opponentBall());
}

/** The tap button that has the keyboard's focus, as a selector (the pad is drawn anew on
 * every change: the new button of the same tap gets the focus back), or null. */
function focusedTap() {
  const x = document.activeElement;
  if (!(x instanceof HTMLElement) || !x.closest("#pad-panel")) return null;
  const key = ["part", "flag", "hit", "off", "foul"].find((k) => x.dataset[k] !== undefined);
  return key ? `[data-${key}="${x.dataset[key]}"]` : null;
}

function renderPad() {
  const focus = focusedTap();
  drawPad();
  const again = focus && $("pad-panel").querySelector(focus);
  if (again && again !== document.activeElement) again.focus();
}

function drawPad() {
  const over = !!view.state.winner && !(outbox && outbox.length);
  $("pad").replaceChildren(
    ...PARTS.map((part) =>
      tapButton({ class: `part-${part}${pad.parts.has(part) ? " on" : ""}`, dataset: { part }, disabled: over },
        why("parts", part), (e) => tapPart(part, e.shiftKey),
        el("span", { text: partLabel(part) }), kbd(PART_KEYS[part])),
    ),
  );
  $("flags").replaceChildren(
    toggle("crossed", t("mark.crossed_baulk"), FLAG_KEYS.crossed, pad.crossed, () => (pad.crossed = !pad.crossed)),
    toggle("touching", t("mark.touching"), FLAG_KEYS.touching, pad.touching, () => (pad.touching = !pad.touching)),
    toggle("no-stroke", t("mark.no_stroke"), FLAG_KEYS.noStroke, pad.noStroke, () => (pad.noStroke = !pad.noStroke)),
  );
  $("first-hit").replaceChildren(
    el("span", { class: "small muted", text: `${t("mark.first_hit")}:` }),
    ...FIRST_HITS.map((h) =>
      tapButton({ class: pad.firstHit === h ? "on" : "", dataset: { hit: String(h) } },
        h === null ? null : why("first_hit", h), () => { pad.firstHit = h; renderPad(); }, hitLabel(h)),
    ),
    kbd(FLAG_KEYS.firstHit),
  );
  const roles = [["red", ballName("red")], ["opponent", ballName(opponentBall())], ["own", t("mark.own_ball")]];
  $("off-table").replaceChildren(
    el("span", { class: "small muted", text: `${t("mark.off_table")}:` }),
    ...roles.map(([role, label]) =>
      tapButton({ class: pad.offTable.has(role) ? "on" : "", dataset: { off: role } }, why("off_table", role),
        () => { pad.offTable.has(role) ? pad.offTable.delete(role) : pad.offTable.add(role); renderPad(); }, label),
    ),
  );
  const codes = [...I.bundle.caller_fouls, "out_of_turn"];
  $("fouls").replaceChildren(
    ...codes.map((code) => {
      const on = code === "out_of_turn" ? pad.outOfTurn : pad.fouls.has(code);
      const label = code === "out_of_turn" ? t("mark.foul_out_of_turn") : word("fouls", code);
      return el("button", {
        type: "button", class: on ? "on" : "", dataset: { foul: code }, disabled: over,
        onclick: (e) => tapFoul(code, e.shiftKey),
      }, el("span", { text: capital(label) }), kbd(keyFor(code)));
    }),
  );
  const chips = chipTexts();
  $("composer").replaceChildren(
    ...(chips.length ? chips.map((c) => el("span", { class: "chip", text: c })) : [el("span", { class: "muted small", text: t("mark.nothing") })]),
  );
  $("combine").classList.toggle("on", pad.combine);
  $("enter").disabled = over;
  const queued = outbox && outbox.length > 0;
  $("undo").disabled = !queued && !view.state.can_undo;
  $("claim").disabled = queued || !view.state.can_claim;
  $("claim").classList.toggle("on", pad.claim);
  $("claim-hint").hidden = !pad.claim;
  $("pad-panel").classList.toggle("claim-mode", pad.claim);
  document.querySelectorAll("kbd[data-key]").forEach((k) => (k.textContent = keyLabel(k.dataset.key)));
}

function chipTexts(parts = pad.parts, fouls = pad.fouls, outOfTurn = pad.outOfTurn) {
  const roles = { red: ballName("red"), opponent: ballName(opponentBall()), own: t("mark.own_ball") };
  return [
    ...[...parts].map(partLabel),
    ...[...fouls].map((c) => capital(word("fouls", c))),
    outOfTurn ? capital(t("mark.foul_out_of_turn")) : null,
    pad.crossed ? t("mark.crossed_baulk") : null,
    pad.touching ? t("mark.touching") : null,
    pad.noStroke ? t("mark.no_stroke") : null,
    pad.firstHit ? `${t("mark.first_hit")}: ${hitLabel(pad.firstHit)}` : null,
    ...[...pad.offTable].map((r) => `${t("mark.off_table")}: ${roles[r]}`),
  ].filter(Boolean);
}

function toggle(name, label, key, on, flip) {
  return el("button", {
    type: "button", class: on ? "on" : "", dataset: { flag: name },
    onclick: () => { flip(); renderPad(); },
  }, el("span", { text: label }), kbd(key));
}

function renderStatus() {
  const last = view.last;
  $("calls").replaceChildren(...last.calls.map((c) => el("span", { class: `call ${c.code}`, dataset: { call: c.code }, text: word("calls", c.code) })));
  renderLast($("last"), view, model.log);
  const s = view.state;
  $("notes").replaceChildren(...notes(view).map((n) => el("li", { text: n })));
  $("counters").textContent = t("common.counters", { cannons: s.counters.cannons, hazards: s.counters.hazards });
  const options = s.options;
  // While taps wait, the options shown are those of the last known position: not offered.
  const queued = !!(outbox && outbox.length);
  $("choice").hidden = !options.length || !token;
  $("choice-title").textContent = t("mark.option_title", { name: who(s.to_play) });
  $("choice-options").replaceChildren(
    ...options.map((o) => el("button", { type: "button", dataset: { option: o }, disabled: queued, onclick: () => choose(o) }, word("options", o))),
  );
}

function renderQueue() {
  const extra = el("div", { class: "row" },
    el("span", { class: "small muted", text: t("outbox.choice") }),
    ...["as_they_lie", "from_d"].map((o) => el("button", { type: "button", dataset: { queueOption: o }, onclick: () => choose(o) }, word("options", o))));
  renderOutbox($("outbox"), outbox, resend, extra);
}

function resend() {
  return resendOutbox(outbox, reload, errorBox);
}

/** Whether the server cannot be reached: the page opened without it, or a queued change
 * is waiting for it (the score shown is then the last one it confirmed). */
function offline() {
  return openedOffline || !!(outbox && outbox.lastError && outbox.lastError.status === 0 && !outbox.blocked);
}

function render() {
  if (!view) return;
  renderOffline($("offline"), { offline: offline(), saved: confirmedAt, waiting: outbox ? outbox.length : 0 });
  $("scoreboard").classList.toggle("unconfirmed", offline());
  renderScoreboard($("scoreboard"), view);
  renderStatus();
  renderLog($("log"), view, model.log);
  $("pad-panel").hidden = !token;
  $("readonly").hidden = !!token;
  if (token) renderPad();
  renderQueue();
  drawPosition(table, view);
  $("watch-link").href = `/watch/${id}`;
  $("record-link").href = `/games/${id}`;
  $("board-link").href = `/board/${id}`;
  const inMatch = view.settings && view.settings.match; // a game of a match: back to it
  $("match-link-box").hidden = !inMatch;
  if (inMatch) {
    $("match-link").href = `/matches/${inMatch.id}`;
    $("match-link").textContent = t("match.link", { number: inMatch.number + 1 });
  }
  if (token) {
    $("secret-box").hidden = false;
    $("secret-link").value = `${location.origin}/mark/${id}#token=${token}`;
  }
  applyI18n($("readonly"));
  document.body.dataset.version = String(view.state.version);
}

/** Queue a change; the outbox sends it (now, or when the server is back). */
function change(path, body, label) {
  showError(errorBox, null);
  $("notice").hidden = true;
  outbox.add(path, body, label);
  resetPad();
  render();
}

function markBody(extraPart, extraFoul) {
  const parts = new Set(pad.parts);
  if (extraPart) parts.add(extraPart);
  const fouls = new Set(pad.fouls);
  let outOfTurn = pad.outOfTurn;
  if (extraFoul === "out_of_turn") outOfTurn = true;
  else if (extraFoul) fouls.add(extraFoul);
  const body = {
    parts: [...parts], fouls: [...fouls], out_of_turn: outOfTurn,
    crossed_baulk: pad.crossed, touching: pad.touching, struck: !pad.noStroke,
    first_hit: pad.firstHit, off_table: [...pad.offTable],
  };
  return [body, chipTexts(parts, fouls, outOfTurn).join(" + ")];
}

function tapPart(part, shift) {
  if (pad.claim) return;
  if (shift || pad.combine) {
    pad.parts.has(part) ? pad.parts.delete(part) : pad.parts.add(part);
    renderPad();
    return;
  }
  change("mark", ...markBody(part, null));
}

function tapFoul(code, shift) {
  if (pad.claim) {
    if (code === "out_of_turn") return;
    change("claim", { fouls: [code] }, t("outbox.claim_item", { fouls: word("fouls", code) }));
    return;
  }
  if (shift || pad.combine) {
    if (code === "out_of_turn") pad.outOfTurn = !pad.outOfTurn;
    else pad.fouls.has(code) ? pad.fouls.delete(code) : pad.fouls.add(code);
    renderPad();
    return;
  }
  change("mark", ...markBody(null, code));
}

function enter() {
  const [body, label] = markBody(null, null);
  // Nothing collected: nothing is queued (the server would refuse it); say so here.
  const empty = !body.parts.length && !body.fouls.length && !body.out_of_turn && !body.off_table.length;
  if (empty && body.struck) {
    showNote(t("error.mark_empty"));
    return;
  }
  change("mark", body, label || t("mark.nothing"));
}

function choose(option) {
  change("choice", { option }, `${t("common.choice")}: ${word("options", option)}`);
}

function undo() {
  // A tap still waiting is taken back here; else the server drops the last line.
  if (outbox.length && outbox.dropLast()) {
    $("notice").textContent = t("outbox.undo");
    $("notice").hidden = false;
    render();
    return;
  }
  if (!view.state.can_undo) return;
  change("undo", {}, t("outbox.undo_item"));
}

function onKey(e) {
  // Enter or Space on a focused button presses that button only (never also "record")
  if (!token || !view || typing(e) || controlKey(e)) return;
  const code = e.code;
  if ((e.ctrlKey || e.metaKey) && code === "KeyZ") { e.preventDefault(); undo(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const part = Object.keys(PART_KEYS).find((p) => PART_KEYS[p] === code);
  if (part) {
    e.preventDefault();
    const w = pad.claim ? null : why("parts", part);
    if (w) explain(w);
    else tapPart(part, e.shiftKey);
    return;
  }
  const index = FOUL_KEYS.indexOf(code);
  if (index >= 0) {
    const codes = [...I.bundle.caller_fouls, "out_of_turn"];
    e.preventDefault();
    tapFoul(codes[index], e.shiftKey);
    return;
  }
  const flips = {
    [FLAG_KEYS.crossed]: () => (pad.crossed = !pad.crossed),
    [FLAG_KEYS.touching]: () => (pad.touching = !pad.touching),
    [FLAG_KEYS.noStroke]: () => (pad.noStroke = !pad.noStroke),
    [FLAG_KEYS.firstHit]: () => (pad.firstHit = FIRST_HITS[(FIRST_HITS.indexOf(pad.firstHit) + 1) % FIRST_HITS.length]),
  };
  if (flips[code]) { e.preventDefault(); flips[code](); renderPad(); return; }
  if (code === "Enter" || code === "NumpadEnter") { e.preventDefault(); enter(); return; }
  if (code === "Escape") { e.preventDefault(); resetPad(); renderPad(); return; }
  if (code === KEYS.undo || code === "Backspace") { e.preventDefault(); undo(); return; }
  if (code === KEYS.claim && view.state.can_claim) { e.preventDefault(); pad.claim = !pad.claim; renderPad(); }
}

async function reload() {
  model.log.length = 0;
  await model.load();
  view = model.view;
  confirmedAt = keepConfirmed(model);
  openedOffline = false;
}

/** The page opened without the server: the view kept on this device, if any (then true). */
function openKept() {
  const saved = restoreConfirmed(model);
  if (saved === null) return false;
  view = model.view;
  confirmedAt = saved;
  openedOffline = true;
  return true;
}

/** Read the game again once the server is back, when the page opened without it and
 * nothing is queued (a queue sent brings the game's answer itself). */
async function refresh() {
  if (!openedOffline || (outbox && outbox.length)) return;
  try {
    await reload();
  } catch (e) {
    return; // still away: the kept view stays
  }
  render();
}

/** The server's answer to a queued change: take it, and say it aloud. */
function applyAnswer(answer) {
  const from = model.log.length;
  model.apply(answer.game);
  view = model.view;
  confirmedAt = keepConfirmed(model);
  openedOffline = false;
  speaker.sayNew(model.view, model.log, from);
}

async function main() {
  registerWorker(); // this page opens again without the server (offline.js)
  await setupPage(render);
  speaker = new Speaker($("speech-box"));
  try {
    table = new TableView($("table"), await tableGeometry());
    await reload();
  } catch (e) {
    // no answer: the last view the server confirmed, kept on this device, if any
    if (e.status !== 0 || !openKept()) {
      showError(errorBox, e);
      return;
    }
  }
  outbox = new Outbox(id, {
    token,
    apply: applyAnswer,
    changed: render,
    version: () => model.version,
    refused: async (item) => {
      if (item.state !== "stale") return;
      // The game changed elsewhere: show it as it is now; the refused tap stays queued.
      try {
        await reload();
        $("notice").textContent = t("common.conflict");
        $("notice").hidden = false;
      } catch (e) {
        showError(errorBox, e);
      }
      render();
    },
  });
  $("combine").addEventListener("click", () => { pad.combine = !pad.combine; renderPad(); });
  $("enter").addEventListener("click", enter);
  $("clear").addEventListener("click", () => { resetPad(); renderPad(); });
  $("undo").addEventListener("click", undo);
  $("claim").addEventListener("click", () => { pad.claim = !pad.claim; renderPad(); });
  $("token-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const candidate = e.target.elements.token.value.trim();
    try {
      await api("POST", `/api/games/${id}/check`, {}, candidate);
      saveToken(id, candidate);
      token = candidate;
      outbox.token = token;
      showError(errorBox, null);
      render();
    } catch (err) {
      showError(errorBox, err.status === 403 ? t("common.secret_bad") : err);
    }
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", render);
  window.addEventListener("online", refresh);
  if (openedOffline) setInterval(refresh, 15000); // the network may be up, the server not
  render();
  document.body.dataset.ready = I.lang;
  if (token) outbox.pump();
}

main();
