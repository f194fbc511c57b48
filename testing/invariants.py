"""Invariants hunted for: a test that searches hard for what must never happen.

::

    from tribes.testing.invariants import assert_never

    def test_no_score_goes_below_zero():
        assert_never("clans", "min(scores) < 0", games=60)

:func:`assert_never` runs ``tribes hunt`` (:mod:`tribes.replay.hunt`) for a step where the
expression holds, within a budget of games (the same games every run: the hunt is seeded), and
fails with the shrunk case when it finds one: the log in its JSON form, ready to save under
``fixtures/`` and replay (``tribes log``, ``tribes show``). Finding nothing is evidence, not
proof; a bigger budget is more of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tribes import games
from tribes.core.errors import TribesError
from tribes.core.game import Game
from tribes.replay import logs
from tribes.replay.hunt import Budget, hunt, prepare
from tribes.replay.parallel import Where
from tribes.replay.shrink import Target, shrink
from tribes.replay.simulate import match


def assert_never(
    game: str | Game[Any],
    expression: str,
    *,
    games_budget: int = 100,
    seed: int = 1,
    seats: int | None = None,
    options: Mapping[str, str] | None = None,
    position: Any = None,
    jobs: int = 1,
) -> None:
    """Hunt for an event after which ``expression`` holds, in at most ``games_budget`` games
    (playouts) of ``game`` (a name or a Game); AssertionError with the shrunk case (the found
    game itself when the game has no position form) if one is found."""
    played = games.get(game) if isinstance(game, str) else game
    how = match(
        played, seats=seats, options=played.check_options(dict(options or {})), position=position
    )
    header = prepare(played, how, expression, seed=seed)
    outcome = hunt(played, header, expression, budget=Budget(games=games_budget), where=Where(jobs))
    if not outcome.found:
        return
    log = outcome.log()
    assert log is not None
    try:
        case = shrink(played, log, Target(until=expression)).log
        what = "shrunk to"
    except TribesError:
        case, what = log, "the game (it has no shrunk form)"
    at = len(log.events)
    raise AssertionError(
        f"'{expression}' holds at event {at} of a {played.name} game "
        f"(seed {log.header.seed}), found in {outcome.games} games; {what}:\n"
        + logs.to_json(logs.seal(played, case))
    )
