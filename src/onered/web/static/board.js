// The club's screen: one game on a TV, readable across the room — both players, their
// balls and scores, the break of the one at the table, the referee's calls, the last
// strokes; it follows the game live (server-sent events through live.js, polling where they
// cannot be had) and can call the strokes aloud. A game of a match (or /board/match/<id>)
// also shows the games won and the handicap, keeps each player on his side for the whole
// match (the match's order, not the game's), and moves on to the match's next game by itself.
import {
  GameModel, I, api, ballName, callsText, describe, el, gameIdFromPath, pointsText, setupPage,
  showError, t, tn, who, word,
} from "./common.js";
import { follow } from "./live.js";
import { Speaker } from "./speech.js";

const POLL_MS = 1000;
const MATCH_POLL_MS = 2000; // while a game of a match is over: is the next one started?
const LAST_ROWS = 6;
const $ = (x) => document.getElementById(x);
const parts = location.pathname.split("/").filter(Boolean);
const byMatch = parts[1] === "match"; // /board/match/<match id>, else /board/<game id>
let matchId = byMatch ? decodeURIComponent(parts[2] || "") : null;
let model = null;
let live = null;
let match = null; // GET /api/matches/<id>, for a game of a match
let matchTimer = null;
let speaker = null;
let online = true;

/** The players in the order of their sides: the match's order for a game of a match (fixed
 * for the whole match, whoever breaks), else the game's; `i` is the player's index in this
 * game. */
function sides(view) {
  const names = match ? match.players : view.match.players;
  return names.map((name, side) => ({ name, side, i: view.match.players.indexOf(name) }));
}

function renderPlayers(view) {
  const s = view.state;
  $("players").replaceChildren(...sides(view).map(({ name, side, i }) => {
    const atTable = s.to_play === name;
    const won = s.winner === name;
    const ball = view.match.balls[i];
    let sub = "";
    if (won) sub = t("common.winner", { name: who(name) });
    else if (atTable && s.from_d && !s.options.length) sub = t("common.from_d");
    const handicap = match ? match.settings.handicap[side] : 0;
    const wins = match ? match.wins[name] : null;
    return el("div", { class: `board-player${atTable ? " at-table" : ""}${won ? " won" : ""}`, dataset: { player: String(side), name } },
      el("div", { class: "board-name" }, el("span", { class: `ball-dot ${ball}`, title: ballName(ball) }), el("span", { text: who(name) })),
      match ? el("div", { class: "board-match" },
        el("b", { class: "board-wins", text: String(wins) }), ` ${tn("match.games_won", wins)}`,
        handicap ? " · " : null, handicap ? el("span", { class: "board-handicap", text: t("board.handicap", { n: handicap }) }) : null) : null,
      el("div", { class: "board-score", text: String(s.score[i]) }),
      el("div", { class: "board-sub" },
        atTable && !s.options.length ? el("span", {}, `${t("board.break")} `, el("b", { class: "board-break", text: String(s.break) })) : null,
        sub ? el("span", { text: atTable && !s.options.length ? ` · ${sub}` : sub }) : null));
  }));
}

function renderLast(view) {
  const players = sides(view).map((x) => x.name); // the score in the sides' order
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
  const view = model && model.view;
  if (!view) return;
  renderPlayers(view);
  $("calls").replaceChildren(...view.last.calls.map((c) => el("span", { class: `call ${c.code}`, dataset: { call: c.code }, text: word("calls", c.code) })));
  const s = view.state;
  $("status").textContent = match && match.winner ? t("match.winner", { name: who(match.winner) })
    : s.winner ? t("common.winner", { name: who(s.winner) }) + (match ? ` · ${t("board.next")}` : "")
      : s.options.length ? t("common.chooses", { name: who(s.to_play) })
        : s.to_play ? t("common.to_play", { name: who(s.to_play) }) : "";
  const number = view.settings.match ? view.settings.match.number + 1 : null;
  $("target").textContent = [match ? t("board.game_no", { n: number }) : "", `${t("common.target")} ${view.match.target}`].filter(Boolean).join(" · ");
  document.body.dataset.game = model.id;
  document.body.dataset.matchGame = number === null ? "" : String(number);
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
  if (matchId && model.view.state.winner) refreshMatch(); // the games won, then the next game
}

/** The match of the game shown: the games won; once the game shown is over, the match's next
 * game when it is started (asked again every MATCH_POLL_MS until then). */
async function refreshMatch() {
  clearTimeout(matchTimer);
  matchTimer = null;
  if (!matchId) return;
  try {
    match = await api("GET", `/api/matches/${encodeURIComponent(matchId)}`);
  } catch (e) {
    // not to be had now: the last known match is kept, and asked again below
  }
  const latest = match && match.games.length ? match.games[match.games.length - 1] : null;
  const over = model && model.view && model.view.state.winner;
  if (latest && !latest.missing && model && latest.id !== model.id && (over || !model.view)) {
    await show(latest.id);
    return;
  }
  render();
  if (over && !(match && match.over)) matchTimer = setTimeout(refreshMatch, MATCH_POLL_MS);
}

/** The next game of the match said aloud: "Game 2 of the match. Petrov to play". */
function announceGame(view) {
  const s = view.state;
  const parts = [t("board.game_no", { n: view.settings.match.number + 1 })];
  if (s.to_play) parts.push(t("common.to_play", { name: who(s.to_play) }));
  speaker.say(parts.join(". "));
}

/** Show game `gameId` and follow it live (the game before, if any, is let go). */
async function show(gameId) {
  const movedOn = model !== null && model.id !== gameId;
  if (live) live.stop();
  live = null;
  model = new GameModel(gameId);
  try {
    await model.load();
  } catch (e) {
    showError($("error"), e);
    return;
  }
  if (!byMatch && gameId !== gameIdFromPath()) history.replaceState(null, "", `/board/${encodeURIComponent(gameId)}`);
  const of = model.view.settings.match;
  if (of && !matchId) matchId = of.id;
  if (movedOn && of) announceGame(model.view); // the room hears the board move on
  heard = model.log.length;
  const mine = model;
  live = follow(model, {
    onChange: () => { if (model === mine) changed(); },
    onStatus: (now) => {
      if (model !== mine) return;
      online = now;
      render();
    },
    onMode: (mode) => { if (model === mine) document.body.dataset.follow = mode; },
    pollMs: POLL_MS,
  });
  document.body.dataset.follow = live.mode;
  await refreshMatch();
}

async function main() {
  await setupPage(render);
  speaker = new Speaker($("speech-box"));
  $("fullscreen").addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  });
  if (byMatch) {
    try {
      match = await api("GET", `/api/matches/${encodeURIComponent(matchId)}`);
    } catch (e) {
      showError($("error"), e);
    }
    const latest = match && match.games.length ? match.games[match.games.length - 1] : null;
    if (latest) await show(latest.id);
  } else {
    await show(gameIdFromPath());
  }
  render();
  document.body.dataset.ready = I.lang;
}

main();
