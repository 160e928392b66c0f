"""The shot library and its discrete environment: every unmasked slot is a legal stroke
the environment plays, the mask is never empty, the same seed gives the same candidates,
and the scripted opponent plays the library's first candidate."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.env import ActionError, ConfigError, encode_action, read_action
from onered.env.discrete import ShotLibraryEnv
from onered.env.library import SLOTS, K, Kind, Library
from onered.env.opponents import OPPONENTS, ScriptedPlayer, check_opponent, make_opponent
from onered.game.loop import placement_problem
from onered.players.strength import Noise
from onered.table import D_CENTRE


def _episode(seed: int, opponent: str, target: int, cap: int) -> list[tuple[object, ...]]:
    """Play one episode choosing uniformly among the unmasked slots (from ``seed``),
    checking each decision; every decision's candidates and mask."""
    env = ShotLibraryEnv(opponent=opponent, target=target, max_strokes=cap)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    seen: list[tuple[object, ...]] = []
    done = False
    while not done:
        mask = info["action_mask"]
        assert mask.shape == (K,)
        assert mask.any()
        assert (env.action_masks() == mask.astype(bool)).all()
        assert env.observation_space.contains(obs)
        candidates = env.candidates()
        game = env.frame.game
        assert not game.state.choice_pending  # the library took the option
        position = game.position
        for slot, candidate in enumerate(candidates):
            assert (candidate is not None) == bool(mask[slot])
            if candidate is None:
                continue
            if position.in_hand:
                assert candidate.placed is not None
                assert (
                    placement_problem(position.balls, position.cue_ball, candidate.placed) is None
                )
                # the environment places the ball where the candidate asks
                decision = read_action(encode_action(candidate.strike, candidate.placed))
                assert np.allclose(decision.place, candidate.placed, atol=1e-6)
            else:
                assert candidate.placed is None
        seen.append((tuple(candidates), tuple(mask)))
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return seen


@settings(max_examples=10)
@given(
    seed=st.integers(0, 2**31 - 1),
    opponent=st.sampled_from(["random", "scripted"]),
    target=st.integers(5, 40),
)
def test_every_unmasked_slot_is_a_legal_stroke_and_the_mask_is_never_empty(
    seed: int, opponent: str, target: int
) -> None:
    _episode(seed, opponent, target, 120)


@settings(max_examples=4)
@given(seed=st.integers(0, 2**31 - 1))
def test_the_same_seed_gives_the_same_candidates(seed: int) -> None:
    assert _episode(seed, "random", 20, 80) == _episode(seed, "random", 20, 80)


def test_the_last_slot_is_always_there_and_slot_zero_is_the_easiest_pot() -> None:
    assert SLOTS[0].kind is Kind.POT
    assert SLOTS[0].rank == 0
    assert SLOTS[-1].kind is Kind.ANY
    env = ShotLibraryEnv(target=20)
    _, info = env.reset(seed=3)
    assert info["action_mask"][-1] == 1


def test_a_masked_or_malformed_action_is_refused_by_name() -> None:
    env = ShotLibraryEnv(target=20)
    _, info = env.reset(seed=1)
    masked = np.flatnonzero(info["action_mask"] == 0)
    if len(masked):
        with pytest.raises(ActionError, match="masked"):
            env.step(int(masked[0]))
    for bad in (-1, K, 1.5, "pot", [0, 1]):
        with pytest.raises(ActionError, match="action"):
            env.step(bad)


def test_the_scripted_opponent_is_named_and_plays_the_first_candidate() -> None:
    assert "scripted" in OPPONENTS
    assert check_opponent("scripted") == "scripted"
    player = make_opponent("scripted", 5)
    assert isinstance(player, ScriptedPlayer)
    assert player.description == "scripted"
    env = ShotLibraryEnv(target=20, agent_first=True)
    env.reset(seed=2)
    position = env.frame.game.position
    first = next(c for c in Library().candidates(position) if c is not None)
    exact = ScriptedPlayer(0, noise=Noise(aim=0.0, speed=0.0, tip=0.0)).decide(position)
    assert exact.strike == first.strike
    assert exact.placed == first.placed
    noisy = ScriptedPlayer(0).decide(position)
    assert noisy.placed == first.placed
    assert noisy.strike != first.strike


def test_the_scripted_opponent_is_deterministic_by_seed() -> None:
    def strokes(seed: int) -> list[object]:
        env = ShotLibraryEnv(target=15, opponent="scripted", max_strokes=60)
        env.reset(seed=seed)
        out = []
        done = False
        while not done:
            _, _, term, trunc, _ = env.step(K - 1)
            out.append(env.frame.game.state.score)
            done = term or trunc
        return out

    assert strokes(11) == strokes(11)


def test_encoded_candidates_round_trip_through_the_box_actions() -> None:
    env = ShotLibraryEnv(target=20)
    env.reset(seed=4)
    for c in env.candidates():
        if c is None:
            continue
        place = c.placed if c.placed is not None else D_CENTRE
        d = read_action(encode_action(c.strike, place))
        assert abs(d.strike.aim - c.strike.aim) < 1e-4
        assert abs(d.strike.speed - c.strike.speed) < 1e-5


def test_noise_plays_the_chosen_stroke_as_that_level_would_and_is_seeded() -> None:
    def scores(noise: str | None, seed: int) -> list[tuple[int, int]]:
        env = ShotLibraryEnv(target=15, agent_first=True, max_strokes=40, noise=noise)
        env.reset(seed=seed)
        out = []
        done = False
        while not done:
            _, _, term, trunc, _ = env.step(0 if env.action_masks()[0] else K - 1)
            out.append(env.frame.game.state.score)
            done = term or trunc
        return out

    assert scores("novice", 8) == scores("novice", 8)
    assert scores("novice", 8) != scores(None, 8)
    with pytest.raises(ConfigError, match="noise"):
        ShotLibraryEnv(noise="hustler")
