"""The header of a log, checked: untrusted data in, a :class:`Header` out, every bad field named.

Both forms of a log hold the same header data; :func:`header_data` writes it with its free-form
parts (position, metadata) in sorted order, so both forms, and the log digest, see the same bytes.
"""

from __future__ import annotations

import math
from typing import Any

from tribes.core.errors import CorruptLog, UnsupportedVersion
from tribes.core.header import Header
from tribes.events import codec
from tribes.events.model import MAX_SEED, READABLE_VERSIONS

_REQUIRED = ("game", "rules_version", "seed", "seats")
_OPTIONAL = ("options", "position", "meta", "schema", "files")
MAX_SEATS = 16
MAX_SEAT_NAME = 64


def header_data(header: Header) -> dict[str, Any]:
    """The header as plain data: empty optional parts left out, free-form parts sorted."""
    data: dict[str, Any] = codec.unstructure(header)
    data["position"] = codec.canonical(data["position"])
    data["meta"] = codec.canonical(data["meta"])
    data["files"] = codec.canonical(data["files"])
    for optional in ("options", "position", "meta", "files"):
        if not data[optional]:
            del data[optional]
    return data


def check_version(version: Any, path: str | None) -> int:
    if type(version) is not int or version not in READABLE_VERSIONS:
        readable = ", ".join(map(str, READABLE_VERSIONS))
        shown = ascii(version)[:40]
        raise UnsupportedVersion(
            f"log format version {shown} cannot be read; this tribes reads versions {readable}",
            path=path,
        )
    return version


def seat_name_problem(name: Any) -> str | None:
    """Why ``name`` cannot be a seat name (text, 1 to 64 printable characters), or None."""
    if not isinstance(name, str) or not 0 < len(name) <= MAX_SEAT_NAME:
        return "must be 1 to 64 characters of text"
    if not name.isprintable() or name != name.strip() or codec.text_problem(name) is not None:
        return "holds a control character or space at an end"
    return None


def header_from_data(data: Any, path: str | None, version: int = 2) -> Header:
    """A Header from untrusted data: every field checked for its kind and range first, and every
    missing or bad one named at once, in one line ("'rules_version', 'seed' are missing; 'seats'
    must list ...")."""

    def bad(why: str) -> CorruptLog:
        return CorruptLog(f"the header is malformed: {why}", path=path)

    if not isinstance(data, dict):
        raise bad("it is not a map")
    problems: list[str] = []  # every one is named at once, in one line
    allowed = (*_REQUIRED, *_OPTIONAL) if version >= 2 else (*_REQUIRED, *_OPTIONAL[:-1])
    unknown = [k for k in data if not isinstance(k, str) or k not in allowed]
    if unknown:
        shown = ", ".join(ascii(k)[:40] for k in unknown[:5])
        problems.append(f"unknown field{'s' if len(unknown) > 1 else ''} {shown}")
    missing = [key for key in _REQUIRED if key not in data]
    if missing:
        names = ", ".join(f"'{k}'" for k in missing)
        problems.append(f"{names} {'is' if len(missing) == 1 else 'are'} missing")
    if "game" in data and (
        not isinstance(data["game"], str) or not data["game"] or codec.text_problem(data["game"])
    ):
        problems.append("'game' must be a name")
    if "rules_version" in data and (not _whole(data["rules_version"]) or data["rules_version"] < 1):
        problems.append("'rules_version' must be a whole number from 1")
    if "seed" in data and (not _whole(data["seed"]) or not 0 <= data["seed"] <= MAX_SEED):
        problems.append(f"'seed' must be a whole number from 0 to {MAX_SEED}")
    seats = data.get("seats", [])
    if "seats" in data and (not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS):
        problems.append(f"'seats' must list 1 to {MAX_SEATS} seat names")
    elif isinstance(seats, list):
        for name in seats:
            why = seat_name_problem(name)
            if why:
                problems.append(f"seat name {ascii(name)[:40]} {why}")
                break
    options = data.get("options", {})
    if not _string_map(options, str):
        wrong = (
            next((k for k, v in options.items() if not isinstance(v, str)), None)
            if isinstance(options, dict)
            else None
        )
        problems.append(
            "'options' must map names to text"
            + (f" (option {ascii(wrong)[:40]} is not)" if wrong is not None else "")
        )
    if not _string_map(data.get("schema", {}), int):
        problems.append("'schema' must map event names to versions")
    if not _string_map(data.get("files", {}), str):
        problems.append("'files' must map option names to the text of their files")
    if not isinstance(data.get("meta", {}), dict):
        problems.append("'meta' must be a map")
    for key in ("position", "meta", "options", "schema", "files"):
        why = json_problem(data.get(key), 0)
        if why:
            problems.append(f"'{key}' {why}")
    if problems:
        raise bad("; ".join(problems))
    try:
        return codec.structure(data, Header)
    except Exception as exc:
        if not codec.structure_failed(exc):
            raise
        raise bad(codec.why(exc)) from None


def _whole(value: Any) -> bool:
    return type(value) is int


def _string_map(value: Any, kind: type) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and type(v) is kind for k, v in value.items()
    )


def json_problem(value: Any, depth: int = 0, where: str = "") -> str | None:
    """Why ``value`` is not plain JSON that both forms of a log can hold, or None: only null,
    true/false, 64-bit whole numbers, finite numbers, valid text, lists and text-keyed maps."""
    at = f" at {where}" if where else ""
    if depth > 32:
        return f"nests too deeply{at}"
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        return None if codec.text_problem(value) is None else f"holds a lone surrogate{at}"
    if isinstance(value, float):
        return None if math.isfinite(value) else f"holds {value}, which JSON cannot{at}"
    if isinstance(value, int):
        return None if -(1 << 63) <= value <= MAX_SEED else f"holds a number beyond 64 bits{at}"
    if isinstance(value, list):
        items = enumerate(value)
        return next(
            (w for i, v in items if (w := json_problem(v, depth + 1, f"{where}[{i}]"))), None
        )
    if isinstance(value, dict):
        if not all(isinstance(k, str) and codec.text_problem(k) is None for k in value):
            return f"has a key that is not text{at}"
        return next(
            (
                w
                for k, v in value.items()
                if (w := json_problem(v, depth + 1, f"{where}.{k}" if where else k))
            ),
            None,
        )
    return f"holds a {type(value).__name__}, which JSON cannot{at}"
