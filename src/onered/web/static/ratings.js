// The ratings: the ranking by target (/ratings?target=N), a player's ratings and history
// (/ratings/NAME), and the handicap a game between two players should start with.
import { api, el, fmtTime, setupPage, showError, t, tn, who } from "./common.js";
import { niceStep, svg } from "./plot.js";

const $ = (x) => document.getElementById(x);
const parts = location.pathname.split("/").filter(Boolean);
const playerName = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
const state = { target: Number(new URLSearchParams(location.search).get("target") || 0), ranking: null, player: null, proposal: null };

function targetLabel(target) {
  return target === 0 ? t("rating.all") : t("rating.to", { target });
}

function ratingText(r) {
  return `${Math.round(r.rating)} ± ${Math.round(2 * r.deviation)}`;
}

function renderRanking() {
  const view = state.ranking;
  if (!view) return;
  const targets = view.targets.includes(0) ? view.targets : [0, ...view.targets];
  $("targets").replaceChildren(...targets.map((x) => el("a", {
    href: x === 0 ? "/ratings" : `/ratings?target=${x}`,
    class: x === view.target ? "current" : "",
    text: targetLabel(x),
  })));
  const head = el("thead", {}, el("tr", {},
    el("th", { class: "num", text: "#" }), el("th", { text: t("rating.col.player") }),
    el("th", { class: "num", text: t("rating.col.rating") }), el("th", { class: "num", text: t("rating.col.deviation") }),
    el("th", { class: "num", text: t("rating.col.matches") }), el("th", { class: "num", text: t("rating.col.games") }),
    el("th", { text: t("rating.col.last") })));
  const rows = view.players.map((p) => el("tr", { class: p.provisional ? "provisional" : "", dataset: { player: p.name } },
    el("td", { class: "num", text: String(p.rank) }),
    el("td", {}, el("a", { href: `/ratings/${encodeURIComponent(p.name)}`, text: who(p.name) }),
      p.provisional ? el("span", { class: "small muted", text: ` (${t("rating.provisional")})` }) : null),
    el("td", { class: "num", text: String(Math.round(p.rating)) }),
    el("td", { class: "num", text: `± ${Math.round(2 * p.deviation)}` }),
    el("td", { class: "num", text: String(p.matches) }),
    el("td", { class: "num", text: `${p.wins}–${p.games - p.wins}` }),
    el("td", { class: "small", text: p.last ? fmtTime(p.last) : "" })));
  const empty = view.players.length ? [] : [el("tr", {}, el("td", { colspan: "7", class: "muted", text: t("rating.none") }))];
  $("ranking").replaceChildren(head, el("tbody", {}, ...rows, ...empty));
}

/** The player's rating over his matches at one target, with the band of two deviations. */
function chart(history) {
  const W = 640, H = 220, L = 46, R = 12, T = 12, B = 28;
  const lo = Math.min(...history.map((h) => h.rating - 2 * h.deviation));
  const hi = Math.max(...history.map((h) => h.rating + 2 * h.deviation));
  const step = niceStep(Math.max(50, hi - lo));
  const bottom = Math.floor(lo / step) * step;
  const top = Math.ceil(hi / step) * step;
  const x = (i) => L + ((W - L - R) * (i + 0.5)) / history.length;
  const y = (v) => H - B - ((H - T - B) * (v - bottom)) / Math.max(1, top - bottom);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": t("rating.chart") });
  for (let v = bottom; v <= top; v += step) {
    root.append(svg("line", { class: "grid", x1: L, x2: W - R, y1: y(v), y2: y(v) }), svg("text", { x: 4, y: y(v) + 4 }, String(v)));
  }
  const upper = history.map((h, i) => `${x(i)},${y(h.rating + 2 * h.deviation)}`);
  const lower = history.map((h, i) => `${x(i)},${y(h.rating - 2 * h.deviation)}`).reverse();
  root.append(svg("polygon", { class: "band", points: [...upper, ...lower].join(" ") }));
  root.append(svg("polyline", { class: "line", points: history.map((h, i) => `${x(i)},${y(h.rating)}`).join(" ") }));
  root.append(svg("text", { x: L, y: H - 8 }, t("rating.chart.x")));
  return el("figure", { class: "game-chart" }, el("figcaption", { text: t("rating.chart") }), root);
}

function renderPlayer() {
  const view = state.player;
  if (!view) return;
  $("player-panel").hidden = false;
  $("player-name").textContent = who(view.name);
  $("player-games").href = `/players/${encodeURIComponent(view.name)}`;
  $("player-ratings").replaceChildren(...view.ratings.map((r) => el("div", { class: "rating-card" },
    el("div", { class: "small muted", text: targetLabel(r.target) }),
    el("b", { text: String(Math.round(r.rating)) }), ` ± ${Math.round(2 * r.deviation)}`,
    el("div", { class: "small", text: tn("rating.card", r.matches, { games: r.games, wins: r.wins }) }))));
  const overall = view.history.filter((h) => h.target === 0);
  $("player-chart").replaceChildren(...(overall.length ? [chart(overall)] : []));
  const head = el("thead", {}, el("tr", {},
    el("th", { text: t("rating.col.date") }), el("th", { text: t("rating.col.target") }),
    el("th", { text: t("rating.col.opponent") }), el("th", { class: "num", text: t("rating.col.score") }),
    el("th", { class: "num", text: t("rating.col.rating") }), el("th", { class: "num", text: t("rating.col.change") })));
  const rows = [...view.history].reverse().map((h) => {
    const change = Math.round(h.rating - h.rating_before);
    return el("tr", {},
      el("td", { class: "small", text: fmtTime(h.finished) }),
      el("td", { text: targetLabel(h.target) }),
      el("td", {}, el("a", { href: `/ratings/${encodeURIComponent(h.opponent)}`, text: who(h.opponent) })),
      el("td", { class: "num", text: `${h.won} : ${h.lost}` }),
      el("td", { class: "num", text: ratingText(h) }),
      el("td", { class: `num ${change > 0 ? "up" : change < 0 ? "down" : ""}`, text: change > 0 ? `+${change}` : String(change) }));
  });
  const none = rows.length ? [] : [el("tr", {}, el("td", { colspan: "6", class: "muted", text: t("rating.none") }))];
  $("history").replaceChildren(head, el("tbody", {}, ...rows, ...none));
  document.title = `${who(view.name)} · ${t("rating.title")}`;
}

function renderProposal() {
  const p = state.proposal;
  if (!p) return;
  const [a, b] = p.players;
  const [ha, hb] = p.handicap;
  const chance = Math.round(100 * p.expected);
  const start = ha > 0 ? t("rating.handicap.start", { name: who(a.name), points: ha })
    : hb > 0 ? t("rating.handicap.start", { name: who(b.name), points: hb })
    : t("rating.handicap.level");
  $("handicap-out").textContent = `${t("rating.handicap.chance", { a: who(a.name), ra: Math.round(a.rating), b: who(b.name), rb: Math.round(b.rating), chance, target: p.target })} ${start}`;
}

function render() {
  renderRanking();
  renderPlayer();
  renderProposal();
}

async function propose(event) {
  event.preventDefault();
  const q = new URLSearchParams({ a: $("hc-a").value, b: $("hc-b").value, target: $("hc-target").value });
  try {
    state.proposal = await api("GET", `/api/ratings/handicap?${q}`);
    $("error").hidden = true;
  } catch (e) {
    showError($("error"), e);
    return;
  }
  renderProposal();
}

async function main() {
  await setupPage(render);
  $("handicap-form").addEventListener("submit", propose);
  try {
    const asked = [api("GET", `/api/ratings?target=${state.target}`)];
    if (playerName) asked.push(api("GET", `/api/ratings/${encodeURIComponent(playerName)}`));
    [state.ranking, state.player] = await Promise.all(asked);
    if (state.player) {
      $("hc-a").value = state.player.name;
      const first = state.ranking.players.find((p) => p.name !== state.player.name);
      if (first) $("hc-b").value = first.name;
    }
  } catch (e) {
    showError($("error"), e);
  }
  render();
  document.body.dataset.ready = "1";
}

main();
