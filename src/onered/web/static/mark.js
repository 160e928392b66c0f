// The marker's page: one tap (or key) per stroke outcome; the referee does the rest.
import {
  ApiError, GameModel, I, TableView, drawPosition, api, applyI18n, ballName, callsText, capital, describe, el,
  fill, gameIdFromPath, renderLast, notes, renderScoreboard, saveToken, setupPage, showError, t,
  tableGeometry, tokenFor, word,
} from "./common.js";

const PARTS = ["cannon", "pot_red", "pot_opponent", "in_off_red", "in_off_opponent", "no_score", "miss"];
const PART_KEYS = { cannon: "c", pot_red: "r", pot_opponent: "p", in_off_red: "i", in_off_opponent: "o", no_score: "n", miss: "m" };
const FOUL_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-"];
const FIRST_HITS = [null, "red", "opponent", "both"];

const id = gameIdFromPath();
const model = new GameModel(id);
let token = tokenFor(id);
let table = null;
let view = null;
let busy = false;

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

function renderPad() {
  const over = !!view.state.winner;
  $("pad").replaceChildren(
    ...PARTS.map((part) =>
      el("button", {
        type: "button", class: `part-${part}${pad.parts.has(part) ? " on" : ""}`,
        dataset: { part }, disabled: over || busy,
        onclick: (e) => tapPart(part, e.shiftKey),
      }, el("span", { text: partLabel(part) }), el("kbd", { text: PART_KEYS[part].toUpperCase() })),
    ),
  );
  $("flags").replaceChildren(
    toggle("crossed", t("mark.crossed_baulk"), "B", pad.crossed, () => (pad.crossed = !pad.crossed)),
    toggle("touching", t("mark.touching"), "T", pad.touching, () => (pad.touching = !pad.touching)),
    toggle("no-stroke", t("mark.no_stroke"), "X", pad.noStroke, () => (pad.noStroke = !pad.noStroke)),
  );
  const hitLabel = (h) =>
    h === null ? t("mark.first_hit.auto") : h === "both" ? t("mark.first_hit.both")
      : h === "red" ? ballName("red") : ballName(opponentBall());
  $("first-hit").replaceChildren(
    el("span", { class: "small muted", text: `${t("mark.first_hit")}:` }),
    ...FIRST_HITS.map((h) =>
      el("button", {
        type: "button", class: pad.firstHit === h ? "on" : "", dataset: { hit: String(h) },
        onclick: () => { pad.firstHit = h; renderPad(); },
      }, hitLabel(h)),
    ),
    el("kbd", { text: "H" }),
  );
  const roles = [["red", ballName("red")], ["opponent", ballName(opponentBall())], ["own", t("mark.own_ball")]];
  $("off-table").replaceChildren(
    el("span", { class: "small muted", text: `${t("mark.off_table")}:` }),
    ...roles.map(([role, label]) =>
      el("button", {
        type: "button", class: pad.offTable.has(role) ? "on" : "", dataset: { off: role },
        onclick: () => { pad.offTable.has(role) ? pad.offTable.delete(role) : pad.offTable.add(role); renderPad(); },
      }, label),
    ),
  );
  const codes = [...I.bundle.caller_fouls, "out_of_turn"];
  $("fouls").replaceChildren(
    ...codes.map((code) => {
      const on = code === "out_of_turn" ? pad.outOfTurn : pad.fouls.has(code);
      const label = code === "out_of_turn" ? t("mark.foul_out_of_turn") : word("fouls", code);
      return el("button", {
        type: "button", class: on ? "on" : "", dataset: { foul: code }, disabled: over || busy,
        onclick: (e) => tapFoul(code, e.shiftKey),
      }, el("span", { text: capital(label) }), el("kbd", { text: keyFor(code) }));
    }),
  );
  const chips = [
    ...[...pad.parts].map(partLabel),
    ...[...pad.fouls].map((c) => capital(word("fouls", c))),
    pad.outOfTurn ? capital(t("mark.foul_out_of_turn")) : null,
    pad.crossed ? t("mark.crossed_baulk") : null,
    pad.touching ? t("mark.touching") : null,
    pad.noStroke ? t("mark.no_stroke") : null,
    pad.firstHit ? `${t("mark.first_hit")}: ${hitLabel(pad.firstHit)}` : null,
    ...[...pad.offTable].map((r) => `${t("mark.off_table")}: ${roles.find((x) => x[0] === r)[1]}`),
  ].filter(Boolean);
  $("composer").replaceChildren(
    ...(chips.length ? chips.map((c) => el("span", { class: "chip", text: c })) : [el("span", { class: "muted small", text: t("mark.nothing") })]),
  );
  $("combine").classList.toggle("on", pad.combine);
  $("enter").disabled = over || busy;
  $("undo").disabled = busy || !view.state.can_undo;
  $("claim").disabled = busy || !view.state.can_claim;
  $("claim").classList.toggle("on", pad.claim);
  $("claim-hint").hidden = !pad.claim;
  $("pad-panel").classList.toggle("claim-mode", pad.claim);
}

function toggle(name, label, key, on, flip) {
  return el("button", {
    type: "button", class: on ? "on" : "", dataset: { flag: name },
    onclick: () => { flip(); renderPad(); },
  }, el("span", { text: label }), el("kbd", { text: key }));
}

function renderStatus() {
  const last = view.last;
  const calls = last.calls;
  $("calls").replaceChildren(...calls.map((c) => el("span", { class: `call ${c.code}`, dataset: { call: c.code }, text: word("calls", c.code) })));
  renderLast($("last"), view, model.log);
  const s = view.state;
  $("notes").replaceChildren(...notes(view).map((n) => el("li", { text: n })));
  $("counters").textContent = t("common.counters", { cannons: s.counters.cannons, hazards: s.counters.hazards });
  const options = s.options;
  $("choice").hidden = !options.length || !token;
  $("choice-title").textContent = t("mark.option_title", { name: s.to_play || "" });
  $("choice-options").replaceChildren(
    ...options.map((o) => el("button", { type: "button", dataset: { option: o }, disabled: busy, onclick: () => choose(o) }, word("options", o))),
  );
}

function renderLog() {
  const rows = model.log.filter((e) => e.in.type !== "match").slice(-60).reverse().map((e) =>
    el("tr", { class: e.out.foul ? "foul" : "", dataset: { seq: String(e.seq) } },
      el("td", { class: "num", text: String(e.out.stroke) }),
      el("td", { text: e.out.striker || "" }),
      el("td", {}, describe(e), e.out.calls.length ? el("div", { class: "small muted", text: callsText(e.out.calls) }) : null),
      el("td", { class: "num", text: e.out.foul ? `−${e.out.foul.penalty}` : e.out.points ? `+${e.out.points}` : "" }),
      el("td", { class: "num", text: view.match.players.map((p) => e.out.score[p]).join(":") }),
    ));
  $("log").replaceChildren(el("tbody", {}, ...rows));
}

function renderTable() {
  if (!table) return;
  drawPosition(table, view);
}

function render() {
  if (!view) return;
  renderScoreboard($("scoreboard"), view);
  renderStatus();
  renderLog();
  $("pad-panel").hidden = !token;
  $("readonly").hidden = !!token;
  if (token) renderPad();
  renderTable();
  $("watch-link").href = `/watch/${id}`;
  $("record-link").href = `/games/${id}`;
  if (token) {
    $("secret-box").hidden = false;
    $("secret-link").value = `${location.origin}/mark/${id}#token=${token}`;
  }
  applyI18n($("readonly"));
  document.body.dataset.version = String(view.state.version);
}

async function change(path, body) {
  if (busy) return;
  busy = true;
  showError(errorBox, null);
  $("notice").hidden = true;
  try {
    const answer = await api("POST", `/api/games/${id}/${path}`, { ...body, after: model.version }, token);
    model.apply(answer.game);
    view = model.view;
    resetPad();
  } catch (e) {
    if (e instanceof ApiError && e.status === 409 && e.message.startsWith("after:")) {
      await reload();
      $("notice").textContent = t("common.conflict");
      $("notice").hidden = false;
    } else {
      showError(errorBox, e);
    }
  } finally {
    busy = false;
    render();
  }
}

function markBody(extraPart, extraFoul) {
  const parts = new Set(pad.parts);
  if (extraPart) parts.add(extraPart);
  const fouls = new Set(pad.fouls);
  let outOfTurn = pad.outOfTurn;
  if (extraFoul === "out_of_turn") outOfTurn = true;
  else if (extraFoul) fouls.add(extraFoul);
  return {
    parts: [...parts], fouls: [...fouls], out_of_turn: outOfTurn,
    crossed_baulk: pad.crossed, touching: pad.touching, struck: !pad.noStroke,
    first_hit: pad.firstHit, off_table: [...pad.offTable],
  };
}

function tapPart(part, shift) {
  if (pad.claim) return;
  if (shift || pad.combine) {
    pad.parts.has(part) ? pad.parts.delete(part) : pad.parts.add(part);
    renderPad();
    return;
  }
  change("mark", markBody(part, null));
}

function tapFoul(code, shift) {
  if (pad.claim) {
    if (code === "out_of_turn") return;
    change("claim", { fouls: [code] });
    return;
  }
  if (shift || pad.combine) {
    if (code === "out_of_turn") pad.outOfTurn = !pad.outOfTurn;
    else pad.fouls.has(code) ? pad.fouls.delete(code) : pad.fouls.add(code);
    renderPad();
    return;
  }
  change("mark", markBody(null, code));
}

function enter() {
  change("mark", markBody(null, null));
}

function choose(option) {
  change("choice", { option });
}

function undo() {
  change("undo", {});
}

function onKey(e) {
  if (!token || !view) return;
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement) return;
  const key = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && key === "z") { e.preventDefault(); undo(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const part = Object.keys(PART_KEYS).find((p) => PART_KEYS[p] === key);
  if (part) { e.preventDefault(); tapPart(part, e.shiftKey); return; }
  // Shift changes the digit keys' characters; read the physical key for the foul pad.
  const digit = e.code && e.code.startsWith("Digit") ? e.code.slice(5) : e.code === "Minus" ? "-" : key;
  const index = FOUL_KEYS.indexOf(digit);
  if (index >= 0) {
    const codes = [...I.bundle.caller_fouls, "out_of_turn"];
    e.preventDefault();
    tapFoul(codes[index], e.shiftKey);
    return;
  }
  const flips = {
    b: () => (pad.crossed = !pad.crossed),
    t: () => (pad.touching = !pad.touching),
    x: () => (pad.noStroke = !pad.noStroke),
    h: () => (pad.firstHit = FIRST_HITS[(FIRST_HITS.indexOf(pad.firstHit) + 1) % FIRST_HITS.length]),
  };
  if (flips[key]) { e.preventDefault(); flips[key](); renderPad(); return; }
  if (key === "enter") { e.preventDefault(); enter(); return; }
  if (key === "escape") { e.preventDefault(); resetPad(); renderPad(); return; }
  if (key === "u" || key === "backspace") { e.preventDefault(); undo(); return; }
  if (key === "a" && view.state.can_claim) { e.preventDefault(); pad.claim = !pad.claim; renderPad(); return; }
  if (key === "shift") return;
}

async function reload() {
  model.log.length = 0;
  await model.load();
  view = model.view;
}

async function main() {
  await setupPage(render);
  try {
    table = new TableView($("table"), await tableGeometry());
    await reload();
  } catch (e) {
    showError(errorBox, e);
    return;
  }
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
      showError(errorBox, null);
      render();
    } catch (err) {
      showError(errorBox, err.status === 403 ? t("common.secret_bad") : err);
    }
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", renderTable);
  render();
  document.body.dataset.ready = I.lang;
}

main();
