"""The packages of tribes, found rather than listed (the metadata is in ``pyproject.toml``).

Every top-level folder with an ``__init__.py`` is a package of tribes, installed as
``tribes.<folder>`` (so nothing generic like ``core`` lands in site-packages), and so is every
folder below one with an ``__init__.py`` of its own, as ``tribes.<folder>.<sub>``. A package's
rules text (``rules.md``) and data files (``data/*.json``) go with it. So a new game, a folder
``games/<name>/`` with its modules, data and rules, is in the wheel with no edit here or in
``pyproject.toml``; ``tests/test_packaging.py`` builds a wheel and checks it.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup

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


if __name__ == "__main__":
    PACKAGES = packages()
    setup(
        packages=list(PACKAGES),
        package_dir=PACKAGES,
        package_data={name: list(DATA) for name in PACKAGES},
    )
