"""The coach's words in Russian and English: the display text of its closed sets.

The advice itself is enums and numbers (:mod:`onered.coach.advice`, :mod:`onered.coach.action`);
this module says it as a player would — "half-ball on the red, screw, firm" — for the CLI
and the web page (which asks the API for the words in its language). The scoring parts'
words are the referee's (``onered.texts``).
"""

from __future__ import annotations

from onered.coach.action import CueAction, Pace, Side, Spin, Thickness
from onered.coach.advice import Odds, Reason, Suggestion
from onered.rules import Ball
from onered.texts import SCORES, Lang

RU, EN = Lang.RU, Lang.EN


def _t(ru: str, en: str) -> dict[Lang, str]:
    return {RU: ru, EN: en}


#: "half-ball on the red": the thickness with ``{ball}`` (the object ball, "on the …" form).
THICKNESS: dict[Thickness, dict[Lang, str]] = {
    Thickness.FULL: _t("полным шаром по {ball}", "full ball on the {ball}"),
    Thickness.THREE_QUARTER: _t(
        "в три четверти шара по {ball}", "three-quarter ball on the {ball}"
    ),
    Thickness.HALF: _t("в пол-шара по {ball}", "half-ball on the {ball}"),
    Thickness.QUARTER: _t("в четверть шара по {ball}", "quarter ball on the {ball}"),
    Thickness.FINE: _t("тонко по {ball}", "fine on the {ball}"),
}
#: The object ball as the thickness phrase needs it (Russian dative).
BALL_ON: dict[Ball, dict[Lang, str]] = {
    Ball.WHITE: _t("белому", "white"),
    Ball.YELLOW: _t("жёлтому", "yellow"),
    Ball.RED: _t("красному", "red"),
}
SIDE: dict[Side, dict[Lang, str]] = {
    Side.NONE: _t("без бокового винта", "no side"),
    Side.LEFT: _t("левый винт", "left-hand side"),
    Side.RIGHT: _t("правый винт", "right-hand side"),
}
RUNNING: dict[bool, dict[Lang, str]] = {
    True: _t("попутный", "running"),
    False: _t("встречный", "check"),
}
SPIN: dict[Spin, dict[Lang, str]] = {
    Spin.DEEP_SCREW: _t("сильная оттяжка", "deep screw"),
    Spin.SCREW: _t("оттяжка", "screw"),
    Spin.CENTRE: _t("в центр (без вращения)", "centre ball (stun)"),
    Spin.TOP: _t("накат", "top"),
    Spin.STRONG_TOP: _t("сильный накат", "strong top"),
}
PACE: dict[Pace, dict[Lang, str]] = {
    Pace.VERY_SOFT: _t("очень мягко", "very soft"),
    Pace.SOFT: _t("мягко", "soft"),
    Pace.MEDIUM: _t("средней силой", "medium pace"),
    Pace.FIRM: _t("уверенно", "firm"),
    Pace.HARD: _t("сильно", "hard"),
    Pace.VERY_HARD: _t("очень сильно", "very hard"),
}
#: Pockets by the table's names (seen from the baulk end).
POCKETS: dict[str, dict[Lang, str]] = {
    "bottom_left": _t("левая нижняя луза", "bottom-left pocket"),
    "bottom_right": _t("правая нижняя луза", "bottom-right pocket"),
    "middle_left": _t("левая средняя луза", "left middle pocket"),
    "middle_right": _t("правая средняя луза", "right middle pocket"),
    "top_left": _t("левая верхняя луза", "top-left pocket"),
    "top_right": _t("правая верхняя луза", "top-right pocket"),
}
#: Why a suggestion beats the next one; ``{a}``/``{b}``: this one's and the next one's figure.
REASONS: dict[Reason, dict[Lang, str]] = {
    Reason.CHANCE: _t("вернее забивает: {a} против {b}", "more likely to score: {a} against {b}"),
    Reason.POINTS: _t(
        "больше очков, когда забивает: {a} против {b}",
        "more points when it scores: {a} against {b}",
    ),
    Reason.LEAVE: _t(
        "лучше позиция после удачи: {a} против {b}",
        "a better leave when it scores: {a} against {b}",
    ),
    Reason.SAFETY: _t(
        "безопаснее — при неудаче оставляет сопернику меньше: {a} против {b}",
        "safer — leaves the opponent less when it fails: {a} against {b}",
    ),
    Reason.EQUAL: _t(
        "равноценен следующему в пределах точности оценки",
        "as good as the next one, within the estimate's precision",
    ),
}
#: Labels of the text report.
LABELS: dict[str, dict[Lang, str]] = {
    "title": _t("Совет тренера", "Coach's advice"),
    "level": _t("уровень", "level"),
    "samples": _t("розыгрышей на удар", "plays per stroke"),
    "to_play": _t("играет {ball}", "{ball} to play"),
    "from_hand": _t("с руки из сектора", "from the D"),
    "placed": _t("поставить биток: x {x}, y {y} м", "place the cue ball at x {x}, y {y} m"),
    "cushion_first": _t("сначала в борт", "off a cushion first"),
    "safety": _t("отыгрыш (без очков)", "safety (no score)"),
    "foul": _t("штрафной удар", "a foul stroke"),
    "chance": _t("забивает {p}", "scores {p}"),
    "intended": _t("как задумано {p}", "as planned {p}"),
    "foul_chance": _t("штраф {p}", "foul {p}"),
    "expected": _t(
        "ожидание {value} (удар {points}, позиция {leave})",
        "expected {value} (stroke {points}, leave {leave})",
    ),
    "numbers": _t(
        "прицел {aim}°, скорость {speed} м/с, винт {side} R, высота {height} R",
        "aim {aim}°, speed {speed} m/s, side {side} R, height {height} R",
    ),
    "contact": _t("доля шара {fraction} (срез {cut}°)", "ball fraction {fraction} (cut {cut}°)"),
    "beats": _t("лучше № {n}: {why}", "beats no. {n}: {why}"),
    "nothing": _t("Нет ни одного удара.", "No stroke found."),
    "played": _t("Сыграно", "Played"),
    "gap": _t(
        "лучший удар стоит на {gap} очка больше", "the best stroke is worth {gap} points more"
    ),
}


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
    """The cue action in numbers: aim, speed, tip offset, and the contact."""
    s = a.strike
    text = label(
        "numbers",
        lang,
        aim=num(s.aim, lang, 2),
        speed=num(s.speed, lang, 2),
        side=num(s.side, lang, 2, sign=True),
        height=num(s.height, lang, 2, sign=True),
    )
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
    """The odds: chance of scoring (and of the planned score), of a foul, expected value."""
    parts = [label("chance", lang, p=percent(o.p_score, lang))]
    if intended:
        parts.append(label("intended", lang, p=percent(o.p_intended, lang)))
    if o.p_foul > 0:
        parts.append(label("foul_chance", lang, p=percent(o.p_foul, lang)))
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
