"""The layout of the README, checked: which top-level package may import which, read from the
import lines of every module (``TYPE_CHECKING`` imports included), and the graph acyclic."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "events", "games", "replay", "testing", "cli")

ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "events": {"core"},
    "games": {"core", "events"},
    "replay": {"core", "events", "games"},
    "testing": {"core", "events", "games", "replay", "cli"},
    "cli": {"core", "events", "games", "replay"},
}
"""testing → cli → replay → games → events → core: each package imports only those below it
(``tribes.testing`` is on top: its CLI harness drives the commands; nothing imports it)."""


def imports_of(path: Path) -> set[str]:
    """The ``tribes.*`` modules one file imports, from every import line in it."""
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "tribes":
                found.update(f"tribes.{a.name}" for a in node.names)
            elif node.module.startswith("tribes."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("tribes."))
    return found


def package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {p: set() for p in PACKAGES}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for module in imports_of(path):
                target = module.split(".")[1]
                if target != package:
                    graph[package].add(target)
    return graph


def test_every_package_imports_only_those_below_it():
    graph = package_graph()
    wrong = {p: sorted(graph[p] - ALLOWED[p]) for p in PACKAGES if graph[p] - ALLOWED[p]}
    assert not wrong, f"imports against the layout: {wrong}"


def test_the_package_graph_is_acyclic():
    graph = package_graph()
    done: set[str] = set()

    def visit(node: str, trail: tuple[str, ...]) -> None:
        if node in trail:
            pytest.fail(f"import cycle: {' -> '.join((*trail, node))}")
        if node in done:
            return
        for target in sorted(graph.get(node, ())):
            visit(target, (*trail, node))
        done.add(node)

    for package in PACKAGES:
        visit(package, ())


def test_a_game_imports_no_other_game():
    for game in (ROOT / "games").iterdir():
        if not (game / "__init__.py").exists():
            continue
        for path in game.rglob("*.py"):
            others = {
                m.split(".")[2]
                for m in imports_of(path)
                if m.startswith("tribes.games.") and m.split(".")[2] != game.name
            }
            assert not others, f"{path.relative_to(ROOT)} imports games {sorted(others)}"


def test_the_checker_sees_a_cycle(tmp_path):
    """The checker itself can fail: an import of cli from core is found."""
    module = tmp_path / "bad.py"
    module.write_text("from tribes.cli import main\nimport tribes.replay.logs\n")
    assert imports_of(module) == {"tribes.cli", "tribes.replay.logs"}
