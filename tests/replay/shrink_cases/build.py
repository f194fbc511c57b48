"""Writes the input logs of the shrink tests, games of greedy bots in which a rare case happens:
``.venv/bin/python tests/replay/shrink_cases/build.py``. Each is found by a seeded simulation
(the seeds below were found by searching) and checked here to still show its case.

- ``clans-first-strife.json``: seed 12; the first strife (event 29) takes all five lone huts of
  village 6, which is left with none.
- ``clans-twelfth-and-thirteenth.json``: the demo's game (seed 203); one move founds the 12th
  and 13th villages, whose order ann then chooses (event 36).
- ``iwari-half-journey-tie.json``: seed 22, two seats; the half-journey scoring (event 67)
  leaves ann and bob tied at 18.
- ``hunters-bonus-fits-nowhere.json``: seed 185, three seats; the forest cy completes at
  event 7 holds gold, and the top bonus tile, 86, fits nowhere: it is removed.
"""

from __future__ import annotations

from pathlib import Path

from tribes import games
from tribes.core.engine import steps
from tribes.replay import logs
from tribes.replay.simulate import match, play_game

HERE = Path(__file__).resolve().parent
CASES = {
    "clans-first-strife": ("clans", 12, ("ann", "bob", "cy"), "StrifeRemoved", 29),
    "clans-twelfth-and-thirteenth": ("clans", 203, ("ann", "bob", "cy"), "VillageUnscored", 36),
    "iwari-half-journey-tie": ("iwari", 22, ("ann", "bob"), "DeckReshuffled", 67),
    "hunters-bonus-fits-nowhere": ("hunters", 185, ("ann", "bob", "cy"), "TileRemoved", 7),
}


def main() -> None:
    for name, (game_name, seed, seats, effect, at) in CASES.items():
        game = games.get(game_name)
        played = play_game(game, seed, match(game, ("greedy",), seats=len(seats)))
        head = logs.header(game, seats=seats, seed=seed, meta={"case": name})
        log = logs.seal(game, logs.GameLog(header=head, events=played.log.events))
        first = next(
            s.index
            for s in steps(game, head, log.events)
            if any(type(e).__name__ == effect for e in s.effects)
        )
        assert first == at, (name, first)
        (HERE / f"{name}.json").write_text(logs.to_json(log))
        print(f"{name}.json: {len(log.events)} events, {effect} first at event {at}")


if __name__ == "__main__":
    main()
