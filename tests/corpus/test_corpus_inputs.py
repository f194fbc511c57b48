"""What verify and stats take and give (issue 16 §9): a record per corpus and per failing game
in `verify --json`; a folder stands for its logs and corpora."""

from __future__ import annotations

import json


def test_verify_json_gives_a_record_per_corpus(cli):
    """§9: `verify --json` of a sound corpus gave "logs": []."""
    cli.ok("simulate", "clans", "--games", "3", "--save", "r.corpus")
    doc = json.loads(cli.ok("verify", "r.corpus", "--json"))
    assert doc["ok"] == 3 and doc["failed"] == 0
    [entry] = doc["logs"]
    assert entry["path"] == "r.corpus" and entry["ok"] is True and entry["corpus"] is True
    assert (entry["games"], entry["verified"], entry["failed"], entry["version"]) == (3, 3, 0, 3)
    assert len(entry["digest"]) == 32
    assert entry["digest"] in cli.ok("verify", "r.corpus")


def test_verify_and_stats_take_a_folder_as_its_logs(cli, tmp_path):
    """§9: both refused a folder ("is a directory"), though `simulate --save DIR` writes one."""
    cli.ok("simulate", "clans", "--games", "3", "--bot", "greedy,random", "--save", "runs")
    (tmp_path / "runs" / "notes.txt").write_text("not a log\n")
    lines = cli.ok("verify", "runs").splitlines()
    assert len(lines) == 4 and all(line.startswith("ok    runs/clans-000") for line in lines[:3])
    assert lines[-1] == "3 ok, 0 failed"
    doc = json.loads(cli.ok("stats", "runs", "--json"))
    assert doc["games"] == 3
    cli.ok("corpus", "add", "--new", "runs.corpus", "runs")
    assert json.loads(cli.ok("stats", "runs.corpus", "--json")) == doc
    (tmp_path / "empty").mkdir()
    done = cli.run("verify", "empty")
    assert done.exit_code == 1
    assert done.stdout == "FAIL  empty: is a directory holding no logs or corpora\n"
