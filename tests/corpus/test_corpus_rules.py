"""A rule change is not tampering, in a corpus too (issue 27): a game's digest covers its bytes
(header, events, annex, checkpoints as recorded), so under other rules an intact corpus is
"intact, rules differ" per game and overall (verify exits 3), a damaged one stays damaged, and
``upgrade --rules CORPUS`` carries it forward on purpose. The rule change is a test double
(:mod:`tribes.testing.rulechange`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tribes.events import corpus as fmt
from tribes.replay import corpus
from tribes.testing import rulechange

pytestmark = pytest.mark.skipif(
    rulechange.compiled(), reason="a compiled build folds the constants a test double changes"
)


@pytest.fixture
def runs(cli) -> Path:
    """Four simulated Clans games in a corpus (three of them end by their 12th village)."""
    cli.ok("simulate", "clans", "--games", "4", "--seed", "5", "--save", "runs.corpus")
    return cli.path("runs.corpus")


def test_verify_gives_the_three_answers_per_game_and_overall(cli, runs):
    assert cli.ok("verify", runs).startswith(f"ok    {runs}: 4 games, 4 verified, 0 failed")
    with rulechange.twelfth_bonus(4, rules_version=2):
        result = cli.run("verify", runs)
    assert result.exit_code == 3, result.stdout
    lines = result.stdout.splitlines()
    differ = [line for line in lines if line.startswith("RULES ")]
    assert differ and all("intact, rules differ: " in line for line in differ[:-1])
    first = differ[0]
    assert first.startswith(f"RULES {runs}#") and "differ: scores, track, villages" in first
    assert "written under clans rules version 1, running version 2" in first
    assert "altered" not in first and "repair" not in first
    count = len(differ) - 1
    assert lines[-1].startswith(f"RULES {runs}: 4 games, 4 verified, 0 failed, {count} intact")


def test_verify_json_has_the_answer_per_game_and_a_count(cli, runs):
    with rulechange.twelfth_bonus(4):
        result = cli.run("verify", runs, "--json")
    assert result.exit_code == 3
    doc = json.loads(result.stdout)
    games = [e for e in doc["logs"] if "rules" in e]
    (whole,) = [e for e in doc["logs"] if e.get("corpus")]
    assert games and whole["rules_differ"] == len(games) == doc["rules_differ"]
    assert games[0]["rules"]["answer"] == "rules differ"
    assert games[0]["rules"]["parts"] == ["scores", "track", "villages"]


def test_a_damaged_game_is_damaged_whatever_the_rules(cli, runs):
    with corpus.Corpus(runs) as read:
        raw = read.raw(1)
        at, end = read.layout.offsets[1], read.layout.game_end(1)
    wires = [list(w) for w in raw.wires]
    wires[-1], wires[-2] = wires[-2], wires[-1]
    from tribes.events import codec

    marks = fmt.pack_marks(raw.marks, raw.marks[0].names)
    record = fmt.game_record(raw.part, raw.seed, codec.pack(wires), raw.digest, marks=marks)
    data = runs.read_bytes()
    assert len(record) == end - at
    runs.write_bytes(data[:at] + record + data[end:])
    for bonus in (5, 4):
        with rulechange.twelfth_bonus(bonus):
            result = cli.run("verify", runs)
        assert result.exit_code == 1
        assert f"FAIL  {runs}: game 2" in result.stdout
        assert "the game was altered or damaged" in result.stdout


def test_a_forged_checkpoint_is_tampering(cli, runs):
    """Recorded checkpoints are bytes the digest covers: changing one is no rule change."""
    with corpus.Corpus(runs) as read:
        raw = read.raw(0)
        at, end = read.layout.offsets[0], read.layout.game_end(0)
    import attrs

    from tribes.events import codec

    last = raw.marks[-1]
    forged = (*raw.marks[:-1], attrs.evolve(last, digest=bytes(8)))
    record = fmt.game_record(
        raw.part,
        raw.seed,
        codec.pack(raw.wires),
        raw.digest,
        marks=fmt.pack_marks(forged, forged[0].names),
    )
    assert len(record) == end - at
    data = runs.read_bytes()
    runs.write_bytes(data[:at] + record + data[end:])
    line = cli.run("verify", runs).stdout
    assert "game 1" in line and "recorded checkpoints: the game was altered" in line


def test_show_of_a_game_of_a_corpus_warns_once_and_shows(cli, runs):
    plain = cli.ok("show", f"{runs}#1")
    with rulechange.twelfth_bonus(4):
        result = cli.run("show", f"{runs}#1")
    assert result.exit_code == 0
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"warning: {runs}#1: intact, rules differ: ")
    assert result.stdout != plain


def test_upgrade_rules_carries_a_corpus_forward(cli, runs):
    before = runs.read_bytes()
    with corpus.Corpus(runs) as read:
        logs_before = [read.log(k)[1] for k in range(len(read))]
    with rulechange.twelfth_bonus(4, rules_version=2):
        dry = cli.ok("upgrade", "--rules", "--dry-run", runs)
        assert runs.read_bytes() == before
        assert dry.splitlines()[-1].endswith("would be re-recorded (dry run: nothing written)")
        out = cli.ok("upgrade", "--rules", runs).splitlines()
        changed = out[:-1]
        assert changed and all(line.startswith(f"{runs}#") for line in changed)
        assert (
            "rules differ after event" in changed[0]
            and "(differ: scores, track, villages)" in changed[0]
        )
        assert " -> " in changed[0] and "wins" in changed[0]
        assert out[-1] == (
            f"{runs}: {len(changed)} of 4 games differ under the running rules; re-recorded; the "
            f"corpus as it was is kept as {runs}.rules"
        )
        assert cli.ok("verify", runs).startswith(f"ok    {runs}: 4 games, 4 verified")
        again = cli.ok("upgrade", "--rules", runs)
        assert (
            again == f"{runs}: 4 games, consistent with the running rules: nothing to re-record\n"
        )
        cli.ok("corpus", "add", runs, f"{runs}#1")  # still a corpus one appends to
    assert (runs.parent / "runs.corpus.rules").read_bytes() == before
    numbers = {int(line.split(":")[0].rpartition("#")[2]) for line in changed}
    with corpus.Corpus(runs) as read:
        assert read.version == 3 and len(read) == 5
        for k in range(4):
            log = read.log(k)[1]
            assert (log.header, log.events) == (logs_before[k].header, logs_before[k].events)
            assert {c.rules for c in log.checkpoints} == ({2} if k + 1 in numbers else {1})
    line = cli.fails("corpus", "add", runs, f"{runs}#2")  # under the rules of before
    assert "intact, rules differ" in line and f"'tribes upgrade --rules {runs}' first" in line


def test_upgrade_rules_leaves_a_corpus_with_a_refused_move_untouched(cli, runs):
    before = runs.read_bytes()
    with corpus.Corpus(runs) as read:
        source = read.log(2)[1].events[0].source
    with rulechange.refused_source(source, rules_version=2):
        result = cli.run("upgrade", "--rules", runs)
        assert result.exit_code == 1
        lines = result.stdout.splitlines()
        assert lines[0].startswith(f"{runs}#")
        assert "the running rules (version 2) refuse event" in lines[0]
        assert "(C99)" in lines[0] and "written under version 1" in lines[0]
        assert lines[-1].startswith(f"{runs}: left as it is: the running rules refuse a move of")
        assert "#3" in lines[-1]
        verified = cli.run("verify", runs)
    assert verified.exit_code == 3 and "intact, but the running rules refuse event" in (
        verified.stdout
    )
    assert runs.read_bytes() == before
    assert not (runs.parent / "runs.corpus.rules").exists()
    assert not list(runs.parent.glob(".runs.corpus*"))


def test_upgrade_rules_drop_refused_leaves_those_games_out(cli, runs):
    """--drop-refused: the games with a refused move left out, the rest carried and
    consistent; every game kept in the corpus as it was."""
    before = runs.read_bytes()
    with corpus.Corpus(runs) as read:
        logs_before = [read.log(k)[1] for k in range(len(read))]
    by_source = {
        source: [k for k, log in enumerate(logs_before) if source in _sources(log)]
        for source in sorted(set().union(*map(_sources, logs_before)))
    }
    source, refused = next((s, ks) for s, ks in by_source.items() if 0 < len(ks) < 4)
    with rulechange.refused_source(source, rules_version=2):
        dry = cli.ok("upgrade", "--rules", "--drop-refused", "--dry-run", runs)
        assert runs.read_bytes() == before
        assert "with a refused move left out" in dry.splitlines()[-1]
        out = cli.ok("upgrade", "--rules", "--drop-refused", runs).splitlines()
        assert any("refuse event" in line and "(C99)" in line for line in out[:-1])
        assert out[-1].startswith(f"{runs}: ")
        assert f", {len(refused)} game" in out[-1]
        assert "with a refused move left out (the others renumbered)" in out[-1]
        assert out[-1].endswith(f"the corpus as it was is kept as {runs}.rules")
        assert cli.ok("verify", runs).startswith(f"ok    {runs}: {4 - len(refused)} game")
    assert (runs.parent / "runs.corpus.rules").read_bytes() == before
    with corpus.Corpus(runs) as read:
        kept = [read.log(k)[1].events for k in range(len(read))]
    assert kept == [log.events for k, log in enumerate(logs_before) if k not in refused]


def test_the_corpus_kept_by_upgrade_rules_is_read_as_a_corpus(cli, runs):
    """``NAME.corpus.rules`` holds the games --drop-refused left out: verify, show and fork
    read it, and its games as ``NAME.corpus.rules#K``, as rule-changes.md's walk-through does."""
    with corpus.Corpus(runs) as read:
        source = read.log(0)[1].events[0].source
    played = cli.ok("log", f"{runs}#1")
    kept = runs.parent / "runs.corpus.rules"
    new = cli.path("new.tribes")
    with rulechange.refused_source(source, rules_version=2):
        cli.ok("upgrade", "--rules", "--drop-refused", runs)
        forked = cli.ok("fork", f"{kept}#1", "--at", 1, "-o", new)
        assert forked == f"{new}: no event (the start) of {kept}#1; event 1 is yours to play\n"
        assert cli.ok("verify", new).startswith(f"ok    {new}: clans, 0 events")
    verified = cli.ok("verify", kept).splitlines()
    assert verified[-1].startswith(f"ok    {kept}: 4 games, 4 verified, 0 failed")
    assert cli.ok("log", f"{kept}#1") == played
    assert f"name it as {kept}#K" in cli.fails("show", kept, code=2)


def _sources(log) -> set[int]:
    return {e.source for e in log.events if hasattr(e, "source")}


def test_drop_refused_goes_with_rules(cli, runs):
    assert "--drop-refused goes with --rules" in cli.usage("upgrade", runs, "--drop-refused")


def test_upgrade_rules_refuses_a_game_of_a_corpus_and_a_damaged_corpus(cli, runs):
    line = cli.fails("upgrade", "--rules", f"{runs}#2", code=2)
    assert "carries the whole corpus" in line and f"'{runs}'" in line
    data = bytearray(runs.read_bytes())
    data[len(data) // 2] ^= 0x01
    runs.write_bytes(bytes(data))
    assert cli.fails("upgrade", "--rules", runs)
    assert runs.read_bytes() == bytes(data)


def test_a_corpus_that_cannot_be_replaced_is_left_as_it_was(cli, runs, monkeypatch):
    import os

    before = runs.read_bytes()

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "link", refused)  # where the corpus as it was would be kept
    with rulechange.twelfth_bonus(4):
        line = cli.fails("upgrade", "--rules", runs)
    assert "cannot write: Permission denied; nothing was re-recorded" in line
    assert runs.read_bytes() == before
    assert sorted(p.name for p in runs.parent.iterdir() if "runs" in p.name) == ["runs.corpus"]


def test_a_move_after_the_end_the_running_rules_give_says_the_game_ends_there(cli):
    """With epoch 5's bonus equal to epoch 4's some games end a move earlier (C20): their
    last move is refused as after the end, and the answer says the running rules end the game
    there (a fork keeps it so) rather than that one can play on."""
    cli.ok("simulate", "clans", "--games", "400", "--seed", "7", "--save", "many.corpus")
    with rulechange.twelfth_bonus(4, rules_version=2):
        said = cli.run("verify", "many.corpus").stdout.splitlines()
        ended = [line for line in said if "the game is over (C20)" in line]
        assert ended, said[-1]
        for line in ended:
            assert "; the running rules end the game after event " in line, line
            assert "-o NEW' keeps it so)" in line and "plays on" not in line, line
        kept = cli.run("upgrade", "--rules", "many.corpus").stdout.splitlines()[-1]
    assert "' keeps one as they end it, '--drop-refused' carries the others" in kept, kept
