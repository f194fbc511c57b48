"""The typed contract, checked where mypy cannot: every registered game names its state type
(``GameBase[ClansState]``) and its states are of it, and the tree silences mypy only narrowly
and for a stated reason."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from tribes import games
from tribes.core.game import GameBase, State
from tribes.core.header import Header

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {".venv", "build", "__pycache__"}
"""Folders of the tree that are not its code (the environment, what builds leave)."""
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")


def state_type(game: object) -> object:
    """The state type a game's class gives GameBase (``GameBase[ClansState]``)."""
    for base in getattr(type(game), "__orig_bases__", ()):
        if typing.get_origin(base) is GameBase:
            (kind,) = typing.get_args(base)
            return kind
    return None


@pytest.mark.parametrize("name", games.names())
def test_a_game_names_its_state_type_and_its_states_are_of_it(name: str) -> None:
    game = games.get(name)
    kind = state_type(game)
    assert isinstance(kind, type), f"{name}: subclass GameBase[ItsState], not GameBase"
    seats = tuple(f"s{i}" for i in range(game.facts.min_seats))
    state = game.setup(Header(game=name, rules_version=game.rules_version, seed=5, seats=seats))
    assert type(state) is kind
    assert isinstance(state.over, bool) and isinstance(state.to_move, int)  # what State reads
    after, _ = game.apply(state, game.legal_moves(state)[0])
    assert type(after) is kind
    assert {"over", "to_move"} <= set(dir(State))


def ignores(text: str) -> list[tuple[int, str]]:
    """The ``type: ignore`` comments of a module that name no error code or give no reason
    (a comment after them: ``# type: ignore[code]  # why``), with their line numbers."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = IGNORE.search(line)
        if match and (not match["codes"] or not match["rest"].strip().startswith("#")):
            found.append((number, line.strip()))
    return found


def modules(root: Path = ROOT) -> list[Path]:
    """Every Python file of the tree: the packages, the tests, the examples, the benchmarks."""
    return sorted(
        path
        for path in root.rglob("*.py")
        if not SKIPPED.intersection(path.relative_to(root).parts)
        and not any(part.startswith(".") for part in path.relative_to(root).parts)
    )


def test_the_tree_ignores_a_type_error_only_narrowly_and_saying_why() -> None:
    found = modules()
    assert ROOT / "core" / "game.py" in found and ROOT / "tests" / "conftest.py" in found
    bare = [
        f"{path.relative_to(ROOT)}:{number}: {line}"
        for path in found
        for number, line in ignores(path.read_text())
    ]
    assert not bare, "a type: ignore needs [its-code]  # and a reason:\n" + "\n".join(bare)


def test_the_check_sees_a_bare_ignore() -> None:
    ignore = "type" + ": ignore"  # not written whole: the check reads this file too
    text = f"a = f()  # {ignore}\nb = g()  # {ignore}[arg-type]\nc = h()  # {ignore}[x]  # ok\n"
    assert [n for n, _ in ignores(text)] == [1, 2]
