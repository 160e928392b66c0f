"""Every label and every call of the pages exists in Russian and in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from onered.game import validate
from onered.game.marking import CALLER_FOULS, Part
from onered.players.strength import Level
from onered.rules import Ball, CallCode, FoulCode, Option, ScoreKind
from onered.table import Spot
from onered.texts import PLURAL_FORMS, Lang
from onered.web import i18n, pages

STATIC = Path(i18n.__file__).parent / "static"


def counted_keys(text: str) -> set[str]:
    """Counted labels a page asks for: tn("...", n) calls (one key per plural form)."""
    return set(re.findall(r'\btn\("([\w.]+)"', text))


def used_keys() -> set[str]:
    """Label keys the pages ask for: data-i18n attributes and t("...") calls."""
    keys: set[str] = set()
    texts = [p.read_text(encoding="utf-8") for p in STATIC.iterdir() if p.suffix == ".js"]
    texts += [pages.render(name) for name in pages.PAGES]  # the layout filled for each page
    for text in texts:
        keys |= set(re.findall(r'data-i18n(?:-page|-title|-placeholder)?="([\w.]+)"', text))
        keys |= set(re.findall(r'\bt\("([\w.]+)"', text))
        keys |= {f"{k}.{form}" for k in counted_keys(text) for form in PLURAL_FORMS}
        # keys built from a prefix and a value: home.mode.<mode>
        for prefix in re.findall(r"t\(`([\w.]+)\.\$\{", text):
            keys |= {k for k in i18n.UI if k.startswith(prefix + ".")}
    return keys


def test_every_key_the_pages_use_exists() -> None:
    missing = sorted(used_keys() - set(i18n.UI))
    assert missing == []


def test_every_label_has_both_languages_with_the_same_fields() -> None:
    for key, texts in i18n.UI.items():
        assert set(texts) == {Lang.RU, Lang.EN}, key
        assert texts[Lang.RU].strip(), key
        assert texts[Lang.EN].strip(), key
        assert set(re.findall(r"\{\w+\}", texts[Lang.RU])) == set(
            re.findall(r"\{\w+\}", texts[Lang.EN])
        ), key
    # Russian labels are Russian: no label is written in Latin letters only.
    latin_only = [
        k
        for k, v in i18n.UI.items()
        if re.search("[a-z]", v[Lang.RU], re.I) and not re.search("[а-яё]", v[Lang.RU], re.I)
    ]
    assert latin_only == []


def keys(bundle: dict[str, object], part: str) -> set[str]:
    """The codes one part of the bundle names."""
    texts = bundle[part]
    assert isinstance(texts, dict)
    return set(texts)


@pytest.mark.parametrize("lang", list(Lang))
def test_the_bundle_names_every_code(lang: Lang) -> None:
    bundle = i18n.bundle(lang)
    assert keys(bundle, "calls") == {c.value for c in CallCode}
    assert keys(bundle, "fouls") == {f.value for f in FoulCode}
    assert keys(bundle, "scores") == {k.value for k in ScoreKind}
    assert keys(bundle, "options") == {o.value for o in Option}
    assert keys(bundle, "balls") == {b.value for b in Ball}
    assert keys(bundle, "spots") == {s.value for s in Spot}
    assert keys(bundle, "parts") == {p.value for p in Part}
    assert bundle["caller_fouls"] == [f.value for f in CALLER_FOULS]


def test_calls_come_from_the_referees_texts() -> None:
    assert i18n.bundle(Lang.RU)["calls"]["ten_hazards"] == "Десять сыгрываний!"  # type: ignore[index]
    assert i18n.bundle(Lang.EN)["calls"]["touching_ball"] == "Touching ball!"  # type: ignore[index]


def test_no_label_is_left_unused() -> None:
    assert sorted(set(i18n.UI) - used_keys()) == []


def test_every_error_code_of_the_game_core_has_a_text_in_both_languages() -> None:
    """The codes of a refused name, target or table (the web's own codes are scanned by
    test_web_club_i18n)."""
    source = (Path(validate.__file__)).read_text(encoding="utf-8")
    codes = set(re.findall(r'ValidationError\(\s*\w+,\s*"(\w+)"', source))
    assert {"name_empty", "name_long", "name_chars", "names_same", "target", "physics"} <= codes
    for code in codes:
        texts = i18n.UI[f"error.{code}"]
        assert texts[Lang.RU]
        assert texts[Lang.EN]


def test_every_counted_label_has_each_plural_form_with_n() -> None:
    """A page's tn("key", n) finds key.one, key.few and key.many, each saying {n} or
    standing after a number the page shows itself."""
    texts = [p.read_text(encoding="utf-8") for p in STATIC.iterdir() if p.suffix == ".js"]
    asked = set().union(*(counted_keys(text) for text in texts))
    assert {"match.games_won", "common.scored", "say.foul", "player.read"} <= asked
    for key in asked:
        for form in PLURAL_FORMS:
            assert f"{key}.{form}" in i18n.UI, f"{key}.{form}"


def test_russian_counted_labels_agree_with_the_number() -> None:
    ru = i18n.UI
    assert ru["match.games_won.one"][Lang.RU] == "партия выиграна"
    assert ru["match.games_won.few"][Lang.RU] == "партии выиграны"
    assert ru["match.games_won.many"][Lang.RU] == "партий выиграно"
    assert ru["common.scored.one"][Lang.RU] == "{n} очко"
    assert ru["say.foul.many"][Lang.RU].startswith("Штраф, {n} очков")


def test_names_stand_in_the_nominative() -> None:
    """A person's name is never put after a word that would decline it («за {name}»,
    «выиграл {name}»): Russian names stand as they are written, after a colon or as the
    subject."""
    bad = re.compile(
        r"(?:\bза|\bигроком|\bвыиграл|\bпобедил|\bу|\bс|\bдля) "
        r"\{(?:name|player|players|me|opponent|who)\}",
        re.I,
    )
    wrong = [k for k, v in i18n.UI.items() if bad.search(v[Lang.RU])]
    assert wrong == []
    assert i18n.UI["play.you_are"][Lang.RU] == "Вы играете: {name}"


def test_the_bundle_declines_every_ball() -> None:
    cases = i18n.bundle(Lang.RU)["ball_cases"]
    assert isinstance(cases, dict)
    assert cases["yellow"]["ins"] == "жёлтым"
    assert set(cases) == {b.value for b in Ball}


def test_home_links_the_coach() -> None:
    assert 'href="/coach"' in pages.render("index")


def test_a_computer_is_known_by_its_name_in_any_language() -> None:
    """A page names a computer player in its own language from its name in either
    language (the bundle's ai_names), where no entrants say it is the computer."""
    names = i18n.bundle(Lang.RU)["ai_names"]
    assert isinstance(names, dict)
    assert names["Computer (pro)"] == "pro"
    assert names["Компьютер (профессионал)"] == "pro"
    assert set(names.values()) == {level.value for level in Level}


def test_every_page_request_says_the_pages_language() -> None:
    """The server's own messages come in the page's language, not only the browser's."""
    common = (STATIC / "common.js").read_text(encoding="utf-8")
    assert '"Accept-Language": I.lang' in common
