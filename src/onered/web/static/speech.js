// The spoken marker: after each stroke it says the points and the score, and every call,
// as a marker at the table does ("2. Ivanov leads 34–20", "Foul, 2 away", "Game …"), in the
// page's language with a Russian or English voice where the browser has one (Web Speech API).
// Optional: a toggle remembered in the browser.
import { I, el, t, tn, who, word } from "./common.js";

const KEY = "onered.speech";

/** What the marker says for a log entry (a judged line), or "" for nothing. */
export function phrase(view, entry) {
  if (!entry || entry.in.type === "match") return "";
  const out = entry.out;
  const players = view.match.players;
  const parts = [];
  const calls = out.calls.filter((c) => c.code !== "foul").map((c) => word("calls", c.code));
  if (entry.in.type === "choice") {
    if (entry.in.option === "from_d") parts.push(t("say.choice_from_d", { name: who(out.striker) }));
  } else if (out.foul) {
    parts.push(tn("say.foul", out.foul.penalty));
  } else if (out.points) {
    parts.push(String(out.points));
  } else if (!out.winner && out.next) {
    parts.push(t("say.no_score", { name: who(out.next) }));
  }
  parts.push(...calls);
  const a = out.score[players[0]];
  const b = out.score[players[1]];
  if (out.winner) {
    const hi = Math.max(a, b);
    const lo = Math.min(a, b);
    parts.push(t("say.game", { name: who(out.winner), hi, lo }));
  } else if (entry.in.type !== "choice" && (out.points || out.foul)) {
    if (a === b) parts.push(t("say.level", { score: a }));
    else {
      const leader = a > b ? players[0] : players[1];
      parts.push(t("say.lead", { name: who(leader), hi: Math.max(a, b), lo: Math.min(a, b) }));
    }
  }
  // one sentence a part: "2. Baulk line must be crossed. Petrov leads 80–0"
  return parts
    .map((x, i) => (i < parts.length - 1 && !/[.!?…]$/.test(x) ? `${x}.` : x))
    .join(" ");
}

/** The voice toggle and the speaking. ``say(text)`` speaks when switched on. */
export class Speaker {
  constructor(toggleBox) {
    this.box = toggleBox;
    this.on = localStorage.getItem(KEY) === "on";
    this.render();
  }
  get available() {
    return typeof window.speechSynthesis !== "undefined" && typeof window.SpeechSynthesisUtterance !== "undefined";
  }
  render() {
    if (!this.box) return;
    const input = el("input", { type: "checkbox", id: "speech", checked: this.on, disabled: !this.available });
    input.addEventListener("change", () => {
      this.on = input.checked;
      localStorage.setItem(KEY, this.on ? "on" : "off");
      if (!this.on && this.available) window.speechSynthesis.cancel();
    });
    this.box.replaceChildren(
      el("label", { class: "speech-toggle", title: this.available ? null : t("speech.none") },
        input, el("span", { text: t("speech.toggle") })),
    );
  }
  voice() {
    const voices = window.speechSynthesis.getVoices ? window.speechSynthesis.getVoices() : [];
    const lang = I.lang === "ru" ? "ru" : "en";
    return voices.find((v) => (v.lang || "").toLowerCase().startsWith(lang)) || null;
  }
  say(text) {
    if (!this.on || !text || !this.available) return;
    const u = new window.SpeechSynthesisUtterance(text);
    u.lang = I.lang === "ru" ? "ru-RU" : "en-GB";
    const v = this.voice();
    if (v) u.voice = v;
    window.speechSynthesis.speak(u);
  }
  /** Say the lines just judged: ``before`` is how many lines the page had, ``view`` the
   * answer that changed them (its ``log_from``: the first line it changed; 0 when the whole
   * log was sent again, then only the lines beyond ``before`` are new). */
  sayNew(view, log, before) {
    const from = view.log_from === 0 ? before : Math.min(before, view.log_from);
    // lines taken back (an undo): the answer starts before the page's end, or is shorter
    if (log.length < before || (view.log_from > 0 && view.log_from < before)) this.say(t("say.undo"));
    for (const entry of log.slice(from)) if (entry) this.say(phrase(view, entry)); // holes: lines not loaded
  }
}
