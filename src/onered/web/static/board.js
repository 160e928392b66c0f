// The club's screen: one game on a TV, readable across the room — both players, their
// balls and scores, the break of the one at the table, the referee's calls, the last
// strokes; it follows the game live (server-sent events through live.js, polling where they
// cannot be had) and can call the strokes aloud.
import {
  GameModel, I, ballName, callsText, describe, el, gameIdFromPath, pointsText, setupPage,
  showError, t, who, word,
} from "./common.js";
import { follow } from "./live.js";
import { Speaker } from "./speech.js";

const POLL_MS = 1000;
const LAST_ROWS = 6;
const id = gameIdFromPath();
const model = new GameModel(id);
const $ = (x) => document.getElementById(x);
let speaker = null;
let online = true;

function renderPlayers(view) {
  const s = view.state;
  $("players").replaceChildren(...view.match.players.map((name, i) => {
    const atTable = s.to_play === name;
    const won = s.winner === name;
    const ball = view.match.balls[i];
    let sub = "";
    if (won) sub = t("common.winner", { name: who(name) });
    else if (atTable && s.from_d && !s.options.length) sub = t("common.from_d");
    return el("div", { class: `board-player${atTable ? " at-table" : ""}${won ? " won" : ""}`, dataset: { player: String(i) } },
      el("div", { class: "board-name" }, el("span", { class: `ball-dot ${ball}`, title: ballName(ball) }), el("span", { text: who(name) })),
      el("div", { class: "board-score", text: String(s.score[i]) }),
      el("div", { class: "board-sub" },
        atTable && !s.options.length ? el("span", {}, `${t("board.break")} `, el("b", { class: "board-break", text: String(s.break) })) : null,
        sub ? el("span", { text: atTable && !s.options.length ? ` · ${sub}` : sub }) : null));
  }));
}

function renderLast(view) {
  const players = view.match.players;
  const rows = model.log.filter((e) => e.in.type !== "match").slice(-LAST_ROWS).reverse().map((e) => {
    const option = e.in.type === "choice";
    return el("tr", { class: [e.out.foul ? "foul" : "", option ? "option-row" : ""].join(" ").trim() },
      el("td", { class: "num", text: option ? "↳" : String(e.out.stroke) }),
      el("td", { text: who(e.out.striker) }),
      el("td", { text: [describe(e), callsText(e.out.calls.filter((c) => c.code !== "foul"))].filter(Boolean).join(" · ") }),
      el("td", { class: "num", text: option ? "" : pointsText(e) }),
      el("td", { class: "num", text: players.map((p) => e.out.score[p]).join(" : ") }));
  });
  $("log").replaceChildren(el("tbody", {}, ...rows));
}

function render() {
  const view = model.view;
  if (!view) return;
  renderPlayers(view);
  $("calls").replaceChildren(...view.last.calls.map((c) => el("span", { class: `call ${c.code}`, dataset: { call: c.code }, text: word("calls", c.code) })));
  const s = view.state;
  $("status").textContent = s.winner ? t("common.winner", { name: who(s.winner) })
    : s.options.length ? t("common.chooses", { name: who(s.to_play) })
      : s.to_play ? t("common.to_play", { name: who(s.to_play) }) : "";
  $("target").textContent = `${t("common.target")} ${view.match.target}`;
  renderLast(view);
  $("live").textContent = online ? `● ${t("board.live")}` : `● ${t("board.offline")}`;
  $("live").classList.toggle("off", !online);
  if (speaker) speaker.render();
  document.body.dataset.version = String(s.version);
  document.body.dataset.revision = String(view.revision);
}

/** A change pushed by the server (or polled): the new lines are said aloud. */
let heard = 0; // the log lines this page has shown
function changed() {
  speaker.sayNew(model.view, model.log, heard);
  heard = model.log.length;
  render();
}

async function main() {
  await setupPage(render);
  speaker = new Speaker($("speech-box"));
  try {
    await model.load();
  } catch (e) {
    showError($("error"), e);
  }
  $("fullscreen").addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  });
  heard = model.log.length;
  render();
  document.body.dataset.ready = I.lang;
  // live: server-sent events (live.js), polling where they cannot be had
  const live = follow(model, {
    onChange: changed,
    onStatus: (now) => {
      online = now;
      document.body.dataset.follow = live ? live.mode : "";
      render();
    },
    pollMs: POLL_MS,
  });
}

main();
