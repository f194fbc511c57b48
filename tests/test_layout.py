"""The layout of docs/layout.md, checked: which top-level package may import which, read from the
import lines of every module (``TYPE_CHECKING`` imports included), and the graph acyclic; no cycle
between modules either (imports inside functions included: a lazy import hides a cycle, it does
not break one), and no module of ``replay/`` or ``cli/`` importing one particular game."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
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


# --- modules: cycles and particular games ----------------------------------------------------------

NAMED = re.compile(r"tribes(\.\w+)+:\w+")
"""A string that names an object of a module as entry points do (``"tribes.cli.play:act"``): an
import written in a table that ``importlib.import_module`` reads (the commands of ``tribes``)."""


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the packages, by its ``tribes.*`` name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(("tribes", *parts[: -1 if parts[-1] == "__init__" else None]))] = path
    return found


def _typing_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:``: they never run."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            ids.update(id(n) for child in node.body for n in ast.walk(child))
    return ids


def module_imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, bool]]:
    """``(module, runs)`` for each ``tribes.*`` module that module ``name`` imports anywhere in
    it: at the top, inside a function (``runs``), under ``TYPE_CHECKING`` (not ``runs``), or by
    a string naming it for ``importlib`` (``runs``). ``from P import X`` imports module ``P.X``
    when there is one, else ``P``."""

    def owner(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    tree = ast.parse(path.read_text(), str(path))
    typing = _typing_only(tree)
    for node in ast.walk(tree):
        targets: list[str | None] = []
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package this module is in
                package = name.split(".")[: -node.level + (path.name == "__init__.py") or None]
                base = ".".join([*package, *([base] if base else [])])
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else owner(base)
                for a in node.names
            ]
        elif isinstance(node, ast.Import):
            targets = [owner(a.name) for a in node.names]
        elif isinstance(node, ast.Constant) and NAMED.fullmatch(str(node.value)):
            targets = [owner(str(node.value).partition(":")[0])]
        for target in targets:
            if target is not None and target != name and target.startswith("tribes."):
                yield target, id(node) not in typing


def module_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules it imports where that import runs (``TYPE_CHECKING`` left out: a
    type named both ways, such as the Game contract and the views it builds, loads in no order).
    A package's ``__init__``, which Python runs before any of its modules, is no edge of theirs:
    a package that names its own modules (``replay/corpus/__init__.py``) makes no cycle."""
    known = modules(root)
    return {
        name: {target for target, runs in module_imports(name, path, known) if runs}
        for name, path in known.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = [stack.pop()]
            while component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def particular_games(root: Path = ROOT) -> dict[str, list[str]]:
    """Each module of ``replay/`` or ``cli/`` that imports one particular game (any
    ``tribes.games.<game>`` module, in whatever way), with what it imports."""
    known = modules(root)
    found: dict[str, list[str]] = {}
    for name, path in known.items():
        if name.split(".")[1] in ("replay", "cli"):
            games = sorted(
                {t for t, _ in module_imports(name, path, known) if t.startswith("tribes.games.")}
            )
            if games:
                found[name] = games
    return found


def private_imports(root: Path = ROOT) -> list[str]:
    """Each private name (``_name``) a module takes from another module of the packages, by a
    ``from`` import or as an attribute of a module it imported: shared code belongs in a public
    name where both can see it (``tribes.cli.common``), not in one module's private helpers."""
    known = modules(root)
    found: list[str] = []
    for name, path in known.items():
        imported: dict[str, str] = {}
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tribes"):
                for a in node.names:
                    full = f"{node.module}.{a.name}"
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        found.append(f"{name}: {full}")
                    elif full in known:
                        imported[a.asname or a.name] = full
            elif isinstance(node, ast.Import):
                imported.update({a.asname: a.name for a in node.names if a.asname})
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in imported
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append(f"{name}: {imported[node.value.id]}.{node.attr}")
    return sorted(found)


def test_no_cycle_between_modules():
    found = cycles(module_graph())
    assert not found, "import cycles (imports in functions included): " + "; ".join(
        " <-> ".join(c) for c in found
    )


def test_replay_and_cli_import_no_particular_game():
    """They reach every game through the registry (``tribes.games``), never one by name."""
    assert not particular_games(), particular_games()


def test_no_module_imports_a_private_name_of_another():
    assert not private_imports(), private_imports()


def _tree(root: Path, files: dict[str, str]) -> Path:
    for package in PACKAGES:
        (root / package).mkdir(parents=True, exist_ok=True)
        (root / package / "__init__.py").touch()
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_the_analyser_sees_a_cycle_through_a_function(tmp_path):
    root = _tree(
        tmp_path,
        {
            "replay/reading.py": "def open_log():\n    from tribes.replay import corpus\n",
            "replay/corpus/__init__.py": "from tribes.replay.corpus.refs import open_game\n",
            "replay/corpus/refs.py": "from ..reading import Opened\n",  # relative
            "replay/logs.py": "from tribes.replay import reading\n",
            "cli/commands.py": 'COMMANDS = {"show": "tribes.cli.reading:show"}\nX = "tribes.cli"\n',
            "cli/reading.py": "from tribes.cli.commands import COMMANDS\n",
            "core/game.py": "from tribes.core import views\n",
            "core/views.py": "if TYPE_CHECKING:\n    from tribes.core.game import Game\n",
        },
    )
    assert cycles(module_graph(root)) == [
        ["tribes.cli.commands", "tribes.cli.reading"],
        ["tribes.replay.corpus", "tribes.replay.corpus.refs", "tribes.replay.reading"],
    ]


def test_the_analyser_sees_a_particular_game(tmp_path):
    root = _tree(
        tmp_path,
        {
            "games/__init__.py": '_MODULES = {"clans": "tribes.games.clans"}\n',
            "games/clans/__init__.py": "",
            "games/clans/events.py": "",
            "replay/demo.py": "def run():\n    from tribes.games.clans.events import X\n",
            "cli/play.py": "from tribes.games import clans\n",
            "cli/rules.py": "from tribes import games\n",
        },
    )
    assert particular_games(root) == {
        "tribes.cli.play": ["tribes.games.clans"],
        "tribes.replay.demo": ["tribes.games.clans.events"],
    }


def test_the_analyser_sees_a_private_name_taken(tmp_path):
    root = _tree(
        tmp_path,
        {
            "cli/main.py": "def _options():\n    pass\n",
            "cli/logfiles.py": "def verify():\n    from tribes.cli.main import _options\n",
            "cli/play.py": "from tribes.cli import main as group\nx = group._options\n",
            "cli/rules.py": "from tribes.cli.main import __doc__\n",
        },
    )
    assert private_imports(root) == [
        "tribes.cli.logfiles: tribes.cli.main._options",
        "tribes.cli.play: tribes.cli.main._options",
    ]


MOST_LINES = 600
"""A module longer than this is asking to be split (STYLE.md): none is, tests included."""


def long_modules(root: Path = ROOT, most: int = MOST_LINES) -> list[str]:
    """The Python files of the tree (not its environment or builds) over ``most`` lines."""
    return [
        f"{path.relative_to(root)}: {lines} lines"
        for path in sorted(root.rglob("*.py"))
        if not {".venv", "build", "__pycache__"} & set(path.relative_to(root).parts)
        and not any(part.startswith(".") for part in path.relative_to(root).parts)
        and (lines := len(path.read_text().splitlines())) > most
    ]


def test_no_module_is_over_600_lines():
    assert (ROOT / "games" / "clans" / "rules.py").is_file()  # the tree is where it is read
    assert not long_modules(), (
        "split these (STYLE.md: a few hundred lines a module):\n" + "\n".join(long_modules())
    )


def test_the_line_count_sees_a_long_module(tmp_path):
    (tmp_path / "short.py").write_text("x = 1\n" * 600)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * 601)
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "theirs.py").write_text("x = 1\n" * 900)
    assert long_modules(tmp_path) == ["pkg/long.py: 601 lines"]
