// Following a game live: the server pushes each change as a server-sent event
// (GET /api/games/{id}/events, onered.web.api_live), with the game's revision in every event
// so nothing is missed: on reconnecting, the browser sends the last event's id and the server
// sends what changed since. Where EventSource is missing, or the stream keeps failing, the page
// falls back to polling the game (GameModel.poll).
//
//   import { follow } from "./live.js";
//   const live = follow(model, { onChange: render, onStatus: (online) => ... });
//   live.stop();
//
// `model` is a GameModel of common.js (already loaded or not); `onChange(model)` is called
// after each change is applied; `onStatus(online, error)` when the connection comes or goes.

const POLL_MS = 1500;
const FAILURES_BEFORE_POLLING = 5;

export function follow(model, { onChange = () => {}, onStatus = () => {}, pollMs = POLL_MS } = {}) {
  let source = null;
  let timer = null;
  let stopped = false;
  let failures = 0;
  let online = null;

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

  async function poll() {
    if (stopped) return;
    try {
      if (await model.poll()) onChange(model);
      status(true);
    } catch (e) {
      status(false, e);
    }
    timer = setTimeout(poll, pollMs);
  }

  function stream() {
    source = new EventSource(url());
    source.addEventListener("open", () => {
      failures = 0;
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
        if (!stopped) timer = setTimeout(poll, pollMs); // the stream is not to be had: poll
      }
      // else the browser reconnects by itself, sending the last event's id
    });
  }

  if (typeof EventSource === "function") stream();
  else timer = setTimeout(poll, pollMs);

  return {
    stop() {
      stopped = true;
      if (source) source.close();
      if (timer) clearTimeout(timer);
    },
    get mode() {
      return source ? "events" : "polling";
    },
  };
}
