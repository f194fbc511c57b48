"""The ``.json`` form of a log: the same content, stable and diffable (sorted keys, one event a
line), written whole (atomically: :mod:`tribes.events.files`).

Versions 2 and 3 hold ``digest``, the log digest (:mod:`tribes.events.digest`) over the header
and the events, checked on read, and ``commits`` as the binary form has them, so that both forms
convert losslessly. Version 1 has neither. A checkpoint of version 3 is ``[events, state hex,
parts hex]`` after the rules version it was recorded under, with the parts' names as a last
item where they differ from the checkpoint
before (as in the binary form), one a line: ``[events, rules version, state hex, parts hex]``. A hand-written scenario has none of ``digest``,
``checkpoints`` and ``commits`` (a version 2 log with only some of them is refused); its events
may be moves in notation; it is read as version 1 is, and ``import`` seals it.
"""

from __future__ import annotations

from typing import Any

import attrs

from tribes.core.errors import CorruptLog
from tribes.core.header import Header
from tribes.events import annotation, codec
from tribes.events.headers import check_version, header_data, header_from_data
from tribes.events.model import (
    COMMIT_BYTES,
    DIGEST_BYTES,
    FORMAT_NAME,
    MAX_ANNOTATIONS,
    MAX_EVENTS,
    Annotation,
    Checkpoint,
    Commit,
    GameLog,
    checkpoint_rest,
)

_KEYS = {
    1: {"format", "version", "header", "checkpoints", "events"},
    2: {"format", "version", "header", "digest", "checkpoints", "commits", "events", "annotations"},
}
_KEYS[3] = _KEYS[2]


def to_json_text(log: GameLog, digest: bytes) -> str:
    """The stable, diffable JSON form (version 2 or 3, as the log's commits are): sorted keys,
    one event per line. ``digest`` is the log digest of its header and events."""
    head = {
        "digest": digest.hex(),
        "format": FORMAT_NAME,
        "header": header_data(log.header),
        "version": log.version,
    }
    lines = codec.to_json(head).rstrip().removesuffix("}").rstrip()
    if log.annotations:
        notes = ",\n".join(
            "    " + codec.to_json(annotation.to_dict(a), indent=None) for a in log.annotations
        )
        lines += f',\n  "annotations": [\n{notes}\n  ]'
    if log.version >= 3:
        lines += f',\n  "checkpoints": {_checkpoints_v3(log.checkpoints)}'
    else:
        marks = ", ".join(f'[{c.events}, "{c.digest.hex()}"]' for c in log.checkpoints)
        lines += f',\n  "checkpoints": [{marks}]'
    commits = ", ".join(
        f'[{c.events}, "{c.digest.hex()}"' + (f", {c.annotations}]" if c.annotations else "]")
        for c in log.commits
    )
    lines += f',\n  "commits": [{commits}]'
    events = ",\n".join("    " + codec.event_json_line(e) for e in log.events)
    body = f',\n  "events": [\n{events}\n  ]\n}}\n' if events else ',\n  "events": []\n}\n'
    return lines + body


def _checkpoints_v3(marks: tuple[Checkpoint, ...]) -> str:
    rows = []
    names: tuple[str, ...] | None = None
    for c in marks:
        row = f'[{c.events}, {c.rules}, "{c.digest.hex()}", "{c.parts.hex()}"'
        if c.names != names or c.outcome is not None:
            given = list(c.names) if c.names != names else None
            row += ", " + codec.to_json(given, indent=None)
            names = c.names
        if c.outcome is not None:
            row += ", " + codec.to_json([list(v) for v in c.outcome], indent=None)
        rows.append("    " + row + "]")
    return "[\n" + ",\n".join(rows) + "\n  ]" if rows else "[]"


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
    version: int = 3
    commits: tuple[Commit, ...] = ()
    digest: bytes | None = None
    annotations: tuple[Annotation, ...] = ()


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
    if raw is None:
        checkpoints = None
    elif version >= 3:
        checkpoints = _checkpoints(raw, path)
    else:
        checkpoints = _marks(raw, DIGEST_BYTES, "checkpoint", path)
    notes = _annotations(data.get("annotations", []), len(items), path)
    marks = [key for key in ("digest", "checkpoints", "commits") if key in data]
    if version == 1 or not marks:  # version 1, or a hand-written scenario
        return JsonLog(
            header=header, items=tuple(items), checkpoints=checkpoints, version=1, annotations=notes
        )
    for key in ("digest", "checkpoints", "commits"):
        if key not in data:
            raise CorruptLog(f'is a version {version} log without "{key}"', path=path)
    if not all(isinstance(item, dict) for item in items):
        raise CorruptLog(f"a version {version} log gives every event as an object", path=path)
    if not isinstance(data["commits"], list):
        raise CorruptLog('"commits" must be a list of [events, hex digest]', path=path)
    commits = _commits(data["commits"], len(notes), path)
    for c in commits:  # a commit stands after the events and the annotations it counts
        if (c.annotations and notes[c.annotations - 1].at > c.events) or (
            c.annotations < len(notes) and notes[c.annotations].at < c.events
        ):
            raise CorruptLog(
                f"the commit after event {c.events} counts {c.annotations} annotations; "
                "that is not where it stands among them",
                path=path,
            )
    if not commits or commits[-1].events != len(items) or commits[-1].annotations != len(notes):
        raise CorruptLog(
            f"the last commit must be after the last event ({len(items)}) and annotation",
            path=path,
        )
    if version >= 3:
        marked = {c.events for c in checkpoints or ()}
        lacking = [c.events for c in commits if c.events not in marked]
        if lacking:
            raise CorruptLog(f"the commit after event {lacking[0]} has no checkpoint", path=path)
    digest = data["digest"]
    if not isinstance(digest, str) or len(digest) != 32 or not _is_hex(digest):
        raise CorruptLog('"digest" must be 32 hex digits', path=path)
    return JsonLog(
        header=header,
        items=tuple(items),
        checkpoints=checkpoints,
        version=version,
        commits=commits,
        digest=bytes.fromhex(digest),
        annotations=notes,
    )


def _annotations(raw: Any, events: int, path: str | None) -> tuple[Annotation, ...]:
    if not isinstance(raw, list):
        raise CorruptLog('"annotations" must be a list', path=path)
    if len(raw) > MAX_ANNOTATIONS:
        raise CorruptLog(
            f"holds {len(raw)} annotations; a log holds at most {MAX_ANNOTATIONS}", path=path
        )
    out: list[Annotation] = []
    for index, item in enumerate(raw, start=1):
        note, why = annotation.from_dict(item, events)
        if note is not None and out and note.at < out[-1].at:
            why = "comes before the annotation ahead of it (they are in the order appended)"
        if note is None or why is not None:
            raise CorruptLog(f"annotation {index}: {why}", path=path)
        out.append(note)
    return tuple(out)


def _commits(raw: list[Any], notes: int, path: str | None) -> tuple[Commit, ...]:
    """Commits as ``[events, hex]``, or ``[events, hex, annotations before it]``."""
    out: list[Commit] = []
    for item in raw:
        counted = 0
        if isinstance(item, list) and len(item) == 3:
            counted = item[2]
            if type(counted) is not int or not 0 < counted <= notes:
                raise CorruptLog(
                    f"a commit's third number counts the annotations before it (1 to {notes}); "
                    f"got {ascii(item)[:60]}",
                    path=path,
                )
            item = item[:2]
        (mark,) = _marks([item], COMMIT_BYTES, "commit", path)
        if out and (mark.events, counted) <= (out[-1].events, out[-1].annotations):
            raise CorruptLog("the commits must come in increasing order", path=path)
        out.append(Commit(mark.events, mark.digest, counted))
    return tuple(out)


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


def _checkpoints(raw: list[Any], path: str | None) -> tuple[Checkpoint, ...]:
    """Checkpoints of version 3: ``[events, rules version, state hex, parts hex]``, then the
    parts' names (sorted) where they differ from the checkpoint before (else null, or nothing)
    and ``[scores, winners]`` once the game is over there."""
    out: list[Checkpoint] = []
    names: tuple[str, ...] | None = None
    for item in raw:
        read = None
        if isinstance(item, list) and 4 <= len(item) <= 6:
            rules, parts = item[1], item[3]
            if type(rules) is int and 0 < rules < 1 << 31 and isinstance(parts, str):
                (mark,) = _marks([item[0:3:2]], DIGEST_BYTES, "checkpoint", path)
                if len(parts) % 2 == 0 and _is_hex(parts):
                    read = checkpoint_rest([bytes.fromhex(parts), *item[4:]], names)
        if read is None:
            raise CorruptLog(
                "a checkpoint must be [events, rules version, 16 hex digits, the parts' hex "
                f"digits] (then its parts' names where they change); got {ascii(item)[:60]}",
                path=path,
            )
        if out and mark.events <= out[-1].events:
            raise CorruptLog("the checkpoints must name events in increasing order", path=path)
        names = read[0]
        out.append(Checkpoint(mark.events, mark.digest, read[0], read[1], rules, read[2]))
    return tuple(out)


def _one_line(exc: BaseException) -> str:
    return ascii(str(exc))[1:-1][:120]
