"""The web pages' words in Russian and English, from :mod:`onered.texts` (the one vocabulary).

The referee's calls, fouls, scoring parts and foul options, the names of balls, spots, the
marker's taps, the computer's levels, the pages' own labels (``web.*`` there) and the errors
(``error.*``) all live in ``onered.texts``; this module gives them the shapes the pages use.
:func:`bundle` gives the front end everything for one language. Labels may hold ``{name}``
fields that the page fills in; a counted label has one key per plural form (``.one``, ``.few``,
``.many``: ``onered.texts.counted``), which the page picks with ``Intl.PluralRules``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import TypeVar

from onered.game.marking import Part
from onered.players.strength import Level
from onered.rules import Ball, FoulCode
from onered.rules.possible import Reason, Why
from onered.table import Spot
from onered.texts import (
    BALLS,
    CALLS,
    FOULS,
    OPTIONS,
    SCORES,
    Case,
    Lang,
    ball_name,
    by_code,
    section,
)

RU, EN = Lang.RU, Lang.EN
_E = TypeVar("_E", bound=Enum)

#: Spots, as the marker's instruction names them: "the red on the …" / «красный — на …».
SPOTS: dict[Spot, dict[Lang, str]] = by_code("spot", Spot)

#: The marker's taps; ``{opp}`` is the opponent's ball's colour (genitive / plain).
PARTS: dict[Part, dict[Lang, str]] = by_code("part", Part)

#: Ball names as the part labels need them: nominative capitalised, genitive (from the one
#: table of declensions, ``onered.texts``).
BALL_FORMS: dict[Ball, dict[str, str]] = {
    b: {
        "ru": ball_name(b, RU).capitalize(),
        "gen": ball_name(b, RU, Case.GEN),
        "en": ball_name(b, EN),
    }
    for b in Ball
}

#: The computer's levels (``onered.players.strength.Level``), as the pages name a computer
#: player: «Компьютер (профессионал)» / "Computer (pro)".
AI_LEVELS: dict[Level, dict[Lang, str]] = by_code("level", Level)

#: Why a tap or an aim is not offered (``onered.rules.possible.Reason``); ``{ball}`` is
#: the ball's name.
REASONS: dict[Reason, dict[Lang, str]] = by_code("possible", Reason)

#: The pages' own labels and the errors as ``error.<code>`` (the computer's levels are the
#: bundle's ``ai_levels``, one table for every page).
UI: dict[str, dict[Lang, str]] = {
    **section("web"),
    **{f"error.{code}": names for code, names in section("error").items()},
}


def ai_names() -> dict[str, str]:
    """Every name the pages give a computer player, in every language («Компьютер
    (профессионал)», "Computer (pro)"), by its level: a page names one in its own language
    even where the game's entrants are not at hand (a player's page, a match)."""
    return {
        UI["ai.name"][lang].format(level=names[lang]): str(level.value)
        for level, names in AI_LEVELS.items()
        for lang in Lang
    }


def reason_text(why: Why, lang: Lang) -> str:
    """A reason of the rules (``onered.rules.possible``) in ``lang``: "The yellow is not on
    the table" (the server's English error message uses it too)."""
    ball = BALLS[why.ball][lang] if why.ball is not None else ""
    return REASONS[why.reason][lang].format(ball=ball, ball_cap=ball[:1].upper() + ball[1:])


def _ui(lang: Lang) -> dict[str, str]:
    return {key: texts[lang] for key, texts in UI.items()}


def _by_value(table: Mapping[_E, Mapping[Lang, str]], lang: Lang) -> dict[str, str]:
    return {str(code.value): texts[lang] for code, texts in table.items()}


def bundle(lang: Lang) -> dict[str, object]:
    """Every text of the pages in ``lang``: ``ui`` labels, ``calls``, ``fouls``,
    ``scores``, ``options`` (from ``onered.texts``), ``balls``, ``spots``, ``parts``,
    ``ball_forms``, ``ball_cases`` (each ball's name in the six cases), ``ai_levels`` (the
    computer's levels), ``ai_names`` (a computer's name in any language, by level),
    ``reasons`` (why a tap is not offered), and the caller's foul codes in display order."""
    from onered.game.marking import CALLER_FOULS

    return {
        "lang": lang.value,
        "ui": _ui(lang),
        "calls": _by_value(CALLS, lang),
        "fouls": _by_value(FOULS, lang),
        "scores": _by_value(SCORES, lang),
        "options": _by_value(OPTIONS, lang),
        "balls": _by_value(BALLS, lang),
        "spots": _by_value(SPOTS, lang),
        "parts": _by_value(PARTS, lang),
        "ball_forms": {b.value: forms for b, forms in BALL_FORMS.items()},
        "ball_cases": {b.value: {c.value: ball_name(b, lang, c) for c in Case} for b in Ball},
        "ai_levels": _by_value(AI_LEVELS, lang),
        "ai_names": ai_names(),
        "reasons": _by_value(REASONS, lang),
        "caller_fouls": [f.value for f in CALLER_FOULS],
        "all_fouls": [f.value for f in FoulCode],
    }
