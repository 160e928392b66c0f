// A tournament drawn as the pages show it: the bracket, the league tables, a fixture's words.
// Shared by the tournament's page, the club's screen and the paper (tournament*.js).
import { api, el, t, tn } from "./common.js";

/** The tournament's id, from /tournaments/{id}[/...]. */
export function tournamentId() {
  return decodeURIComponent(location.pathname.split("/")[2] || "");
}

export async function loadTournament(id) {
  return api("GET", `/api/tournaments/${encodeURIComponent(id)}`);
}

/** A round's name: the final, the semi-finals, ... else "Round n". */
export function roundName(view, round) {
  const left = view.rounds - round;
  if (left === 0) return t("tournament.round.final");
  if (left === 1) return t("tournament.round.semi");
  if (left === 2) return t("tournament.round.quarter");
  return t("tournament.round.n", { n: round });
}

/** A fixture's name for people: "Group 2 · round 1", "Final", "Round 3". */
export function fixtureName(view, f) {
  if (f.stage === "knockout") return roundName(view, f.round);
  const round = t("tournament.round.n", { n: f.round });
  return f.group ? `${t("tournament.group", { n: f.group })} · ${round}` : round;
}

export function formatText(view) {
  const kind = t(`tournament.format.${view.format}`);
  return `${kind} · ${t("match.format", {
    best_of: tn("match.of_games", view.best_of),
    wins: tn("match.wins", Math.floor(view.best_of / 2) + 1),
    target: tn("match.to_points", view.target),
  })}`;
}

function side(f, who, won) {
  const person = f[who];
  const r = f.result;
  const games = r && !r.walkover ? String(r.games[who === "a" ? 0 : 1]) : r && r.walkover && won ? t("tournament.wo") : "";
  let name = person ? person.name : f.bye && who === "b" ? t("tournament.bye") : "—";
  return el("div", { class: `slot${won ? " won" : ""}${person ? "" : " empty"}` },
    el("span", { class: "who", text: name }),
    el("span", { class: "games", text: games }));
}

/** One fixture's box in the bracket. */
export function fixtureBox(view, f) {
  const winner = f.result && f.result.winner ? f.result.winner.id : null;
  const meta = [f.key];
  if (f.table && f.state !== "done") meta.push(t("tournament.table", { n: f.table }));
  if (f.state === "playing") meta.push(t("tournament.state.playing"));
  return el("div", { class: `fixture ${f.state}`, dataset: { key: f.key } },
    el("div", { class: "meta", text: meta.join(" · ") }),
    side(f, "a", winner && f.a && winner === f.a.id),
    side(f, "b", winner && f.b && winner === f.b.id));
}

/** The knockout as columns of rounds, the final last. */
export function bracket(view) {
  const ko = view.fixtures.filter((f) => f.stage === "knockout");
  if (!ko.length) return null;
  const cols = [];
  for (let r = 1; r <= view.rounds; r += 1) {
    const fs = ko.filter((f) => f.round === r).sort((x, y) => x.number - y.number);
    cols.push(el("div", { class: "round" },
      el("h3", { text: roundName(view, r) }),
      el("div", { class: "round-fixtures" }, ...fs.map((f) => fixtureBox(view, f)))));
  }
  const champion = view.winner
    ? el("div", { class: "round champion" }, el("h3", { text: t("tournament.winner") }),
      el("div", { class: "round-fixtures" }, el("div", { class: "fixture done champion-box", text: view.winner.name })))
    : null;
  return el("div", { class: "bracket" }, ...cols, champion);
}

/** A league table (the round robin, or one group's). */
export function leagueTable(view, table) {
  const title = table.group ? t("tournament.group", { n: table.group }) : t("tournament.table_title");
  const head = el("tr", {},
    el("th", { class: "num", text: "#" }), el("th", { text: t("tournament.col.player") }),
    el("th", { class: "num", text: t("tournament.col.played") }), el("th", { class: "num", text: t("tournament.col.won") }),
    el("th", { class: "num", text: t("tournament.col.lost") }), el("th", { class: "num", text: t("tournament.col.games") }),
    el("th", { class: "num", text: t("tournament.col.points") }));
  const rows = table.lines.map((l) => el("tr", { class: l.withdrawn ? "withdrawn" : "" },
    el("td", { class: "num", text: String(l.place) }),
    el("td", { text: l.entrant.name + (l.withdrawn ? ` (${t("tournament.withdrawn")})` : "") }),
    el("td", { class: "num", text: String(l.played) }), el("td", { class: "num", text: String(l.won) }),
    el("td", { class: "num", text: String(l.lost) }),
    el("td", { class: "num", text: `${l.games_won}:${l.games_lost}` }),
    el("td", { class: "num strong", text: String(l.points) })));
  return el("section", { class: "panel league", dataset: { group: String(table.group || 0) } },
    el("h2", { text: title }),
    el("table", { class: "list" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

/** The fixtures still to play of a league stage, by round (not the knockout's). */
export function leagueFixtures(view) {
  return view.fixtures.filter((f) => f.stage !== "knockout" && !f.bye);
}

/** A table's QR code: the game played on it now (an <img>, the server draws it). */
export function tableQr(view, table, size = 120) {
  const path = `/tournaments/${view.id}/tables/${table}`;
  return el("img", {
    class: "qr", width: size, height: size, alt: t("tournament.qr_table", { n: table }),
    src: `/api/qr.svg?path=${encodeURIComponent(path)}`,
  });
}
