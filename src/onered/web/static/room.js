// The room's screen on a club's TV: every table in play (GET /api/room: the games not over),
// each with its players, score, target and who is at the table, linking to its own board;
// asked again every POLL_MS.
import { I, api, el, setupPage, showError, t, who } from "./common.js";

const POLL_MS = 3000;
const $ = (x) => document.getElementById(x);
let room = null;

function render() {
  if (!room) return;
  $("tables").replaceChildren(...room.tables.map((g) => el("a", { class: "room-table", href: g.urls.board, dataset: { game: g.id } },
    ...g.players.map((name, i) => el("div", { class: `room-row${g.to_play === name ? " at-table" : ""}`, dataset: { player: String(i) } },
      el("span", { class: "name", text: who(name, g.entrants) }), el("span", { class: "score", text: String(g.score[i]) }))),
    el("div", { class: "room-foot", text: [g.match ? t("board.game_no", { n: g.match.number + 1 }) : "", `${t("common.target")} ${g.target}`].filter(Boolean).join(" · ") }))));
  $("empty").hidden = room.tables.length > 0;
  $("updated").textContent = t("board.room_updated", { time: new Date(room.now * 1000).toLocaleTimeString(I.lang) });
  document.body.dataset.tables = String(room.tables.length);
}

async function refresh() {
  try {
    room = await api("GET", "/api/room");
    $("error").hidden = true;
    render();
  } catch (e) {
    showError($("error"), e);
  }
  setTimeout(refresh, POLL_MS);
}

async function main() {
  await setupPage(render);
  await refresh();
  document.body.dataset.ready = I.lang;
}

main();
