"""The coach's words in Russian and English: the display text of its closed sets.

The advice itself is enums and numbers (:mod:`onered.coach.advice`, :mod:`onered.coach.action`);
this module says it as a player would — "half-ball on the red, screw, firm" — for the CLI
and the web page (which asks the API for the words in its language). The words are
``onered.texts``' (``coach.*``; the scoring parts' words are the referee's, the balls'
declensions the one table's).
"""

from __future__ import annotations

from onered.coach.action import CueAction, Pace, Side, Spin, Thickness
from onered.coach.advice import Odds, Reason, Suggestion
from onered.rules import Ball
from onered.texts import SCORES, Case, Lang, ball_name, both, by_code, section

RU, EN = Lang.RU, Lang.EN

#: "half-ball on the red": the thickness with ``{ball}`` (the object ball, "on the …" form).
THICKNESS: dict[Thickness, dict[Lang, str]] = by_code("coach.thickness", Thickness)
#: The object ball as the thickness phrase needs it (Russian dative: «по жёлтому»).
BALL_ON: dict[Ball, dict[Lang, str]] = {
    b: {lang: ball_name(b, lang, Case.DAT) for lang in Lang} for b in Ball
}
SIDE: dict[Side, dict[Lang, str]] = by_code("coach.side", Side)
RUNNING: dict[bool, dict[Lang, str]] = {
    True: both("coach.running.yes"),
    False: both("coach.running.no"),
}
SPIN: dict[Spin, dict[Lang, str]] = by_code("coach.spin", Spin)
PACE: dict[Pace, dict[Lang, str]] = by_code("coach.pace", Pace)
#: Pockets by the table's names (seen from the baulk end).
POCKETS: dict[str, dict[Lang, str]] = section("coach.pocket")
#: Why a suggestion beats the next one; ``{a}``/``{b}``: this one's and the next one's figure.
REASONS: dict[Reason, dict[Lang, str]] = by_code("coach.reason", Reason)
#: Labels of the text report.
LABELS: dict[str, dict[Lang, str]] = section("coach.label")
#: The chances of a jump and of a ball leaving the table are said from this share of the
#: samples on (1 %, two plays of the default 200); below it they are negligible.
NOTABLE = 0.01
#: An elevation of the cue is said from this many degrees on (it is written to 0.1°).
RAISED_FROM = 0.05


def num(x: float, lang: Lang, digits: int = 1, *, sign: bool = False) -> str:
    """A number as the language writes it (a decimal comma in Russian), with ``sign``
    always shown (and a true minus sign)."""
    text = f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
    text = text.replace("-", "−")
    return text.replace(".", ",") if lang is RU else text


def percent(p: float, lang: Lang) -> str:
    """A probability as a whole percentage."""
    return f"{round(100 * p)} %" if lang is RU else f"{round(100 * p)}%"


def label(key: str, lang: Lang, **fields: str) -> str:
    """A report label with its fields filled in."""
    return LABELS[key][lang].format(**fields)


def stroke_words(s: Suggestion, lang: Lang) -> str:
    """What the stroke does, e.g. "in-off the red, top-right pocket"."""
    if s.foul or not s.scores:
        text = label("foul" if s.foul else "safety", lang)
        return text[0].upper() + text[1:]
    parts = [SCORES[kind][lang] for kind in s.scores]
    pockets = [POCKETS[p][lang] for _, p in s.pockets if p in POCKETS]
    text = " + ".join(parts)
    if pockets:
        text += " — " + ", ".join(dict.fromkeys(pockets))
    return text[0].upper() + text[1:]


def action_words(a: CueAction, lang: Lang) -> str:
    """The cue action in a player's words: thickness on the ball, side, spin, pace."""
    out: list[str] = []
    if a.cushion_first:
        out.append(label("cushion_first", lang))
    if a.thickness is not None and a.object_ball is not None:
        out.append(THICKNESS[a.thickness][lang].format(ball=BALL_ON[a.object_ball][lang]))
    side = SIDE[a.side][lang]
    if a.running is not None:
        side += f" ({RUNNING[a.running][lang]})"
    out += [side, SPIN[a.spin][lang], PACE[a.pace][lang]]
    return ", ".join(out)


def numbers_words(a: CueAction, lang: Lang) -> str:
    """The cue action in numbers: aim, speed, tip offset, the cue's elevation (when it is
    raised), and the contact."""
    s = a.strike
    text = label(
        "numbers",
        lang,
        aim=num(s.aim, lang, 2),
        speed=num(s.speed, lang, 2),
        side=num(s.side, lang, 2, sign=True),
        height=num(s.height, lang, 2, sign=True),
    )
    if s.elevation >= RAISED_FROM:
        text += "; " + label("elevation", lang, elevation=num(s.elevation, lang, 1))
    if a.fraction is not None and a.cut is not None:
        text += "; " + label(
            "contact", lang, fraction=num(a.fraction, lang, 2), cut=num(a.cut, lang, 1)
        )
    if a.placed is not None:
        text += "; " + label(
            "placed", lang, x=num(a.placed[0], lang, 3), y=num(a.placed[1], lang, 3)
        )
    return text


def odds_words(o: Odds, intended: bool, lang: Lang) -> str:
    """The odds: chance of scoring (and of the planned score), of a foul — with the chances
    of a jump and of a ball leaving the table among them when they are not negligible
    (:data:`NOTABLE`) — and the expected value."""
    parts = [label("chance", lang, p=percent(o.p_score, lang))]
    if intended:
        parts.append(label("intended", lang, p=percent(o.p_intended, lang)))
    if o.p_foul > 0:
        foul = label("foul_chance", lang, p=percent(o.p_foul, lang))
        flights = [
            label(key, lang, p=percent(p, lang))
            for key, p in (("jump_chance", o.p_jump), ("off_table_chance", o.p_off_table))
            if p >= NOTABLE
        ]
        if flights:
            foul += f" ({', '.join(flights)})"
        parts.append(foul)
    parts.append(
        label(
            "expected",
            lang,
            value=num(o.value, lang, 1, sign=True),
            points=num(o.points, lang, 1, sign=True),
            leave=num(o.value - o.points, lang, 1, sign=True),
        )
    )
    return ", ".join(parts)


def reason_words(s: Suggestion, nxt: Suggestion, lang: Lang) -> str:
    """Why ``s`` beats ``nxt`` (the next suggestion), with the figures that show it."""
    reason = s.reason or Reason.EQUAL
    a, b = s.odds, nxt.odds
    figures: tuple[str, str] = ("", "")
    if reason is Reason.CHANCE:
        figures = (percent(a.p_score, lang), percent(b.p_score, lang))
    elif reason is Reason.POINTS:
        figures = (num(a.points_scoring or 0, lang), num(b.points_scoring or 0, lang))
    elif reason is Reason.LEAVE:
        sa = (a.value_scoring or 0) - (a.points_scoring or 0)
        sb = (b.value_scoring or 0) - (b.points_scoring or 0)
        figures = (num(sa, lang, sign=True), num(sb, lang, sign=True))
    elif reason is Reason.SAFETY:
        figures = (
            num(a.value_failing or 0, lang, sign=True),
            num(b.value_failing or 0, lang, sign=True),
        )
    why = REASONS[reason][lang].format(a=figures[0], b=figures[1])
    return label("beats", lang, n=str(nxt.rank), why=why)
