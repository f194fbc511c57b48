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
_PLAIN = frozenset({str, int, float, bool, type(None)})
_CONTAINERS = frozenset({dict, list, tuple})
_Rows = list[Any] | tuple[Any, ...]


class JsonLines:
    """:func:`to_json` (``indent=None``) of a stream of documents that share parts by
    identity (``log --json --states``: each step's state document holds the rows of the
    features a move left as they were, the same objects as the step before's), the same text
    in a fraction of the time. A list of dicts that holds an item of the document before (the
    same object: a document is never written after it is made) is written item by item, the
    text of such an item taken again; everything else is json's (after :func:`text_keys`).

    Every text is made visible (:func:`visible_json`) where it is made, a row's once: the
    characters ``to_json`` escapes lie inside strings, so escaping the parts escapes the
    whole. The rows of the last document are kept with their texts, by ``id``: holding them
    keeps their ids their own, so an id found is the very row."""

    def __init__(self) -> None:
        self._texts: dict[int, str | None] = {}
        self._kept: list[_Rows] = []
        self._now: dict[int, str | None] = {}
        self._keys: dict[str, str] = {}

    def __call__(self, data: Any) -> str:
        before = self._texts
        lists: list[_Rows] = []
        _lists_of_rows(data, 0, lists)
        self._now = {}
        if any(
            id(rows) in before or any(map(before.__contains__, map(id, rows))) for rows in lists
        ):
            text = self._text(data, 0)
        else:  # nothing shared with the document before: json's, in one call
            for rows in lists:
                self._now.update(dict.fromkeys(map(id, rows)))
            text = to_json(data, indent=None)
        self._texts, self._kept = self._now, lists
        return text

    def _text(self, value: Any, depth: int) -> str:
        kind = type(value)
        scalar = _SCALAR_TEXT.get(kind)
        if scalar is not None:
            text: str = scalar(value)
            return text
        if (
            kind is dict
            and depth < 3
            and _TEXT.issuperset(map(type, value))
            and not _PLAIN.issuperset(map(type, value.values()))  # else json's, in one call
        ):
            parts = []
            for key, item in sorted(value.items(), key=_key_of):
                scalar = _SCALAR_TEXT.get(type(item))
                text = scalar(item) if scalar is not None else self._text(item, depth + 1)
                parts.append(f"{self._key(key)}: {text}")
            return "{" + ", ".join(parts) + "}"
        if (kind is list or kind is tuple) and value and type(value[0]) is dict:
            return self._rows(value)
        return _visible(dumps(text_keys(value)))

    def _key(self, key: str) -> str:
        text = self._keys.get(key)
        if text is None:
            text = self._keys[key] = _visible(dumps(key))
        return text

    def _rows(self, rows: _Rows) -> str:
        whole = self._texts.get(id(rows))
        if whole is not None:  # the very list of the document before
            self._now[id(rows)] = whole
            return whole
        ids = list(map(id, rows))
        texts: list[Any] = list(map(self._texts.get, ids))  # each None made below
        for i, text in enumerate(texts):
            if text is None:
                texts[i] = _visible(dumps(text_keys(rows[i])))
        self._now.update(zip(ids, texts, strict=True))
        whole = self._now[id(rows)] = "[" + ", ".join(texts) + "]"
        return whole


def _visible(text: str) -> str:
    return text if text.isprintable() else visible_json(text)


def _text_of_text(value: str) -> str:
    return _visible(dumps(value))


_SCALAR_TEXT: dict[type, Any] = {
    int: int.__repr__,  # what json writes of an int (not of a bool: its type is not int)
    bool: {True: "true", False: "false"}.__getitem__,
    type(None): lambda _: "null",
    str: _text_of_text,
}
"""The JSON text of a value of each of these types, as json writes it, without its encoder."""


def _lists_of_rows(value: Any, depth: int, out: list[_Rows]) -> None:
    """The lists of dicts :meth:`JsonLines._text` writes item by item: in dicts of text keys
    to depth 3."""
    kind = type(value)
    if kind is dict and depth < 3 and _TEXT.issuperset(map(type, value)):
        for item in value.values():
            if type(item) in _CONTAINERS:
                _lists_of_rows(item, depth + 1, out)
    elif (kind is list or kind is tuple) and value and type(value[0]) is dict:
        out.append(value)


def _key_of(item: tuple[str, Any]) -> str:
    return item[0]
