"""Steps of a game as plain data, for scripts: ``tribes log --json`` streams one record per
step (the event, its effects and, with states, the ``show --json`` document and the legal moves),
so that a script checking every state needs one process, not two per event."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from tribes.core import views
from tribes.core.engine import Step
from tribes.core.events import Effect
from tribes.core.game import Game, Viewer
from tribes.core.header import Header
from tribes.events import codec

RECORD_KEYS = ("type", "text")
"""The keys of an effect's record that are the record's own: its type's name and its words."""

RENAMED = {"type": "kind", "text": "words"}
"""What a field of an effect named as a key of :data:`RECORD_KEYS` is called in its record."""


_KEYS: dict[type, dict[str, str]] = {}
"""field_keys' memo: one entry an effect type (as many as the registered games have)."""


def field_keys(kind: type[Effect]) -> dict[str, str]:
    """The key of each field of effect type ``kind`` in its record: the field's name, but for a
    field named as one of the record's own keys (Hunters' ``FeatureScored.type``, ``meadow``),
    which is given as :data:`RENAMED` names it (``kind``), with ``_`` added while that name is
    taken too: so that ``type`` is always the effect's type and no field shadows another."""
    known = _KEYS.get(kind)
    if known is not None:
        return known
    names = [a.name for a in attrs.fields(kind)]
    keys: dict[str, str] = {}
    for name in names:
        key = name
        if name in RECORD_KEYS:
            key = RENAMED[name]
            while key in RECORD_KEYS or key in names or key in keys.values():
                key += "_"
        keys[name] = key
    _KEYS[kind] = keys
    return keys


def effect_record(effect: Effect, seats: tuple[str, ...], viewer: Viewer) -> dict[str, Any]:
    """An effect as data: its type, its words as ``viewer`` may read them and, for a viewer who
    sees everything, its fields (they may hold what others may not see: a card drawn), each
    under its :func:`field_keys` key."""
    record = {"type": type(effect).__name__, "text": effect.describe_for(seats, viewer)}
    if viewer == "all":
        keys = field_keys(type(effect))
        record.update((keys.get(k, k), v) for k, v in codec.unstructure(effect).items())
    return record


def step_record(
    game: Game[Any],
    header: Header,
    step: Step[Any],
    viewer: Viewer,
    *,
    states: bool = False,
    note: str | None = None,
) -> dict[str, Any]:
    """One step: index, seat, move (notation and event data), effects, its note (or null);
    with ``states`` also the state after it (``show --json``) and the legal moves there."""
    seats = header.seats
    record: dict[str, Any] = {
        "index": step.index,
        "seat": None if step.seat is None else seats[step.seat],
        "move": None if step.event is None else game.format_move(step.event),
        "event": None if step.event is None else codec.event_to_dict(step.event),
        "effects": [effect_record(e, seats, viewer) for e in step.effects],
        "note": note,
    }
    if states:
        record["state"] = views.step_document(game, header, step.index, step.state, viewer)
        record["legal"] = views.legal_notation(game, step.state, viewer)
    return record


def step_records(
    game: Game[Any],
    header: Header,
    steps: Iterable[Step[Any]],
    viewer: Viewer,
    *,
    states: bool = False,
    notes: Mapping[int, str] | None = None,
) -> Iterator[dict[str, Any]]:
    """Every step's record: with ``states`` from the start (index 0), else events only (and
    the start when setting up caused something: a tile removed at the start)."""
    noted = notes or {}
    for step in steps:
        if step.index or states or step.effects:
            yield step_record(game, header, step, viewer, states=states, note=noted.get(step.index))
