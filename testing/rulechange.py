"""A rule change, for tests: Clans' bonus of the 12th village (rule C16: the village founded
12th scores its huts plus its epoch's bonus on the chart, ``data/epochs.json``; epoch 5 holds
that village alone) changed in the running rules, and its rules version bumped if asked, for as
long as a test needs it. A test double of a rules fix: a real game's code and data are never
edited; the chart the rules read is swapped, then put back.

>>> with twelfth_bonus(4):              # doctest: +SKIP
...     cli.run("verify", "sealed.tribes")   # intact, rules differ: scores, track, villages
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import sys
from collections.abc import Iterator
from typing import Any

from tribes import games
from tribes.core.errors import IllegalMove
from tribes.games.clans import board
from tribes.testing.identity import GameWithField

TWELFTH_EPOCH = 5
"""The epoch of the 12th village (the chart's last, of one chip)."""

# The double swaps the name ``packaged`` that games/clans/board.py imports from core/datafiles.py
# and reads its chart through (a cached function, the double a plain one); mypy counts an
# imported name as no attribute of the module, hence the ignores on board.packaged.


def _chart() -> Any:
    return board.packaged("tribes.games.clans", "epochs.json")  # type: ignore[attr-defined]  # swapped, see above


ORIGINAL_BONUS: int = _chart()["epochs"][TWELFTH_EPOCH - 1]["bonus"]


def compiled() -> bool:
    """Whether Clans' rules run compiled (mypyc). The double swaps the chart, which the
    compiled rules read as the pure ones do; kept for the tests that ask."""
    return not str(board.__file__).endswith(".py")


@contextlib.contextmanager
def twelfth_bonus(bonus: int, rules_version: int | None = None) -> Iterator[None]:
    """Clans' rules with the 12th village worth ``bonus`` more than its huts (5 on the real
    chart), and their ``rules_version`` set to ``rules_version`` if given; put back on exit."""
    game = type(games.get("clans"))
    chart = copy.deepcopy(_chart())
    chart["epochs"][TWELFTH_EPOCH - 1]["bonus"] = bonus
    real = board.packaged  # type: ignore[attr-defined]  # swapped, see above
    saved = game.rules_version

    def packaged(package: str, name: str) -> Any:
        return chart if name == "epochs.json" else real(package, name)

    board.packaged = packaged  # type: ignore[attr-defined, assignment]  # swapped, see above
    board.forget_built()
    if rules_version is not None:
        game.rules_version = rules_version
    try:
        yield
    finally:
        board.packaged = real  # type: ignore[attr-defined]  # swapped, see above
        board.forget_built()
        game.rules_version = saved


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
        return original(state, event)  # type: ignore[call-arg]  # a staticmethod, read bound

    game.apply = staticmethod(apply)  # type: ignore[method-assign,assignment]  # the rule added
    if rules_version is not None:
        game.rules_version = rules_version
    try:
        yield
    finally:
        game.apply, game.rules_version = saved  # type: ignore[method-assign]  # put back


@contextlib.contextmanager
def state_field() -> Iterator[None]:
    """Clans as a later version of it might be: every state with one field more, at its
    default (:class:`tribes.testing.identity.GameWithField`), registered in Clans' place."""
    real = games.get
    doubled = GameWithField(real("clans"))

    def get(name: str) -> Any:
        return doubled if name == "clans" else real(name)

    games.get = get  # the double: the registry answers with it
    try:
        yield
    finally:
        games.get = real


def main(argv: list[str] | None = None) -> int:
    """``python -m tribes.testing.rulechange [--twelfth-bonus B] [--rules-version V]
    [--state-field] tribes|pytest ARGS...``: run ``tribes`` or ``pytest`` with ARGS under the
    doubles (:func:`twelfth_bonus`, :func:`state_field`), to follow the walk-through of a rule
    fix (docs/rule-changes.md) with tribes itself unchanged."""
    parser = argparse.ArgumentParser(
        prog="python -m tribes.testing.rulechange",
        description="run tribes or pytest under a rule change made by a test double",
    )

    def refuse(message: str) -> None:  # one line, as tribes says bad input
        sys.stderr.write(f"python -m tribes.testing.rulechange: {message}\n")
        raise SystemExit(2)

    parser.error = refuse  # type: ignore[method-assign,assignment]  # not argparse's two lines
    parser.add_argument("--twelfth-bonus", type=int, default=ORIGINAL_BONUS, metavar="B")
    parser.add_argument("--rules-version", type=int, default=None, metavar="V")
    parser.add_argument("--state-field", action="store_true")
    parser.add_argument("command", choices=("tribes", "pytest"))
    parser.add_argument("args", nargs=argparse.REMAINDER)
    chosen = parser.parse_args(argv)
    with contextlib.ExitStack() as doubles:
        doubles.enter_context(twelfth_bonus(chosen.twelfth_bonus, chosen.rules_version))
        if chosen.state_field:
            doubles.enter_context(state_field())
        if chosen.command == "pytest":
            import pytest  # noqa: PLC0415  the command chosen alone is loaded

            return int(pytest.main(chosen.args))
        from tribes.cli import run  # noqa: PLC0415  the command chosen alone is loaded

        sys.argv = ["tribes", *chosen.args]
        try:
            run()
        except SystemExit as done:
            return done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        return 0


__all__ = ["ORIGINAL_BONUS", "compiled", "main", "refused_source", "state_field", "twelfth_bonus"]


if __name__ == "__main__":
    raise SystemExit(main())
