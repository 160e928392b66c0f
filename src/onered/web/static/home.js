// The home page: start a marked match or a game, import a file, list the games.
import { I, api, ballName, capital, el, fmtTime, saveToken, setupPage, showError, t } from "./common.js";

const errorBox = document.getElementById("error");
let games = [];

function names(form) {
  const p1 = form.elements.p1.value.trim();
  let p2 = form.elements.p2.value.trim();
  if (form.id === "play-form" && form.elements.opponent.value === "ai") {
    const strength = form.elements.strength.value;
    p2 = `${t("home.ai_name")} (${t(`home.strength.${strength}`)})`;
  }
  return [p1, p2];
}

function updateBreakerOptions() {
  for (const prefix of ["mark", "play"]) {
    const form = document.getElementById(`${prefix}-form`);
    const [p1, p2] = names(form);
    document.getElementById(`${prefix}-b0`).textContent = p1 || t("home.player1");
    document.getElementById(`${prefix}-b1`).textContent = p2 || t("home.player2");
  }
  document.querySelectorAll("option[data-ball]").forEach((o) => {
    o.textContent = capital(ballName(o.dataset.ball));
  });
  const play = document.getElementById("play-form");
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

function renderGames() {
  const box = document.getElementById("games");
  if (!games.length) {
    box.replaceChildren(el("p", { class: "muted", text: t("home.games.empty") }));
    return;
  }
  const rows = games.map((g) => {
    const status = g.winner ? t("home.status.won", { name: g.winner }) : t("home.status.on");
    const links = [el("a", { href: `/games/${g.id}`, text: t("common.record_link") })];
    if (!g.winner) {
      links.push(" · ", el("a", { href: `/watch/${g.id}`, text: t("common.watch_link") }));
      if (localStorage.getItem(`onered.token.${g.id}`)) {
        const href = g.mode === "play" ? `/play/${g.id}` : `/mark/${g.id}`;
        const label = g.mode === "play" ? t("common.play_link") : t("common.mark_link");
        links.push(" · ", el("a", { href, text: label }));
      }
    }
    return el(
      "tr",
      { dataset: { game: g.id } },
      el("td", { text: `${g.players[0]} — ${g.players[1]}` }),
      el("td", { class: "num", text: `${g.score[0]} : ${g.score[1]}` }),
      el("td", { class: "num", text: String(g.target) }),
      el("td", { text: t(`home.mode.${g.mode}`) }),
      el("td", { class: "num", text: String(g.strokes) }),
      el("td", { text: status }),
      el("td", { class: "small muted", text: fmtTime(g.updated) }),
      el("td", {}, ...links),
    );
  });
  box.replaceChildren(
    el(
      "table",
      { class: "list" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { text: t("home.col.players") }),
          el("th", { class: "num", text: t("common.score") }),
          el("th", { class: "num", text: t("common.target") }),
          el("th", { text: t("home.col.mode") }),
          el("th", { class: "num", text: t("common.strokes") }),
          el("th", { text: t("home.col.status") }),
          el("th", { text: "" }),
          el("th", { text: t("home.col.open") }),
        ),
      ),
      el("tbody", {}, ...rows),
    ),
  );
}

function rerender() {
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
  for (const form of [markForm, playForm]) form.addEventListener("input", updateBreakerOptions);
  try {
    games = (await api("GET", "/api/games")).games;
  } catch (e) {
    showError(errorBox, e);
  }
  rerender();
  document.body.dataset.ready = I.lang;
}

main();
