"""Format versions: a corpus of version 1 (no annexes, no append digests, a game's digest over
the state it reaches) is still read and verified, refused for appending, and `tribes upgrade`
writes it as version 3 with the same games, their checkpoints recorded."""

from __future__ import annotations

from pathlib import Path

from tribes import games
from tribes.core.engine import steps
from tribes.events import codec
from tribes.events import corpus as fmt
from tribes.events.logfile import GameLog
from tribes.replay import corpus, simulate

GAME = games.get("clans")


def legacy_digest(part: bytes, seed: int, events: bytes, log: GameLog, annex: bytes = b"") -> bytes:
    """A game's digest as versions 1 and 2 wrote it: over the state its events reach."""
    state = list(steps(GAME, log.header, log.events))[-1].state
    return fmt.game_digest(part, seed, events, codec.legacy_state_hash(state), annex)


def version_1(path: Path, groups: tuple[int, ...] = (2, 1)) -> list[object]:
    """A corpus as version 1 wrote it (parts of 3 values, games of 5, indexes of 6); its logs."""
    how = simulate.match(GAME, ("random",), seats=2)
    out = bytearray(fmt.MAGIC + fmt.corpus_header(1))
    games_so_far, previous, seed = 0, 0, 1
    expected = []
    encoder = corpus.Encoder()
    for size in groups:
        start = len(out)
        parts, offsets = [], []
        for _ in range(size):
            log = simulate.play_game(GAME, seed, how).log
            expected.append(log)
            part, seed_, events, _ = encoder.encode(GAME, log)
            digest = legacy_digest(part, seed_, events, log)
            if not games_so_far and not offsets:
                parts.append((0, len(out)))
                out += fmt.part_record(0, part, version=1)
            offsets.append(len(out))
            out += fmt.game_record(0, seed_, events, digest, version=1)
            seed += 1
        index_at = len(out)
        out += fmt.index_record(games_so_far, previous, parts, start, offsets)
        games_so_far += size
        out += fmt.trailer(index_at, games_so_far)
        previous = index_at
    path.write_bytes(bytes(out))
    return expected


def test_a_version_1_corpus_is_read_and_verified(cli, tmp_path):
    expected = version_1(tmp_path / "old.corpus")
    with corpus.Corpus(tmp_path / "old.corpus") as read:
        assert read.version == 1
        assert [read.log(k)[1].events for k in range(len(read))] == [e.events for e in expected]
    line = cli.ok("verify", "old.corpus")
    assert line == (
        "ok    old.corpus: 3 games, 3 verified, 0 failed (format version 1: the order of its "
        "games, games there twice and games dropped cannot be detected in that version; "
        "'tribes upgrade old.corpus -o NEW.corpus' writes it as version 3, which can)\n"
    )
    line = cli.fails("corpus", "add", "old.corpus", "old.corpus#1")
    assert "format version 1" in line and "tribes upgrade old.corpus -o NEW.corpus" in line


def test_upgrade_writes_it_as_version_3(cli, tmp_path):
    version_1(tmp_path / "old.corpus")
    before = (tmp_path / "old.corpus").read_bytes()
    assert cli.ok("upgrade", "old.corpus", "-o", "new.corpus") == (
        "new.corpus: 3 games, corpus format version 3\n"
    )
    assert (tmp_path / "old.corpus").read_bytes() == before
    with (
        corpus.Corpus(tmp_path / "old.corpus") as old,
        corpus.Corpus(tmp_path / "new.corpus") as new,
    ):
        assert new.version == 3 and len(new) == 3
        for k in range(3):
            was, now = old.log(k)[1], new.log(k)[1]
            assert (now.header, now.events) == (was.header, was.events)
            assert not was.checkpoints and now.checkpoints[-1].events == len(now.events)
            assert new.raw(k).digest != old.raw(k).digest  # bytes only, in version 3
    assert "digest" in cli.ok("verify", "new.corpus")
    cli.ok("corpus", "add", "new.corpus", "old.corpus#2")  # version 3: appended to
    assert "exists" in cli.fails("upgrade", "old.corpus", "-o", "new.corpus", code=2)


def test_another_version_is_refused_naming_those_read(tmp_path):
    import pytest

    from tribes.core.errors import TribesError

    path = tmp_path / "x.corpus"
    path.write_bytes(fmt.MAGIC + fmt.frame(codec.pack(["tribes-corpus", 4, {}])))
    with pytest.raises(
        TribesError, match="version 4 cannot be read; this tribes reads versions 1, 2, 3"
    ):
        corpus.Corpus(path)


def test_upgrade_rules_writes_an_older_corpus_as_version_3_in_place(cli, tmp_path):
    version_1(tmp_path / "old.corpus")
    before = (tmp_path / "old.corpus").read_bytes()
    out = cli.ok("upgrade", "--rules", "old.corpus")
    assert out == (
        "old.corpus: 3 games, consistent with the running rules, corpus format version 1 -> 3; "
        "re-recorded; the corpus as it was is kept as old.corpus.rules\n"
    )
    assert (tmp_path / "old.corpus.rules").read_bytes() == before
    with corpus.Corpus(tmp_path / "old.corpus") as read:
        assert read.version == 3 and len(read) == 3
    assert cli.ok("verify", "old.corpus").startswith("ok    old.corpus: 3 games, 3 verified")


def test_an_older_corpus_under_other_rules_cannot_be_told_from_an_altered_one(cli, tmp_path):
    from tribes.testing import rulechange

    version_1(tmp_path / "old.corpus")
    before = (tmp_path / "old.corpus").read_bytes()
    with rulechange.twelfth_bonus(4):
        verified = cli.run("verify", "old.corpus")
        assert verified.exit_code == 1
        assert "cannot tell which" in verified.stdout
        line = cli.fails("upgrade", "--rules", "old.corpus")
    assert "game 1" in line and "cannot tell which" in line
    assert "by the tribes whose rules it was written under" in line
    assert (tmp_path / "old.corpus").read_bytes() == before
    assert not (tmp_path / "old.corpus.rules").exists()
