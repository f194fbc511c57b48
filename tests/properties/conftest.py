"""Shared helpers of the property tests (hypothesis).

- the ``tribes-properties`` settings profile: modest example counts, no deadline, no example
  database (nothing written outside the tests), derandomized so a run is reproducible;
- ``play``: a legal Clans game from a seed, a seat count and a list of move picks
  (:meth:`tribes.testing.Harness.random_game`), its log with checkpoints;
- ``mutate``: byte-level damage to a log file (flip, delete, insert, truncate).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, Phase, settings

from tribes.core.engine import Step, steps
from tribes.events.logfile import GameLog
from tribes.replay import logs
from tribes.testing import Harness, Played

settings.register_profile(
    "tribes-properties",
    max_examples=100,
    deadline=None,
    database=None,
    derandomize=True,
    report_multiple_bugs=False,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

CLANS = Harness("clans")
GAME = CLANS.game


def play(seed: int, seats: int, picks: Sequence[int]) -> Played:
    """Play ``GAME`` from ``seed``: at each turn the move ``moves[pick % len(moves)]`` of the
    legal moves, until the game is over or the picks run out; the log has its checkpoints."""
    played = CLANS.random_game(seed, [f"p{i + 1}" for i in range(seats)], picks)
    log = attrs.evolve(played.log, checkpoints=logs.checkpoints(GAME, played.log, (), played.steps))
    return Played(log, played.steps)


def replayed(log: GameLog) -> list[Step]:
    return list(steps(GAME, log.header, log.events))


def mutate(data: bytes, ops: Sequence[tuple[str, int, int, bytes]]) -> bytes:
    """Apply byte-level damage: each op is (kind, position, size or bit, inserted bytes)."""
    out = bytearray(data)
    for kind, pos, n, extra in ops:
        at = pos % (len(out) + 1)
        if kind == "flip" and out:
            out[at % len(out)] ^= 1 << (n % 8)
        elif kind == "delete":
            del out[at : at + 1 + n % 16]
        elif kind == "insert":
            out[at:at] = extra
        elif kind == "truncate":
            del out[at:]
        elif kind == "set" and out:
            out[at % len(out)] = n % 256
    return bytes(out)


class Helpers:
    game = GAME
    play = staticmethod(play)
    replayed = staticmethod(replayed)
    mutate = staticmethod(mutate)


@pytest.fixture(scope="session")
def helpers() -> type[Helpers]:
    return Helpers


@pytest.fixture(scope="session")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A folder for files that hypothesis examples write (session-scoped, so hypothesis may
    reuse it across examples)."""
    return tmp_path_factory.mktemp("properties")
