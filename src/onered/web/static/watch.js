// The spectators' live view: read only; the game's changes are pushed (live.js) and shown.
import {
  GameModel, I, TableView, drawPosition, el, gameIdFromPath, renderLast, renderLog, notes, renderScoreboard,
  setupPage, showError, t, tableGeometry, word,
} from "./common.js";
import { follow } from "./live.js";

const id = gameIdFromPath();
const model = new GameModel(id);
const $ = (x) => document.getElementById(x);
let table = null;

function render() {
  const view = model.view;
  if (!view) return;
  renderScoreboard($("scoreboard"), view);
  const last = view.last;
  $("calls").replaceChildren(...last.calls.map((c) => el("span", { class: `call ${c.code}`, dataset: { call: c.code }, text: word("calls", c.code) })));
  renderLast($("last"), view, model.log);
  const s = view.state;
  $("notes").replaceChildren(...notes(view).map((n) => el("li", { text: n })));
  renderLog($("log"), view, model.log, { limit: 40 }); // numbered strokes, options, points
  $("record-link").href = `/games/${id}`;
  if (table) {
    drawPosition(table, view);
  }
  document.body.dataset.version = String(s.version);
  document.body.dataset.revision = String(view.revision);
}

async function main() {
  await setupPage(render);
  try {
    table = new TableView($("table"), await tableGeometry());
    await model.load();
  } catch (e) {
    showError($("error"), e);
  }
  render();
  window.addEventListener("resize", render);
  document.body.dataset.ready = I.lang;
  const live = follow(model, {
    onChange: render,
    onStatus: (online, error) => showError($("error"), online ? null : error),
  });
  document.body.dataset.live = live.mode;
}

main();
