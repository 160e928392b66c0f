"""Errors are mapped to HTTP in one place (``onered.web.errors``): the status by the error's
code, the body with the English text, the message in the user's language, code and params."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.requests import Request

from onered.errors import OneredError
from onered.game.series import SeriesError
from onered.game.session import SessionError
from onered.game.validate import ValidationError
from onered.texts import Lang
from onered.web import i18n
from onered.web.errors import ApiError, body, error_text, lang_of, status_of
from onered.web.match_store import MatchConflictError
from onered.web.store import ConflictError
from web_support import Api

CODES = sorted(k.removeprefix("error.") for k in i18n.UI if k.startswith("error."))


def _request(accept: str | None) -> Request:
    headers = [] if accept is None else [(b"accept-language", accept.encode())]
    return Request({"type": "http", "headers": headers})


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        (None, Lang.EN),
        ("fr-FR,fr;q=0.9", Lang.EN),
        ("ru-RU,ru;q=0.9,en;q=0.8", Lang.RU),
        ("en;q=0.5, ru", Lang.RU),
        ("ru;q=0, en", Lang.EN),
        ("RU", Lang.RU),
        ("ru;q=bad", Lang.EN),
    ],
)
def test_the_users_language_is_read_from_accept_language(accept: str | None, lang: Lang) -> None:
    assert lang_of(_request(accept)) is lang


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (SessionError("over", "the game is over"), 409),
        (SessionError("bad_line", "line: nonsense"), 422),
        (ValidationError("target", "target", "too big"), 422),
        (ConflictError(1, 2), 409),
        (MatchConflictError(1, 2), 409),
        (SeriesError("x", code="match_over"), 409),
        (SeriesError("best_of: even"), 422),
        (ApiError(403, "no", "bad_token"), 403),
        (OneredError("something else"), 422),
    ],
)
def test_the_status_comes_from_the_code(error: OneredError, status: int) -> None:
    assert status_of(error) == status


def test_the_body_keeps_the_english_text_and_says_it_in_the_users_language() -> None:
    error = SessionError(
        "not_your_turn", "it is not your turn: Petrov is to play", {"name": "Petrov"}
    )
    en, ru = body(error, Lang.EN), body(error, Lang.RU)
    assert en["error"] == ru["error"] == "it is not your turn: Petrov is to play"
    assert en["message"] == "It is not your turn: Petrov is to play."
    assert "Petrov" in str(ru["message"])
    assert ru["message"] != en["message"]
    assert en["code"] == "not_your_turn"
    assert en["params"] == {"name": "Petrov"}


def test_a_code_without_words_keeps_the_english_text() -> None:
    out = body(OneredError("odd", code="no_such_code_anywhere"), Lang.RU)
    assert out["message"] == out["error"] == "odd"
    assert "params" not in out


def test_a_detail_the_words_want_is_given_from_the_english_text() -> None:
    out = body(SeriesError("best_of: expected an odd number"), Lang.EN)
    assert out["code"] == "match_settings"
    assert out["params"] == {"detail": "best_of: expected an odd number"}
    assert out["message"] == "The match's settings are wrong: best_of: expected an odd number"


@given(
    code=st.sampled_from(CODES),
    params=st.dictionaries(
        st.sampled_from(["name", "ball", "reason", "max", "line", "id", "number", "detail", "x"]),
        st.one_of(st.text(max_size=8), st.integers(), st.sampled_from(["red", "not_on_table"])),
        max_size=4,
    ),
    lang=st.sampled_from(list(Lang)),
)
def test_any_code_with_any_params_gives_a_message(
    code: str, params: dict[str, Any], lang: Lang
) -> None:
    text = error_text(code, params, lang)
    assert isinstance(text, str)
    assert text


def test_a_route_answers_in_the_users_language(api: Api) -> None:
    r = api.get("/api/games/nosuchgame", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert r.status == 404
    assert r.body["code"] == "no_game"
    assert r.body["error"] == "game 'nosuchgame': no such game"
    assert r.body["message"] == i18n.UI["error.no_game"][Lang.RU].format(id="nosuchgame")
