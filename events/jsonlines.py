"""``log --json --states`` written cheaply: a stream of JSON documents that share parts.

Each record of ``log --json --states`` carries the whole state document, and a move leaves most
of a state as it was: a game's views may give the rows of what a move did not change as the very
objects of the document before (Hunters keeps its rows of tiles, pieces and features by the
identity of what they show). :class:`JsonLines` writes each document as
:func:`tribes.events.codec.to_json` writes it (``indent=None``), taking again the text of what
the document before already held.
"""

from __future__ import annotations

from typing import Any

from tribes.events.codec import dumps, text_keys, to_json, visible_json

_TEXT = frozenset({str})


class JsonLines:
    """:func:`to_json` (``indent=None``) of a stream of documents that share parts by
    identity (``log --json --states``: each step's state document holds the rows of the
    features a move left as they were, the same objects as the step before's), the same text
    in a fraction of the time. A list of dicts that holds an item of the document before (the
    same object: a document is never written after it is made) is written item by item, the
    text of such an item taken again; everything else is json's (after :func:`text_keys`). It
    keeps the items of the last document only."""

    def __init__(self) -> None:
        self._texts: dict[int, tuple[Any, str | None]] = {}
        self._now: dict[int, tuple[Any, str | None]] = {}
        self._keys: dict[str, str] = {}

    def __call__(self, data: Any) -> str:
        before: dict[int, tuple[Any, str | None]] = self._texts
        now: dict[int, tuple[Any, str | None]] = {}
        self._now = now
        lists: list[list[Any] | tuple[Any, ...]] = []
        _lists_of_rows(data, 0, lists)
        if any(before.get(id(row), _NONE)[0] is row for rows in lists for row in rows):
            text = self._text(data, 0)
            text = text if text.isprintable() else visible_json(text)
        else:  # nothing shared with the document before: json's, in one call
            for rows in lists:
                for row in rows:
                    now[id(row)] = (row, None)
            text = to_json(data, indent=None)
        self._texts = now
        return text

    def _text(self, value: Any, depth: int) -> str:
        kind = type(value)
        if kind is dict and depth < 3 and _TEXT.issuperset(map(type, value)):
            items = sorted(value.items(), key=_key_of)
            inner = ", ".join(f"{self._key(k)}: {self._text(v, depth + 1)}" for k, v in items)
            return "{" + inner + "}"
        if (kind is list or kind is tuple) and value and type(value[0]) is dict:
            return self._rows(value)
        return dumps(text_keys(value))

    def _key(self, key: str) -> str:
        text = self._keys.get(key)
        if text is None:
            text = self._keys[key] = dumps(key)
        return text

    def _rows(self, rows: list[Any] | tuple[Any, ...]) -> str:
        before, now = self._texts, self._now
        if not any(before.get(id(row), _NONE)[0] is row for row in rows):
            for row in rows:
                now[id(row)] = (row, None)
            return dumps(text_keys(rows))
        texts = []
        for row in rows:
            kept = before.get(id(row), _NONE)
            text = kept[1] if kept[0] is row else None
            if text is None:
                text = dumps(text_keys(row))
            now[id(row)] = (row, text)
            texts.append(text)
        return "[" + ", ".join(texts) + "]"


_NONE: tuple[Any, None] = (None, None)


def _lists_of_rows(value: Any, depth: int, out: list[list[Any] | tuple[Any, ...]]) -> None:
    """The lists of dicts :meth:`JsonLines._text` writes item by item: in dicts of text keys
    to depth 3."""
    kind = type(value)
    if kind is dict and depth < 3 and _TEXT.issuperset(map(type, value)):
        for item in value.values():
            _lists_of_rows(item, depth + 1, out)
    elif (kind is list or kind is tuple) and value and type(value[0]) is dict:
        out.append(value)


def _key_of(item: tuple[str, Any]) -> str:
    return item[0]
