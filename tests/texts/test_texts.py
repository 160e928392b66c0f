"""One vocabulary (``onered.texts``): every key in both languages, the plural rule for any
number, the balls' declensions from one table in every interface, errors in a language."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import onered
from onered import texts
from onered.cli import play
from onered.coach import words as coach_words
from onered.errors import OneredError
from onered.game.validate import ValidationError
from onered.rules import Ball
from onered.rules.position import PositionError
from onered.study.runner import StudyInterruptedError
from onered.texts import (
    PLURAL_FORMS,
    Case,
    Lang,
    ball_name,
    count,
    counted,
    en,
    error_message,
    noun,
    plural_index,
    ru,
)
from onered.web import i18n

RU, EN = Lang.RU, Lang.EN
SRC = Path(onered.__file__).parent


def _fields(text: str) -> set[str]:
    return set(re.findall(r"\{(\w*)\}", text))


# --- every key in both languages ----------------------------------------------------------


def test_every_key_has_both_languages_with_the_same_fields() -> None:
    assert set(ru.WORDS) == set(en.WORDS)
    for key in ru.WORDS:
        assert ru.WORDS[key].strip(), key
        assert en.WORDS[key].strip(), key
        if key.startswith("part."):  # the marker's page fills the opponent's ball in all forms
            assert _fields(ru.WORDS[key]) | _fields(en.WORDS[key]) <= {"opp", "opp_ru", "opp_gen"}
        elif key.startswith("possible."):  # the ball's name, capitalised where it starts
            assert _fields(ru.WORDS[key]) | _fields(en.WORDS[key]) <= {"ball", "ball_cap"}
            assert bool(_fields(ru.WORDS[key])) == bool(_fields(en.WORDS[key])), key
        else:
            assert _fields(ru.WORDS[key]) == _fields(en.WORDS[key]), key


def test_every_ball_and_noun_has_both_languages() -> None:
    assert set(ru.BALLS) == set(en.BALLS) == {b.value for b in Ball}
    assert set(ru.NOUNS) == set(en.NOUNS)
    for forms in ru.BALLS.values():
        assert set(forms) == {c.value for c in Case}
    for cases in ru.NOUNS.values():
        assert set(cases) == {c.value for c in Case}
        assert all(len(f) == 3 for f in cases.values())
    for cases in en.NOUNS.values():
        assert all(len(f) == 2 for f in cases.values())


def test_the_codes_of_the_rules_are_named() -> None:
    assert texts.text(texts.CallCode.TEN_HAZARDS, RU) == "Десять сыгрываний!"
    assert texts.BALLS[Ball.YELLOW] == {RU: "жёлтый", EN: "yellow"}


# --- plurals ----------------------------------------------------------------------------


def _ru_form(n: int) -> int:
    """The Russian rule, as a grammar states it."""
    last, last_two = n % 10, n % 100
    if 11 <= last_two <= 14:
        return 2
    return {1: 0, 2: 1, 3: 1, 4: 1}.get(last, 2)


def test_plurals_of_examples() -> None:
    said = [count(n, "game", RU) for n in (1, 2, 5, 11, 12, 21, 22, 25, 101, 111, 0)]
    assert said == [
        "1 партия",
        "2 партии",
        "5 партий",
        "11 партий",
        "12 партий",
        "21 партия",
        "22 партии",
        "25 партий",
        "101 партия",
        "111 партий",
        "0 партий",
    ]
    assert [count(n, "stroke", RU, Case.GEN) for n in (1, 3, 7)] == [
        "1 удара",
        "3 ударов",
        "7 ударов",
    ]
    assert [count(n, "game", EN) for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_plural_of_any_number(n: int) -> None:
    assert plural_index(n, RU) == _ru_form(abs(n))
    assert plural_index(n, RU) == plural_index(abs(n) % 100, RU)
    assert plural_index(n, EN) == (0 if abs(n) == 1 else 1)
    for lang in Lang:
        for name in ru.NOUNS:
            for case in Case:
                said = count(n, name, lang, case)
                assert said == f"{n} {noun(name, n, lang, case)}"


def _counted_keys() -> set[str]:
    """The counted labels: keys with a ``.one`` form."""
    return {k[: -len(".one")] for k in ru.WORDS if k.endswith(".one")}


def test_every_counted_label_has_its_three_forms() -> None:
    """A counted label has .one, .few, .many in both languages (English .few is .many: its
    rule has two forms, and a page's Intl.PluralRules says "other" where texts say "few")."""
    assert "web.match.games_won" in _counted_keys()
    for key in _counted_keys():
        for lang in Lang:
            for form in PLURAL_FORMS:
                assert f"{key}.{form}" in (ru.WORDS if lang is RU else en.WORDS), (key, form)
        assert en.WORDS[f"{key}.few"] == en.WORDS[f"{key}.many"], key


def test_counted_labels_of_examples() -> None:
    said = [counted("web.match.games_won", n, RU) for n in (1, 2, 5, 21, 12)]
    assert said == [
        "партия выиграна",
        "партии выиграны",
        "партий выиграно",
        "партия выиграна",
        "партий выиграно",
    ]
    assert counted("web.common.scored", 4, RU) == "4 очка"
    assert counted("web.common.scored", 1, EN) == "1 pt"
    assert counted("web.say.foul", 7, RU) == "Штраф, 7 очков в пользу соперника"


@given(st.integers(min_value=0, max_value=10**6))
def test_a_counted_label_follows_the_plural_rule(n: int) -> None:
    for lang in Lang:
        form = PLURAL_FORMS[plural_index(n, lang)]
        assert counted("web.common.scored", n, lang) == texts.word(
            f"web.common.scored.{form}", lang, n=n
        )


# --- declensions from one table ----------------------------------------------------------


def test_every_interface_declines_the_balls_from_the_one_table() -> None:
    for ball in Ball:
        assert i18n.BALL_FORMS[ball]["gen"] == ball_name(ball, RU, Case.GEN)
        assert i18n.BALL_FORMS[ball]["ru"] == ball_name(ball, RU).capitalize()
        assert i18n.BALL_FORMS[ball]["en"] == ball_name(ball, EN)
        assert coach_words.BALL_ON[ball] == {lang: ball_name(ball, lang, Case.DAT) for lang in Lang}
        for case in Case:
            assert play._ball(ball.value, "ru", case) == ball_name(ball, RU, case)
        assert i18n.bundle(RU)["balls"][ball.value] == ball_name(ball, RU)  # type: ignore[index]


def _strings(path: Path) -> list[tuple[int, str]]:
    """The texts a module shows: its string literals, not its docstrings or comments (a
    script's lines without ``//`` comments)."""
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".js":
        return [(n, line.split("//")[0]) for n, line in enumerate(source.splitlines(), 1)]
    tree = ast.parse(source)
    docs = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def test_no_other_module_declines_a_ball() -> None:
    """The balls' case forms are written once, in ``texts/ru.py``: no other module or script
    of the package spells one in a text it shows (the nominative aside, which whole phrases
    such as «жёлтый в лузе» hold)."""
    forms = {f for b in ru.BALLS.values() for case, f in b.items() if case not in ("nom", "acc")}
    pattern = re.compile(r"\b(" + "|".join(sorted(forms)) + r")\b", re.IGNORECASE)
    found = [
        f"{path.relative_to(SRC)}:{number}: {text}"
        for path in sorted(SRC.rglob("*"))
        if path.suffix in (".py", ".js") and path != SRC / "texts" / "ru.py"
        for number, text in _strings(path)
        if pattern.search(text)
    ]
    assert found == []


def test_a_ball_played_with_is_in_the_instrumental() -> None:
    """«жёлтым шаром», never «шаром жёлтый»."""
    said = texts.word("play.with_ball", RU, ball=ball_name(Ball.YELLOW, RU, Case.INS))
    assert said == "жёлтым шаром"
    assert texts.word("play.with_ball", EN, ball=ball_name(Ball.YELLOW, EN, Case.INS)) == (
        "with the yellow"
    )


# --- errors in a language ----------------------------------------------------------------


def test_an_error_in_russian_uses_its_code_and_params() -> None:
    interrupted = StudyInterruptedError(Path("out"), 3, 9)
    assert error_message(interrupted, RU).startswith("Остановлено: выполнено задач — 3 из 9,")
    error = ValidationError(
        "--names", "name_empty", "a name must not be empty", {"where": "--names"}
    )
    assert error_message(error, RU) == "--names: имя не может быть пустым."
    position = PositionError("line 2: expected a score")
    assert error_message(position, RU) == "Позиция не читается: line 2: expected a score"


def test_an_error_in_english_is_its_own_message() -> None:
    interrupted = StudyInterruptedError(Path("out"), 3, 9)
    assert error_message(interrupted, EN) == str(interrupted)


def test_an_error_without_words_or_values_falls_back() -> None:
    unknown = OneredError("something odd", code="no_such_code")
    assert error_message(unknown, RU) == "Ошибка: something odd"
    lacking = OneredError("stopped early", code="study_interrupted")  # no done/total/folder
    assert error_message(lacking, RU) == "stopped early"


@given(
    message=st.text(max_size=30),
    code=st.sampled_from([k.removeprefix("error.") for k in ru.WORDS if k.startswith("error.")])
    | st.text(max_size=10),
    params=st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8), max_size=3),
)
def test_an_error_is_always_said(message: str, code: str, params: dict[str, object]) -> None:
    error = OneredError(message, code=code, params=params)
    for lang in Lang:
        assert isinstance(error_message(error, lang), str)
    assert error_message(error, EN) == message


# --- the locale -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({}, EN),
        ({"LANG": "ru_RU.UTF-8"}, RU),
        ({"LANG": "en_GB.UTF-8"}, EN),
        ({"LC_MESSAGES": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, RU),
        ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, EN),
        ({"LC_ALL": "ru_UA.UTF-8", "LANG": "C"}, RU),
        ({"LC_ALL": "", "LANG": "ru"}, RU),
    ],
)
def test_the_locale_chooses_the_language(environ: dict[str, str], lang: Lang) -> None:
    assert texts.lang_from_env(environ) is lang


def test_no_other_module_holds_russian_words() -> None:
    """One vocabulary: a Russian word a Python module shows is in ``texts/ru.py``."""
    cyrillic = re.compile("[а-яё]", re.IGNORECASE)
    found = [
        f"{path.relative_to(SRC)}:{number}: {text}"
        for path in sorted(SRC.rglob("*.py"))
        if path != SRC / "texts" / "ru.py"
        for number, text in _strings(path)
        if cyrillic.search(text)
    ]
    assert found == []
