"""Every word onered shows people, in Russian and English: one vocabulary for the CLI, the
coach and the web pages.

The words are data, one module per language (:mod:`onered.texts.ru`, :mod:`onered.texts.en`):
``WORDS`` (dotted keys: ``call.*``, ``foul.*``, ``score.*``, ``option.*``, ``spot.*``,
``part.*``, ``level.*``, ``possible.*``, ``coach.*``, ``play.*``, ``drawing.*``, ``web.*``,
``error.*``), ``BALLS`` (the balls' names in the six cases) and ``NOUNS`` (nouns counted by
number, by case).
This module looks them up: :func:`word`, :func:`ball_name`, :func:`count` (with the plural rule
of each language, :func:`plural_index`), :func:`counted` (a label with ``.one``/``.few``/``.many``
forms), :func:`error_message` for an
:class:`~onered.errors.OneredError`, :func:`lang_from_env` for the locale. The rules speak in
codes (``CallCode``, ``FoulCode``, ``ScoreKind``, ``Option``); :func:`text` names them.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from enum import Enum
from typing import TypeVar

from onered.errors import OneredError
from onered.rules.model import Ball, CallCode, FoulCode, Option, ScoreKind
from onered.texts import en, ru

_E = TypeVar("_E", bound=Enum)


class Lang(Enum):
    """Languages of the interfaces."""

    RU = "ru"
    EN = "en"


class Case(Enum):
    """The grammatical cases of Russian (English has one form for all)."""

    NOM = "nom"  # «жёлтый в лузе»
    GEN = "gen"  # «свояк от жёлтого»
    DAT = "dat"  # «в пол-шара по жёлтому»
    ACC = "acc"  # «жёлтый — на особую отметку»
    INS = "ins"  # «жёлтым шаром»
    PRE = "pre"  # «о жёлтом»


#: Each language's words, balls' declensions and counted nouns (its data module's tables).
_WORDS: dict[Lang, dict[str, str]] = {Lang.RU: ru.WORDS, Lang.EN: en.WORDS}
_BALLS: dict[Lang, dict[str, dict[str, str]]] = {Lang.RU: ru.BALLS, Lang.EN: en.BALLS}
_NOUNS: dict[Lang, dict[str, dict[str, tuple[str, ...]]]] = {Lang.RU: ru.NOUNS, Lang.EN: en.NOUNS}


def word(key: str, lang: Lang, **fields: object) -> str:
    """The text of ``key`` in ``lang``, its ``{fields}`` filled in when any are given (a
    template is returned as it is without them, for a page to fill). A missing key is a
    ``KeyError``: every key exists in both languages."""
    text = _WORDS[lang][key]
    return text.format(**fields) if fields else text


def words(prefix: str, lang: Lang) -> dict[str, str]:
    """Every text whose key starts with ``prefix`` + ``.``, by the rest of the key."""
    start = prefix + "."
    return {k[len(start) :]: v for k, v in _WORDS[lang].items() if k.startswith(start)}


def section(prefix: str) -> dict[str, dict[Lang, str]]:
    """Every text under ``prefix`` + ``.`` in every language, by the rest of the key."""
    by_lang = {lang: words(prefix, lang) for lang in Lang}
    return {key: {lang: by_lang[lang][key] for lang in Lang} for key in by_lang[Lang.EN]}


def both(key: str) -> dict[Lang, str]:
    """The text of ``key`` in every language."""
    return {lang: word(key, lang) for lang in Lang}


def by_code(prefix: str, codes: type[_E]) -> dict[_E, dict[Lang, str]]:
    """A table of an enum's members: ``prefix.<value>`` in every language, by member."""
    return {code: both(f"{prefix}.{code.value}") for code in codes}


def ball_name(ball: Ball, lang: Lang, case: Case = Case.NOM) -> str:
    """A ball's name (its colour) in ``case``: «жёлтым» for ``Case.INS`` in Russian; the
    English name whatever the case."""
    forms = _BALLS[lang][ball.value]
    return forms.get(case.value, forms["nom"])


def plural_index(n: int, lang: Lang) -> int:
    """Which of a noun's counted forms follows the number ``n``. Russian: 0 after 1, 21,
    101 …; 1 after 2–4, 22–24 …; 2 after 0, 5–20, 25–30, 11–14, 111–114 …. English: 0 after
    1, else 1."""
    n = abs(n)
    if lang is Lang.EN:
        return 0 if n == 1 else 1
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


#: The suffixes of a counted label's keys, by :func:`plural_index`: ``web.match.games_won.one``
#: («партия выиграна»), ``.few`` («партии выиграны»), ``.many`` («партий выиграно»). They
#: are the categories of Unicode's plural rules (``Intl.PluralRules`` in a page).
PLURAL_FORMS: tuple[str, str, str] = ("one", "few", "many")


def counted(key: str, n: int, lang: Lang, **fields: object) -> str:
    """The counted label ``key`` in the form that follows ``n`` (``key.one``, ``.few`` or
    ``.many``), its ``{n}`` and other fields filled in: ``counted("web.match.games_won",
    5, RU)`` is «партий выиграно»."""
    return word(f"{key}.{PLURAL_FORMS[plural_index(n, lang)]}", lang, n=n, **fields)


def noun(name: str, n: int, lang: Lang, case: Case = Case.NOM) -> str:
    """The noun ``name`` as it follows the number ``n`` in ``case``: ``noun("game", 5,
    RU)`` is «партий»."""
    forms = _NOUNS[lang][name]
    return forms.get(case.value, forms["nom"])[plural_index(n, lang)]


def count(n: int, name: str, lang: Lang, case: Case = Case.NOM) -> str:
    """``n`` and the noun after it: «1 партия», «2 партии», «5 партий»; "1 game", "2 games"."""
    return f"{n} {noun(name, n, lang, case)}"


def error_message(error: OneredError, lang: Lang) -> str:
    """An error in ``lang``. English: the error's own message (``str(error)``, the project's
    default text). Other languages: ``error.<code>`` filled from the error's ``params``
    (``detail`` is its English message, ``where`` its input when it names one); the English
    message when the language has no words for the code or they need a value the error
    lacks."""
    if lang is Lang.EN:
        return str(error)
    template = _WORDS[lang].get(f"error.{error.code}")
    if template is None:
        template = _WORDS[lang]["error.error"]
    fields: dict[str, object] = {
        **{k: v for k, v in vars(error).items() if isinstance(v, str | int | float)},
        "detail": str(error),
        **error.params,
    }
    try:
        return string.Formatter().vformat(template, (), fields)
    except (KeyError, IndexError, ValueError):
        return str(error)


def lang_from_env(environ: Mapping[str, str], default: Lang = Lang.EN) -> Lang:
    """The language of the locale: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that
    is set (POSIX order) decides; Russian when it starts with ``ru``, else ``default``."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return Lang.RU if value.lower().startswith("ru") else default
    return default


# --- the referee's codes ------------------------------------------------------------------

CALLS: dict[CallCode, dict[Lang, str]] = by_code("call", CallCode)
FOULS: dict[FoulCode, dict[Lang, str]] = by_code("foul", FoulCode)
SCORES: dict[ScoreKind, dict[Lang, str]] = by_code("score", ScoreKind)
OPTIONS: dict[Option, dict[Lang, str]] = by_code("option", Option)
#: The balls' names in the nominative (:func:`ball_name` for the other cases).
BALLS: dict[Ball, dict[Lang, str]] = {b: {lang: ball_name(b, lang) for lang in Lang} for b in Ball}


def text(code: CallCode | FoulCode | ScoreKind | Option, lang: Lang) -> str:
    """The display text of a code of the rules in a language."""
    if isinstance(code, CallCode):
        return CALLS[code][lang]
    if isinstance(code, FoulCode):
        return FOULS[code][lang]
    if isinstance(code, ScoreKind):
        return SCORES[code][lang]
    return OPTIONS[code][lang]
