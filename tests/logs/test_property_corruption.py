"""Corrupted logs never crash: whatever the bytes or the JSON, reading a log either gives a log or
raises a TribesError, and replaying what was read raises nothing else either."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tribes import games
from tribes.core.errors import TribesError
from tribes.events import codec, logfile
from tribes.replay import logs

PROPERTIES = settings.get_profile("tribes-properties")

seeds = st.integers(min_value=0, max_value=2**64 - 1)
seat_counts = st.integers(min_value=2, max_value=4)
picks = st.integers(0, 60).flatmap(
    lambda n: st.lists(st.integers(0, 2**16), min_size=n, max_size=n)
)
"""Move picks: ``moves[pick % len(moves)]`` at each turn. The length is drawn first so that many
games are played to their end (a plain list strategy favours short ones)."""

damage = st.lists(
    st.tuples(
        st.sampled_from(["flip", "delete", "insert", "truncate", "set"]),
        st.integers(min_value=0, max_value=2**16),
        st.integers(min_value=0, max_value=255),
        st.binary(min_size=1, max_size=8),
    ),
    min_size=1,
    max_size=4,
)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["move", "order", "clans", "tribes-log", "12-13", "order 1 2", "00ff"]),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(
                st.text(max_size=8),
                st.sampled_from(["type", "source", "target", "villages", "seats", "game"]),
            ),
            children,
            max_size=4,
        ),
    ),
    max_leaves=12,
)

msgpack_scalars = st.one_of(
    json_scalars.filter(lambda v: not isinstance(v, int) or -(2**63) <= v < 2**64),
    st.binary(max_size=12),
)
msgpack_keys = st.one_of(
    st.text(max_size=8),
    st.binary(max_size=8),
    st.sampled_from(["game", "seed", "seats", "schema", "options", "position", "meta"]),
    st.sampled_from([b"game", b"seed", b"seats", b"rules_version"]),
)
msgpack_values = st.recursive(
    msgpack_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(msgpack_keys, children, max_size=4)
    ),
    max_leaves=12,
)


def read_and_replay_bytes(helpers, data: bytes) -> None:
    """Decode and replay; only TribesError may escape."""
    try:
        log, _ = logfile.decode(data, games.event_table)
    except TribesError:
        return
    with contextlib.suppress(TribesError):
        logs.steps_of(games.get_for_log(log.header.game), log)


def read_and_replay_json(path) -> None:
    try:
        opened = logs.open_log(path)
    except TribesError:
        return
    try:
        steps = logs.steps_of(opened.game, opened.log)
        opened.game.document(steps[-1].state, opened.log.header.seats, "all")
        logfile.encode(opened.log)
    except TribesError:
        pass


# --- bytes ---------------------------------------------------------------------------------------


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks, ops=damage)
def test_damaged_bytes_never_crash_the_reader(helpers, seed, seats, picks, ops):
    data = logfile.encode(helpers.play(seed, seats, picks).log)
    read_and_replay_bytes(helpers, helpers.mutate(data, ops))


@PROPERTIES
@given(
    seed=seeds, seats=seat_counts, picks=picks, where=st.integers(0, 2**16), bit=st.integers(0, 7)
)
def test_a_single_bit_flip_is_always_detected(helpers, seed, seats, picks, where, bit):
    data = bytearray(logfile.encode(helpers.play(seed, seats, picks).log))
    data[where % len(data)] ^= 1 << bit
    try:
        logfile.decode(bytes(data), games.event_table)
    except TribesError:
        return
    raise AssertionError(f"a flip of bit {bit} of byte {where % len(data)} went unnoticed")


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks, keep=st.integers(0, 2**16))
def test_a_truncated_log_reads_as_a_prefix_or_not_at_all(helpers, seed, seats, picks, keep):
    """A torn append loses the records after the cut, never changes the ones before it."""
    log = helpers.play(seed, seats, picks).log
    data = logfile.encode(log)
    try:
        decoded, end = logfile.decode(data[: keep % (len(data) + 1)], games.event_table)
    except TribesError:
        return
    assert decoded.header == log.header
    assert decoded.events == log.events[: len(decoded.events)]
    assert set(decoded.checkpoints) <= set(log.checkpoints)
    assert end.size == keep % (len(data) + 1)


@PROPERTIES
@given(data=st.binary(max_size=300))
def test_arbitrary_bytes_never_crash_the_reader(helpers, data):
    read_and_replay_bytes(helpers, data)
    read_and_replay_bytes(helpers, logfile.MAGIC + data)


def _frame_all(records: list[list[Any]]) -> bytes:
    out = [logfile.MAGIC]
    previous = 0
    for values in records:
        payload = b"".join(codec.pack(v) for v in values)
        length = len(payload)
        head = bytearray()
        while True:
            low, length = length & 0x7F, length >> 7
            head.append(low | (0x80 if length else 0))
            if not length:
                break
        framed = bytes(head) + payload
        previous = logfile.crc8(framed, logfile.crc8(bytes([previous])))
        out.append(framed + bytes([previous]))
    return b"".join(out)


def _records(log) -> list[list[Any]]:
    data = logfile.encode(log)
    records = []
    pos = len(logfile.MAGIC)
    while pos < len(data):
        length = shift = 0
        while True:
            byte = data[pos]
            pos += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        records.append(codec.unpack_all(data[pos : pos + length]))
        pos += length + 1
    return records


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every node of a plain value (lists and maps), as the keys leading to it."""
    out = [prefix]
    if isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*prefix, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    return out


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """``value`` with the node at ``path`` replaced by ``new`` (a copy; ``value`` untouched)."""
    if not path:
        return new
    if isinstance(value, list):
        i = path[0]
        return [*value[:i], _replace(value[i], path[1:], new), *value[i + 1 :]]
    return {**value, path[0]: _replace(value.get(path[0]), path[1:], new)}


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks, data=st.data(), new=msgpack_values)
def test_well_framed_nonsense_never_crashes_the_reader(helpers, seed, seats, picks, data, new):
    """One value of one record replaced, the frames and check bytes recomputed: the damage gets
    past the CRC to the header and event decoders."""
    records = _records(helpers.play(seed, seats, picks).log)
    i = data.draw(st.integers(0, len(records) - 1), label="record")
    path = data.draw(st.sampled_from(_paths(records[i])[1:]), label="path")
    records[i] = _replace(records[i], path, new)
    read_and_replay_bytes(helpers, _frame_all(records))


@PROPERTIES
@given(key=msgpack_keys, value=msgpack_values, drop=st.sampled_from(["", "game", "seed", "seats"]))
def test_a_header_map_with_any_keys_never_crashes_the_reader(helpers, key, value, drop):
    header = {
        "game": "clans",
        "rules_version": 1,
        "seed": 7,
        "seats": ["ann", "bob"],
        "schema": {"move": 1, "order": 1},
    }
    header.pop(drop, None)
    header[key] = value
    read_and_replay_bytes(helpers, _frame_all([["tribes-log", 1, header]]))


# --- JSON ----------------------------------------------------------------------------------------


@PROPERTIES
@given(text=st.text(max_size=200))
def test_arbitrary_text_never_crashes_the_json_reader(text):
    with contextlib.suppress(TribesError):
        logfile.read_json_text(text)


@PROPERTIES
@given(doc=json_values)
def test_arbitrary_json_never_crashes_the_json_reader(doc, scratch):
    text = json.dumps(doc)
    with contextlib.suppress(TribesError):
        logfile.read_json_text(text)
    path = scratch / "arbitrary.json"
    path.write_text(text)
    read_and_replay_json(path)


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks, data=st.data(), new=json_values)
def test_a_json_log_with_any_value_replaced_never_crashes(
    helpers, seed, seats, picks, data, new, scratch
):
    doc = json.loads(logfile.to_json_text(helpers.play(seed, seats, picks).log))
    path = data.draw(st.sampled_from(_paths(doc)[1:]), label="path")
    file = scratch / "replaced.json"
    file.write_text(json.dumps(_replace(doc, path, new)))
    with contextlib.suppress(TribesError):
        logfile.read_json_text(file.read_text())
    read_and_replay_json(file)


@pytest.mark.parametrize(
    ("path", "new"),
    [
        (("events", 0, "type"), []),
        (("events", 0, "type"), {}),
        (("checkpoints",), 5),
        (("checkpoints",), 1.5),
        (("header", "meta"), {"n": 2**70}),
    ],
    ids=lambda v: json.dumps(v)[:40],
)
def test_json_logs_found_to_crash_the_reader(helpers, scratch, path, new):
    """Shapes the properties above have found, pinned so that they are tried on every run."""
    doc = json.loads(logfile.to_json_text(helpers.play(3, 2, [0, 0]).log))
    file = scratch / "pinned.json"
    file.write_text(json.dumps(_replace(doc, path, new)))
    read_and_replay_json(file)


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks, ops=damage)
def test_a_json_log_with_damaged_text_never_crashes(helpers, seed, seats, picks, ops, scratch):
    text = logfile.to_json_text(helpers.play(seed, seats, picks).log)
    damaged = helpers.mutate(text.encode(), ops)
    file = scratch / "damaged.json"
    file.write_bytes(damaged)
    read_and_replay_json(file)


# --- format version 2: commits --------------------------------------------------------------------


def sealed(helpers, seed, seats, picks, cuts):
    """The played log sealed in version 2 with commits at ``cuts`` (ends of earlier appends)."""
    played = helpers.play(seed, seats, picks)
    ends = sorted({c % (len(played.log.events) + 1) for c in cuts} | {0})
    return logs.seal(helpers.game, played.log, list(played.steps), appended_from=ends)


@PROPERTIES
@given(
    seed=seeds,
    seats=seat_counts,
    picks=picks,
    cuts=st.lists(st.integers(0, 99), max_size=4),
    keep=st.integers(0, 2**16),
)
def test_a_cut_v2_log_reads_as_its_log_at_a_commit_or_names_its_tail(
    helpers, seed, seats, picks, cuts, keep
):
    """Whatever the cut, what a version 2 log holds is the log as it was at one of its commits;
    anything after it is a tail, named, never part of the game."""
    log = sealed(helpers, seed, seats, picks, cuts)
    data = logfile.encode(log)
    cut = keep % (len(data) + 1)
    try:
        decoded, end = logfile.decode(data[:cut], games.event_table)
    except TribesError:
        return
    assert decoded.header == log.header
    assert len(decoded.events) in {c.events for c in log.commits}
    assert decoded.events == log.events[: len(decoded.events)]
    assert (end.tail is None) == (end.size == cut)
    logs.steps_of(helpers.game, decoded)  # every kept commit and checkpoint holds


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks, ops=damage)
def test_damaged_v2_bytes_are_refused_or_are_the_log_at_a_commit(helpers, seed, seats, picks, ops):
    log = sealed(helpers, seed, seats, picks, [])
    data = helpers.mutate(logfile.encode(log), ops)
    try:
        decoded, end = logfile.decode(data, games.event_table)
        if end.tail is not None:
            return  # refused by every command, named
        logs.steps_of(games.get_for_log(decoded.header.game), decoded)
    except TribesError:
        return
    assert logfile.header_data(decoded.header) == logfile.header_data(log.header)
    assert decoded.events == log.events[: len(decoded.events)]
    assert len(decoded.events) in {c.events for c in log.commits}
