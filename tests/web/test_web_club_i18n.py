"""Every error code the server can answer is said by the pages' catalogue in both languages,
and the catalogue's texts of the club's features name what they fill in."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from onered.players.strength import Level
from onered.rules.possible import Reason
from onered.texts import Lang
from onered.web import i18n

WEB = Path(i18n.__file__).parent
#: The game core's modules whose refusals the web answers with their code.
CORE = [
    WEB.parent / "game" / name
    for name in ("session.py", "validate.py", "record.py", "turns.py", "series.py", "shots.py")
]
#: Where the code is among an error's positional arguments (``ApiError(status, message,
#: code)``; the core's ``SessionError(code, message)``, ``ValidationError(where, code, …)``).
CODE_AT = {"SessionError": 0, "ValidationError": 1}
#: Codes the pages make themselves (no answer at all, or no answer in time).
PAGE_CODES = {"network", "timeout"}


def server_codes() -> dict[str, str]:
    """Every literal error code in the web package and the game core it answers for: the
    code argument of a call to a class named ``…Error``, or a ``"code": "…"`` entry of a
    dict literal."""
    codes: dict[str, str] = {}
    for path in [*sorted(WEB.glob("*.py")), *CORE]:
        if not path.exists():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if not name.endswith("Error"):
                    continue
                at = CODE_AT.get(name, 2)
                args = list(node.args[at : at + 1])
                args += [k.value for k in node.keywords if k.arg == "code"]
                for arg in args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        codes[arg.value] = f"{path.name}:{node.lineno}"
            elif isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(k, ast.Constant)
                        and k.value == "code"
                        and isinstance(v, ast.Constant)
                        and isinstance(v.value, str)
                    ):
                        codes[v.value] = f"{path.name}:{node.lineno}"
    return codes


def test_the_scan_finds_the_codes_it_should() -> None:
    codes = server_codes()
    assert {"over", "stale", "not_your_turn", "no_takeback"} <= set(codes)


def test_every_server_error_code_has_a_catalogue_entry() -> None:
    missing = {c: where for c, where in server_codes().items() if f"error.{c}" not in i18n.UI}
    assert missing == {}
    for code in PAGE_CODES:
        assert f"error.{code}" in i18n.UI


@pytest.mark.parametrize("lang", list(Lang))
def test_every_reason_and_level_is_named(lang: Lang) -> None:
    bundle = i18n.bundle(lang)
    reasons, levels = bundle["reasons"], bundle["ai_levels"]
    assert isinstance(reasons, dict)
    assert isinstance(levels, dict)
    assert set(reasons) == {r.value for r in Reason}
    assert set(levels) == {s.value for s in Level}


def test_a_reason_names_its_ball_in_both_languages() -> None:
    for reason, texts in i18n.REASONS.items():
        fields = {lang: set(re.findall(r"\{(\w+)\}", texts[lang])) for lang in Lang}
        assert fields[Lang.RU] <= {"ball", "ball_cap"}, reason
        assert fields[Lang.EN] <= {"ball", "ball_cap"}, reason
        assert bool(fields[Lang.RU]) == bool(fields[Lang.EN]), reason
