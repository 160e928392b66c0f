"""Small studies shared by the study tests: quick to run, big enough to use two workers."""

from __future__ import annotations

from onered.study import GamesSpec, ShotsSpec

#: Four short games between the fastest levels (about a second in all on one core).
SMALL_GAMES = GamesSpec(p1="ai:beginner", p2="ai:novice", games=4, target=6, max_strokes=60, seed=7)
#: A 3 x 3 grid of pots into the top right pocket, 12 strokes each.
SMALL_SHOTS = ShotsSpec(grid=(3, 3), region=(0.9, 1.6, 2.4, 3.3), samples=12, seed=3)
