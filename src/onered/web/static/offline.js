// A page that opens without the server: the site's service worker (/sw.js, onered.web.offline)
// keeps the pages, their files and their fixed data; this module registers it and keeps, for
// a game's page, the last view of the game the server confirmed (localStorage), so a reload
// while offline shows that view — never a score the page worked out itself: the referee is
// the server's alone.
import { I, el, t, tn } from "./common.js";

const VIEW_KEY = (id) => `onered.view.${id}`;
/** The games whose views are kept, the latest first. */
const VIEWS_KEY = "onered.views";
/** The log lines kept with a view: the ones the marker's log shows. */
const KEEP_LINES = 60;
/** The games whose views are kept at most (a view is tens of kB: the storage is the
 * outbox's first, whose taps must always fit). */
const KEEP_GAMES = 8;

/** Register the site's service worker so this page opens again without the server. A
 * browser without service workers, or one that refuses it (plain http to another machine
 * is not a secure context), leaves the page as it is. ``<html data-shell="ready">`` once a
 * worker controls the page. */
export function registerWorker() {
  const workers = navigator.serviceWorker;
  if (!workers) return;
  const mark = () => {
    if (workers.controller) document.documentElement.dataset.shell = "ready";
  };
  workers.addEventListener("controllerchange", mark);
  mark();
  workers.register("/sw.js", { scope: "/" }).catch(() => {});
}

/** Keep the game's view as the server confirmed it (the model's view and the last
 * KEEP_LINES lines of its log). Returns when it was kept (ms since the epoch), or null. */
export function keepConfirmed(model) {
  const view = model.view;
  if (!view) return null;
  const log = model.log;
  let from = Math.max(0, log.length - KEEP_LINES);
  while (from < log.length && !(from in log)) from += 1; // a restored log's holes stay out
  const { progression, visits, ...rest } = view;
  const saved = Date.now();
  const kept = { saved, view: { ...rest, log_from: from, log_start: from, log: log.slice(from) } };
  const text = JSON.stringify(kept);
  const ids = [model.id, ...keptGames().filter((x) => x !== model.id)];
  for (const old of ids.splice(KEEP_GAMES)) localStorage.removeItem(VIEW_KEY(old));
  for (const others of [ids, [model.id]]) {
    // the storage full: the other games' views give way, then this one's (none is better
    // than an old one taken for the last)
    try {
      localStorage.setItem(VIEWS_KEY, JSON.stringify(others));
      localStorage.setItem(VIEW_KEY(model.id), text);
      return saved;
    } catch (e) {
      for (const old of ids.slice(1)) localStorage.removeItem(VIEW_KEY(old));
    }
  }
  localStorage.removeItem(VIEW_KEY(model.id));
  return null;
}

/** The games whose views are kept (VIEWS_KEY), the latest first. */
function keptGames() {
  try {
    const ids = JSON.parse(localStorage.getItem(VIEWS_KEY) || "[]");
    return Array.isArray(ids) ? ids.filter((x) => typeof x === "string") : [];
  } catch (e) {
    return [];
  }
}

/** Give ``model`` the view kept by keepConfirmed (its older log lines are holes: the pages
 * skip them). Returns when it was kept, or null when nothing is. */
export function restoreConfirmed(model) {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(VIEW_KEY(model.id)) || "null");
  } catch (e) {
    kept = null;
  }
  const view = kept && kept.view;
  if (!view || !Array.isArray(view.log) || !Number.isInteger(view.log_from)) return null;
  model.log.length = view.log_from;
  model.apply(view);
  model.start = view.log_from; // the lines before are not held (GameModel.start)
  return Number(kept.saved) || null;
}

/** The time of day ``ms`` in the page's language ("21:04"). */
function clock(ms) {
  return new Date(ms).toLocaleTimeString(I.lang === "ru" ? "ru-RU" : "en-GB", {
    hour: "2-digit",
    minute: "2-digit",
  });
}

/** The offline note: the score shown is the last one the server confirmed (at ``saved``),
 * and how many changes wait (listed in the outbox). ``offline`` false: hidden. Sets
 * ``<body data-offline>``. */
export function renderOffline(box, { offline, saved, waiting }) {
  document.body.dataset.offline = offline ? "1" : "0";
  box.hidden = !offline;
  if (!offline) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    el("strong", { text: t("offline.title") }),
    saved ? el("span", { text: ` · ${t("offline.since", { time: clock(saved) })}` }) : null,
    el("div", { class: "small", text: waiting ? `${tn("offline.waiting", waiting)} ${t("offline.not_in_score")}` : t("offline.nothing_waits") }),
  );
}
