"""A file an option names is carried in the log's header and handed to the game's setup from
there: no module keeps a log's files, and a state names its file by content."""

from __future__ import annotations

import gc
import json
import re
import sys
from importlib import resources
from pathlib import Path

import attrs
import pytest

from tribes.core import datafiles
from tribes.core.errors import BadData
from tribes.testing.harness import Harness

FILES = {
    "clans": ("board", "board.json", "board_source"),
    "hunters": ("tiles", "tiles.json", "tiles_source"),
    "iwari": ("map", "map.json", "map_source"),
}


def _renamed(game: str, tmp_path: Path, name: str) -> Path:
    _, file, _ = FILES[game]
    data = json.loads((resources.files(f"tribes.games.{game}") / "data" / file).read_text())
    data["name"] = name
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return path


def _holds(container: dict | list | set, text: str) -> bool:
    values = container.values() if isinstance(container, dict) else container
    return any(v == text or (isinstance(v, tuple) and text in v) for v in values)


@pytest.mark.parametrize("game", sorted(FILES))
def test_a_carried_file_reaches_the_setup_from_the_header_alone(game, tmp_path):
    harness = Harness(game)
    option, _, field = FILES[game]
    path = _renamed(game, tmp_path, "carried-once")
    head = harness.header(seed=3, options={option: str(path)})
    text = head.files[option]
    path.unlink()  # never read again: the setup has the header's copy
    state = harness.game.setup(head)
    assert getattr(state, field) == datafiles.key(text)
    gc.collect()
    held = [
        f"{name}.{attribute}"
        for name, module in list(sys.modules.items())
        if name.startswith("tribes.")
        for attribute, value in vars(module).items()
        if isinstance(value, dict | list | set) and _holds(value, text)
    ]
    assert not held, f"module globals hold the log's file: {held}"


@pytest.mark.parametrize("game", sorted(FILES))
def test_a_file_option_without_its_carried_file_is_refused(game):
    harness = Harness(game)
    option, _, _ = FILES[game]
    head = harness.header(seed=3)
    head = attrs.evolve(head, options={**head.options, option: "elsewhere.json"})
    with pytest.raises(BadData, match=re.escape("'elsewhere.json' is not carried in the log")):
        harness.game.setup(head)


@pytest.mark.parametrize(
    ("package", "file"),
    [
        (f"tribes.games.{game}", path.name)
        for game in sorted(FILES)
        for path in resources.files(f"tribes.games.{game}").joinpath("data").iterdir()
        if path.name.endswith(".json")
    ],
)
def test_a_packaged_file_reads_as_importlib_resources_reads_it(package, file):
    """``packaged`` reads through the package's loader (not ``importlib.resources``, for
    start-up): the same data."""
    expected = json.loads((resources.files(package) / "data" / file).read_text(encoding="utf-8"))
    assert datafiles.packaged(package, file) == expected
