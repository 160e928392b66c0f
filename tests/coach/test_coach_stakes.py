"""What the coach says matters (issue 21 item 5): the chances of crossing the baulk line when
it is owed and of a limit foul near the limits, counted over the very plays the referee
judges; titles by the most frequent outcome; equal suggestions not said to beat each other;
a scoring verb that fits cannons; pockets named where the drawn table shows them."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coach_support import HANGING, OPEN, position
from onered.coach import Advice, Coach, Reason, level_strength
from onered.coach.advice import FOUL, Outcome, Stakes, _pockets, outcome
from onered.coach.report import advice_json
from onered.coach.words import (
    View,
    odds_words,
    pocket_place,
    pocket_words,
    reason_words,
    stroke_words,
)
from onered.game import Game
from onered.game.model import Action, Position
from onered.physics.types import Strike
from onered.players.search import Choice
from onered.rules import Ball, FoulCode, ScoreKind, Verdict
from onered.rules.model import Counters
from onered.table import LENGTH, POCKET_NAMES, POCKET_POINTS, WIDTH
from onered.texts import Lang, words

_COACH = Coach(level_strength("amateur"))
Pockets = tuple[tuple[Ball, str], ...]
#: A play's verdict and the pockets balls fell into.
Played = tuple[Verdict, Pockets]

#: Positions whose stakes differ: nothing at stake; the crossing owed (85 into the break);
#: the baulk-line foul possible (98: any score passes 100); 15 hazards (the next hazard is
#: the 16th, a foul); 75 cannons.
STATES: dict[str, dict[str, object]] = {
    "plain": {},
    "owed": {"break_": 85, "score": (85, 0)},
    "baulk_foul": {"break_": 98, "score": (98, 0)},
    "hazards": {"break_": 45, "score": (45, 0), "counters": Counters(0, 15, 0)},
    "cannons": {"break_": 60, "score": (60, 0), "counters": Counters(75, 0, 0)},
}
#: Strokes that score now one way, now another under the noise: the hanging red's pot, a
#: cannon off the yellow, an in-off off the red, the yellow's pot whose white runs back
#: over the baulk line.
STROKES = (
    (HANGING, Strike(1.5, 180.0)),
    (OPEN, Strike(1.25, -100.95, 0.0, 0.45)),
    (OPEN, Strike(2.6, -93.04, 0.0, 0.6)),
    (OPEN, Strike(2.12, 41.98, 0.0, 0.45)),
)


def _replayed(pos: Position, strike: Strike, samples: int, seed: int) -> list[Played]:
    """The noisy plays the coach weighs for ``strike`` (the same draws), each played through
    the game loop: its verdict and the pockets balls fell into."""
    clear = _COACH.searcher.clearance(pos, None)
    rng = random.Random(seed)
    noise = _COACH.strength.noise
    out = []
    for _ in range(samples):
        drawn = clear.lift(noise.apply(strike, rng))
        record = Game.resume(pos.state, pos.balls, _COACH.simulator).play(Action(drawn))
        out.append((record.verdict, _pockets(record.result)))
    return out


@settings(max_examples=12)
@given(
    state=st.sampled_from(sorted(STATES)),
    stroke=st.sampled_from(range(len(STROKES))),
    seed=st.integers(0, 2**16),
)
def test_the_chances_are_the_referees_verdicts_over_the_same_plays(
    state: str, stroke: int, seed: int
) -> None:
    balls, aimed = STROKES[stroke]
    pos = position(balls, **STATES[state])
    strike = _COACH.searcher.clearance(pos, None).lift(aimed)
    record = Game.resume(pos.state, pos.balls, _COACH.simulator).play(Action(strike))
    n = 24
    odds, _ = _COACH._odds(pos, Choice(None, strike, (), 0.0), record, n, seed)
    plays = _replayed(pos, strike, n, seed)
    stakes = Stakes.of(pos.state)

    def share(test: Callable[[Verdict, Pockets], bool]) -> float:
        return sum(1 for v, p in plays if test(v, p)) / n

    def fouled(code: FoulCode) -> float:
        return share(lambda v, _: v.foul is not None and code in v.foul.codes)

    if stakes.baulk_owed:
        assert odds.p_baulk_crossed == share(lambda v, _: v.baulk_crossed)
    else:
        assert odds.p_baulk_crossed is None
    limits = fouled(FoulCode.HAZARD_LIMIT) + fouled(FoulCode.CANNON_LIMIT)
    limits += fouled(FoulCode.BAULK_LINE)
    assert odds.p_limit_foul == (limits if stakes.limits else None)
    assert odds.p_hazard_limit == fouled(FoulCode.HAZARD_LIMIT)
    assert odds.p_cannon_limit == fouled(FoulCode.CANNON_LIMIT)
    assert odds.p_baulk_foul == fouled(FoulCode.BAULK_LINE)
    assert odds.p_jump == fouled(FoulCode.JUMP)
    assert odds.p_off_table == fouled(FoulCode.OFF_TABLE)
    seen = Counter(outcome(tuple(k for k, _ in v.scored), p, v.foul is not None) for v, p in plays)
    assert dict(odds.outcomes) == {o: c / n for o, c in seen.items()}
    shares = [s for _, s in odds.outcomes]
    assert shares == sorted(shares, reverse=True)


def test_the_limit_fouls_are_counted_where_they_bite() -> None:
    # straight at the hanging red after 15 hazards: the pot is the 16th hazard, a foul
    pos = position(HANGING, **STATES["hazards"])
    advice = _COACH.advise(pos, samples=30, count=1, played=Action(Strike(1.5, 180.0)))
    played = advice.played
    assert played is not None
    assert played.odds.p_hazard_limit > 0.5
    assert played.odds.p_limit_foul == played.odds.p_hazard_limit
    assert "limit foul " in odds_words(played.odds, False, Lang.EN)
    assert "16th hazard " in odds_words(played.odds, False, Lang.EN)
    assert "16-е сыгрывание подряд " in odds_words(played.odds, False, Lang.RU)
    data = advice_json(advice, Lang.EN)
    assert data["stakes"] == {"baulk_owed": False, "hazards_near": True, "cannons_near": False}
    assert data["played"]["odds"]["p_hazard_limit"] == played.odds.p_hazard_limit


def test_the_crossing_owed_is_stated_for_every_suggestion() -> None:
    advice = _COACH.advise(position(OPEN, **STATES["owed"]), samples=30, count=3)
    assert advice.stakes.baulk_owed
    for s in advice.suggestions:
        p = s.odds.p_baulk_crossed
        assert p is not None
        assert 0 <= p <= s.odds.p_score  # only a scoring stroke crosses as the break owes
        assert "crosses the baulk line " in odds_words(s.odds, True, Lang.EN)
        assert "пересекает линию дома " in odds_words(s.odds, True, Lang.RU)
        assert "limit foul " in odds_words(s.odds, True, Lang.EN)
    plain = _COACH.advise(position(OPEN), samples=10, count=2)
    for s in plain.suggestions:
        assert s.odds.p_baulk_crossed is None
        assert s.odds.p_limit_foul is None
        assert "baulk line" not in odds_words(s.odds, True, Lang.EN)
        assert "limit foul" not in odds_words(s.odds, True, Lang.EN)


@pytest.fixture(scope="module")
def advice() -> Advice:
    return _COACH.advise(position(OPEN), samples=20, count=3, seed=4)


CANNON = Outcome((ScoreKind.CANNON,), (), False)
RED_TOP_LEFT = Outcome((ScoreKind.IN_OFF_RED,), ((Ball.WHITE, "top_left"),), False)
MISS = Outcome((), (), False)


@settings(max_examples=40)
@given(counts=st.lists(st.integers(0, 50), min_size=4, max_size=4).filter(lambda c: sum(c) > 0))
def test_the_title_is_the_most_frequent_outcome_with_its_share(
    advice: Advice, counts: list[int]
) -> None:
    n = sum(counts)
    kinds = (CANNON, RED_TOP_LEFT, MISS, FOUL)
    ranked = sorted(
        ((o, c / n) for o, c in zip(kinds, counts, strict=True) if c), key=lambda x: -x[1]
    )
    first = advice.suggestions[0]
    s = replace(
        first,
        scores=CANNON.scores,
        pockets=(),
        foul=False,
        odds=replace(first.odds, outcomes=tuple(ranked)),
    )
    head, share = s.headline
    assert share == max(counts) / n
    title = stroke_words(s, Lang.EN)
    assert f"— {round(100 * share)}% of plays" in title
    if head == CANNON:  # what it is played for, the most frequent
        assert title.startswith("Cannon — ")
        assert "played for" not in title
    else:  # named by what happens most, with what it is played for and its share
        p = counts[0] / n
        planned = f"{round(100 * p)}%" if round(100 * p) or not p else "<1%"
        assert title.endswith(f"(played for cannon: {planned})")
        assert not title.startswith("Cannon — ")


def test_titles_name_pockets_and_kinds_in_both_languages(advice: Advice) -> None:
    s = replace(
        advice.suggestions[0],
        scores=RED_TOP_LEFT.scores,
        pockets=RED_TOP_LEFT.pockets,
        foul=False,
        odds=replace(advice.suggestions[0].odds, outcomes=((RED_TOP_LEFT, 0.64), (MISS, 0.36))),
    )
    assert stroke_words(s, Lang.EN) == "In-off the red — top-left pocket — 64% of plays"
    assert stroke_words(s, Lang.RU) == "Свояк от красного — левая верхняя луза — 64 % розыгрышей"
    # on the web's table (baulk end on the left) the table's top-left pocket is top right
    assert stroke_words(s, Lang.EN, View.LANDSCAPE).startswith("In-off the red — top-right")
    cannon = replace(s, scores=CANNON.scores, pockets=(), odds=replace(s.odds, outcomes=()))
    assert stroke_words(cannon, Lang.RU) == "Карамболь"


def test_equal_suggestions_are_not_said_to_beat_each_other(advice: Advice) -> None:
    a, b = advice.suggestions[:2]
    equal = replace(a, reason=Reason.EQUAL)
    en, ru = reason_words(equal, b, Lang.EN), reason_words(equal, b, Lang.RU)
    assert en == "as good as no. 2, within the estimate's precision"
    assert ru == "равноценен № 2 в пределах точности оценки"
    assert "beats" not in en
    assert "лучше" not in ru
    better = replace(a, reason=Reason.CHANCE)
    assert reason_words(better, b, Lang.EN).startswith("beats no. 2: more likely to score")
    assert reason_words(better, b, Lang.RU).startswith("лучше № 2: вернее набирает очки")


def test_russian_coach_words_never_say_a_cannon_is_potted() -> None:
    # «забивает» is for pots; the coach speaks of every scoring stroke, cannons too
    for key, text in words("coach", Lang.RU).items():
        assert "забива" not in text, key
    assert words("coach", Lang.RU)["label.chance"].startswith("набирает очки")


@pytest.mark.parametrize("pocket", POCKET_NAMES)
def test_pockets_are_named_where_each_drawn_table_shows_them(pocket: str) -> None:
    x, y = POCKET_POINTS[pocket]
    # the SVG picture: x to the right, the baulk end (y = 0) at the bottom — the table's names
    assert pocket_place(pocket, View.PORTRAIT) == pocket
    # the web's table (TableView.px): screen right along the table's y, screen down its x
    row = {0.0: "top", WIDTH: "bottom"}[x]
    column = {0.0: "left", LENGTH / 2: "middle", LENGTH: "right"}[y]
    assert pocket_place(pocket, View.LANDSCAPE) == f"{row}_{column}"
    for view in View:
        for lang in Lang:
            assert pocket_words(pocket, lang, view)  # every place has its words
