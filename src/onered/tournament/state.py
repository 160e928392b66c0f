"""A tournament's state: the draw, results advancing it, league tables, tables assigned,
and its JSON form. A :class:`Tournament` is a value: each change returns a new one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from onered.tournament.draw import (
    knockout_pairs,
    round_robin_rounds,
    seeded_order,
    snake_groups,
)
from onered.tournament.model import (
    STAGE_ORDER,
    Entrant,
    Fixture,
    Format,
    Result,
    Stage,
    Standing,
    TournamentError,
)
from onered.tournament.standings import league_table


@dataclass(frozen=True)
class Tournament:
    """The whole state of a tournament: its settings, the entrants in seed order, the
    fixtures drawn so far and the results in the order they came. ``groups`` and ``advance``
    (how many of each group go into the knockout) matter for groups then knockout only;
    ``withdrawn``: the entrants who withdrew, in order (their fixtures are walkovers)."""

    format: Format
    entrants: tuple[Entrant, ...]
    fixtures: tuple[Fixture, ...]
    results: tuple[Result, ...] = ()
    seed: int = 0
    best_of: int = 1
    groups: int = 0
    advance: int = 0
    withdrawn: tuple[str, ...] = ()

    def fixture(self, key: str) -> Fixture:
        """The fixture named ``key``."""
        for fixture in self.fixtures:
            if fixture.key == key:
                return fixture
        raise TournamentError(
            f"fixture {key!r}: no such fixture", code="unknown_fixture", params={"fixture": key}
        )

    def result_of(self, key: str) -> Result | None:
        """The result of the fixture named ``key``, if it has one."""
        return next((result for result in self.results if result.fixture == key), None)

    @property
    def _played(self) -> dict[str, Result]:
        return {result.fixture: result for result in self.results}

    def ready(self) -> tuple[Fixture, ...]:
        """The fixtures that can be played now (both entrants known, no result), in the order
        they are to be played: stage, round, group, number."""
        played = self._played
        return tuple(
            sorted(
                (f for f in self.fixtures if f.known and f.key not in played),
                key=lambda f: (STAGE_ORDER[f.stage], f.round, f.group or 0, f.number),
            )
        )

    def _final(self) -> Fixture | None:
        knockout = [f for f in self.fixtures if f.stage is Stage.KNOCKOUT]
        return max(knockout, key=lambda f: f.round) if knockout else None

    @property
    def over(self) -> bool:
        """Whether the tournament is over: the final has a result (a round robin: every
        match has one)."""
        if self.format is Format.ROUND_ROBIN:
            played = self._played
            return all(f.bye or f.key in played for f in self.fixtures)
        final = self._final()
        return final is not None and (final.bye or self.result_of(final.key) is not None)

    @property
    def winner(self) -> str | None:
        """The id of the tournament's winner once it is over."""
        if not self.over:
            return None
        if self.format is Format.ROUND_ROBIN:
            return self.standings()[0].entrant
        final = self._final()
        if final is None:  # pragma: no cover - over implies a final
            return None
        result = self.result_of(final.key)
        return result.winner if result is not None else final.a

    def group_members(self, group: int) -> list[str]:
        """The entrants of group ``group`` (1-based)."""
        ids = [e.id for e in self.entrants]
        return snake_groups(ids, self.groups)[group - 1]

    def standings(self, group: int | None = None) -> tuple[Standing, ...]:
        """The league table of the round robin, or of group ``group``."""
        if group is None:
            ids = [e.id for e in self.entrants]
        elif 1 <= group <= self.groups:
            ids = self.group_members(group)
        else:
            raise TournamentError(
                f"group {group}: no such group", code="unknown_group", params={"group": group}
            )
        stage = Stage.LEAGUE if group is None else Stage.GROUP
        fixtures = [f for f in self.fixtures if f.stage is stage and f.group == group]
        return league_table(ids, fixtures, self._played, self.seed)

    def record(self, result: Result) -> Tournament:
        """The tournament with ``result`` entered: a knockout's winner takes the next round's
        slot; the last group result draws the knockout; a fixture that becomes ready against
        a withdrawn entrant is a walkover at once."""
        return self._enter(result)._walkovers()

    def entrant(self, entrant_id: str) -> Entrant:
        """The entrant whose id is ``entrant_id``."""
        for entrant in self.entrants:
            if entrant.id == entrant_id:
                return entrant
        raise TournamentError(
            f"entrant {entrant_id!r}: no such entrant",
            code="unknown_entrant",
            params={"id": entrant_id},
        )

    def withdraw(self, entrant_id: str) -> Tournament:
        """The tournament with ``entrant_id`` withdrawn: each fixture of theirs without a
        result, now or once it becomes ready, is a walkover to the opponent (results
        already in stand)."""
        self.entrant(entrant_id)
        if entrant_id in self.withdrawn:
            raise TournamentError(
                f"entrant {entrant_id!r} has withdrawn already",
                code="withdrawn_twice",
                params={"id": entrant_id},
            )
        if self.over:
            raise TournamentError(
                "the tournament is over: nobody can withdraw", code="tournament_over"
            )
        return replace(self, withdrawn=(*self.withdrawn, entrant_id))._walkovers()

    def _walkovers(self) -> Tournament:
        """Every ready fixture with a withdrawn entrant given to the other as a walkover (to
        its first entrant when both withdrew), until none is left."""
        t = self
        gone = set(self.withdrawn)
        while gone:
            fixture = next((f for f in t.ready() if f.a in gone or f.b in gone), None)
            if fixture is None:
                break
            winner = fixture.b if fixture.a in gone and fixture.b not in gone else fixture.a
            t = t._enter(Result(fixture.key, str(winner), 0, 0, walkover=True))
        return t

    def undo(self, key: str) -> Tournament:
        """The tournament with the result of fixture ``key`` taken out, as if it had never
        come: refused once the tournament has moved past it (the knockout fixture its winner
        went on to has a result; a group result once the knockout has one), and for a
        walkover given by a withdrawal."""
        fixture = self.fixture(key)
        result = self.result_of(key)
        if result is None:
            raise TournamentError(
                f"fixture {key}: it has no result to undo",
                code="no_result",
                params={"fixture": key},
            )
        loser = fixture.b if result.winner == fixture.a else fixture.a
        if result.walkover and loser in self.withdrawn:
            raise TournamentError(
                f"fixture {key}: its walkover came from {loser}'s withdrawal",
                code="undo_withdrawal",
                params={"fixture": key, "id": str(loser)},
            )
        played = self._played
        if fixture.stage is Stage.KNOCKOUT:
            following = Fixture(Stage.KNOCKOUT, fixture.round + 1, (fixture.number + 1) // 2)
            later = [following.key] if following.key in played else []
        elif fixture.stage is Stage.GROUP:
            later = [f.key for f in self.fixtures if f.stage is Stage.KNOCKOUT and f.key in played]
        else:
            later = []
        if later:
            raise TournamentError(
                f"fixture {key}: the tournament has moved past it ({later[0]} has a result)",
                code="undo_later",
                params={"fixture": key, "later": later[0]},
            )
        again = _replayed(self, [r for r in self.results if r.fixture != key])
        tables = {(f.key, f.a, f.b): f.table for f in self.fixtures}
        return replace(
            again,
            fixtures=tuple(replace(f, table=tables.get((f.key, f.a, f.b))) for f in again.fixtures),
        )

    def _enter(self, result: Result) -> Tournament:
        """``result`` entered (checked), the draw advanced; no walkovers given."""
        fixture = self.fixture(result.fixture)
        key = fixture.key
        if self.result_of(key) is not None:
            raise TournamentError(
                f"fixture {key}: it already has a result",
                code="result_twice",
                params={"fixture": key},
            )
        if not fixture.known:
            raise TournamentError(
                f"fixture {key}: its entrants are not both known",
                code="not_ready",
                params={"fixture": key},
            )
        if result.winner not in (fixture.a, fixture.b):
            raise TournamentError(
                f"fixture {key}: {result.winner!r} does not play in it",
                code="not_in_fixture",
                params={"fixture": key, "winner": result.winner},
            )
        need = 0 if result.walkover else fixture.best_of // 2 + 1
        own, other = (
            (result.games_a, result.games_b)
            if result.winner == fixture.a
            else (result.games_b, result.games_a)
        )
        if not result.walkover and (own != need or not 0 <= other < need):
            raise TournamentError(
                f"fixture {key}: games {result.games_a}-{result.games_b} do not end a best of "
                f"{fixture.best_of} won by {result.winner}",
                code="bad_games",
                params={
                    "fixture": key,
                    "games": f"{result.games_a}-{result.games_b}",
                    "best_of": fixture.best_of,
                },
            )
        if result.walkover and (result.games_a, result.games_b) != (0, 0):
            raise TournamentError(
                f"fixture {key}: a walkover has no games, not {result.games_a}-{result.games_b}",
                code="bad_walkover",
                params={"fixture": key},
            )
        if min(result.handicap) < 0:
            raise TournamentError(
                f"fixture {key}: a handicap start is not negative",
                code="bad_handicap",
                params={"fixture": key},
            )
        fixtures = {f.key: f for f in self.fixtures}
        if fixture.stage is Stage.KNOCKOUT:
            _advance(fixtures, fixture, result.winner)
        after = replace(self, fixtures=tuple(fixtures.values()), results=(*self.results, result))
        if self.format is Format.GROUPS_THEN_KNOCKOUT and after._final() is None:
            played = after._played
            if all(f.bye or f.key in played for f in after.fixtures):
                return after._with_knockout()
        return after

    def _with_knockout(self) -> Tournament:
        """The knockout after the groups: the top ``advance`` of each group, the winners
        first (by group), then the runners-up, ..."""
        tables = [self.standings(g) for g in range(1, self.groups + 1)]
        qualifiers = [table[place].entrant for place in range(self.advance) for table in tables]
        group_of = {
            entrant: g for g in range(1, self.groups + 1) for entrant in self.group_members(g)
        }
        knockout = _knockout(knockout_pairs(qualifiers, group_of), self.best_of)
        return replace(self, fixtures=(*self.fixtures, *knockout))

    def assign_tables(self, free: Sequence[int]) -> Tournament:
        """The ready fixtures without a table given the ``free`` tables, in the order they
        are to be played; a table still held by a fixture without a result is not free."""
        played = self._played
        busy = {f.table for f in self.fixtures if f.table is not None and f.key not in played}
        tables = [t for t in dict.fromkeys(free) if t not in busy]
        given: dict[str, int] = {}
        for fixture in self.ready():
            if not tables:
                break
            if fixture.table is None:
                given[fixture.key] = tables.pop(0)
        return replace(
            self,
            fixtures=tuple(
                replace(f, table=given[f.key]) if f.key in given else f for f in self.fixtures
            ),
        )

    def to_json(self) -> dict[str, Any]:
        """The state as JSON values (:func:`from_json` reads it back equal)."""
        return {
            "format": self.format.value,
            "seed": self.seed,
            "best_of": self.best_of,
            "groups": self.groups,
            "advance": self.advance,
            "withdrawn": list(self.withdrawn),
            "entrants": [
                {"id": e.id, "name": e.name, "club": e.club, "rating": e.rating}
                for e in self.entrants
            ],
            "fixtures": [
                {
                    "stage": f.stage.value,
                    "round": f.round,
                    "number": f.number,
                    "a": f.a,
                    "b": f.b,
                    "bye": f.bye,
                    "best_of": f.best_of,
                    "table": f.table,
                    "group": f.group,
                }
                for f in self.fixtures
            ],
            "results": [
                {
                    "fixture": r.fixture,
                    "winner": r.winner,
                    "games_a": r.games_a,
                    "games_b": r.games_b,
                    "handicap": list(r.handicap),
                    "walkover": r.walkover,
                }
                for r in self.results
            ],
        }


def _advance(fixtures: dict[str, Fixture], fixture: Fixture, winner: str) -> None:
    """``winner`` of a knockout ``fixture`` into its slot of the next round (if any)."""
    following = Fixture(Stage.KNOCKOUT, fixture.round + 1, (fixture.number + 1) // 2)
    target = fixtures.get(following.key)
    if target is None:
        return
    fixtures[target.key] = (
        replace(target, a=winner) if fixture.number % 2 else replace(target, b=winner)
    )


def _knockout(pairs: Sequence[tuple[str, str | None]], best_of: int) -> list[Fixture]:
    """Every fixture of a knockout whose round one is ``pairs``; byes advanced at once."""
    fixtures: dict[str, Fixture] = {}
    for number, (a, b) in enumerate(pairs, 1):
        fixture = Fixture(Stage.KNOCKOUT, 1, number, a, b, bye=b is None, best_of=best_of)
        fixtures[fixture.key] = fixture
    count, round_ = len(pairs) // 2, 2
    while count >= 1:
        for number in range(1, count + 1):
            fixture = Fixture(Stage.KNOCKOUT, round_, number, best_of=best_of)
            fixtures[fixture.key] = fixture
        count, round_ = count // 2, round_ + 1
    for fixture in list(fixtures.values()):
        if fixture.bye and fixture.a is not None:
            _advance(fixtures, fixture, fixture.a)
    return list(fixtures.values())


def _league(
    ids: Sequence[str], stage: Stage, best_of: int, group: int | None = None
) -> list[Fixture]:
    """The fixtures of a round robin of ``ids`` (the circle method)."""
    fixtures = []
    for round_, pairs in enumerate(round_robin_rounds(ids), 1):
        for number, (a, b) in enumerate(pairs, 1):
            first, second = (b, a) if a is None else (a, b)
            fixtures.append(
                Fixture(
                    stage,
                    round_,
                    number,
                    first,
                    second,
                    bye=second is None,
                    best_of=best_of,
                    group=group,
                )
            )
    return fixtures


def draw(
    entrants: Sequence[Entrant],
    format: Format,
    *,
    seed: int = 0,
    best_of: int = 1,
    groups: int = 0,
    advance: int = 2,
) -> Tournament:
    """A new tournament: the entrants seeded (by rating, ``seed`` drawing the rest) and the
    draw made. ``groups``/``advance``: the number of groups and how many of each go on."""
    count = len(entrants)
    if count < 2:
        raise TournamentError(
            f"entrants: a tournament needs at least 2, got {count}",
            code="too_few_entrants",
            params={"count": count},
        )
    seen: set[str] = set()
    for entrant in entrants:
        if entrant.id in seen:
            raise TournamentError(
                f"entrant {entrant.id!r} is entered twice",
                code="entered_twice",
                params={"id": entrant.id},
            )
        seen.add(entrant.id)
    if best_of < 1 or best_of % 2 == 0:
        raise TournamentError(
            f"best_of: a match is the best of an odd number of games, got {best_of}",
            code="bad_best_of",
            params={"best_of": best_of},
        )
    seeded = tuple(seeded_order(entrants, seed))
    ids = [e.id for e in seeded]
    if format is Format.KNOCKOUT:
        return Tournament(
            format,
            seeded,
            tuple(_knockout(knockout_pairs(ids), best_of)),
            seed=seed,
            best_of=best_of,
        )
    if format is Format.ROUND_ROBIN:
        return Tournament(
            format, seeded, tuple(_league(ids, Stage.LEAGUE, best_of)), seed=seed, best_of=best_of
        )
    if groups < 1 or groups > count // 2:
        raise TournamentError(
            f"groups: {groups} groups of at least 2 do not fit {count} entrants",
            code="groups_too_big",
            params={"groups": groups, "count": count},
        )
    smallest = count // groups
    if not 1 <= advance <= smallest or groups * advance < 2:
        raise TournamentError(
            f"advance: {advance} of each group cannot go on (the smallest group has "
            f"{smallest}, and the knockout needs 2)",
            code="bad_advance",
            params={"advance": advance, "smallest": smallest},
        )
    fixtures = [
        fixture
        for number, members in enumerate(snake_groups(ids, groups), 1)
        for fixture in _league(members, Stage.GROUP, best_of, number)
    ]
    return Tournament(
        format, seeded, tuple(fixtures), seed=seed, best_of=best_of, groups=groups, advance=advance
    )


def _replayed(t: Tournament, results: Sequence[Result]) -> Tournament:
    """``t``'s draw made again and ``results`` entered in order, its withdrawals kept (and
    any walkover they then call for given); no tables."""
    again = draw(
        t.entrants,
        t.format,
        seed=t.seed,
        best_of=t.best_of,
        groups=t.groups,
        advance=t.advance,
    )
    for result in results:
        again = again._enter(result)
    return replace(again, withdrawn=t.withdrawn)._walkovers()


def _bad(detail: str) -> TournamentError:
    return TournamentError(
        f"tournament state: {detail}", code="bad_tournament", params={"detail": detail}
    )


def _field(
    obj: Mapping[str, Any], name: str, kind: type | tuple[type, ...], optional: bool = False
) -> Any:
    """``obj[name]`` if it is of ``kind`` (a bool is no number here)."""
    if name not in obj:
        raise _bad(f"{name!r} is missing")
    value = obj[name]
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _bad(f"{name!r} is {value!r}")
    return value


def _objects(obj: Mapping[str, Any], name: str) -> list[Mapping[str, Any]]:
    items = _field(obj, name, list)
    if not all(isinstance(item, dict) for item in items):
        raise _bad(f"{name!r} holds a value that is not an object")
    return list(items)


def from_json(obj: object) -> Tournament:
    """The tournament :meth:`Tournament.to_json` wrote (its values' types checked)."""
    if not isinstance(obj, dict):
        raise _bad("not an object")
    try:
        format_ = Format(_field(obj, "format", str))
        entrants = tuple(
            Entrant(
                _field(e, "id", str),
                _field(e, "name", str),
                _field(e, "club", str),
                None if e.get("rating") is None else float(_field(e, "rating", (int, float))),
            )
            for e in _objects(obj, "entrants")
        )
        fixtures = tuple(
            Fixture(
                Stage(_field(f, "stage", str)),
                _field(f, "round", int),
                _field(f, "number", int),
                _field(f, "a", str, optional=True),
                _field(f, "b", str, optional=True),
                _field(f, "bye", bool),
                _field(f, "best_of", int),
                _field(f, "table", int, optional=True),
                _field(f, "group", int, optional=True),
            )
            for f in _objects(obj, "fixtures")
        )
        results = []
        for r in _objects(obj, "results"):
            handicap = _field(r, "handicap", list)
            if len(handicap) != 2 or not all(
                isinstance(h, int) and not isinstance(h, bool) for h in handicap
            ):
                raise _bad(f"handicap {handicap!r}")
            results.append(
                Result(
                    _field(r, "fixture", str),
                    _field(r, "winner", str),
                    _field(r, "games_a", int),
                    _field(r, "games_b", int),
                    (handicap[0], handicap[1]),
                    walkover=_field(r, "walkover", bool) if "walkover" in r else False,
                )
            )
        withdrawn = _field(obj, "withdrawn", list) if "withdrawn" in obj else []
        known = {e.id for e in entrants}
        if not all(isinstance(w, str) and w in known for w in withdrawn):
            raise _bad(f"withdrawn {withdrawn!r}: not all entrants")
    except ValueError as error:
        raise _bad(str(error)) from None
    return _consistent(
        Tournament(
            format_,
            entrants,
            fixtures,
            tuple(results),
            seed=_field(obj, "seed", int),
            best_of=_field(obj, "best_of", int),
            groups=_field(obj, "groups", int),
            advance=_field(obj, "advance", int),
            withdrawn=tuple(withdrawn),
        )
    )


def _consistent(tournament: Tournament) -> Tournament:
    """``tournament`` if its draw and fixtures follow from its entrants, settings and results
    (drawn again and the results entered again, the tables kept): a saved state that was
    edited by hand or broken is refused rather than played on."""
    t = tournament
    if len(set(t.withdrawn)) != len(t.withdrawn):
        raise _bad("an entrant withdrew twice")
    try:
        again = _replayed(t, t.results)
    except TournamentError as error:
        raise _bad(f"it does not replay: {error.message}") from None
    tables = {f.key: f.table for f in t.fixtures}
    again = replace(
        again, fixtures=tuple(replace(f, table=tables.get(f.key)) for f in again.fixtures)
    )
    if again != t:
        raise _bad("its fixtures do not follow from its entrants, settings and results")
    return t
