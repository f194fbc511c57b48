"""A game of a corpus of format version 2 read on its own (``show``, ``log``, ``corpus get``,
…) under other rules (issue 27 §2): version 2 recorded no checkpoints, and a game's digest
covers the state its last event reaches, so whatever a reader can tell of it is that digest.
Under the rules it was written with, it matches and the game is read as before; under rules that
reach another state, it does not, and every reader of the game refuses it in one line saying
that version 2 cannot tell an altered game from a rule change and naming ``tribes upgrade``,
never showing it as if intact (nor sealing it into a new log, as ``corpus get`` did). The
commands over many games check each game's digest the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribes import games
from tribes.core.engine import steps
from tribes.events import codec
from tribes.events import corpus as fmt
from tribes.events.framing import read_uvarint
from tribes.replay import corpus, simulate
from tribes.testing import rulechange

pytestmark = pytest.mark.skipif(
    rulechange.compiled(), reason="a compiled build folds the constants a test double changes"
)

GAME = games.get("clans")


def _payload(record: bytes) -> bytes:
    length, body = read_uvarint(record, 0)
    return record[body : body + length]


def version_2(path: Path, count: int = 4) -> None:
    """A corpus as version 2 wrote it: one append of ``count`` seeded Clans games, each digest
    over the state its last event reaches, the append's chained digest in its index."""
    how = simulate.match(GAME, ("random",), seats=3)
    out = bytearray(fmt.MAGIC + fmt.corpus_header(2))
    start, offsets, encoder = len(out), [], corpus.Encoder()
    chained = fmt.AppendDigest(fmt.NO_DIGEST)
    for seed in range(1, count + 1):
        log = simulate.play_game(GAME, seed, how).log
        part, seed_, events, _ = encoder.encode(GAME, log)
        state = list(steps(GAME, log.header, log.events))[-1].state
        digest = fmt.game_digest(part, seed_, events, codec.legacy_state_hash(state))
        if seed == 1:
            record = fmt.part_record(0, part, version=2)
            chained.add(_payload(record))
            parts = [(0, len(out))]
            out += record
        offsets.append(len(out))
        record = fmt.game_record(0, seed_, events, digest, version=2)
        chained.add(_payload(record))
        out += record
    index_at = len(out)
    out += fmt.index_record(0, 0, parts, start, offsets, chained.finish(0, count))
    out += fmt.trailer(index_at, count)
    path.write_bytes(bytes(out))


READERS = [
    ("show", "{game}"),
    ("show", "{game}", "--json"),
    ("log", "{game}"),
    ("moves", "{game}"),
    ("html", "{game}", "-o", "page.html"),
    ("position", "{game}"),
    ("diff", "{game}", "--at", "1"),
    ("bisect", "{game}", "--until", "events >= 2"),
    ("corpus", "get", "{game}", "-o", "got.tribes"),
    ("export", "{game}", "-o", "got.json"),
]


@pytest.fixture
def old(cli) -> str:
    version_2(cli.path("old.corpus"))
    with corpus.Corpus(cli.path("old.corpus")) as read:
        assert read.version == 2 and len(read) == 4
    verified = cli.ok("verify", "old.corpus")
    assert "format version 2" in verified.splitlines()[-1] and "0 failed" in verified
    return "old.corpus"


@pytest.mark.parametrize("args", READERS, ids=lambda a: "-".join(w for w in a if w.isalpha()))
def test_each_reader_of_one_game_says_version_2_cannot_tell(cli, old, args):
    argv = [a.format(game=f"{old}#1") for a in args]
    assert cli.run(*argv).exit_code == 0  # under the rules it was written with: read as before
    for written in ("page.html", "got.tribes", "got.json"):
        cli.path(written).unlink(missing_ok=True)
    before = cli.path(old).read_bytes()
    with rulechange.twelfth_bonus(4, rules_version=2):
        line = cli.fails(*argv)
    assert line.startswith(f"tribes: {old}: game 1: its digest does not match"), line
    assert "a corpus of format version 2 or older cannot tell which" in line
    assert f"'tribes upgrade {old} -o NEW.corpus' run under the rules it was written with" in line
    assert cli.path(old).read_bytes() == before
    for written in ("page.html", "got.tribes", "got.json"):
        assert not cli.path(written).exists(), written


def test_verify_names_every_such_game_and_upgrade_refuses_it(cli, old):
    with rulechange.twelfth_bonus(4, rules_version=2):
        verified = cli.run("verify", old)
        assert verified.exit_code == 1
        fails = [line for line in verified.stdout.splitlines() if line.startswith("FAIL  old")]
        assert fails[0].startswith("FAIL  old.corpus: game 1: its digest does not match")
        assert all("cannot tell which" in line for line in fails[:-1])
        line = cli.fails("upgrade", old, "-o", "refused.corpus")
    assert "cannot tell which" in line and "whose rules it was written under" in line
    assert cli.ok("upgrade", old, "-o", "new.corpus").startswith("new.corpus: 4 games")
    with rulechange.twelfth_bonus(4, rules_version=2):
        shown = cli.run("show", "new.corpus#1")
    assert shown.exit_code == 0
    assert shown.stderr.startswith("warning: new.corpus#1: intact, rules differ: ")


def test_an_upgrade_that_fails_leaves_no_corpus_and_the_forced_one_as_it_was(cli, old):
    """The new corpus is put at its name only once whole: refused at game 1, ``upgrade -o``
    leaves no file (nor a temporary one) behind, and ``--force`` the corpus it was to replace."""
    cli.ok("simulate", "clans", "--games", "2", "--seed", "9", "--save", "kept.corpus")
    kept = cli.path("kept.corpus").read_bytes()
    with rulechange.twelfth_bonus(4, rules_version=2):
        cli.fails("upgrade", old, "-o", "refused.corpus")
        cli.fails("upgrade", old, "-o", "kept.corpus", "--force")
        cli.fails("corpus", "split", old, "--into", "2")
    assert not cli.path("refused.corpus").exists()
    assert cli.path("kept.corpus").read_bytes() == kept
    assert sorted(p.name for p in cli.path(".").iterdir() if "corpus" in p.name) == [
        "kept.corpus",
        "old.corpus",
    ]


SWEEPS = [
    ("find", "{corpus}", "--where", "events >= 3", "--first"),
    ("coverage", "{corpus}"),
    ("stats", "{corpus}"),
    ("baseline", "{corpus}", "-o", "new.base", "--force"),
    ("regress", "--baseline", "old.base", "{corpus}"),
]


@pytest.mark.parametrize("args", SWEEPS, ids=lambda a: a[0])
def test_the_commands_over_many_games_refuse_each_such_game(cli, old, args):
    """``find``, ``coverage``, ``baseline`` and ``regress`` replay a version 2 game to its end
    to check its digest (``stats`` did, as ``verify`` does): each game a line, exit 1."""
    cli.ok("baseline", old, "-o", "old.base")
    argv = [a.format(corpus=old) for a in args]
    assert cli.run(*argv).exit_code == 0  # under the rules it was written with
    with rulechange.twelfth_bonus(4, rules_version=2):
        result = cli.run(*argv)
    assert result.exit_code == 1, result.stdout
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"tribes: {old}: game 1: its digest does not match"), lines[0]
    assert "a corpus of format version 2 or older cannot tell which" in lines[0]
    if args[0] != "stats":  # (stats says the first, then how many more, as verify counts them)
        assert len(lines) == 4 and all("'tribes upgrade old.corpus" in line for line in lines)
