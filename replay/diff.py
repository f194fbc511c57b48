"""What changed between two states, in the game's language.

Two ``show --json`` documents are compared leaf by leaf; each change is then phrased by the game
(``Game.phrase(path, old, new)``) or, when it has no words for it, as ``path: old → new``. A game
lists in ``diff_whole`` the fields that change as one value (a pending decision), and records in a
list are matched by their ``number`` or ``id`` when they have one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from tribes.core import digits
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


LAST = ("scores", "pending", "to_move", "over", "ended", "winners", "seats")
"""The common keys (``tribes.core.views.COMMON_KEYS``) in the order their changes are listed,
after the game's own fields: what the move did comes first, then the scores, then whose turn."""


def diff(game: Game[Any], before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """The changes from document ``before`` to ``after``, in the order a move causes them:
    the top-level fields as :func:`top_order` ranks them; within one, territories, seats and
    villages by number, then by name."""
    whole = frozenset(game.diff_whole)
    changes = []
    for key in top_order(game, before, after):
        if key in IGNORED:
            continue
        for path, old, new in _leaves((key,), before.get(key), after.get(key), whole):
            text = game.phrase(path, old, new) or common_phrase(path, old, new)
            changes.append(Change(path, old, new, text or _plain(path, old, new)))
    return changes


def top_order(game: Game[Any], before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The top-level keys of two documents in the order their changes are listed: the game's
    ``diff_order`` (the order a move changes them), its other fields as its documents give
    them, then the common keys (:data:`LAST`)."""
    keys = [*before, *(k for k in after if k not in before)]
    ranked = [*getattr(game, "diff_order", ()), *(k for k in keys if k not in LAST), *LAST]
    rank = {key: i for i, key in reversed(list(enumerate(ranked)))}
    return sorted(keys, key=lambda k: rank.get(k, len(rank)))


def common_phrase(path: Path, old: Any, new: Any) -> str | None:
    """A change of a key every game's document has (``tribes.core.views.COMMON_KEYS``), in
    words; the pending decision and the scores are the game's to phrase."""
    head = path[0]
    if head == "to_move":
        return f"to move: {_show(old)} → {_show(new)}"
    if head == "over":
        return "the game is over" if new else "the game is on again"
    if head == "ended" and new:
        return f"the game ended: {new}"
    if head == "winners" and len(path) == 1:
        return f"winners: {', '.join(new or []) or 'none'}"
    return None


def _leaves(
    path: Path, old: Any, new: Any, whole: frozenset[str]
) -> Iterator[tuple[Path, Any, Any]]:
    """Changed leaves; a top-level field named in ``whole`` changes as one value."""
    if old == new:
        return
    if len(path) == 1 and path[0] in whole:
        yield path, old, new
    elif isinstance(old, dict) and isinstance(new, dict):
        for key in _ordered_keys(old, new):
            yield from _leaves((*path, key), old.get(key), new.get(key), whole)
    elif isinstance(old, list) and isinstance(new, list) and _records(old) and _records(new):
        keyed_old, keyed_new = _keyed(old), _keyed(new)
        for number in sorted(keyed_old.keys() | keyed_new.keys()):
            yield from _leaves((*path, number), keyed_old.get(number), keyed_new.get(number), whole)
    else:
        yield path, old, new


def _records(items: list[Any]) -> bool:
    return all(isinstance(i, dict) for i in items)


def _keyed(records: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Records by their own ``number`` (or ``id``) when every one has a distinct one, else by
    position from 1: a village is named by its number, not by where it stands in a list."""
    for key in ("number", "id"):
        ids = [i for r in records if isinstance(i := r.get(key), int)]
        if len(ids) == len(records) and len(set(ids)) == len(ids):
            return dict(zip(ids, records, strict=True))
    return dict(enumerate(records, start=1))


def _ordered_keys(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Numbers (territories, villages) by number, other keys (seats, colours) in the order
    the document gives them (seat order, colour order): never alphabetically."""
    keys = list(a)
    keys += [k for k in b if k not in a]
    place = {k: i for i, k in enumerate(keys)}
    return sorted(keys, key=lambda k: _numbers_first(k, place[k]))


def _numbers_first(key: str, place: int) -> tuple[float, int]:
    """Numbers by number, then the others where the document has them."""
    number = digits.natural(key)
    return (float("inf") if number is None else number), place


def _plain(path: Path, old: Any, new: Any) -> str:
    return f"{'.'.join(map(str, path))}: {_show(old)} → {_show(new)}"


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(_show, value)) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_show(v)}" for k, v in value.items()) or "none"
    return str(value)
