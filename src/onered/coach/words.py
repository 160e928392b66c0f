"""The coach's words in Russian and English: the display text of its closed sets.

The advice itself is enums and numbers (:mod:`onered.coach.advice`, :mod:`onered.coach.action`);
this module says it as a player would — "half-ball on the red, screw, firm" — for the CLI
and the web page (which asks the API for the words in its language). The words are
``onered.texts``' (``coach.*``; the scoring parts' words are the referee's, the balls'
declensions the one table's).
"""

from __future__ import annotations

from enum import Enum

from onered.coach.action import CueAction, Pace, Side, Spin, Thickness
from onered.coach.advice import Odds, Outcome, Reason, Suggestion
from onered.rules import Ball
from onered.table import LENGTH, POCKET_POINTS, WIDTH
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


class View(Enum):
    """How a drawn table lies before the reader, so that a pocket is named where he sees
    it: ``PORTRAIT``, the baulk end at the bottom (``onered.svg``'s pictures, which the
    text report goes with; there the table's own names, seen from the baulk end, hold);
    ``LANDSCAPE``, the baulk end on the left and the table's x axis downwards (the web
    pages' table, ``TableView`` in ``web/static/common.js``)."""

    PORTRAIT = "portrait"
    LANDSCAPE = "landscape"


#: Pockets by where they are on the drawn table (:func:`pocket_place`): ``top_left`` …
#: ``bottom_right``, ``middle_left``/``middle_right`` (portrait),
#: ``top_middle``/``bottom_middle`` (landscape).
POCKETS: dict[str, dict[Lang, str]] = section("coach.pocket")


def pocket_place(pocket: str, view: View) -> str:
    """Where the pocket named ``pocket`` (``onered.table.POCKET_NAMES``) is on a table drawn
    in ``view``: its row (top, middle, bottom) and column (left, middle, right) as the
    reader sees them, e.g. the table's ``top_right`` is ``bottom_right`` in landscape."""
    x, y = POCKET_POINTS[pocket]
    # across and down the drawing, each from 0 to 1
    across, down = (x / WIDTH, 1 - y / LENGTH) if view is View.PORTRAIT else (y / LENGTH, x / WIDTH)
    row = "top" if down < 1 / 3 else "bottom" if down > 2 / 3 else "middle"
    column = "left" if across < 1 / 3 else "right" if across > 2 / 3 else "middle"
    return f"{row}_{column}"


def pocket_words(pocket: str, lang: Lang, view: View = View.PORTRAIT) -> str:
    """A pocket's name as the table drawn in ``view`` shows it: "top-right pocket"."""
    return POCKETS[pocket_place(pocket, view)][lang]


#: Why a suggestion beats the next one; ``{a}``/``{b}``: this one's and the next one's figure.
REASONS: dict[Reason, dict[Lang, str]] = by_code("coach.reason", Reason)
#: Labels of the text report.
LABELS: dict[str, dict[Lang, str]] = section("coach.label")
#: An elevation of the cue is said from this many degrees on (it is written to 0.1°).
RAISED_FROM = 0.05


def num(x: float, lang: Lang, digits: int = 1, *, sign: bool = False) -> str:
    """A number as the language writes it (a decimal comma in Russian), with ``sign``
    always shown (and a true minus sign)."""
    text = f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
    text = text.replace("-", "−")
    return text.replace(".", ",") if lang is RU else text


def percent(p: float, lang: Lang) -> str:
    """A probability as a whole percentage; a chance that is neither nought nor certain
    never rounds to either ("<1%", ">99%"), so what happened in a few plays is said."""
    whole = round(100 * p)
    text = "<1" if whole == 0 < p else ">99" if whole == 100 > 100 * p else str(whole)
    return f"{text} %" if lang is RU else f"{text}%"


def label(key: str, lang: Lang, **fields: str) -> str:
    """A report label with its fields filled in."""
    return LABELS[key][lang].format(**fields)


def outcome_words(
    o: Outcome, lang: Lang, view: View = View.PORTRAIT, *, aimed: bool = False
) -> str:
    """What a play did, e.g. "in-off the red — top-right pocket"; no score is a "safety"
    when it is what the stroke is ``aimed`` at."""
    if o.foul:
        return label("foul", lang)
    if not o.scores:
        return label("safety" if aimed else "no_score", lang)
    text = " + ".join(SCORES[kind][lang] for kind in o.scores)
    pockets = [pocket_words(p, lang, view) for _, p in o.pockets if p]
    if pockets:
        text += " — " + ", ".join(dict.fromkeys(pockets))
    return text


def stroke_words(s: Suggestion, lang: Lang, view: View = View.PORTRAIT) -> str:
    """What the stroke does, by the most frequent outcome of its plays with its share, e.g.
    "In-off the red — top-right pocket — 64% of plays"; when that is not what the stroke is
    played for, that too with its share: "No score — 55% of plays (played for cannon:
    40%)". Pockets as the table drawn in ``view`` shows them."""
    aim = s.outcome
    head, share = s.headline
    text = outcome_words(head, lang, view, aimed=head == aim)
    if s.odds.outcomes:
        text += " — " + label("share", lang, p=percent(share, lang))
    if head != aim:
        planned = dict(s.odds.outcomes).get(aim, 0.0)
        what = outcome_words(aim, lang, view, aimed=True)
        text += f" ({label('played_for', lang, what=what, p=percent(planned, lang))})"
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
    """The odds: chance of scoring (and of the planned score), of crossing the baulk line
    when the break owes it, of a foul — with the chances of a jump and of a ball leaving
    the table among them whenever they are not nought — of a limit foul near a limit or
    when the crossing is owed (with its kinds that are not nought), and the expected
    value."""
    parts = [label("chance", lang, p=percent(o.p_score, lang))]
    if intended:
        parts.append(label("intended", lang, p=percent(o.p_intended, lang)))
    if o.p_baulk_crossed is not None:
        parts.append(label("baulk_chance", lang, p=percent(o.p_baulk_crossed, lang)))
    if o.p_foul > 0:
        foul = label("foul_chance", lang, p=percent(o.p_foul, lang))
        flights = _chances((("jump_chance", o.p_jump), ("off_table_chance", o.p_off_table)), lang)
        if flights:
            foul += f" ({flights})"
        parts.append(foul)
    if o.p_limit_foul is not None:
        limit = label("limit_chance", lang, p=percent(o.p_limit_foul, lang))
        kinds = _chances(
            (
                ("hazard_limit_chance", o.p_hazard_limit),
                ("cannon_limit_chance", o.p_cannon_limit),
                ("baulk_foul_chance", o.p_baulk_foul),
            ),
            lang,
        )
        if kinds:
            limit += f" ({kinds})"
        parts.append(limit)
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


def _chances(items: tuple[tuple[str, float], ...], lang: Lang) -> str:
    """The labelled chances of ``items`` that are not nought, comma-separated."""
    return ", ".join(label(key, lang, p=percent(p, lang)) for key, p in items if p > 0)


def reason_words(s: Suggestion, nxt: Suggestion, lang: Lang) -> str:
    """Why ``s`` beats ``nxt`` (the next suggestion), with the figures that show it; or
    that the two are as good as each other within the estimate's precision."""
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
    # equal ones: neither beats the other
    return label("equals" if reason is Reason.EQUAL else "beats", lang, n=str(nxt.rank), why=why)
