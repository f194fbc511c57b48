"""The optional compiled build (``TRIBES_COMPILE=1``: ``setup.py`` compiles its ``COMPILED``
modules with mypyc) plays the same games as the pure Python it is compiled from, byte for byte.

The normal suite runs on the editable install, pure Python: there only the recipe is checked,
every module it names a module of tribes. ``make test-compiled`` installs the compiled build in
an environment of its own and runs this file there, where the compiled modules are the ones
loaded: seeded games of every game with a compiled module are played by them and, in another
process, by the ``.py`` files installed beside them (the reference), and the corpora, every
event and every game's digest, compared byte for byte."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tribes import games

ROOT = Path(__file__).resolve().parents[1]


def recipe() -> ModuleType:
    """``setup.py``, loaded as a module (it calls ``setup`` only when run)."""
    spec = importlib.util.spec_from_file_location("tribes_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPILED = tuple(
    ".".join(("tribes", *Path(path).with_suffix("").parts)) for path in recipe().COMPILED
)
"""The compiled build's modules by name (``games/hunters/rules.py``: ``tribes.games.hunters.rules``)."""
LOADED = all(
    (spec := importlib.util.find_spec(name)) is not None
    and str(spec.origin).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    for name in COMPILED
)
"""Whether this process loads the compiled modules (in the compiled build's environment)."""

PURE = """
import sys
from importlib.machinery import PathFinder
from importlib.util import spec_from_file_location
from pathlib import Path

COMPILED = sys.argv.pop(1).split(",")


class Sources:
    '''Finds a compiled module's .py file beside it, which Python would load after it.'''

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name not in COMPILED:
            return None
        found = PathFinder.find_spec(name, path)
        return spec_from_file_location(name, Path(found.origin).with_name(name.rpartition(".")[2] + ".py"))


sys.meta_path.insert(0, Sources)
for name in COMPILED:
    assert __import__(name, fromlist=["_"]).__file__.endswith(".py"), name
from tribes.cli import run

sys.argv[0] = "tribes"
run()
"""
"""``tribes`` with the pure Python modules: ``python -c PURE MODULE,MODULE... ARGS...``."""


def test_the_compiled_modules_are_modules_of_tribes() -> None:
    packages = recipe().packages()
    for path, name in zip(recipe().COMPILED, COMPILED, strict=True):
        assert (ROOT / path).is_file(), path
        assert name.rpartition(".")[0] in packages, name
        assert importlib.util.find_spec(name) is not None, name


def played(pure: bool, arguments: list[str], corpus: Path) -> bytes:
    """The corpus ``tribes simulate ARGUMENTS`` saves, played by the compiled modules or by their
    sources."""
    program = (
        ["-c", PURE, ",".join(COMPILED)] if pure else ["-c", "from tribes.cli import run; run()"]
    )
    command = [sys.executable, *program, "simulate", *arguments, "--save", str(corpus)]
    subprocess.run(command, check=True, capture_output=True)
    return corpus.read_bytes()


def runs(game: str) -> list[list[str]]:
    """Seeded games of ``game`` at its fewest and most seats, and the greedy bot's."""
    facts = games.get(game).facts
    return [
        *(["--games", "40", "--seats", str(n)] for n in (facts.min_seats, facts.max_seats)),
        ["--games", "3", "--seats", str(facts.min_seats), "--bot", "greedy"],
    ]


def compiled_games() -> list[str]:
    """The games whose play runs a compiled module: a game's own, or every built-in game for a
    module of the engine's."""
    found: set[str] = set()
    for name in COMPILED:
        parts = name.split(".")
        found.update(parts[2:3] if parts[1] == "games" else games.BUILT_IN)
    return sorted(found)


@pytest.mark.skipif(not LOADED, reason="the compiled build is not installed (make test-compiled)")
@pytest.mark.parametrize("game", compiled_games())
def test_the_compiled_modules_play_the_games_of_their_sources(game: str, tmp_path: Path) -> None:
    for index, arguments in enumerate(runs(game)):
        arguments = [game, "--seed", str(index + 1), *arguments]
        compiled = played(False, arguments, tmp_path / f"compiled-{index}.corpus")
        pure = played(True, arguments, tmp_path / f"pure-{index}.corpus")
        assert compiled == pure, arguments
