"""``log --json --states`` written cheaply: a stream of JSON documents that share parts.

Each record of ``log --json --states`` carries the whole state document, and a move leaves most
of a state as it was: a game's views may give the rows of what a move did not change as the very
objects of the document before (Hunters keeps its rows of tiles, pieces and features by the
identity of what they show). :class:`JsonLines` writes each document as
:func:`tribes.events.codec.to_json` writes it (``indent=None``), taking again the text of what
the document before already held.
"""

from __future__ import annotations

import os
from itertools import compress
from json.encoder import encode_basestring
from operator import not_
from typing import Any

from tribes.events.codec import dumps, text_keys, to_json, visible_json

_TEXT = frozenset({str})
_CONTAINERS = frozenset({dict, list, tuple})
_Rows = list[Any] | tuple[Any, ...]


class JsonLines:
    """:func:`to_json` (``indent=None``) of a stream of documents that share parts by
    identity (``log --json --states``: each step's state document holds the rows of the
    tiles, pieces and features a move left as they were, the same objects as the step
    before's), the same text in a fraction of the time. A list of dicts that holds a row met
    before (the same object: a document is never written after it is made) is written item
    by item, the text of a row written before taken again; everything else is json's (after
    :func:`text_keys`).

    Every text is made visible (:func:`visible_json`) where it is made, a row's once: the
    characters ``to_json`` escapes lie inside strings, so escaping the parts escapes the
    whole. The rows met are held with their texts, by ``id`` (:data:`ROWS_KEPT` at most):
    holding them keeps their ids their own, so an id found is the very row; a row stays
    found however many documents leave it out (a piece that stays on the board for thirty
    moves is written once). The lists of rows of the last document are kept with their
    texts too, so that a list a document takes again whole is taken with its text."""

    def __init__(self) -> None:
        self._texts: dict[int, str | None] = {}
        """By id, the text of each row met (None: met in a document written in one call)."""
        self._held: list[Any] = []
        """The rows of :attr:`_texts`, held so that their ids stay their own."""
        self._lists: dict[int, str] = {}
        """By id, the text of each list of rows of the last document (held in :attr:`_kept`),
        without its brackets."""
        self._kept: list[_Rows] = []
        self._now: dict[int, str] = {}
        self._paths: set[int] = set()
        """The ids of the dicts of this document that hold a list of rows (written key by key)."""
        self._heads: dict[str, str] = {}
        """By key, the text that begins its entry in a dict (the key, a colon, a space)."""
        self._mark = f"\x00{os.urandom(8).hex()}:"
        """What a list of rows is swapped for, its number after it (:meth:`_spliced`)."""
        self._written_mark = encode_basestring(self._mark)[:-1]

    def __call__(self, data: Any) -> str:
        if len(self._texts) >= ROWS_KEPT:
            self._texts.clear()
            self._held.clear()
        known, lists = self._texts, self._lists
        found: list[_Rows] = []
        places: list[tuple[dict[str, Any], str, Any]] = []
        self._paths = set()
        _lists_of_rows(data, 0, found, self._paths, places)
        self._now = {}
        if any(id(rows) in lists or any(map(known.__contains__, map(id, rows))) for rows in found):
            spliced = self._spliced(data, places, len(found)) if places else None
            if spliced is None:
                out: list[str] = []
                self._write(data, out)
                spliced = "".join(out)  # the parts copied once, not once a level
            text = spliced
        else:  # nothing met before: json's, in one call
            for rows in found:
                known.update(dict.fromkeys(map(id, rows)))
                self._held += rows
            text = to_json(data, indent=None)
        self._lists, self._kept = self._now, found
        return text

    def _spliced(
        self, data: Any, places: list[tuple[dict[str, Any], str, Any]], lists: int
    ) -> str | None:
        """The text of ``data``: json's, in one call, of a copy of its dicts on the way to a
        list of rows, each list swapped for a mark; then each mark's list of rows put in its
        place. None when a text of the document holds a mark itself (its number random: never
        by chance), which :meth:`_write` then writes part by part."""
        copies: dict[int, dict[str, Any]] = {}
        marks: dict[int, str] = {}
        rows_texts: list[str] = []
        for parent, key, child in places:
            copy = copies.get(id(parent))
            if copy is None:
                copy = copies[id(parent)] = dict(parent)
            if type(child) is dict:
                inner = copies.get(id(child))
                if inner is None:
                    inner = copies[id(child)] = dict(child)
                copy[key] = inner
                continue
            mark = marks.get(id(child))
            if mark is None:
                mark = marks[id(child)] = f"{self._mark}{len(rows_texts)}"
                rows_texts.append(self._rows(child))
            copy[key] = mark
        pieces = _visible(dumps(text_keys(copies[id(data)]))).split(self._written_mark)
        if len(pieces) != lists + 1:
            return None
        out = [pieces[0]]
        for piece in pieces[1:]:
            number, rest = piece.split('"', 1)
            out += ("[", rows_texts[int(number)], "]", rest)
        return "".join(out)

    def _write(self, value: Any, out: list[str]) -> None:
        """The text of ``value`` put at the end of ``out``, in parts."""
        kind = type(value)
        if kind is dict and id(value) in self._paths:  # else json's, in one call
            heads = self._heads
            before = "{"  # a dict on the way to a list of rows is never empty
            for key in sorted(value):
                head = heads.get(key)
                if head is None:
                    head = heads[key] = _visible(encode_basestring(key)) + ": "
                item = value[key]
                scalar = _SCALAR_TEXT.get(type(item))
                if scalar is None:
                    out += (before, head)
                    self._write(item, out)
                else:
                    out += (before, head, scalar(item))
                before = ", "
            out.append("}")
        elif (kind is list or kind is tuple) and value and type(value[0]) is dict:
            out += ("[", self._rows(value), "]")
        else:
            scalar = _SCALAR_TEXT.get(kind)
            out.append(_visible(dumps(text_keys(value))) if scalar is None else scalar(value))

    def _rows(self, rows: _Rows) -> str:
        """The text of a list of rows, without its brackets."""
        inner = self._lists.get(id(rows))
        if inner is None:  # else the very list of the document before
            known = self._texts
            texts: list[Any] = list(map(known.get, map(id, rows)))  # each None made below
            if None in texts:
                for i in compress(range(len(texts)), map(not_, texts)):
                    row = rows[i]
                    texts[i] = known[id(row)] = _visible(dumps(text_keys(row)))
                    self._held.append(row)
            inner = ", ".join(texts)
        self._now[id(rows)] = inner
        return inner


ROWS_KEPT = 1 << 13
"""How many rows :class:`JsonLines` holds with their texts at most (then it lets them all go):
a Hunters game meets some five hundred."""


def _visible(text: str) -> str:
    return text if text.isprintable() else visible_json(text)


def _text_of_text(value: str) -> str:
    return _visible(encode_basestring(value))  # what json writes of text (ensure_ascii=False)


_SCALAR_TEXT: dict[type, Any] = {
    int: int.__repr__,  # what json writes of an int (not of a bool: its type is not int)
    bool: {True: "true", False: "false"}.__getitem__,
    type(None): lambda _: "null",
    str: _text_of_text,
}
"""The JSON text of a value of each of these types, as json writes it, without its encoder."""


def _lists_of_rows(
    value: Any,
    depth: int,
    out: list[_Rows],
    paths: set[int],
    places: list[tuple[dict[str, Any], str, Any]],
) -> bool:
    """Whether ``value`` holds lists of dicts :meth:`JsonLines._write` writes item by item (in
    dicts of text keys to depth 3), each put in ``out``; the id of every dict on the way to
    one in ``paths``, and where each such dict or list lies in ``places`` (its dict and key)."""
    kind = type(value)
    if kind is dict and depth < 3 and _TEXT.issuperset(map(type, value)):
        holds = False
        for key, item in value.items():
            if type(item) in _CONTAINERS and _lists_of_rows(item, depth + 1, out, paths, places):
                places.append((value, key, item))
                holds = True
        if holds:
            paths.add(id(value))
        return holds
    if (kind is list or kind is tuple) and value and type(value[0]) is dict:
        out.append(value)
        return True
    return False
