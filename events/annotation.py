"""Annotations: a log's tags and its notes on events, checked as the untrusted input they are.

An annotation never changes a state. In a ``.tribes`` file it is a record of its own, appended
(never a rewrite of earlier bytes) and followed by a commit whose digest covers it::

    annotation = -2, events so far, key, value    key: a tag's name (text) or an event's index
                                                  value: its text, or nil to remove it

In the JSON form it is ``{"at": N, "tag": KEY, "value": TEXT}`` or ``{"at": N, "note": EVENT,
"text": TEXT}`` (null to remove), in the ``"annotations"`` list, present only when not empty.
"""

from __future__ import annotations

import re
from typing import Any

from tribes.events import codec
from tribes.events.model import MAX_NOTE, MAX_TAG_KEY, MAX_TAG_VALUE, Annotation

ANNOTATION_TAG = -2
_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]*\Z")


def tag_key_problem(key: Any) -> str | None:
    if not isinstance(key, str) or not 0 < len(key) <= MAX_TAG_KEY or not _KEY.match(key):
        return (
            f"a tag name is 1 to {MAX_TAG_KEY} letters, digits and _ . : - from a letter, "
            f"not {ascii(key)[:40]}"
        )
    return None


def tag_value_problem(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return "a tag's value is text, not empty"
    if len(value) > MAX_TAG_VALUE:
        return f"a tag's value is at most {MAX_TAG_VALUE} characters, not {len(value)}"
    if not value.isprintable() or codec.text_problem(value) is not None:
        return "a tag's value is one line of printable text (no control character)"
    return None


def note_problem(text: Any) -> str | None:
    if not isinstance(text, str) or not text.strip():
        return "a note is text, not empty"
    if len(text) > MAX_NOTE:
        return f"a note is at most {MAX_NOTE} characters, not {len(text)}"
    if codec.text_problem(text) is not None or not all(
        line.isprintable() for line in text.split("\n")
    ):
        return "a note is printable text (no control character but newlines)"
    return None


def annotation_problem(at: Any, key: Any, value: Any, events: int) -> str | None:
    """Why these fields make no annotation of a log with ``events`` events so far, or None."""
    if type(at) is not int or not 0 <= at <= events:
        return f"its event count {ascii(at)[:20]} is not one of the log's (0 to {events})"
    if type(key) is int:
        if not 0 <= key <= at:
            return f"it notes event {key}, which is not among the {at} events before it"
        return None if value is None else note_problem(value)
    why = tag_key_problem(key)
    if why:
        return why
    return None if value is None else tag_value_problem(value)


def record(annotation: Annotation) -> bytes:
    """The payload of its ``.tribes`` record, which the log digest covers too."""
    values = (ANNOTATION_TAG, annotation.at, annotation.key, annotation.value)
    return b"".join(codec.pack(v) for v in values)


def to_dict(annotation: Annotation) -> dict[str, Any]:
    if isinstance(annotation.key, int):
        return {"at": annotation.at, "note": annotation.key, "text": annotation.value}
    return {"at": annotation.at, "tag": annotation.key, "value": annotation.value}


def from_dict(item: Any, events: int) -> tuple[Annotation | None, str | None]:
    """An annotation from its JSON form, or why it is none."""
    if not isinstance(item, dict):
        return None, "is not an object"
    if set(item) == {"at", "note", "text"}:
        key, value = item["note"], item["text"]
        if type(key) is not int:
            return None, "its 'note' must be an event's index"
    elif set(item) == {"at", "tag", "value"}:
        key, value = item["tag"], item["value"]
        if not isinstance(key, str):
            return None, "its 'tag' must be a name"
    else:
        return None, 'must be {"at", "tag", "value"} or {"at", "note", "text"}'
    why = annotation_problem(item["at"], key, value, events)
    if why:
        return None, why
    return Annotation(item["at"], key, value), None
