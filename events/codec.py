"""The one serialization module: attrs objects <-> plain data <-> msgpack / JSON.

The cattrs converter is made by :func:`make_converter` (strict primitives, tuples back from lists,
enums by value, cache fields left out), on first use; cattrs itself is imported then. What a log
is read into (its header, its events) and what its digest covers take a plainer path first
(:func:`structure`, :func:`unstructure`, through :mod:`tribes.events.plain`: the same values,
``tests/core/test_codec_plain.py``), so that ``tribes show`` of a well-formed log loads no cattrs
(~75 M instructions: its import and its generated code); anything that path does not take, a bad
value above all, is the converter's. Nothing else in tribes calls msgpack or json on game objects,
and nothing but this module calls the plain path. Decoding is
strict: an int is an int, text is UTF-8 without lone surrogates, no NaN or Infinity, and the
amount of data is bounded. Events travel in two shapes:

- wire (msgpack): the tag, then the field values in declared order — the compact form of logs;
- dict (JSON): ``{"type": NAME, field: value, ...}`` — the readable form of fixtures and reports.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from enum import Enum
from itertools import chain
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import msgpack

from tribes.core.blake2 import blake2b
from tribes.core.errors import CorruptLog, UnsupportedVersion
from tribes.core.events import Event, EventTable, Payload
from tribes.events.forms import CACHE as CACHE  # noqa: PLC0414  re-exported, for mypy
from tribes.events.forms import FACTORY, NO_DEFAULT, Form, form
from tribes.events.plain import (
    NOT_PLAIN,
    cache_fields,
    plain_data,
    plain_value,
    serialized,
    valid_text,
)

if TYPE_CHECKING:
    import cattrs

T = TypeVar("T")


_CONVERTER: cattrs.Converter | None = None


def make_converter(*, omit_defaults: bool = False) -> cattrs.Converter:
    """A new converter: strict primitives (an int is an int: no bool, text or float coerced),
    attrs classes with cache fields. With ``omit_defaults`` it unstructures a field at its
    default into nothing (what a state's identity, :func:`identity`, is defined as)."""
    import cattrs  # noqa: PLC0415  start-up: cattrs only when a converter is made
    from cattrs.gen import make_dict_unstructure_fn, override  # noqa: PLC0415  start-up: cattrs only when a converter is made

    conv = cattrs.Converter(forbid_extra_keys=True, omit_if_default=omit_defaults)
    for kind in (int, str, bool, float, bytes):
        conv.register_structure_hook(kind, _strict(kind))

    def unstructure_without_caches(cls: type) -> Any:
        omit = {name: override(omit=True) for name in cache_fields(cls)}
        # cattrs types **kwargs as if they could be its own _cattrs_* flags; they are field names
        return make_dict_unstructure_fn(
            cls,
            conv,
            _cattrs_omit_if_default=omit_defaults,
            **omit,  # type: ignore[arg-type]  # (above)
        )

    def structure_with_caches(cls: type) -> Any:
        attrs.resolve_types(cls)
        kept: tuple[Any, ...] = serialized(cls)  # attrs.Attribute, their types read as Any

        def structure(data: Any, _: Any) -> Any:
            if not isinstance(data, dict):
                raise TypeError(f"{cls.__name__} needs a mapping")
            extra = set(data) - {a.name for a in kept}
            if extra:
                raise ValueError(f"{cls.__name__}: unknown fields {sorted(extra, key=str)}")
            fields = {a.name: conv.structure(data[a.name], a.type) for a in kept if a.name in data}
            # a class with CACHE fields makes itself (and its caches) with a from_fields classmethod
            return cls.from_fields(**fields)  # type: ignore[attr-defined]  # (above)

        return structure

    conv.register_unstructure_hook_factory(_has_caches, unstructure_without_caches)
    conv.register_structure_hook_factory(_has_caches, structure_with_caches)
    return conv


def converter() -> cattrs.Converter:
    """The converter of tribes; made on first use."""
    global _CONVERTER  # noqa: PLW0603  made once, on first use
    if _CONVERTER is None:
        _CONVERTER = make_converter()
    return _CONVERTER


def _strict(kind: type) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            raise TypeError(f"{value!r:.40} is not {_KIND_NAMES[kind]}")
        if isinstance(value, str) and not valid_text(value):
            raise ValueError("text holds a lone surrogate")
        return value

    return structure


_KIND_NAMES = {
    int: "a whole number",
    str: "text",
    bool: "true or false",
    float: "a number",
    bytes: "bytes",
}


def _has_caches(cls: Any) -> bool:
    return attrs.has(cls) and bool(cache_fields(cls))


def unstructure(obj: Any) -> Any:
    """Plain data (dicts, lists, ints, strs) for any attrs object, tuple or enum."""
    data = plain_data(obj)
    return converter().unstructure(obj) if data is NOT_PLAIN else data


def structure(data: Any, cls: type[T]) -> T:
    made = plain_value(data, cls)
    return converter().structure(data, cls) if made is NOT_PLAIN else made


def structure_failed(exc: BaseException) -> bool:
    """Whether ``exc``, raised by :func:`structure`, says the data is wrong (cattrs' validation
    errors, and what a type or a check raises), not that something else broke."""
    import cattrs  # noqa: PLC0415  start-up: cattrs only when a converter is made

    structuring = (cattrs.BaseValidationError, TypeError, ValueError, KeyError, AttributeError)
    return isinstance(exc, structuring)


# --- events ---------------------------------------------------------------------------------------


def field_names(cls: type[Event]) -> tuple[str, ...]:
    """An event's fields in wire order: its :class:`~tribes.events.forms.Form`'s."""
    return form(cls).names


def event_to_wire(event: Event) -> list[Any]:
    cls = type(event)
    return [cls.TAG, *map(unstructure, form(cls).values(event))]


def event_to_dict(event: Event) -> Payload:
    data: Payload = {"type": type(event).NAME}
    data.update(unstructure(event))
    return data


def event_json_line(event: Event) -> str:
    """One event as a JSON line, its type first, then its fields in declared order."""
    return json.dumps(event_to_dict(event), ensure_ascii=False)


def event_from_wire(table: EventTable, values: list[Any], versions: dict[str, int]) -> Event:
    """An event from its wire values; ``versions`` is the log's event name -> schema version (a
    type the log does not list is read as version 1, its first shape)."""
    if not values or not isinstance(values[0], int) or values[0] not in table.by_tag:
        raise CorruptLog(f"unknown event tag {values[0] if values else None!r}")
    tag = values[0]
    cls = table.by_tag[tag]
    version = versions.get(cls.NAME, 1)
    names = field_names(cls) if version == cls.VERSION else _old_fields(table, tag, version)
    if len(values) - 1 != len(names):
        raise CorruptLog(f"event '{cls.NAME}' has {len(values) - 1} fields, expected {len(names)}")
    return _structure_event(table, cls, dict(zip(names, values[1:], strict=True)), version)


def event_from_dict(table: EventTable, data: Any, versions: dict[str, int]) -> Event:
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("type"), str)
        or data["type"] not in table.by_name
    ):
        known = ", ".join(sorted(table.by_name))
        raise CorruptLog(f"an event needs a 'type' of {known}; got {data!r:.80}")
    cls = table.by_name[data["type"]]
    payload = {k: v for k, v in data.items() if k != "type"}
    return _structure_event(table, cls, payload, versions.get(cls.NAME, 1))


def _old_fields(table: EventTable, tag: int, version: int) -> tuple[str, ...]:
    up = table.upcasters.get((tag, version))
    if up is None:
        raise UnsupportedVersion(_version_message(table, tag, version))
    return up.old_fields


def _version_message(table: EventTable, tag: int, version: int) -> str:
    cls = table.by_tag[tag]
    readable = sorted({v for (t, v) in table.upcasters if t == tag} | {cls.VERSION})
    return (
        f"event '{cls.NAME}' of schema version {version} cannot be read; "
        f"this tribes reads versions {', '.join(map(str, readable))}"
    )


def _structure_event(table: EventTable, cls: type[Event], payload: Payload, version: int) -> Event:
    while version < cls.VERSION:
        up = table.upcasters.get((cls.TAG, version))
        if up is None:
            raise UnsupportedVersion(_version_message(table, cls.TAG, version))
        payload = up.fn(dict(payload))
        version += 1
    if version > cls.VERSION:
        raise UnsupportedVersion(_version_message(table, cls.TAG, version))
    try:
        return structure(payload, cls)
    except Exception as exc:
        if not structure_failed(exc):
            raise
        raise CorruptLog(f"event '{cls.NAME}' is malformed: {why(exc)}") from None


def why(exc: BaseException) -> str:
    """What a structuring error says, in one line, whatever it holds."""
    import cattrs  # noqa: PLC0415  start-up: cattrs only when a converter is made

    try:
        if isinstance(exc, cattrs.BaseValidationError):
            leaves = [why(e) for e in exc.exceptions] or [repr(exc)]
            return "; ".join(leaves)
        return str(exc)
    except Exception:  # noqa: BLE001  an error whose str() fails (cattrs on a non-text key)
        return type(exc).__name__


# --- bytes ----------------------------------------------------------------------------------------


def pack(data: Any) -> bytes:
    packed: bytes = msgpack.packb(data, use_bin_type=True)  # msgpack has no type hints
    return packed


def unpack_all(payload: bytes, max_items: int = 4096) -> list[Any]:
    """Every msgpack value in ``payload``, in order (a record is a short sequence of values).
    Text must be valid UTF-8 (msgpack refuses surrogates); floats must be finite."""
    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=True,
        max_buffer_size=len(payload) + 1,
        max_array_len=max_items,
        max_map_len=max_items,
        max_str_len=1 << 20,
        max_bin_len=1 << 20,
        max_ext_len=0,
    )
    unpacker.feed(payload)
    return list(unpacker)


def canonical(data: Any) -> Any:
    """Plain data with every dict's keys sorted, so that equal states encode to equal bytes."""
    if isinstance(data, dict):
        return {str(k): canonical(data[k]) for k in sorted(data, key=str)}
    if isinstance(data, list | tuple):
        return [canonical(v) for v in data]
    return data


def state_hash(state: Any) -> str:
    """A state's identity: a stable hex digest (16 bytes) of the canonical msgpack encoding of
    its identity document (:func:`identity`: every field at its declared default left out), so
    that a field added with a default that changes no outcome changes no digest."""
    return blake2b(pack(identity(state)), digest_size=16).hexdigest()


def legacy_state_hash(state: Any) -> str:
    """The digest of a state's full form, every field included:
    ``pack(canonical(converter().unstructure(state)))``. What logs and corpora of format
    version 2 mix into their commits, checkpoints and game digests, and baselines of version 1
    into theirs (the state hash before states had a declared identity): those are checked with
    it. The same walk as :func:`state_hash`, with nothing left out."""
    return blake2b(pack(canonical_plain(state)), digest_size=16).hexdigest()


def identity(state: Any) -> Any:
    """A state's identity document: :func:`canonical_plain` with every field of an attrs object
    that equals its declared default left out (as cattrs' ``omit_if_default`` leaves it out),
    cache fields too. This is what a game declares by its state classes' defaults (the Game
    contract, ``tribes.core.game.State``)."""
    return canonical_plain(state, elide=True)


_SCALARS = frozenset({int, str, bool, float, bytes, type(None)})
_ROWS = frozenset({list, tuple})
_WALKS: dict[type, Form | None] = {}
"""By class of a state's value: its :class:`~tribes.events.forms.Form` (an attrs class, taken
field by field in sorted order); :data:`_BY_VALUE` (an enum); or None (another class: the
converter's own path)."""
_UNSEEN: Any = object()
_BY_VALUE: Any = object()
"""The mark of an enum (it travels by value, not field by field)."""


def canonical_plain(value: Any, *, elide: bool = False) -> Any:
    """``canonical(converter().unstructure(value))``, as msgpack packs it, in one walk and a
    quarter of the time: a list or tuple of plain values is taken whole (msgpack packs a tuple
    as the list canonical makes of it), an attrs object is read by its form (its serialized
    fields in sorted order, :func:`tribes.events.forms.form`; with ``elide``, those at their
    declared default left out: :func:`identity`). Anything else (an enum, a subclass) takes
    the converter's path. Every append of a log and every game of a corpus hashes a state, so
    this is worth its length (docs/performance.md: 4.3× the converter's on Clans)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list or kind is tuple:
        if _SCALARS.issuperset(map(type, value)):
            return value
        if _ROWS.issuperset(map(type, value)) and _SCALARS.issuperset(
            map(type, chain.from_iterable(value))
        ):
            return value  # a table of plain values (a board's rows)
        return [v if type(v) in _SCALARS else canonical_plain(v, elide=elide) for v in value]
    if kind is dict:
        if _SCALARS.issuperset(map(type, value)):
            return {str(k): canonical_plain(value[k], elide=elide) for k in sorted(value, key=str)}
        return canonical(converter().unstructure(value))
    walk = _WALKS.get(kind, _UNSEEN)
    if walk is _UNSEEN:
        walk = _WALKS[kind] = _walk_of(kind)
    if walk is None:
        return canonical(converter().unstructure(value))
    if walk is _BY_VALUE:
        return canonical_plain(value.value)  # enums travel by value
    names, values, defaults = walk.sorted_names, walk.sorted_values(value), walk.defaults
    if elide and defaults:
        return {
            name: v if type(v) in _SCALARS else canonical_plain(v, elide=True)
            for name, v, default in zip(names, values, defaults, strict=True)
            if default is NO_DEFAULT
            or v != (default.factory(value) if type(default) is FACTORY else default)
        }
    return {
        name: v if type(v) in _SCALARS else canonical_plain(v, elide=elide)
        for name, v in zip(names, values, strict=True)
    }


def _walk_of(kind: type) -> Form | None:
    """How :func:`canonical_plain` takes a value of ``kind``: its form (an attrs class), the
    mark of an enum, or None (the converter's path)."""
    if issubclass(kind, Enum):
        return _BY_VALUE  # type: ignore[no-any-return]  # a mark
    return form(kind) if attrs.has(kind) else None


def to_json(data: Any, *, indent: int | None = 2) -> str:
    """Stable JSON (sorted keys), readable text kept as it is; characters that are not
    printable (C1 controls such as U+009B, U+202E that turns text around) written as ``\\u``
    and four hex digits, like the C0 controls JSON escapes itself: the same document, that no
    terminal or editor showing it can be driven by."""
    text = json.dumps(
        text_keys(data), indent=indent, sort_keys=True, ensure_ascii=False, allow_nan=False
    )
    return text if text.replace("\n", "").isprintable() else visible_json(text)


_TEXT = frozenset({str})


def text_keys(data: Any) -> Any:
    """What :func:`canonical` makes of ``data`` as far as ``json.dumps(..., sort_keys=True)``
    can tell: the keys of every dict text, those that were not sorted as text. A dict whose
    keys are all text is left for json to sort (it sorts text as canonical does), and a dict
    or list of plain values is taken whole, so that a document of many small dicts (a state's,
    ``log --json --states``) is not copied: the same JSON, in less than half the time."""
    return data if _text_keyed(data) else canonical(data)


def _text_keyed(data: Any) -> bool:
    """Whether every dict in ``data`` has text keys only and every container is a plain dict,
    list or tuple (json then writes ``data`` as it writes ``canonical(data)``)."""
    kind = type(data)
    if kind is dict:
        if not _TEXT.issuperset(map(type, data)):
            return False
        values = data.values()
        return _SCALARS.issuperset(map(type, values)) or all(map(_text_keyed, values))
    if kind is list or kind is tuple:
        if _SCALARS.issuperset(map(type, data)):
            return True
        if _ROWS.issuperset(map(type, data)) and _SCALARS.issuperset(
            map(type, chain.from_iterable(data))
        ):
            return True  # a table of plain values
        return all(map(_text_keyed, data))
    return kind in _SCALARS or not isinstance(data, dict | list | tuple)


_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, allow_nan=False)
_DUMPS = _ENCODER.encode
_C_MAKE_ENCODER = getattr(json.encoder, "c_make_encoder", None)  # not in typeshed
_C_ENCODE = (
    None
    if _C_MAKE_ENCODER is None  # an interpreter without json's C part
    else _C_MAKE_ENCODER(
        None,  # no markers: a plain document holds no cycle
        _ENCODER.default,
        json.encoder.encode_basestring,  # ensure_ascii=False
        None,  # indent
        _ENCODER.key_separator,
        _ENCODER.item_separator,
        True,  # sort_keys
        False,  # skipkeys
        False,  # allow_nan
    )
)
"""json's C encoder of :data:`_ENCODER`'s settings, made once: ``JSONEncoder.encode`` makes a
new one at every call, which costs more than writing a row of a few keys (``log --json
--states`` writes some twenty a record)."""


def dumps(data: Any) -> str:
    """``data`` (plain, its keys text) as one line of stable JSON (sorted keys), as
    :func:`to_json` writes it (without the escapes of what is not printable)."""
    if _C_ENCODE is None or type(data) is str:  # json writes a lone string another way
        text: str = _DUMPS(data)
        return text
    return "".join(_C_ENCODE(data, 0))


def visible_json(text: str) -> str:
    """JSON text with each character that is not printable (outside the layout's newlines:
    inside a string, where JSON allows an escape) written as ``\\u`` and four hex digits."""
    out = []
    for c in text:
        if c == "\n" or c.isprintable():
            out.append(c)
        else:
            units = c.encode("utf-16-be", "surrogatepass")
            out.extend(f"\\u{units[i] << 8 | units[i + 1]:04x}" for i in range(0, len(units), 2))
    return "".join(out)


def to_readable_json(data: Any, *, width: int = 96) -> str:
    """JSON for people to read and edit (position files): indented like :func:`to_json`, but a
    list or object of plain values that fits in ``width`` columns stays on one line, so a stack
    of huts or a hand reads as one line rather than one number a line. Same data, same keys in
    the same order: ``from_json`` of it equals ``from_json`` of ``to_json``."""
    return _readable(canonical(data), 0, width)


def _readable(value: Any, depth: int, width: int, comma: int = 0) -> str:
    """``value`` at ``depth``; ``comma``: 1 when a comma follows it on its last line."""

    def plain(item: Any) -> str:
        return json.dumps(item, sort_keys=True, ensure_ascii=False, allow_nan=False)

    if not isinstance(value, list | dict) or not value:
        return plain(value)
    pad = "  " * (depth + 1)
    if isinstance(value, dict):
        items = [(plain(k) + ": ", value[k]) for k in sorted(value)]
    else:
        items = [("", item) for item in value]
    if all(not isinstance(item, list | dict) or not item for _, item in items):
        one = ", ".join(key + plain(item) for key, item in items)
        line = ("{" + one + "}") if isinstance(value, dict) else ("[" + one + "]")
        if len(pad) - 2 + len(line) + comma <= width:
            return line
    last = len(items) - 1
    inner = ",\n".join(
        pad + key + _readable(item, depth + 1, width, int(i < last))
        for i, (key, item) in enumerate(items)
    )
    close = "}" if isinstance(value, dict) else "]"
    return ("{" if isinstance(value, dict) else "[") + "\n" + inner + "\n" + "  " * depth + close


MAX_JSON_ITEMS = 1 << 18
"""The most lists, objects and items a JSON document may hold (a log of the most events holds far
fewer): memory stays bounded whatever the file."""


def from_json(text: str, max_items: int = MAX_JSON_ITEMS) -> Any:
    """Strict JSON: no NaN or Infinity, no lone surrogate in any text, at most ``max_items``
    containers and items. Raises ValueError saying what is wrong."""
    if text.count(",") + text.count("[") + text.count("{") > max_items:
        raise ValueError(f"it holds more than {max_items} items")
    data = json.loads(text, parse_constant=_no_constant, object_pairs_hook=unique_keys)
    problem = text_problem(data)
    if problem:
        raise ValueError(problem)
    return data


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose every key is there once (``json.loads``'s ``object_pairs_hook``): the
    last of two ``"seed"`` would otherwise win without a word."""
    out = dict(pairs)
    if len(out) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"key '{key[:60]}' appears twice in one object")
            seen.add(key)
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def text_problem(data: Any, depth: int = 0) -> str | None:
    """Why plain ``data`` holds text that is not valid Unicode, or a float that is not finite."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not valid_text(item):
                return f"text {ascii(item)[:40]} holds a lone surrogate"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"{item} is not a finite number"
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return None
