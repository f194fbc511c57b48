"""The ``.json`` form of a log: the same content, stable and diffable (sorted keys, one event a
line), written whole (atomically: :mod:`tribes.events.files`).

Version 2 holds ``digest``, the log digest (:mod:`tribes.events.digest`) over the header and
the events, checked on read, and ``commits`` as the binary form has them, so that both forms
convert losslessly. Version 1 has neither. A hand-written scenario has none of ``digest``,
``checkpoints`` and ``commits`` (a version 2 log with only some of them is refused); its events
may be moves in notation; it is read as version 1 is, and ``import`` seals it.
"""

from __future__ import annotations

from typing import Any

import attrs

from tribes.core.errors import CorruptLog
from tribes.core.header import Header
from tribes.events import codec
from tribes.events.headers import check_version, header_data, header_from_data
from tribes.events.model import (
    COMMIT_BYTES,
    DIGEST_BYTES,
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_EVENTS,
    Checkpoint,
    Commit,
    GameLog,
)

_KEYS = {
    1: {"format", "version", "header", "checkpoints", "events"},
    2: {"format", "version", "header", "digest", "checkpoints", "commits", "events"},
}


def to_json_text(log: GameLog, digest: bytes) -> str:
    """The stable, diffable JSON form (version 2): sorted keys, one event per line. ``digest``
    is the log digest of its header and events."""
    head = {
        "digest": digest.hex(),
        "format": FORMAT_NAME,
        "header": header_data(log.header),
        "version": FORMAT_VERSION,
    }
    lines = codec.to_json(head).rstrip().removesuffix("}").rstrip()
    marks = ", ".join(f'[{c.events}, "{c.digest.hex()}"]' for c in log.checkpoints)
    lines += f',\n  "checkpoints": [{marks}]'
    commits = ", ".join(f'[{c.events}, "{c.digest.hex()}"]' for c in log.commits)
    lines += f',\n  "commits": [{commits}]'
    events = ",\n".join("    " + codec.event_json_line(e) for e in log.events)
    body = f',\n  "events": [\n{events}\n  ]\n}}\n' if events else ',\n  "events": []\n}\n'
    return lines + body


def to_json_text_v1(log: GameLog) -> str:
    """A log of format version 1 as version 1 wrote it (its fixtures stay as they were)."""
    head = {"format": FORMAT_NAME, "version": 1, "header": header_data(log.header)}
    lines = codec.to_json(head).rstrip().removesuffix("}").rstrip()
    marks = ", ".join(f'[{c.events}, "{c.digest.hex()}"]' for c in log.checkpoints)
    lines += f',\n  "checkpoints": [{marks}]'
    events = ",\n".join("    " + codec.event_json_line(e) for e in log.events)
    body = f',\n  "events": [\n{events}\n  ]\n}}\n' if events else ',\n  "events": []\n}\n'
    return lines + body


@attrs.frozen
class JsonLog:
    """A JSON log as read, before its events are resolved: an event may be a dict or, in a
    hand-written scenario (version 1), a move in notation."""

    header: Header
    items: tuple[Any, ...]
    checkpoints: tuple[Checkpoint, ...] | None
    version: int = FORMAT_VERSION
    commits: tuple[Commit, ...] = ()
    digest: bytes | None = None


def read_json_text(text: str, path: str | None = None) -> JsonLog:
    try:
        data = codec.from_json(text)
    except (ValueError, RecursionError) as exc:
        raise CorruptLog(f"is not valid JSON: {_one_line(exc)}", path=path) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise CorruptLog(f'is not a tribes log in JSON (no "format": "{FORMAT_NAME}")', path=path)
    version = check_version(data.get("version"), path)
    extra = sorted(set(data) - _KEYS[version])
    if extra:
        raise CorruptLog(
            f"is a version {version} log with an unknown field {ascii(extra[0])[:40]}", path=path
        )
    header = header_from_data(data.get("header"), path, version)
    items = data.get("events", [])
    if not isinstance(items, list):
        raise CorruptLog('"events" must be a list', path=path)
    if len(items) > MAX_EVENTS:
        raise CorruptLog(f"holds {len(items)} events; a log holds at most {MAX_EVENTS}", path=path)
    raw = data.get("checkpoints")
    if raw is not None and not isinstance(raw, list):
        raise CorruptLog('"checkpoints" must be a list of [events, hex digest]', path=path)
    checkpoints = None if raw is None else _marks(raw, DIGEST_BYTES, "checkpoint", path)
    marks = [key for key in ("digest", "checkpoints", "commits") if key in data]
    if version == 1 or not marks:  # version 1, or a hand-written scenario
        return JsonLog(header=header, items=tuple(items), checkpoints=checkpoints, version=1)
    for key in ("digest", "checkpoints", "commits"):
        if key not in data:
            raise CorruptLog(f'is a version 2 log without "{key}"', path=path)
    if not all(isinstance(item, dict) for item in items):
        raise CorruptLog("a version 2 log gives every event as an object", path=path)
    if not isinstance(data["commits"], list):
        raise CorruptLog('"commits" must be a list of [events, hex digest]', path=path)
    commits = _marks(data["commits"], COMMIT_BYTES, "commit", path)
    if not commits or commits[-1].events != len(items):
        raise CorruptLog(f"the last commit must be after the last event ({len(items)})", path=path)
    digest = data["digest"]
    if not isinstance(digest, str) or len(digest) != 32 or not _is_hex(digest):
        raise CorruptLog('"digest" must be 32 hex digits', path=path)
    return JsonLog(
        header=header,
        items=tuple(items),
        checkpoints=checkpoints,
        version=2,
        commits=tuple(Commit(c.events, c.digest) for c in commits),
        digest=bytes.fromhex(digest),
    )


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def _marks(raw: list[Any], size: int, kind: str, path: str | None) -> tuple[Checkpoint, ...]:
    out: list[Checkpoint] = []
    for item in raw:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or type(item[0]) is not int
            or not isinstance(item[1], str)
            or len(item[1]) != 2 * size
            or not _is_hex(item[1])
        ):
            raise CorruptLog(
                f"a {kind} must be [events, {2 * size} hex digits]; got {ascii(item)[:60]}",
                path=path,
            )
        if (out and item[0] <= out[-1].events) or item[0] < 0:
            raise CorruptLog(f"the {kind}s must name events in increasing order", path=path)
        out.append(Checkpoint(item[0], bytes.fromhex(item[1])))
    return tuple(out)


def _one_line(exc: BaseException) -> str:
    return ascii(str(exc))[1:-1][:120]
