"""What changed between two states, in the game's language.

Two ``show --json`` documents are compared leaf by leaf; each change is then phrased by the game
(``Game.phrase(path, old, new)``, optional) or, failing that, as ``path: old → new``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from tribes.core.game import Game

IGNORED = frozenset({"game", "events"})
"""Document fields that say where a state is, not what it is."""

Path = tuple[str | int, ...]


@attrs.frozen
class Change:
    path: Path
    old: Any
    new: Any
    text: str

    def to_json(self) -> dict[str, Any]:
        return {
            "path": ".".join(map(str, self.path)),
            "old": self.old,
            "new": self.new,
            "text": self.text,
        }


def diff(game: Game, before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """The changes from document ``before`` to ``after``, in document order."""
    phrase = getattr(game, "phrase", None)
    changes = []
    for path, old, new in _leaves((), before, after):
        if path and path[0] in IGNORED:
            continue
        text = phrase(path, old, new) if phrase is not None else None
        changes.append(Change(path, old, new, text or _plain(path, old, new)))
    return changes


def _leaves(path: Path, old: Any, new: Any) -> Iterator[tuple[Path, Any, Any]]:
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in _ordered_keys(old, new):
            yield from _leaves((*path, key), old.get(key), new.get(key))
    elif isinstance(old, list) and isinstance(new, list) and _records(old) and _records(new):
        for i in range(max(len(old), len(new))):
            yield from _leaves(
                (*path, i), old[i] if i < len(old) else None, new[i] if i < len(new) else None
            )
    else:
        yield path, old, new


def _records(items: list[Any]) -> bool:
    return all(isinstance(i, dict) for i in items)


def _ordered_keys(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    keys = list(a)
    keys += [k for k in b if k not in a]
    return sorted(keys, key=lambda k: (int(k) if k.isdigit() else float("inf"), k))


def _plain(path: Path, old: Any, new: Any) -> str:
    return f"{'.'.join(map(str, path))}: {_show(old)} → {_show(new)}"


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(_show, value)) or "none"
    return str(value)
