"""The player register (issue 23, item 1): players by name (unique, casefolded), of a club
or none, with an optional rating; kept by the club's admin; read by everyone."""

from __future__ import annotations

import itertools
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_web_accounts import MARKER, PASSWORD, Browser, Club, signed_in
from test_web_accounts import club as club  # the fixture

from onered.game.validate import MAX_NAME, ValidationError
from onered.game.validate import name as valid_name
from onered.web.accounts import AccountError, Role
from onered.web.api_register import MAX_RATING, Player, Register, name_key
from onered.web.db import Database
from web_support import P1, P2


def add(b: Browser, name: str, club_id: str | None, rating: float | None = None) -> dict:
    r = b.request(
        "POST", "/api/register", json={"name": name, "club_id": club_id, "rating": rating}
    )
    assert r.status == 201, r.text
    made: dict = r.body
    return made


def test_a_club_admin_adds_edits_and_removes_his_players(club: Club) -> None:
    a = signed_in(club)
    ivanov = add(a, f"  {P1}  ", club.club_id, 1520)
    assert ivanov["name"] == P1  # white space made single
    assert ivanov["club_id"] == club.club_id
    assert ivanov["rating"] == 1520.0
    add(a, P2, club.club_id)
    add(a, "Sidorov Petr", club.club_id, 1400.5)
    anyone = Browser(club.api)
    listed = anyone.request("GET", "/api/register").body
    assert [p["name"] for p in listed["players"]] == [P1, P2, "Sidorov Petr"]
    assert listed["total"] == 3
    found = anyone.request("GET", "/api/register?q=PETR").body  # any case, a part
    assert [p["name"] for p in found["players"]] == [P2, "Sidorov Petr"]
    assert anyone.request("GET", "/api/register?q=%25").body["total"] == 0  # % is a letter
    page = anyone.request("GET", f"/api/register?club={club.club_id}&limit=1&offset=1").body
    assert [p["name"] for p in page["players"]] == [P2]
    assert page["total"] == 3
    assert anyone.request("GET", f"/api/register/{ivanov['id']}").body == ivanov
    assert anyone.request("GET", "/api/register/by-name/ivanov").body == ivanov

    r = a.request("PATCH", f"/api/register/{ivanov['id']}", json={"rating": None})
    assert r.status == 200, r.text
    assert r.body["rating"] is None
    assert r.body["name"] == P1  # what was not named stays
    r = a.request("PATCH", f"/api/register/{ivanov['id']}", json={"name": "Ivanov Ivan"})
    assert r.body["name"] == "Ivanov Ivan"
    r = a.request("PATCH", f"/api/register/{ivanov['id']}", json={"name": "petrov"})
    assert (r.status, r.body["code"]) == (409, "player_taken")
    assert a.request("DELETE", f"/api/register/{ivanov['id']}").status == 204
    r = anyone.request("GET", f"/api/register/{ivanov['id']}")
    assert (r.status, r.body["code"]) == (404, "not_registered")
    assert anyone.request("GET", "/api/register").body["total"] == 2


def test_names_are_unique_in_the_register_casefolded(club: Club) -> None:
    a = signed_in(club)
    add(a, "Straße Anna", club.club_id)
    for again in ("STRASSE anna", "straße  Anna", " Straße Anna"):
        r = a.request("POST", "/api/register", json={"name": again, "club_id": club.club_id})
        assert (r.status, r.body["code"]) == (409, "player_taken"), again
    ru = a.request(
        "POST", "/api/register", json={"name": "strasse ANNA", "club_id": club.club_id}, lang="ru"
    )
    assert ru.body["message"] == "Игрок strasse ANNA уже есть в реестре."


def test_bad_names_and_ratings_are_refused_by_name(club: Club) -> None:
    a = signed_in(club)
    cases = [
        ({"name": ""}, "name_empty"),
        ({"name": "x" * (MAX_NAME + 1)}, "name_long"),
        ({"name": "Ivan\u200bov"}, "name_chars"),
        ({"name": P1, "rating": -1}, "bad_rating"),
        ({"name": P1, "rating": MAX_RATING + 1}, "bad_rating"),
        ({"name": P1, "club_id": "nope"}, "forbidden"),  # not this admin's club
    ]
    for body, code in cases:
        r = a.request("POST", "/api/register", json={"club_id": club.club_id, **body})
        assert r.status in (403, 422), r.text
        assert r.body["code"] == code, body
    assert a.request("GET", "/api/register").body["total"] == 0


def test_only_the_clubs_admin_keeps_its_players(club: Club) -> None:
    a = signed_in(club)
    ivanov = add(a, P1, club.club_id)
    other = club.accounts.create_club("Riverside")
    club.accounts.create_account("river@club.example", PASSWORD, Role.CLUB_ADMIN, other.id)
    o = signed_in(club, "river@club.example")
    for method, body in (("PATCH", {"rating": 2000}), ("DELETE", None)):
        r = o.request(method, f"/api/register/{ivanov['id']}", json=body)
        assert (r.status, r.body["code"]) == (403, "forbidden")
    r = o.request("POST", "/api/register", json={"name": P2, "club_id": club.club_id})
    assert r.status == 403
    # moving a player to another club needs the other club's admin too
    r = a.request("PATCH", f"/api/register/{ivanov['id']}", json={"club_id": other.id})
    assert r.status == 403
    # a player of no club is the federation's
    r = a.request("POST", "/api/register", json={"name": P2, "club_id": None})
    assert r.status == 403
    club.accounts.create_account("chief@fed.example", PASSWORD, Role.FEDERATION_ADMIN, None)
    f = signed_in(club, "chief@fed.example")
    add(f, P2, None)
    r = f.request("PATCH", f"/api/register/{ivanov['id']}", json={"club_id": other.id})
    assert r.status == 200
    assert r.body["club_id"] == other.id
    m = signed_in(club, MARKER)
    assert m.request("DELETE", f"/api/register/{ivanov['id']}").status == 403
    assert Browser(club.api).request("POST", "/api/register", json={"name": "Z"}).status == 401


def test_a_club_with_players_is_not_removed(club: Club) -> None:
    a = signed_in(club)
    add(a, P1, club.club_id)
    with pytest.raises(AccountError) as caught:
        club.accounts.remove_club(club.club_id)
    assert caught.value.code == "club_in_use"


# --- the register as a value store (both databases) -------------------------------------

_counter = itertools.count()


def _valid(text: str) -> bool:
    try:
        valid_name(text, "name")
    except ValidationError:
        return False
    return True


names = st.text(
    alphabet=st.sampled_from(string.ascii_letters + "АБВГДЕЁЖЗабвгдеёжзßİı -'."),
    min_size=1,
    max_size=30,
).filter(_valid)
ratings = st.none() | st.floats(min_value=0, max_value=MAX_RATING, allow_nan=False)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=names, rating=ratings, with_club=st.booleans())
def test_a_stored_player_reads_back_equal(
    database: Database, name: str, rating: float | None, with_club: bool
) -> None:
    """Property: what is added reads back the same, by id and by its name in any case."""
    from onered.web.accounts import Accounts

    register = Register(database, lambda: 1_800_000_000.25)
    club_id = None
    if with_club:
        club_id = Accounts(database).create_club(f"club {next(_counter)}").id
    made = register.add(name, club_id, rating)
    try:
        assert made == Player(made.id, " ".join(name.split()), club_id, rating, 1_800_000_000.25)
        assert register.get(made.id) == made
        other_case = name.swapcase()
        if name_key(other_case) == name_key(name):
            assert register.named(other_case) == made
        assert register.named(" ".join(name.split())) == made
        listed, _ = register.find(club_id=club_id, limit=500)
        assert made in listed
    finally:
        register.remove(made.id)


def test_a_name_entered_by_another_process_in_between_is_still_409(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unique index is the last word: when the check before the insert saw nothing (a
    writer of another process got in between, on PostgreSQL), the refusal is the same."""
    register = Register(database, lambda: 1.0)
    register.add(P1, None)
    monkeypatch.setattr(Register, "_taken", staticmethod(lambda *a, **k: None))
    with pytest.raises(AccountError) as caught:
        register.add(P1.upper(), None)
    assert (caught.value.status, caught.value.code) == (409, "player_taken")
    other = register.add(P2, None)
    with pytest.raises(AccountError) as caught:
        register.edit(other.id, {"name": P1})
    assert caught.value.code == "player_taken"
    assert register.get(other.id).name == P2
