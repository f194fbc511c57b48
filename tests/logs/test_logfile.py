"""The .tribes format: framing, checkpoints, crash-safe appends, versions, upcasting."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from tribes import games
from tribes.core.errors import CorruptLog, UnsupportedVersion
from tribes.core.events import Event, EventTable, Upcaster
from tribes.core.header import Header
from tribes.events import codec, logfile
from tribes.events.logfile import GameLog
from tribes.replay import logs

DATA = Path(__file__).parent / "data"


def clans_log(moves: int) -> GameLog:
    game = games.get("clans")
    head = logs.header(game, seats=["ann", "bob"], seed=11)
    state = game.setup(head)
    events = []
    for _ in range(moves):
        move = game.legal_moves(state)[0]
        state, _ = game.apply(state, move)
        events.append(move)
    log = GameLog(header=head, events=tuple(events))
    return attrs.evolve(log, checkpoints=logs.checkpoints(game, log, ()))


def test_a_move_costs_five_bytes_and_checkpoints_come_every_64_and_at_the_end() -> None:
    log = clans_log(0)
    bare = len(logfile.encode(log))
    one = clans_log(1)
    # 5 bytes for the move (length, tag, source, target, check) + the end checkpoint (length,
    # tag 0, count, 10 bytes of msgpack bin digest, check: 14 bytes)
    assert len(logfile.encode(one)) - bare == 5 + 14
    assert [c.events for c in clans_log(40).checkpoints] == [40]


def test_an_append_costs_its_moves_a_checkpoint_and_an_18_byte_commit() -> None:
    game = games.get("clans")
    bare = len(logfile.encode(logs.seal(game, clans_log(0))))
    one = logs.seal(game, clans_log(1), appended_from=[0])
    # the move (length, tag, source, target, check: 5 bytes), its checkpoint (length, tag 0,
    # count, rules version, 10 bytes of msgpack bin for 8 of the state hash, 2 + 2 bytes for
    # each part of the state's identity (6 here: the parts at their default are left out), check:
    # 29 bytes), then the commit: length, tag -1, count, 14 bytes of msgpack bin (a 12-byte
    # digest), check: 18 bytes
    assert len(one.checkpoints[-1].names) == 6
    assert len(logfile.encode(one)) - bare == 5 + 17 + 2 * 6 + 18
    assert [c.events for c in one.commits] == [0, 1]
    assert [c.events for c in one.checkpoints] == [0, 1]


def test_append_adds_bytes_after_the_end_and_never_rewrites(tmp_path: Path) -> None:
    game = games.get("clans")
    path = tmp_path / "g.tribes"
    full = clans_log(6)
    first = GameLog(header=full.header, events=full.events[:3])
    logs.create(path, first, game)
    before = path.read_bytes()
    opened = logs.open_log(path)
    logs.act(opened, [game.format_move(e) for e in full.events[3:]])
    after = path.read_bytes()
    assert after.startswith(before)
    reopened = logs.open_log(path)
    assert reopened.log.events == full.events
    assert [c.events for c in reopened.log.commits] == [3, 6]
    assert [c.events for c in reopened.log.checkpoints] == [3, 6]  # one at every commit


def test_an_interrupted_append_is_an_uncommitted_tail_and_earlier_records_survive(
    tmp_path: Path,
) -> None:
    game = games.get("clans")
    path = tmp_path / "g.tribes"
    full = clans_log(5)
    logs.create(path, GameLog(header=full.header, events=full.events[:2]), game)
    good = path.read_bytes()
    logs.act(logs.open_log(path), [game.format_move(e) for e in full.events[2:]])
    whole = path.read_bytes()
    for cut in range(len(good), len(whole) + 1):
        log, end = logfile.decode(whole[:cut], games.event_table)
        if cut in (len(good), len(whole)):
            assert end.tail is None
            assert log.events == full.events[: 2 if cut == len(good) else 5]
        else:  # none of the three moves counts: all of them, or none
            assert log.events == full.events[:2]
            assert end.tail is not None and end.tail.offset == len(good)
            assert end.size == len(good)
            assert "after the last commit, at byte" in end.tail.describe()


def test_a_flipped_bit_names_the_record() -> None:
    data = bytearray(logfile.encode(clans_log(3)))
    data[-8] ^= 0x01
    with pytest.raises(CorruptLog, match=r"the record after event \d+ \(byte \d+\)"):
        logfile.decode(bytes(data), games.event_table)


def test_unknown_format_version_says_which_are_read() -> None:
    log = clans_log(0)
    payload = b"".join(codec.pack(v) for v in ("tribes-log", 99, logfile.header_data(log.header)))
    framed, _ = logfile._frame(payload, 0)
    with pytest.raises(
        UnsupportedVersion,
        match="log format version 99 cannot be read; this tribes reads versions 1, 2",
    ):
        logfile.decode(logfile.MAGIC + framed, games.event_table)
    text = logfile.to_json_text(log).replace('"version": 1', '"version": 99')
    with pytest.raises(UnsupportedVersion, match="reads versions 1, 2"):
        logfile.read_json_text(text)


# --- upcasting, with a toy game whose event changed shape ------------------------------------------


@attrs.frozen(kw_only=True)
class Walked(Event):
    """Version 2 of a toy event: version 1 had ``steps`` and ``dir`` ("n"/"s"), version 2 a signed
    ``distance``."""

    TAG = 1
    NAME = "walk"
    VERSION = 2

    distance: int


def upcast_walk_v1_v2(payload: dict) -> dict:
    sign = -1 if payload["dir"] == "s" else 1
    return {"distance": sign * payload["steps"]}


TOY = EventTable(
    [Walked], [Upcaster(tag=1, from_version=1, old_fields=("steps", "dir"), fn=upcast_walk_v1_v2)]
)


def test_upcaster_reads_a_json_fixture_written_in_the_old_shape() -> None:
    raw = logfile.read_json_text((DATA / "toy-walk-v1.json").read_text())
    assert raw.header.schema == {"walk": 1}
    events = [codec.event_from_dict(TOY, item, raw.header.schema) for item in raw.items]
    assert events == [Walked(distance=3), Walked(distance=-2)]


def test_upcaster_reads_a_binary_fixture_written_in_the_old_shape() -> None:
    log, _ = logfile.decode((DATA / "toy-walk-v1.tribes").read_bytes(), lambda name: TOY)
    assert log.events == (Walked(distance=3), Walked(distance=-2))


def test_a_schema_newer_than_ours_is_refused() -> None:
    with pytest.raises(
        UnsupportedVersion, match="schema version 3 cannot be read; this tribes reads versions 1, 2"
    ):
        codec.event_from_dict(TOY, {"type": "walk", "distance": 1}, {"walk": 3})


def test_toy_fixture_is_what_version_1_wrote() -> None:
    """The binary fixture, rebuilt by hand the way version 1 framed it (tag, steps, dir)."""
    head = Header(game="toy", rules_version=1, seed=0, seats=("a",), schema={"walk": 1})
    payload = b"".join(codec.pack(v) for v in ("tribes-log", 1, logfile.header_data(head)))
    out, check = logfile._frame(payload, 0)
    parts = [logfile.MAGIC, out]
    for record in ((1, 3, "n"), (1, 2, "s")):
        framed, check = logfile._frame(b"".join(codec.pack(v) for v in record), check)
        parts.append(framed)
    assert b"".join(parts) == (DATA / "toy-walk-v1.tribes").read_bytes()
