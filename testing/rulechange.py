"""A rule change, for tests: Clans' bonus of the 12th village (rule C20: the village founded
12th scores its huts plus TWELFTH_BONUS) changed in the running rules, and its rules version
bumped if asked, for as long as a test needs it. A test double of a rules fix: a real game's
code is never edited, only the constant the rules read, put back afterwards.

>>> with twelfth_bonus(4):              # doctest: +SKIP
...     cli.run("verify", "sealed.tribes")   # intact, rules differ: track, villages
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from tribes import games
from tribes.core.errors import IllegalMove
from tribes.games.clans import positions, rules

ORIGINAL_BONUS = rules.TWELFTH_BONUS


def compiled() -> bool:
    """Whether Clans' rules run compiled (mypyc): their constants are then folded in, and
    changing them changes nothing."""
    return not str(rules.__file__).endswith(".py")


@contextlib.contextmanager
def twelfth_bonus(bonus: int, rules_version: int | None = None) -> Iterator[None]:
    """Clans' rules with the 12th village worth ``bonus`` more than its huts (5 in the real
    rules), and their ``rules_version`` set to ``rules_version`` if given; put back on exit."""
    game = type(games.get("clans"))
    saved = (rules.TWELFTH_BONUS, positions.TWELFTH_BONUS, game.rules_version)
    rules.TWELFTH_BONUS = bonus  # type: ignore[misc]  # the double: the rules read it when run
    positions.TWELFTH_BONUS = bonus  # type: ignore[misc]
    if rules_version is not None:
        game.rules_version = rules_version
    try:
        yield
    finally:
        rules.TWELFTH_BONUS, positions.TWELFTH_BONUS, game.rules_version = saved  # type: ignore[misc]


@contextlib.contextmanager
def refused_source(territory: int, rules_version: int | None = None) -> Iterator[None]:
    """Clans' rules with a new rule, 'C99': no huts may move from ``territory`` (and their
    ``rules_version`` set if given); put back on exit."""
    game = type(games.get("clans"))
    saved = (game.__dict__["apply"], game.rules_version)
    original = game.apply  # the rules' own function (the class holds it as a staticmethod)

    def apply(state: Any, event: Any) -> Any:
        if getattr(event, "source", None) == territory:
            raise IllegalMove(f"huts may no longer leave territory {territory}", rule="C99")
        return original(state, event)  # type: ignore[call-arg]

    game.apply = staticmethod(apply)  # type: ignore[method-assign,assignment]  # the rule added
    if rules_version is not None:
        game.rules_version = rules_version
    try:
        yield
    finally:
        game.apply, game.rules_version = saved  # type: ignore[method-assign]


__all__ = ["ORIGINAL_BONUS", "compiled", "refused_source", "twelfth_bonus"]
