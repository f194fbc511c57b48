"""The packages of tribes, found rather than listed (the metadata is in ``pyproject.toml``).

Every top-level folder with an ``__init__.py`` is a package of tribes, installed as
``tribes.<folder>`` (so nothing generic like ``core`` lands in site-packages), and so is every
folder below one with an ``__init__.py`` of its own, as ``tribes.<folder>.<sub>``. A package's
rules text (``rules.md``) and data files (``data/*.json``) go with it. So a new game, a folder
``games/<name>/`` with its modules, data and rules, is in the wheel with no edit here or in
``pyproject.toml``; ``tests/test_packaging.py`` builds a wheel and checks it.

With ``TRIBES_COMPILE=1`` in the environment, the modules of :data:`COMPILED` are also compiled
with mypyc (optional: it needs mypy and a C compiler, which a plain install does not). Each
compiled module is installed beside its ``.py``, which stays the reference: the same source,
the same games byte for byte (``tests/test_compiled.py``), the compiled one loaded first.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
DATA = ("rules.md", "data/*.json")
"""What a package ships besides its modules, where it has them (patterns below the package)."""


def packages(root: Path = ROOT) -> dict[str, str]:
    """Every package of tribes by its name (``tribes.games.clans``) -> its folder, relative to
    ``root`` (``games/clans``): the folders with an ``__init__.py``, from the top down."""
    found: dict[str, str] = {}
    todo = sorted(p for p in root.iterdir() if (p / "__init__.py").is_file())
    while todo:
        folder = todo.pop(0)
        relative = folder.relative_to(root)
        found[".".join(("tribes", *relative.parts))] = relative.as_posix()
        todo.extend(sorted(p for p in folder.iterdir() if (p / "__init__.py").is_file()))
    return found


COMPILE = "TRIBES_COMPILE"
"""The environment variable that asks for the compiled build (``TRIBES_COMPILE=1``)."""
COMPILED = (
    "core/prng.py",
    "games/clans/rules.py",
    "games/hunters/bots.py",
    "games/hunters/features.py",
    "games/hunters/keys.py",
    "games/hunters/placement.py",
    "games/hunters/rules.py",
    "games/hunters/scoring.py",
    "games/iwari/moves.py",
    "games/iwari/placement.py",
    "games/iwari/rules.py",
    "games/iwari/scoring.py",
    "games/iwari/situations.py",
)
"""The modules the compiled build compiles, by path: where the games' moves, reducers and bots
spend their instructions, each game's measured to pay (docs/performance.md). The modules of
attrs classes stay Python: mypyc would make their classes native, which attrs' fields do not fit."""


MYPY = "mypy>=1.10"
"""What builds the compiled build (mypyc is part of mypy)."""


def build_requirements(root: Path = ROOT) -> list[str]:
    """What the compiled build needs: mypy, and tribes' dependencies (mypy reads their types)."""
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    return [MYPY, *project["dependencies"]]


def compiled_build() -> dict[str, Any]:
    """``setup``'s arguments for the compiled build. pip builds in an environment of its own,
    which holds mypy only once the build asks for it: setuptools hands ``setup_requires`` to pip
    when pip asks what the build needs (``egg_info``); every later step has mypy and builds the
    extensions. A build without that step (``--no-build-isolation``) needs them installed."""
    if importlib.util.find_spec("mypyc") is not None:
        return {"setup_requires": build_requirements(), "ext_modules": compiled()}
    if "egg_info" in sys.argv:
        return {"setup_requires": build_requirements()}
    raise SystemExit(f"the compiled build ({COMPILE}=1) needs mypy: pip install '{MYPY}'")


def compiled(root: Path = ROOT) -> list[Extension]:
    """mypyc's extensions for :data:`COMPILED`. mypy names a module by its folders, and tribes'
    folders are not named as its packages (``tribes.core`` is ``core/``): they are compiled from
    a tree of links named as the packages, ``build/mypyc/tribes/<folder>`` -> ``<folder>``."""
    from mypyc.build import mypycify  # noqa: PLC0415  optional: a plain install has no mypy

    tree = root / "build" / "mypyc"
    for folder in {name.split(".")[1] for name in packages(root)}:
        link = tree / "tribes" / folder
        link.parent.mkdir(parents=True, exist_ok=True)
        if not link.is_symlink():
            link.symlink_to(os.path.relpath(root / folder, link.parent))
    paths = [str(tree / "tribes" / module) for module in COMPILED]
    found, os.environ["MYPYPATH"] = os.environ.get("MYPYPATH"), str(tree)
    try:
        return mypycify(
            ["--explicit-package-bases", *paths], group_name="tribes", target_dir=str(tree / "c")
        )
    finally:
        if found is None:
            del os.environ["MYPYPATH"]
        else:
            os.environ["MYPYPATH"] = found


if __name__ == "__main__":
    PACKAGES = packages()
    setup(
        packages=list(PACKAGES),
        package_dir=PACKAGES,
        package_data={name: list(DATA) for name in PACKAGES},
        **(compiled_build() if os.environ.get(COMPILE) == "1" else {}),
    )
