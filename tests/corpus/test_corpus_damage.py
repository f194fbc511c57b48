"""Damaged corpora, as the log format is fuzzed: a cut at every offset, a flipped bit in every
byte, hostile lengths and offsets. Always a TribesError naming the game (or record) and the byte,
or a tail named; never a traceback, never a game silently changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribes.core.errors import TribesError
from tribes.events import codec
from tribes.events import corpus as fmt
from tribes.replay import corpus


def read_all(path: Path) -> tuple[list[object], object]:
    """Every game's log and the tail, or the TribesError."""
    with corpus.Corpus(path) as read:
        return [read.log(k)[1] for k in range(len(read))], read.layout.tail


def test_a_cut_at_every_offset_keeps_every_committed_game(tmp_path, two_appends):
    data = two_appends.read_bytes()
    whole, _ = read_all(two_appends)
    with corpus.Corpus(two_appends) as read:
        first_commit = read.layout.parts[1]  # the second append starts with its header part
    cut = tmp_path / "cut.corpus"
    for size in range(len(data)):
        cut.write_bytes(data[:size])
        try:
            logs, tail = read_all(cut)
        except TribesError as exc:
            assert size < first_commit, (size, exc.message)  # only cuts into the first append
            assert "cut.corpus" in exc.message
            continue
        assert logs == whole[: len(logs)]
        if size > first_commit:
            assert len(logs) == 3 and tail is not None
            assert f"at byte {first_commit}" in tail.describe()


def test_a_flipped_bit_anywhere_is_found(tmp_path, two_appends):
    data = two_appends.read_bytes()
    whole, _ = read_all(two_appends)
    flipped = tmp_path / "flip.corpus"
    for pos in range(len(data)):
        damaged = bytearray(data)
        damaged[pos] ^= 1 << (pos % 8)
        flipped.write_bytes(bytes(damaged))
        try:
            logs, tail = read_all(flipped)
        except TribesError as exc:
            assert "byte" in exc.message or "mark" in exc.message, exc.message
            continue
        if tail is None:  # only an earlier commit's trailer, which no reader needs, was hit
            assert logs == whole, pos
        else:  # the last commit damaged: its append is named a tail
            assert logs == whole[: len(logs)]


def test_verify_names_the_game_and_byte(cli, small):
    data = bytearray(small.read_bytes())
    with corpus.Corpus(small) as read:
        at = read.layout.offsets[3]
    data[at + 5] ^= 0x10
    small.write_bytes(bytes(data))
    done = cli.run("verify", small, "--jobs", "2")
    assert done.exit_code == 1
    lines = done.stdout.splitlines()
    assert lines[0] == (
        f"FAIL  {small}: game 4 (byte {at}): is corrupt: its check (CRC-32) does not match"
    )
    assert lines[-1] == f"FAIL  {small}: 6 games, 5 verified, 1 failed"


def test_an_altered_game_with_a_fixed_crc_fails_its_digest(tmp_path, small):
    with corpus.Corpus(small) as read:
        raw = read.raw(2)
        at, end = read.layout.offsets[2], read.layout.game_end(2)
    wires = [list(w) for w in raw.wires]
    wires[0], wires[1] = wires[1], wires[0]  # the same bytes, two events swapped
    marks = fmt.pack_marks(raw.marks, raw.marks[0].names)
    record = fmt.game_record(raw.part, raw.seed, codec.pack(wires), raw.digest, marks=marks)
    data = small.read_bytes()
    assert len(record) == end - at
    small.write_bytes(data[:at] + record + data[end:])
    with corpus.Corpus(small) as read:
        (checked,) = corpus.check_chunk(read.chunk(2, 3))
    line = checked.error
    assert (
        line is not None
        and "game 3" in line
        and ("illegal move" in line or "digest does not match" in line)
    )


def hostile(path: Path, body: bytes) -> Path:
    path.write_bytes(fmt.MAGIC + fmt.corpus_header() + body)
    return path


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"", "has no commit"),
        (b"\xff\xff\xff\xff\x7f" + b"x" * 30, "has no commit"),
        (fmt.trailer(10**12, 5), "has no commit"),  # a trailer pointing past the file
        (fmt.index_record(0, 0, [], 0, [1 << 40]), "has no commit"),  # no trailer at all
    ],
)
def test_hostile_bytes_give_one_line(tmp_path, body, expected):
    with pytest.raises(TribesError, match=expected):
        read_all(hostile(tmp_path / "h.corpus", body))


NO = fmt.NO_DIGEST


def test_a_hostile_index_is_refused(tmp_path):
    first = len(fmt.MAGIC + fmt.corpus_header())
    cases = {
        "counts": fmt.index_record(7, 0, [], first, [], NO),  # claims 7 games before it
        "outside its append": fmt.index_record(0, 0, [], first, [1 << 40], NO),
        "bad part": fmt.index_record(0, 0, [(0, 1 << 40)], first, [], NO),
        "previous index": fmt.index_record(0, first + 5, [], first, [], NO),
    }
    for expected, index in cases.items():
        games = 1 if expected == "outside its append" else 0
        path = hostile(tmp_path / "i.corpus", index + fmt.trailer(first, games))
        with pytest.raises(TribesError, match=expected) as caught:
            read_all(path)
        assert f"an index (byte {first})" in caught.value.message


def test_not_a_corpus_and_a_newer_version(tmp_path):
    path = tmp_path / "x.corpus"
    path.write_bytes(b"hello")
    with pytest.raises(TribesError, match="not a tribes corpus"):
        read_all(path)
    path.write_bytes(fmt.MAGIC + fmt.frame(codec.pack(["tribes-corpus", 9, {}])))
    with pytest.raises(TribesError, match="corpus format version 9 cannot be read"):
        read_all(path)
