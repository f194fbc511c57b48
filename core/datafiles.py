"""Reading a game's data files (boards, maps) that a user names: untrusted, so size-limited, and
every failure one BadData line."""

from __future__ import annotations

import functools
import json
from importlib import resources
from pathlib import Path
from typing import Any

from tribes.core.errors import BadData

MAX_BYTES = 1 << 20


def read_json(path: Path, what: str) -> Any:
    """The JSON in ``path``; ``what`` names it in errors ("board file", "map file")."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise BadData(f"{what} '{path}' is larger than 1 MiB")
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise BadData(f"{what} '{path}' does not exist") from None
    except (OSError, ValueError, RecursionError) as exc:
        raise BadData(f"{what} '{path}' cannot be read as JSON: {exc}") from None


@functools.cache
def packaged(package: str, name: str) -> Any:
    """The JSON of data file ``name`` shipped in ``package``'s ``data/`` folder, read once."""
    return json.loads((resources.files(package) / "data" / name).read_text())
