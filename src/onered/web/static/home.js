// The home page: start a marked match or a game, import a file, list the games.
import { I, api, ballName, capital, saveToken, setupPage, showError, t, word } from "./common.js";
import { loadGames, renderGames, setupGames } from "./find.js";

const errorBox = document.getElementById("error");

function names(form) {
  const p1 = form.elements.p1.value.trim();
  let p2 = form.elements.p2.value.trim();
  if (form.id === "play-form" && form.elements.opponent.value === "ai") {
    const strength = form.elements.strength.value;
    p2 = `${t("home.ai_name")} (${word("ai_levels", strength)})`;
  }
  return [p1, p2];
}

/** The computer's levels, as the server's grammar lists them (its default chosen), each
 * named in the page's language. */
function levelOptions() {
  const select = document.getElementById("play-form").elements.strength;
  const g = I.playerSpec;
  if (select.options.length === 0) {
    for (const level of g.levels) select.add(new Option(level, level, false, level === g.default_level));
  }
  for (const option of select.options) option.textContent = word("ai_levels", option.value);
}

function updateBreakerOptions() {
  for (const prefix of ["mark", "play", "match"]) {
    const form = document.getElementById(`${prefix}-form`);
    const [p1, p2] = names(form);
    document.getElementById(`${prefix}-b0`).textContent = p1 || t("home.player1");
    document.getElementById(`${prefix}-b1`).textContent = p2 || t("home.player2");
  }
  document.querySelectorAll("option[data-ball]").forEach((o) => {
    o.textContent = capital(ballName(o.dataset.ball));
  });
  const play = document.getElementById("play-form");
  const match = document.getElementById("match-form");
  const [m1, m2] = names(match);
  document.getElementById("match-h0").textContent = t("home.match.handicap", { name: m1 || t("home.player1") });
  document.getElementById("match-h1").textContent = t("home.match.handicap", { name: m2 || t("home.player2") });
  const human = play.elements.opponent.value === "human";
  document.getElementById("p2-row").hidden = !human;
  document.getElementById("strength-row").hidden = human;
}

async function create(form, mode) {
  showError(errorBox, null);
  const body = {
    mode,
    players: names(form),
    target: Number(form.elements.target.value),
    breaker: Number(form.elements.breaker.value),
  };
  if (mode === "mark") body.breaker_ball = form.elements.ball.value;
  if (mode === "play") {
    body.opponent = form.elements.opponent.value;
    body.strength = form.elements.strength.value;
  }
  try {
    const made = await api("POST", "/api/games", body);
    saveToken(made.id, made.token);
    location.href = mode === "mark" ? made.urls.mark : made.urls.play;
  } catch (e) {
    showError(errorBox, e);
  }
}

async function createMatch(form) {
  showError(errorBox, null);
  const body = {
    players: names(form),
    best_of: Number(form.elements.best_of.value),
    target: Number(form.elements.target.value),
    handicap: [Number(form.elements.h0.value || 0), Number(form.elements.h1.value || 0)],
    breaker: Number(form.elements.breaker.value),
    breaker_ball: form.elements.ball.value,
  };
  try {
    const made = await api("POST", "/api/matches", body);
    localStorage.setItem(`onered.match.${made.id}`, made.token);
    saveToken(made.game.id, made.game.token);
    location.href = made.urls.match;
  } catch (e) {
    showError(errorBox, e);
  }
}

async function importFile(form) {
  showError(errorBox, null);
  const file = form.elements.file.files[0];
  if (!file) return;
  try {
    const text = await file.text();
    const made = await api("POST", "/api/import", text);
    saveToken(made.id, made.token);
    location.href = made.urls.record;
  } catch (e) {
    showError(errorBox, e);
  }
}

function rerender() {
  levelOptions();
  updateBreakerOptions();
  renderGames();
}

async function main() {
  await setupPage(rerender);
  const markForm = document.getElementById("mark-form");
  const playForm = document.getElementById("play-form");
  markForm.addEventListener("submit", (e) => {
    e.preventDefault();
    create(markForm, "mark");
  });
  playForm.addEventListener("submit", (e) => {
    e.preventDefault();
    create(playForm, "play");
  });
  document.getElementById("import-form").addEventListener("submit", (e) => {
    e.preventDefault();
    importFile(e.target);
  });
  const matchForm = document.getElementById("match-form");
  matchForm.addEventListener("submit", (e) => {
    e.preventDefault();
    createMatch(matchForm);
  });
  for (const form of [markForm, playForm, matchForm]) form.addEventListener("input", updateBreakerOptions);
  setupGames(errorBox);
  try {
    await loadGames();
  } catch (e) {
    showError(errorBox, e);
  }
  rerender();
  document.body.dataset.ready = I.lang;
}

main();
