"""The codec's plain path: what its cattrs converter does, for plain values, without cattrs.

:func:`tribes.events.codec.structure` and ``unstructure`` ask here first, so that reading a
well-formed log (its header, its events, its digest) loads no cattrs (``tribes show`` ~75 M
instructions less); a value this path does not take, a bad one above all, it answers
:data:`NOT_PLAIN`, and the converter takes it and says what is wrong. Only the codec calls it;
``tests/core/test_codec_plain.py`` holds both paths to the same values, type for type.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any

import attrs

from tribes.events.forms import CACHE as CACHE  # noqa: PLC0414  re-exported, for mypy
from tribes.events.forms import form


def valid_text(text: str) -> bool:
    """Whether ``text`` is valid UTF-8 (no lone surrogate), as a log's text must be."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def cache_fields(cls: type) -> tuple[str, ...]:
    """The names of an attrs class's cache fields (marked with :data:`CACHE`): its form's."""
    return form(cls).caches


def serialized(cls: type) -> tuple[attrs.Attribute[Any], ...]:
    """The fields the codec writes and reads of an attrs class, in declared order (every field
    but the caches), each with its type and default: its form's
    (:func:`tribes.events.forms.form`, the one mapping the converter's hooks, the plain path
    here and the walk a state's hash is made by all take their fields from)."""
    return form(cls).fields


NOT_PLAIN: Any = object()
"""What the plain path answers for a value it does not take: the converter's, then."""
_Take = Callable[[Any], Any]
_TAKERS: dict[Any, _Take | None] = {}
"""By class or type: how the plain path structures a value of it (the value, or NOT_PLAIN), or
None for one it leaves to the converter."""
_TAKES: dict[type, tuple[tuple[str, _Take, bool], ...] | None] = {}
"""By attrs class: each field's name, how to structure its value, and whether it is required;
None for a class the plain path leaves to the converter (cache fields, a type it does not
take)."""


def plain_data(value: Any, *, in_fields: bool = False) -> Any:
    """``converter().unstructure(value)`` for plain values (None, bool, int, float, text;
    lists, tuples and dicts of them; enums; an attrs object of such fields, none a cache), or
    NOT_PLAIN for anything else: lists for tuples, an enum's value, an attrs object's fields in
    declared order. Inside an attrs object (``in_fields``) cattrs goes by each field's declared
    type, not by the value's: an attrs object there is left to it."""
    kind = type(value)
    if kind in _PLAIN_SCALARS:
        return value
    if kind is list or kind is tuple:
        out = [plain_data(v, in_fields=in_fields) for v in value]
        return NOT_PLAIN if any(v is NOT_PLAIN for v in out) else out
    if kind is dict:
        pairs = [
            (plain_data(k, in_fields=in_fields), plain_data(v, in_fields=in_fields))
            for k, v in value.items()
        ]
        plain = not any(k is NOT_PLAIN or v is NOT_PLAIN for k, v in pairs)
        return dict(pairs) if plain else NOT_PLAIN
    if isinstance(value, Enum):
        return plain_data(value.value)
    takes = _takes(kind) if not in_fields and attrs.has(kind) else None
    if takes is None:
        return NOT_PLAIN
    mapping = form(kind)
    fields = dict(zip(mapping.names, mapping.values(value), strict=True))
    if _PLAIN_SCALARS.issuperset(map(type, fields.values())):
        return fields  # what the walk below gives of it, in one step (most events and effects)
    out = plain_data(fields, in_fields=True)
    if out is not NOT_PLAIN:
        for name, keep in _KEPT[kind]:  # cattrs keeps a tuple of fixed length a tuple
            out[name] = keep(fields[name])
    return out


def plain_value(data: Any, cls: Any) -> Any:
    """``converter().structure(data, cls)`` where ``cls`` is a plain type and ``data`` is what
    the converter would take without a word (the strict primitives, a list or tuple for a
    tuple, a dict for a dict or an attrs class with no unknown key and every required one); or
    NOT_PLAIN, and the converter says what is wrong."""
    take = _taker(cls)
    return NOT_PLAIN if take is None else take(data)


_PLAIN_SCALARS = frozenset({type(None), bool, int, float, str})


def _taker(kind: Any) -> _Take | None:
    try:
        known = kind in _TAKERS
    except TypeError:  # a type that cannot be a key (unhashable metadata): the converter's
        return None
    if not known:
        _TAKERS[kind] = None  # a class met again inside its own fields is the converter's
        _TAKERS[kind] = _make_taker(kind)
    return _TAKERS[kind]


def _make_taker(kind: Any) -> _Take | None:
    """How the plain path structures a value of ``kind`` (as the converter's hooks do), or
    None."""
    if kind is Any:
        return lambda value: value
    if kind in (int, bool, float):
        return lambda value: value if type(value) is kind else NOT_PLAIN
    if kind is str:
        return lambda value: value if type(value) is str and valid_text(value) else NOT_PLAIN
    if isinstance(kind, type) and issubclass(kind, Enum):
        by_value = {(type(m.value), m.value): m for m in kind}
        return lambda value: by_value.get((type(value), value), NOT_PLAIN)
    if isinstance(kind, type) and attrs.has(kind):
        return _attrs_taker(kind)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _sequence_taker(_taker(args[0]))
    if origin is dict and len(args) == 2:
        return _mapping_taker(_taker(args[0]), _taker(args[1]))
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        one = _taker(next(a for a in args if a is not type(None)))
        return None if one is None else (lambda value: value if value is None else one(value))
    return None


def _sequence_taker(item: _Take | None) -> _Take | None:
    if item is None:
        return None

    def take(value: Any) -> Any:
        if type(value) is not list and type(value) is not tuple:
            return NOT_PLAIN
        out = tuple(map(item, value))
        return NOT_PLAIN if NOT_PLAIN in out else out

    return take


def _mapping_taker(key: _Take | None, item: _Take | None) -> _Take | None:
    if key is None or item is None:
        return None

    def take(value: Any) -> Any:
        if type(value) is not dict:
            return NOT_PLAIN
        out = {key(k): item(v) for k, v in value.items()}
        plain = len(out) == len(value) and NOT_PLAIN not in out and NOT_PLAIN not in out.values()
        return out if plain else NOT_PLAIN

    return take


def _attrs_taker(cls: type) -> _Take | None:
    takes = _takes(cls)
    if takes is None:
        return None
    names = set(form(cls).names)

    def take(data: Any) -> Any:
        if type(data) is not dict or not names.issuperset(data):
            return NOT_PLAIN
        fields = {}
        for name, take_field, required in takes:
            if name in data:
                value = take_field(data[name])
                if value is NOT_PLAIN:
                    return NOT_PLAIN
                fields[name] = value
            elif required:
                return NOT_PLAIN
        try:
            return cls(**fields)
        except Exception:  # noqa: BLE001  a check of the class's own: the converter says it as it does
            return NOT_PLAIN

    return take


def _takes(cls: type) -> tuple[tuple[str, _Take, bool], ...] | None:
    if cls not in _TAKES:
        _TAKES[cls] = None  # a class met again inside its own fields is the converter's
        _TAKES[cls] = _make_takes(cls)
    return _TAKES[cls]


def _make_takes(cls: type) -> tuple[tuple[str, _Take, bool], ...] | None:
    if form(cls).caches:
        return None
    try:
        attrs.resolve_types(cls)
    except Exception:  # noqa: BLE001  a type named only for type checkers: whatever the converter makes of it
        return None
    takes = []
    kept = []
    for field in form(cls).fields:
        pair = _pairs(field.type)
        take = _taker(field.type) if pair is None else pair[0]
        if take is None or not field.init or field.alias != field.name:
            return None
        takes.append((field.name, take, field.default is attrs.NOTHING))
        if pair is not None:
            kept.append((field.name, pair[1]))
    _KEPT[cls] = tuple(kept)
    return tuple(takes)


_KEPT: dict[type, tuple[tuple[str, Callable[[Any], Any]], ...]] = {}
"""By attrs class the plain path takes: its fields of a tuple of fixed length of plain values,
or a sequence of them (Hunters' ``FeatureScored.tiles``, cells), each with what the converter
makes of its value: the tuples kept (``[(0, 1), (1, 1)]``), where :func:`plain_data`, which
goes by the value, makes lists."""

_FIXED = (int, str, bool, float)


def _pairs(kind: Any) -> tuple[_Take, Callable[[Any], Any]] | None:
    """For a field's type ``tuple[A, B, ...]`` of fixed length (each of :data:`_FIXED`), or
    ``tuple[tuple[A, B, ...], ...]``: how the plain path structures a value of it and
    unstructures it, as the converter does; None for any other type (a fixed tuple anywhere
    else stays the converter's)."""
    args = typing.get_args(kind)
    if typing.get_origin(kind) is not tuple or not args:
        return None
    if len(args) == 2 and args[1] is Ellipsis:
        item = _pairs(args[0])
        if item is None:
            return None
        rows = _sequence_taker(item[0])
        assert rows is not None  # an item taker makes a sequence taker
        return rows, lambda value: list(map(tuple, value))
    if not all(a in _FIXED for a in args):
        return None
    takes = tuple(map(_taker, args))

    def take(value: Any) -> Any:
        if (type(value) is not list and type(value) is not tuple) or len(value) != len(takes):
            return NOT_PLAIN
        out = tuple(t(v) for t, v in zip(takes, value, strict=True))  # type: ignore[misc]  # every _FIXED arg has a taker: none is None
        return NOT_PLAIN if NOT_PLAIN in out else out

    return take, tuple
