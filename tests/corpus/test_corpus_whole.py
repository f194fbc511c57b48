"""The corpus as a whole (issue 16 §3 to §6): edits that rebuild every index, offset, CRC and
trailer to match are refused by the chained digest of each append; offsets strictly increase
and records end where the next starts; damage at the end fails (exit 1, naming the byte and
`tribes corpus repair`); every byte is checked, earlier trailers too."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from corpus_mutants import build, commits_of, edited, judge, original, parse

from tribes.core.errors import TribesError
from tribes.events import codec
from tribes.events import corpus as fmt
from tribes.replay import corpus

GROUPS = (2, 3, 1)


@pytest.fixture
def made(tmp_path: Path) -> tuple[Path, list[object]]:
    path = tmp_path / "o.corpus"
    return path, original(path, GROUPS)


@pytest.mark.parametrize(
    "kind",
    ["swap games", "duplicate game", "drop game", "move game", "swap appends", "hidden bytes"],
)
def test_edits_with_the_index_rebuilt_are_refused(tmp_path, made, kind):
    """§3: each of these verified ok on main once the index and trailer were rebuilt."""
    path, expected = made
    data = path.read_bytes()
    rng = random.Random(kind)
    target = tmp_path / "m.corpus"
    verdicts = set()
    for _ in range(12):
        target.write_bytes(edited(data, kind, rng, tmp_path / "s.corpus"))
        verdicts.add(judge(target, expected, commits_of(GROUPS)))
    assert verdicts <= {"refused", "same"}, verdicts
    assert "refused" in verdicts


def test_an_inner_append_dropped_is_refused_the_last_one_is_an_earlier_corpus(tmp_path, made):
    path, expected = made
    head, pieces = parse(path.read_bytes(), tmp_path / "s.corpus")
    target = tmp_path / "m.corpus"
    target.write_bytes(build(head, pieces[:2] + pieces[3:]))
    assert judge(target, expected) == "refused"
    target.write_bytes(build(head, pieces[:3]))  # as the corpus was before its last append
    assert judge(target, expected, commits_of(GROUPS)) == "prefix"


def test_verify_names_the_append_whose_digest_breaks(cli, tmp_path, made):
    path, _ = made
    head, pieces = parse(path.read_bytes(), tmp_path / "s.corpus")
    games = [i for i, r in enumerate(pieces[2].records) if r.kind == fmt.GAME]
    records = pieces[2].records
    records[games[0]], records[games[1]] = records[games[1]], records[games[0]]
    (tmp_path / "m.corpus").write_bytes(build(head, pieces))
    done = cli.run("verify", "m.corpus")
    assert done.exit_code == 1
    [line] = done.stdout.splitlines()
    assert line.startswith("FAIL  m.corpus: 6 games, 6 verified, 0 failed; append 3 (byte ")
    assert "its digest does not match" in line


def test_an_index_of_zero_deltas_is_refused_at_once(tmp_path):
    """§4: 100,000 games at one offset gave 100,003 FAIL lines in 13.7 s."""
    first = len(fmt.MAGIC + fmt.corpus_header())
    game = fmt.game_record(0, 1, codec.pack([]), bytes(12))
    count = 100_000
    fields = [fmt.INDEX, 0, 0, [], first, [0] * count, fmt.NO_DIGEST]
    index_at = first + len(game)
    body = game + fmt.frame(codec.pack(fields)) + fmt.trailer(index_at, count)
    path = tmp_path / "z.corpus"
    path.write_bytes(fmt.MAGIC + fmt.corpus_header() + body)
    started = time.monotonic()
    with pytest.raises(TribesError, match="do not strictly increase"):
        corpus.Corpus(path)
    assert time.monotonic() - started < 2


def test_bytes_hidden_between_two_records_are_found(cli, tmp_path, made):
    """§4: 48 bytes could be hidden between two records with the offsets fixed."""
    path, _ = made
    head, pieces = parse(path.read_bytes(), tmp_path / "s.corpus")
    pieces[2].records[1].gap = b"x" * 48
    (tmp_path / "m.corpus").write_bytes(build(head, pieces))
    done = cli.run("verify", "m.corpus")
    assert done.exit_code == 1
    assert "48 bytes that belong to no record" in done.stdout
    with (
        corpus.Corpus(tmp_path / "m.corpus") as read,  # game by game too
        pytest.raises(TribesError, match="belong to no record"),
    ):
        [read.log(k) for k in range(len(read))]


def test_a_flipped_bit_in_the_last_index_or_trailer_fails_naming_the_byte_and_repair(
    cli, tmp_path, made
):
    """§5: it gave 'ok ...: an interrupted append', exit 0: the last append silently gone."""
    path, _ = made
    data = path.read_bytes()
    with corpus.Corpus(path) as read:
        last = read.layout.appends[-1]
    for at in (last.index + 3, len(data) - 10, len(data) - 1):
        damaged = bytearray(data)
        damaged[at] ^= 0x04
        (tmp_path / "m.corpus").write_bytes(bytes(damaged))
        done = cli.run("verify", "m.corpus")
        assert done.exit_code == 1, at
        assert f"after the last commit, at byte {last.start}" in done.stdout
        assert "'tribes corpus repair m.corpus'" in done.stdout
        line = cli.fails("corpus", "repair", "m.corpus")  # a damaged commit: not cut
        assert "damaged, not interrupted" in line and "--force" in line
        assert (tmp_path / "m.corpus").read_bytes() == bytes(damaged)


def test_every_earlier_trailer_is_checked(cli, tmp_path, made):
    """§6: flips in every earlier trailer, an old trailer overwritten with text, passed."""
    path, _ = made
    data = path.read_bytes()
    with corpus.Corpus(path) as read:
        ends = [a.end for a in read.layout.appends[:-1]]
    for end in ends:
        for at in range(end - fmt.TRAILER_BYTES, end):
            damaged = bytearray(data)
            damaged[at] ^= 0x01
            (tmp_path / "m.corpus").write_bytes(bytes(damaged))
            assert cli.run("verify", "m.corpus").exit_code == 1, at
        damaged = bytearray(data)
        damaged[end - fmt.TRAILER_BYTES : end] = b"overwritten by text!"
        (tmp_path / "m.corpus").write_bytes(bytes(damaged))
        assert cli.run("verify", "m.corpus").exit_code == 1


def test_a_flipped_bit_in_every_byte_fails_verify(tmp_path, made):
    """§6: the README's promise, made true: verify fails for a bit flipped in any byte."""
    path, expected = made
    data = path.read_bytes()
    target = tmp_path / "m.corpus"
    rng = random.Random(6)
    for at in range(len(data)):
        damaged = bytearray(data)
        damaged[at] ^= 1 << rng.randrange(8)
        target.write_bytes(bytes(damaged))
        assert judge(target, expected) == "refused", at


def test_a_cut_at_every_offset_fails_or_is_an_earlier_commit(tmp_path, made):
    path, expected = made
    data = path.read_bytes()
    target = tmp_path / "m.corpus"
    with corpus.Corpus(path) as read:
        ends = {a.end for a in read.layout.appends}
    for size in range(len(data)):
        target.write_bytes(data[:size])
        verdict = judge(target, expected, commits_of(GROUPS))
        assert verdict == ("prefix" if size in ends else "refused"), size


def test_a_damaged_last_commit_is_cut_only_with_force_and_ls_fails_on_it(cli, tmp_path, made):
    path, expected = made
    data = bytearray(path.read_bytes())
    with corpus.Corpus(path) as read:
        last = read.layout.appends[-1]
    data[-1] ^= 0x80  # the last trailer's CRC
    (tmp_path / "m.corpus").write_bytes(bytes(data))
    done = cli.run("corpus", "ls", "m.corpus")
    assert done.exit_code == 1 and len(done.stdout.splitlines()) == 5  # the committed games
    assert f"at byte {last.start}" in done.stderr and "corpus repair" in done.stderr
    assert "damaged, not interrupted" in cli.fails("corpus", "repair", "m.corpus")
    out = cli.ok("corpus", "repair", "m.corpus", "--force")
    assert out.startswith(f"m.corpus: cut {len(data) - last.start} bytes after the last commit")
    assert (tmp_path / "m.corpus.torn").read_bytes() == bytes(data[last.start :])
    assert judge(tmp_path / "m.corpus", expected, commits_of(GROUPS)) == "prefix"
    assert cli.ok("corpus", "repair", "m.corpus") == (
        "m.corpus: nothing to repair (5 games, all committed)\n"
    )
