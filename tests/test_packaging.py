"""A wheel built from the checkout holds all of tribes: every registered game's modules, every data
file and every rules text, and every module tribes loads. The packages are found by ``setup.py``
(every folder with an ``__init__.py``), never listed, so a new game's folder is in the wheel with
no edit to the packaging: the checkout built here gets one more game folder to prove it."""

from __future__ import annotations

import configparser
import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tribes import games
from tribes.cli import commands
from tribes.core import rulebook

ROOT = Path(__file__).resolve().parents[1]
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "build", "dist", "*.egg-info", "out", ".*_cache", ".hypothesis"
)
"""What a checkout holds that is not its source (what .gitignore names, and git's own)."""
NEW_GAME = {
    "games/newgame/__init__.py": '"""A game folder no packaging file names."""\n',
    "games/newgame/rules.md": "# New game — rules\n\n## Start\n- N1. One rule.\n",
    "games/newgame/data/board.json": "{}\n",
    "games/newgame/parts/__init__.py": "",
    "games/newgame/parts/pieces.py": "PIECES = ()\n",
}
"""A game's folder as one is added: modules, a sub-package, its rules and its data."""

pytestmark = pytest.mark.xdist_group("wheel")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The wheel of a copy of the checkout with :data:`NEW_GAME` added, built as ``pip`` builds
    one (no build isolation: the test environment has setuptools, and needs no index)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "checkout"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    for name, text in NEW_GAME.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text)
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index"]
    built = subprocess.run(
        [*pip, "--quiet", "--wheel-dir", str(work / "dist"), str(source)],
        capture_output=True,
        text=True,
        env={**os.environ, "PIP_NO_INPUT": "1"},
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (path,) = (work / "dist").glob("tribes-*.whl")
    return zipfile.ZipFile(path)


def in_wheel(wheel: zipfile.ZipFile, source: Path) -> str:
    """Where a file of the checkout stands in the wheel: ``games/clans/data/board.json`` is
    ``tribes/games/clans/data/board.json``."""
    name = f"tribes/{source.relative_to(ROOT).as_posix()}"
    assert name in wheel.namelist(), f"{source.relative_to(ROOT)} is not in the wheel"
    return name


@pytest.mark.parametrize("name", games.BUILT_IN)  # a plugin ships in a wheel of its own
def test_every_registered_game_is_in_the_wheel_whole(wheel: zipfile.ZipFile, name: str) -> None:
    game = games.get(name)
    package = importlib.import_module(rulebook.package_of(game))
    assert package.__file__ is not None
    folder = Path(package.__file__).parent
    modules = sorted(folder.rglob("*.py"))
    assert len(modules) > 5, modules
    for module in modules:
        in_wheel(wheel, module)
    rules = wheel.read(in_wheel(wheel, folder / "rules.md")).decode()
    assert rules == rulebook.rulebook(game).text


def test_every_data_file_and_rules_text_is_in_the_wheel(wheel: zipfile.ZipFile) -> None:
    shipped = sorted((ROOT / "games").glob("*/data/*")) + sorted(
        (ROOT / "games").glob("*/rules.md")
    )
    assert {ROOT / "games" / name / "rules.md" for name in games.BUILT_IN} <= set(shipped)
    for path in shipped:
        assert wheel.read(in_wheel(wheel, path)) == path.read_bytes(), path


def test_every_module_tribes_loads_is_in_the_wheel(wheel: zipfile.ZipFile) -> None:
    """Every command's module and all it imports, the pytest plugin and tribes.testing (a wheel
    once lacked the corpus sub-packages: the explicit list had no line for them)."""
    for where, _ in commands.COMMANDS.values():
        importlib.import_module(where.partition(":")[0])
    for name in ("tribes.replay.pytest_plugin", "tribes.testing"):
        importlib.import_module(name)
    loaded = {
        name: Path(module.__file__)
        for name, module in sorted(sys.modules.items())
        if name.startswith("tribes.") and module.__file__
    }
    assert {"tribes.events.corpus", "tribes.replay.corpus", "tribes.games.hunters"} <= set(loaded)
    for name, path in loaded.items():
        assert path.is_relative_to(ROOT), (name, path)  # the checkout's own, not an installed copy
        assert in_wheel(wheel, path) == name.replace(".", "/") + (
            "/__init__.py" if path.name == "__init__.py" else ".py"
        )


def test_a_new_game_folder_is_in_the_wheel_with_no_edit_to_the_packaging(
    wheel: zipfile.ZipFile,
) -> None:
    names = set(wheel.namelist())
    assert {f"tribes/{name}" for name in NEW_GAME} <= names
    assert not [n for n in names if not n.startswith(("tribes/", "tribes-"))], "outside tribes/"


def test_the_wheel_alone_plays_and_has_its_rules(wheel: zipfile.ZipFile, tmp_path: Path) -> None:
    """Unpacked beside the dependencies only (no site hooks, so not this checkout's editable
    install): rules from a game's package, data files and a corpus through the installed code."""
    wheel.extractall(tmp_path / "site")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), sysconfig.get_paths()["purelib"]]),
    }

    points = configparser.ConfigParser()
    (listed,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    points.read_string(wheel.read(listed).decode())
    module, _, function = points["console_scripts"]["tribes"].partition(":")

    def tribes(*args: str) -> str:
        """The wheel's ``tribes`` script, as its entry point names it."""
        code = f"import sys; from {module} import {function}; sys.argv[0] = 'tribes'; {function}()"
        done = subprocess.run(
            [sys.executable, "-S", "-c", code, *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    assert tribes("rules", "H13").startswith("Carcassonne: Hunters and Gatherers — ")
    tribes("simulate", "hunters", "--games", "2", "--seed", "1", "--save", "two.corpus")
    assert "2 games" in tribes("verify", "two.corpus")
    where = "import tribes.games.clans.board as b; print(b.__file__)"
    located = subprocess.run(
        [sys.executable, "-S", "-c", where], capture_output=True, text=True, env=env, check=True
    )
    assert Path(located.stdout.strip()).is_relative_to(tmp_path / "site")
