"""Tags and notes in a corpus (issue 16 §8): `simulate --save DIR` then `corpus add --new
runs.corpus runs/*` works, and `corpus get` gives back each log byte-identical to the one added,
whatever its tags, notes and appends; tags that many games share are stored once."""

from __future__ import annotations

from pathlib import Path

from tribes.replay import corpus


def test_simulated_logs_with_their_bots_tag_go_into_a_corpus_and_come_back_the_same(cli, tmp_path):
    cli.ok("simulate", "clans", "--games", "4", "--bot", "greedy,random", "--save", "runs")
    logs = sorted((tmp_path / "runs").iterdir())
    out = cli.ok("corpus", "add", "--new", "runs.corpus", *[f"runs/{p.name}" for p in logs])
    assert out == "runs.corpus: 4 added, 4 games\n"
    for k, log in enumerate(logs, start=1):
        cli.ok("corpus", "get", f"runs.corpus#{k}", "-o", f"back{k}.tribes")
        assert (tmp_path / f"back{k}.tribes").read_bytes() == log.read_bytes()
    with corpus.Corpus(tmp_path / "runs.corpus") as read:
        assert len(read.annexes) == 1  # the bots tag, shared: one header part holds it
        assert read.log(2)[1].tags == {"bots": "greedy,random"}
    assert (
        cli.ok("corpus", "add", "--new", "dir.corpus", "runs") == "dir.corpus: 4 added, 4 games\n"
    )


def test_tags_notes_and_appends_come_back_byte_identical_in_both_forms(cli, tmp_path):
    cli.new("g.tribes", seed=3)
    cli.ok("act", "g.tribes", *cli.moves("g.tribes")[:1])
    cli.ok("tag", "g.tribes", "event=club night", "round=2")
    cli.ok("act", "g.tribes", *cli.moves("g.tribes")[:1])
    cli.ok("note", "g.tribes", "2", "a move to look at\non two lines")
    cli.ok("act", "g.tribes", *cli.moves("g.tribes")[:1])
    cli.ok("tag", "g.tribes", "--remove", "round")
    cli.ok("export", "g.tribes", "-o", "g.json")
    cli.ok("corpus", "add", "--new", "c.corpus", "g.tribes", "g.json")
    cli.ok("corpus", "get", "c.corpus#1", "-o", "back.tribes")
    cli.ok("corpus", "get", "c.corpus#2", "-o", "back.json")
    assert (tmp_path / "back.tribes").read_bytes() == (tmp_path / "g.tribes").read_bytes()
    assert (tmp_path / "back.json").read_bytes() == (tmp_path / "g.json").read_bytes()
    assert cli.ok("verify", "c.corpus").startswith("ok    c.corpus: 2 games, 2 verified")
    # a game of a corpus added to another keeps them too
    cli.ok("corpus", "add", "--new", "d.corpus", "c.corpus#1")
    cli.ok("corpus", "get", "d.corpus#1", "-o", "again.tribes")
    assert (tmp_path / "again.tribes").read_bytes() == (tmp_path / "g.tribes").read_bytes()


def test_a_changed_note_fails_the_games_digest(cli, tmp_path):
    cli.new("g.tribes", seed=4)
    cli.ok("act", "g.tribes", *cli.moves("g.tribes")[:1])
    cli.ok("note", "g.tribes", "1", "the same length")
    cli.ok("corpus", "add", "--new", "c.corpus", "g.tribes")
    path = tmp_path / "c.corpus"
    data = path.read_bytes()
    assert data.count(b"the same length") == 1
    forged = data.replace(b"the same length", b"the SAME length")
    with corpus.Corpus(path) as read:
        at, end = read.layout.offsets[0], read.layout.game_end(0)
    from tribes.events import corpus as fmt

    payload, _ = fmt.read_frame(data, at, end, fmt.MAX_RECORD_BYTES)
    payload = payload.replace(b"the same length", b"the SAME length")
    path.write_bytes(forged[:at] + fmt.frame(payload) + forged[end:])  # its CRC made to match
    done = cli.run("verify", "c.corpus")
    assert done.exit_code == 1
    assert "game 1" in done.stdout and "digest does not match" in done.stdout


def test_corpus_ls_json_names_the_tags(cli, tmp_path: Path):
    cli.ok("simulate", "clans", "--games", "2", "--save", "runs")
    cli.ok("corpus", "add", "--new", "r.corpus", "runs")
    import json

    first = json.loads(cli.ok("corpus", "ls", "r.corpus", "--json").splitlines()[0])
    assert first["tags"] == {"bots": "random,random,random"}
