"""The corpus through the command line: simulate --save NAME.corpus, CORPUS#K wherever a log is
read, tribes corpus ls|get|add|split|repair, tribes stats."""

from __future__ import annotations

import json

from tribes.replay import corpus


def test_simulate_saves_a_corpus_and_never_replaces_it_without_force(cli, tmp_path):
    out = cli.ok(
        "simulate", "clans", "--games", "4", "--bot", "greedy,random", "--save", "r.corpus"
    )
    assert out.startswith("4 games, 2 seats")
    path = tmp_path / "r.corpus"
    before = path.read_bytes()
    line = cli.fails("simulate", "clans", "--games", "2", "--save", "r.corpus", code=2)
    assert "r.corpus exists" in line and "--force" in line
    assert path.read_bytes() == before
    cli.ok("simulate", "clans", "--games", "2", "--save", "r.corpus", "--force")
    assert len(corpus.Corpus(path)) == 2
    listing = cli.ok("corpus", "ls", "r.corpus", "--json").splitlines()
    assert [json.loads(line)["game"] for line in listing] == [1, 2]


def test_a_game_of_a_corpus_is_a_log_to_every_reader(cli, tmp_path):
    cli.ok("simulate", "clans", "--games", "3", "--bot", "greedy", "--save", "r.corpus")
    assert cli.ok("verify", "r.corpus#2").startswith("ok    r.corpus#2: clans, ")
    assert "game over" in cli.ok("show", "r.corpus#2")
    assert cli.ok("log", "r.corpus#3").split()[0] == "1"
    exported = json.loads(cli.ok("export", "r.corpus#1"))
    assert exported["header"]["meta"]["bots"] == {"p1": "greedy", "p2": "greedy", "p3": "greedy"}
    assert "no game 4" in cli.fails("show", "r.corpus#4", code=2)
    assert "from 1" in cli.fails("show", "r.corpus#0", code=2)
    line = cli.fails_untouched(tmp_path / "r.corpus", "act", "r.corpus#1", "1-2", code=2)
    assert "never changes" in line and "corpus get" in line


def test_get_add_split_and_verify(cli, tmp_path):
    cli.ok("simulate", "clans", "--games", "5", "--save", "r.corpus")
    cli.ok("corpus", "get", "r.corpus#4", "-o", "four.tribes")
    assert cli.ok("verify", "four.tribes").startswith("ok")
    assert "exists" in cli.fails("corpus", "get", "r.corpus#4", "-o", "four.tribes", code=2)
    before = (tmp_path / "r.corpus").read_bytes()
    assert cli.ok("corpus", "add", "r.corpus", "four.tribes") == "r.corpus: 1 added, 6 games\n"
    assert (tmp_path / "r.corpus").read_bytes().startswith(before)
    cli.ok("corpus", "add", "new.corpus", "four.tribes", "r.corpus#1", "--new")
    assert len(corpus.Corpus(tmp_path / "new.corpus")) == 2
    assert "does not exist" in cli.fails("corpus", "add", "no.corpus", "four.tribes", code=2)
    out = cli.ok("corpus", "split", "r.corpus", "--into", "2")
    assert out == "r-1.corpus: 3 games\nr-2.corpus: 3 games\n"
    lines = cli.ok("verify", "r-1.corpus", "r-2.corpus", "--jobs", "2").splitlines()
    assert [line.partition(", digest ")[0] for line in lines] == [
        "ok    r-1.corpus: 3 games, 3 verified, 0 failed",
        "ok    r-2.corpus: 3 games, 3 verified, 0 failed",
        "2 ok, 0 failed",
    ]


def test_a_torn_tail_is_named_and_repaired(cli, tmp_path):
    cli.ok("simulate", "clans", "--games", "3", "--save", "r.corpus")
    path = tmp_path / "r.corpus"
    whole = path.read_bytes()
    path.write_bytes(whole + b"\x05abc")  # an append cut short
    done = cli.run("verify", "r.corpus")  # named, by byte, and exit 1
    assert done.exit_code == 1
    line = done.stdout
    assert line.startswith("FAIL  r.corpus: 3 games, 3 verified, 0 failed; ")
    assert f"4 bytes after the last commit, at byte {len(whole)}" in line
    assert "'tribes corpus repair r.corpus'" in line
    doc = json.loads(cli.run("verify", "r.corpus", "--json").stdout)
    assert doc["ok"] == 3 and doc["failed"] == 1
    assert [(e["path"], e["ok"], "4 bytes" in e["error"]) for e in doc["logs"]] == [
        ("r.corpus", False, True)
    ]
    line = cli.fails("corpus", "add", "r.corpus", "r.corpus#1")
    assert f"4 bytes after the last commit, at byte {len(whole)}" in line and "repair" in line
    assert cli.ok("corpus", "repair", "r.corpus") == (
        "r.corpus: cut 4 bytes after the last commit; 3 games kept; the bytes cut are kept in "
        "r.corpus.torn\n"
    )
    assert path.read_bytes() == whole
    assert (tmp_path / "r.corpus.torn").read_bytes() == b"\x05abc"


def test_stats_of_a_corpus(cli):
    cli.ok("simulate", "clans", "--games", "6", "--bot", "greedy,random", "--save", "r.corpus")
    doc = json.loads(cli.ok("stats", "r.corpus", "--json"))
    assert doc["games"] == 6
    assert [p["name"] for p in doc["by_position"]] == ["position 1", "position 2"]
    assert sum(p["wins"] for p in doc["by_position"]) == 6
    assert {b["name"] for b in doc["by_bot"]} == {"greedy", "random"}
    low, high = doc["by_bot"][0]["interval"]
    assert 0 <= low <= doc["by_bot"][0]["rate"] <= high <= 1
    text = cli.ok("stats", "r.corpus", "--jobs", "2")
    assert "win rate by turn position (1: the start player):" in text
    assert "four.corpus: no such file" in cli.fails("stats", "four.corpus", "r.corpus")


def test_verify_json_names_a_damaged_game_of_a_corpus_as_it_names_a_log(cli, tmp_path):
    """A corpus game that fails is a failure record like a log's: its path (CORPUS#K), ok false
    and the error; the other games count as verified."""
    cli.ok("simulate", "clans", "--games", "4", "--save", "r.corpus")
    path = tmp_path / "r.corpus"
    with corpus.Corpus(path) as read:
        at = read.layout.offsets[2] + 6  # inside game 3's record
    data = bytearray(path.read_bytes())
    data[at] ^= 0x40
    path.write_bytes(bytes(data))
    result = cli.run("verify", "r.corpus", "--json")
    assert result.exit_code == 1, result.stderr
    doc = json.loads(result.stdout)
    assert doc["ok"] == 3 and doc["failed"] == 1
    entry, whole = doc["logs"]  # the failed game, then the corpus
    assert entry["path"] == "r.corpus#3" and entry["ok"] is False
    assert "game 3" in entry["error"]
    assert whole["path"] == "r.corpus" and whole["ok"] is False and whole["corpus"] is True
    assert (whole["games"], whole["verified"], whole["failed"]) == (4, 3, 1)
    ref = json.loads(cli.ok("verify", "r.corpus#2", "--json"))
    assert ref["logs"][0]["path"] == "r.corpus#2" and ref["logs"][0]["ok"] is True


def test_a_folder_or_a_fifo_named_as_a_corpus_is_one_fail_line_never_a_hang(cli, tmp_path):
    import os

    (tmp_path / "dir.corpus").mkdir()
    os.mkfifo(tmp_path / "pipe.corpus")
    cli.ok("simulate", "clans", "--games", "2", "--save", "r.corpus")
    for jobs in ("1", "2"):
        result = cli.run("verify", "dir.corpus", "pipe.corpus", "r.corpus", "--jobs", jobs)
        assert result.exit_code == 1, result.stderr
        assert result.stdout.splitlines() == [
            "FAIL  dir.corpus: is a directory, not a corpus",
            "FAIL  pipe.corpus: is not a regular file, so not a corpus",
            "ok    r.corpus: 2 games, 2 verified, 0 failed, digest "
            + result.stdout.split("digest ")[1][:32],
            "1 ok, 2 failed",
        ]
    assert "is a directory" in cli.fails("stats", "dir.corpus")


def test_stats_counts_the_games_that_failed_and_says_what_it_left_out(cli, tmp_path):
    cli.ok("simulate", "clans", "--games", "3", "--save", "r.corpus")
    cli.new("open.tribes")  # a game just begun: verified, but nothing to count yet
    cli.ok("corpus", "add", "r.corpus", "open.tribes")
    out = cli.ok("stats", "r.corpus")
    assert out.rstrip().endswith("(1 unfinished game left out)")
    assert json.loads(cli.ok("stats", "r.corpus", "--json"))["unfinished"] == 1
    path = tmp_path / "r.corpus"
    with corpus.Corpus(path) as read:
        spots = [read.layout.offsets[k] + 6 for k in (0, 2)]
    data = bytearray(path.read_bytes())
    for at in spots:
        data[at] ^= 0x40
    path.write_bytes(bytes(data))
    line = cli.fails("stats", "r.corpus")
    assert "game 1" in line and line.endswith("(and 1 more)")  # two games, not three lines


def test_a_game_ref_where_a_corpus_file_is_wanted_says_so(cli):
    cli.ok("simulate", "clans", "--games", "2", "--save", "r.corpus")
    line = cli.fails("corpus", "ls", "r.corpus#2", code=2)
    assert "'r.corpus#2' is game 2 of a corpus" in line and "('r.corpus')" in line
    assert "no such file" in cli.fails("corpus", "ls", "gone.corpus#2")
