// The tournaments: the latest ones, and a new one (its organiser's secret kept here).
import { api, el, setupPage, showError, t } from "./common.js";

const $ = (x) => document.getElementById(x);
let list = [];

function render() {
  $("list").replaceChildren(el("tbody", {}, ...list.map((x) => el("tr", {},
    el("td", {}, el("a", { href: x.url, text: x.name })),
    el("td", { class: "small", text: t(`tournament.format.${x.format}`) }),
    el("td", { class: "num", text: String(x.players) }),
    el("td", { class: "small muted", text: t(`tournament.status.${x.status}`) })))));
}

async function create(e) {
  e.preventDefault();
  showError($("error"), null);
  const body = {
    name: $("t-name").value,
    format: $("t-format").value,
    best_of: Number($("t-best-of").value),
    target: Number($("t-target").value),
    tables: $("t-tables").value.split(/[^0-9]+/).filter(Boolean).map(Number),
  };
  if (body.format === "groups_then_knockout") {
    body.groups = Number($("t-groups").value);
    body.advance = Number($("t-advance").value);
  }
  try {
    const made = await api("POST", "/api/tournaments", body);
    localStorage.setItem(`onered.tournament.${made.id}`, made.token);
    location.href = made.urls.page;
  } catch (err) {
    showError($("error"), err);
  }
}

async function main() {
  await setupPage(render);
  $("new").addEventListener("submit", create);
  try {
    list = (await api("GET", "/api/tournaments")).tournaments;
  } catch (e) {
    showError($("error"), e);
  }
  render();
  document.body.dataset.ready = "1";
}

main();
