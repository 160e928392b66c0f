// Following a game live: the server pushes each change as a server-sent event
// (GET /api/games/{id}/events, onered.web.api_live), with the game's revision in every event
// so nothing is missed: on reconnecting, the browser sends the last event's id and the server
// sends what changed since. Where EventSource is missing, or the stream keeps failing, the page
// polls the game (GameModel.poll) and tries the stream again after RETRY_MIN_MS, doubling the
// wait after each failed try up to RETRY_MAX_MS: after an outage the page returns to live
// updates by itself.
//
//   import { follow } from "./live.js";
//   const live = follow(model, { onChange: render, onStatus: (online) => ... });
//   live.stop();
//
// `model` is a GameModel of common.js (already loaded or not); `onChange(model)` is called
// after each change is applied; `onStatus(online, error)` when the connection comes or goes;
// `onMode(mode)` when the page goes from the stream ("events") to polling ("polling") or back.

const POLL_MS = 1500;
const FAILURES_BEFORE_POLLING = 5;
const RETRY_MIN_MS = 2000;
const RETRY_MAX_MS = 30000;

export function follow(model, { onChange = () => {}, onStatus = () => {}, onMode = () => {}, pollMs = POLL_MS } = {}) {
  let source = null;
  let timer = null;
  let retry = null;
  let retryMs = RETRY_MIN_MS;
  let polling = 0; // the polling loop's generation (0: not polling)
  let generation = 0;
  let stopped = false;
  let failures = 0;
  let online = null;
  let mode = null;

  function setMode(now) {
    if (now !== mode) {
      mode = now;
      onMode(now);
    }
  }

  function startPolling() {
    if (polling || stopped) return;
    polling = ++generation;
    setMode("polling");
    timer = setTimeout(() => poll(polling), pollMs);
  }

  function stopPolling() {
    polling = 0;
    if (timer) clearTimeout(timer);
    timer = null;
  }

  function status(now, error = null) {
    if (now !== online) {
      online = now;
      onStatus(now, error);
    }
  }

  function url() {
    const v = model.view;
    const q = v ? `?since=${model.log.length}&revision=${v.revision}` : "";
    return `/api/games/${encodeURIComponent(model.id)}/events${q}`;
  }

  async function poll(loop) {
    if (stopped || loop !== polling) return;
    try {
      if (await model.poll()) onChange(model);
      status(true);
    } catch (e) {
      status(false, e);
    }
    if (!stopped && loop === polling) timer = setTimeout(() => poll(loop), pollMs);
  }

  function stream() {
    source = new EventSource(url());
    source.addEventListener("open", () => {
      failures = 0;
      retryMs = RETRY_MIN_MS;
      stopPolling();
      setMode("events");
      status(true);
    });
    source.addEventListener("game", (message) => {
      const before = model.view ? model.view.revision : null;
      model.apply(JSON.parse(message.data));
      if (model.view.revision !== before) onChange(model);
    });
    source.addEventListener("error", () => {
      status(false, null);
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures >= FAILURES_BEFORE_POLLING) {
        source.close();
        source = null;
        if (stopped) return;
        startPolling(); // the stream is not to be had now: poll, and try it again later
        retry = setTimeout(() => {
          retry = null;
          if (!stopped) stream();
        }, retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      }
      // else the browser reconnects by itself, sending the last event's id
    });
  }

  if (typeof EventSource === "function") {
    mode = "events";
    stream();
  } else startPolling();

  return {
    stop() {
      stopped = true;
      if (source) source.close();
      stopPolling();
      if (retry) clearTimeout(retry);
    },
    get mode() {
      return mode;
    },
  };
}
