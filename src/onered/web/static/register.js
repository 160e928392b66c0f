// The player register: players by name, searched; a club's admin adds, edits and removes
// his club's players (a federation admin any).
import { I, el, setupPage, showError, t, tn } from "./common.js";
import { csrfToken, me, send } from "./account-api.js";

const $ = (x) => document.getElementById(x);
let who = { account: null };
let clubs = [];
let found = { players: [], total: 0 };
let editing = null;

const clubName = (id) => (clubs.find((c) => c.id === id) || { name: "" }).name || t("register.no_club");

function mayKeep(clubId) {
  const a = who.account;
  if (!a) return false;
  if (a.role === "federation_admin") return true;
  return a.role === "club_admin" && clubId !== null && clubId === a.club_id;
}

async function guard(action) {
  showError($("error"), null);
  $("notice").hidden = true;
  try {
    await action();
  } catch (err) {
    showError($("error"), err);
  }
}

async function load() {
  const q = encodeURIComponent($("q").value.trim());
  const club = $("club-filter").value;
  found = await send("GET", `/api/register?q=${q}&limit=500${club ? `&club=${encodeURIComponent(club)}` : ""}`);
  render();
  document.body.dataset.loads = String(Number(document.body.dataset.loads || 0) + 1);
}

function row(p) {
  const keep = mayKeep(p.club_id);
  if (editing === p.id) {
    const name = el("input", { type: "text", value: p.name, maxlength: "40", class: "edit-name" });
    const rating = el("input", { type: "number", value: p.rating === null ? "" : String(p.rating), min: "0", max: "5000", step: "any", class: "edit-rating" });
    return el("tr", { dataset: { id: p.id } },
      el("td", {}, name), el("td", { text: clubName(p.club_id) }), el("td", { class: "num" }, rating),
      el("td", {},
        el("button", { type: "button", class: "primary", text: t("register.save"), onclick: () => guard(async () => {
          const body = { name: name.value, rating: rating.value === "" ? null : Number(rating.value) };
          await send("PATCH", `/api/register/${encodeURIComponent(p.id)}`, body);
          editing = null;
          await load();
        }) }), " ",
        el("button", { type: "button", text: t("register.cancel"), onclick: () => { editing = null; render(); } })));
  }
  return el("tr", { dataset: { id: p.id } },
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(p.name)}`, text: p.name })),
    el("td", { text: clubName(p.club_id) }),
    el("td", { class: "num", text: p.rating === null ? "" : String(Math.round(p.rating)) }),
    el("td", {}, keep ? [
      el("button", { type: "button", text: t("register.edit"), onclick: () => { editing = p.id; render(); } }), " ",
      el("button", { type: "button", class: "danger", text: t("register.remove"), onclick: () => {
        if (!confirm(t("register.confirm_remove", { name: p.name }))) return;
        guard(async () => { await send("DELETE", `/api/register/${encodeURIComponent(p.id)}`); await load(); });
      } }),
    ] : null));
}

function render() {
  const head = el("thead", {}, el("tr", {},
    el("th", { text: t("register.name") }), el("th", { text: t("register.club") }),
    el("th", { class: "num", text: t("register.rating") }), el("th", {})));
  const body = found.players.length
    ? found.players.map(row)
    : [el("tr", {}, el("td", { colspan: "4", class: "muted", text: t("register.none") }))];
  $("players").replaceChildren(head, el("tbody", {}, ...body));
  $("total").textContent = tn("register.total", found.total);
  const filter = $("club-filter");
  const chosen = filter.value;
  filter.replaceChildren(el("option", { value: "", text: t("account.clubs") }),
    ...clubs.map((c) => el("option", { value: c.id, text: c.name })));
  filter.value = chosen;
  const a = who.account;
  const adds = a && (a.role === "club_admin" || a.role === "federation_admin");
  $("add-panel").hidden = !adds;
  $("sign-in-hint").hidden = Boolean(adds);
  if (adds) {
    const own = a.role === "club_admin" ? clubs.filter((c) => c.id === a.club_id) : clubs;
    const select = $("add-club");
    const was = select.value;
    select.replaceChildren(...(a.role === "federation_admin" ? [el("option", { value: "", text: t("register.no_club") })] : []),
      ...own.map((c) => el("option", { value: c.id, text: c.name })));
    if (was) select.value = was;
    else if (a.club_id) select.value = a.club_id;
    $("csrf-field").value = csrfToken();
  }
}

async function main() {
  await setupPage(render);
  [who, { clubs }] = await Promise.all([me(), send("GET", "/api/clubs")]);
  await guard(load);
  let timer = null;
  $("q").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => guard(load), 200); });
  $("club-filter").addEventListener("change", () => guard(load));
  $("add-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guard(async () => {
      const rating = $("add-rating").value;
      const body = { name: $("add-name").value, club_id: $("add-club").value || null, rating: rating === "" ? null : Number(rating) };
      const made = await send("POST", "/api/register", body);
      e.target.reset();
      $("notice").textContent = t("register.added", { name: made.name });
      $("notice").hidden = false;
      await load();
    });
  });
  document.body.dataset.ready = I.lang;
}

main();
