// A page that opens without the server: the site's service worker (/sw.js, onered.web.offline)
// keeps the pages, their files and their fixed data; this module registers it and keeps, for
// a game's page, the last view of the game the server confirmed (localStorage), so a reload
// while offline shows that view — never a score the page worked out itself: the referee is
// the server's alone.
import { I, el, t, tn } from "./common.js";

const VIEW_KEY = (id) => `onered.view.${id}`;
/** The log lines kept with a view: the ones the marker's log shows. */
const KEEP_LINES = 60;

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
  try {
    localStorage.setItem(VIEW_KEY(model.id), JSON.stringify(kept));
  } catch (e) {
    return null; // the storage is full: the page works on, without an offline copy
  }
  return saved;
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
