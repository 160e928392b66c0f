"""The advice written out: as JSON data (the API and ``onered advise --json``) and as a
readable text report (``onered advise``), each with the words in one language."""

from __future__ import annotations

from typing import Any

from onered.coach.action import CueAction
from onered.coach.advice import Advice, Odds, Outcome, Stakes, Suggestion
from onered.coach.words import (
    View,
    action_words,
    label,
    num,
    numbers_words,
    odds_words,
    reason_words,
    stroke_words,
)
from onered.table import Point
from onered.texts import BALLS, Lang

#: Colours of the suggestions by rank, on the drawn table and the coach page.
RANK_COLOURS = ("#ffd23f", "#3fc1ff", "#ff5fa2", "#8cff5a", "#ff9b3f")
#: The space between the lanes of the suggestions' paths (metres), on the drawn table and
#: the coach page: paths over the same line are drawn side by side, the best on the line.
PATH_LANE = 0.01


def _pt(p: Point) -> list[float]:
    return [round(p[0], 5), round(p[1], 5)]


def _action_json(a: CueAction) -> dict[str, Any]:
    return {
        "placed": None if a.placed is None else _pt(a.placed),
        "strike": a.strike.to_json(),
        "object_ball": None if a.object_ball is None else a.object_ball.value,
        "cut": a.cut,
        "fraction": a.fraction,
        "thickness": None if a.thickness is None else a.thickness.value,
        "side": a.side.value,
        "running": a.running,
        "spin": a.spin.value,
        "pace": a.pace.value,
        "cushion_first": a.cushion_first,
    }


def _outcome_json(o: Outcome) -> dict[str, Any]:
    return {
        "scores": [k.value for k in o.scores],
        "pockets": [[b.value, p] for b, p in o.pockets],
        "foul": o.foul,
    }


def _stakes_json(stakes: Stakes) -> dict[str, bool]:
    return {
        "baulk_owed": stakes.baulk_owed,
        "hazards_near": stakes.hazards_near,
        "cannons_near": stakes.cannons_near,
    }


def _odds_json(o: Odds) -> dict[str, Any]:
    return {
        "samples": o.samples,
        "p_score": o.p_score,
        "p_intended": o.p_intended,
        "p_foul": o.p_foul,
        "p_jump": o.p_jump,
        "p_off_table": o.p_off_table,
        "p_baulk_crossed": o.p_baulk_crossed,
        "p_limit_foul": o.p_limit_foul,
        "p_hazard_limit": o.p_hazard_limit,
        "p_cannon_limit": o.p_cannon_limit,
        "p_baulk_foul": o.p_baulk_foul,
        "outcomes": [{**_outcome_json(x), "share": share} for x, share in o.outcomes],
        "points": o.points,
        "value": o.value,
        "value_se": o.value_se,
        "leave": o.value - o.points,
        "value_scoring": o.value_scoring,
        "value_failing": o.value_failing,
        "points_scoring": o.points_scoring,
    }


def suggestion_json(
    s: Suggestion, nxt: Suggestion | None, lang: Lang | None = None, view: View = View.PORTRAIT
) -> dict[str, Any]:
    """One suggestion as JSON data; with ``lang``, its words too (pockets named as a table
    drawn in ``view`` shows them). ``headline``: the outcome that names it and its share
    of the plays."""
    head, share = s.headline
    out: dict[str, Any] = {
        "rank": s.rank,
        "headline": {**_outcome_json(head), "share": share},
        "scores": [k.value for k in s.scores],
        "points": s.points,
        "pockets": [[b.value, p] for b, p in s.pockets],
        "foul": s.foul,
        "action": _action_json(s.action),
        "odds": _odds_json(s.odds),
        "reason": None if s.reason is None else s.reason.value,
        "margin": s.margin,
        "paths": {b.value: [_pt(p) for p in pts] for b, pts in s.paths.items()},
        "rest": {name: None if p is None else _pt(p) for name, p in sorted(s.shot.rest.items())},
    }
    if lang is not None:
        out["words"] = {
            "stroke": stroke_words(s, lang, view),
            "action": action_words(s.action, lang),
            "numbers": numbers_words(s.action, lang),
            "odds": odds_words(s.odds, bool(s.scores) and not s.foul, lang),
            "reason": None if nxt is None else reason_words(s, nxt, lang),
        }
    return out


def advice_json(
    advice: Advice, lang: Lang | None = None, view: View = View.PORTRAIT
) -> dict[str, Any]:
    """The advice as JSON data: the level, the samples per stroke, who is to play, what
    the position puts at stake, and the suggestions (best first); with ``lang``, every
    suggestion's words in that language, pockets named as a table drawn in ``view``
    shows them."""
    position = advice.position
    items = advice.suggestions
    return {
        "level": advice.level,
        "samples": advice.samples,
        "cue_ball": position.cue_ball.value,
        "from_hand": position.in_hand,
        "lang": None if lang is None else lang.value,
        "view": view.value,
        "stakes": _stakes_json(advice.stakes),
        "suggestions": [
            suggestion_json(s, items[k + 1] if k + 1 < len(items) else None, lang, view)
            for k, s in enumerate(items)
        ],
        "played": (
            None if advice.played is None else suggestion_json(advice.played, None, lang, view)
        ),
    }


def advice_text(advice: Advice, lang: Lang) -> str:
    """A readable report of the advice in ``lang`` (pockets named as the SVG picture,
    :data:`View.PORTRAIT`, shows them)."""
    position = advice.position
    head = [
        label("title", lang),
        f"{label('level', lang)}: {advice.level}",
        label("to_play", lang, ball=BALLS[position.cue_ball][lang]),
    ]
    if position.in_hand:
        head.append(label("from_hand", lang))
    head.append(f"{advice.samples} {label('samples', lang)}")
    lines = [" · ".join(head), ""]
    items = advice.suggestions
    if not items:
        lines.append(label("nothing", lang))
    for k, s in enumerate(items):
        lines += _block(f"{s.rank}.", s, lang)
        if k + 1 < len(items):
            lines.insert(-1, f"   {reason_words(s, items[k + 1], lang)}")
    played = advice.played
    if played is not None:
        lines += _block(f"{label('played', lang)}:", played, lang)
        if items and items[0].odds.value > played.odds.value:
            gap = num(items[0].odds.value - played.odds.value, lang)
            lines.insert(-1, f"   {label('gap', lang, gap=gap)}")
    return "\n".join(lines)


def _block(head: str, s: Suggestion, lang: Lang) -> list[str]:
    """A suggestion's lines in the text report (and a blank line)."""
    return [
        f"{head} {stroke_words(s, lang)}",
        f"   {action_words(s.action, lang)}",
        f"   {numbers_words(s.action, lang)}",
        f"   {odds_words(s.odds, bool(s.scores) and not s.foul, lang)}",
        "",
    ]
