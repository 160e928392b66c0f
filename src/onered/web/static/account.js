// One's account: who is signed in, the club's accounts (its admin), the clubs (a federation
// admin), the password, signing out.
import { I, el, setupPage, showError, t } from "./common.js";
import { fields, me, send } from "./account-api.js";

const $ = (x) => document.getElementById(x);
let state = null;

function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

async function guard(action) {
  showError($("error"), null);
  notice("");
  try {
    await action();
  } catch (err) {
    showError($("error"), err);
  }
}

async function loadMembers() {
  const club = state.account.club_id;
  const { accounts } = await send("GET", `/api/clubs/${encodeURIComponent(club)}/accounts`);
  $("members").replaceChildren(el("tbody", {}, ...accounts.map((a) => el("tr", { dataset: { id: a.id } },
    el("td", { text: a.email }),
    el("td", { text: t(`account.role.${a.role}`) }),
    el("td", {}, a.id === state.account.id ? null : el("button", {
      type: "button", class: "danger", text: t("account.remove"),
      onclick: () => guard(async () => {
        await send("DELETE", `/api/clubs/${encodeURIComponent(club)}/accounts/${encodeURIComponent(a.id)}`);
        await loadMembers();
      }),
    }))))));
}

async function loadClubs() {
  const { clubs } = await send("GET", "/api/clubs");
  $("clubs").replaceChildren(...clubs.map((c) => el("li", { text: c.name })));
}

function render() {
  if (!state) return;
  const a = state.account;
  $("who").textContent = `${t("account.signed_in_as", { email: a.email })} · ${t(`account.role.${a.role}`)}`;
  $("club-line").hidden = !state.club;
  if (state.club) $("club-name").textContent = state.club.name;
  $("members-panel").hidden = a.role !== "club_admin";
  $("clubs-panel").hidden = a.role !== "federation_admin";
  if (a.role === "club_admin") loadMembers().catch((err) => showError($("error"), err));
  if (a.role === "federation_admin") loadClubs().catch((err) => showError($("error"), err));
}

async function main() {
  await setupPage(render);
  state = await me();
  if (!state.account) {
    location.replace("/signin?next=/account");
    return;
  }
  render();
  $("signout").addEventListener("click", () => guard(async () => {
    await send("POST", "/api/account/signout");
    location.assign("/signin");
  }));
  $("member-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guard(async () => {
      await send("POST", `/api/clubs/${encodeURIComponent(state.account.club_id)}/accounts`, fields(e.target));
      e.target.reset();
      await loadMembers();
    });
  });
  $("club-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guard(async () => {
      await send("POST", "/api/clubs", fields(e.target));
      e.target.reset();
      await loadClubs();
    });
  });
  $("password-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guard(async () => {
      state = await send("POST", "/api/account/password", fields(e.target));
      e.target.reset();
      notice(t("account.password_changed"));
    });
  });
  document.body.dataset.ready = I.lang;
}

main();
