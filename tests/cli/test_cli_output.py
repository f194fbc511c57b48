"""What commands print, as a new user reads it: help summaries whole, counts in words ("1 event",
not "1 events"), the next commands said as the user runs tribes, moves and effects in columns."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tribes.core.views import count


def test_every_command_summary_is_whole(cli):
    listing = cli.ok("--help").split("Commands:")[1]
    summaries = [line.split(None, 1)[1] for line in listing.strip().splitlines()]
    assert len(summaries) >= 16
    for summary in summaries:
        assert not summary.endswith("..."), summary
        assert not summary.endswith("e.g."), summary


def test_counts_read_as_words():
    assert count(1, "event") == "1 event"
    assert count(0, "event") == "0 events"
    assert count(1, "territory", "territories") == "1 territory"
    assert count(3, "territory", "territories") == "3 territories"


def test_one_event_is_not_one_events(cli):
    cli.ok("new", "clans", "--names", "ann,bob", "--seed", "3", "-o", "g.tribes")
    cli.ok("act", "g.tribes", cli.ok("moves", "g.tribes").split()[0])
    out = cli.ok("verify", "g.tribes")
    assert re.search(r"\b1 event\b", out) and "1 events" not in out


def test_the_demo_says_the_next_commands_as_the_user_runs_tribes(tmp_path):
    """The "Try next" lines name tribes the way this user started it: by the path they typed,
    or plainly ``tribes`` when their PATH finds it."""
    exe = Path(sys.executable).with_name("tribes")
    typed = subprocess.run(
        [str(exe), "demo", "-o", str(tmp_path / "a")], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert typed[-1] == f"  {exe} simulate clans --games 200 --bot greedy"
    on_path = {**os.environ, "PATH": f"{exe.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    plain = subprocess.run(
        ["tribes", "demo", "-o", str(tmp_path / "b")],
        capture_output=True,
        text=True,
        check=True,
        env=on_path,
    ).stdout.splitlines()
    assert plain[-1] == "  tribes simulate clans --games 200 --bot greedy"
    assert not any(".venv/bin/" in line for line in plain)


def complete(words: list[str], cwd: Path) -> list[str]:
    """What bash completion offers for the last of ``words``."""
    exe = Path(sys.executable).with_name("tribes")
    env = {
        **os.environ,
        "COMP_WORDS": " ".join(["tribes", *words]),
        "COMP_CWORD": str(len(words)),
        "_TRIBES_COMPLETE": "bash_complete",
    }
    out = subprocess.run([str(exe)], capture_output=True, text=True, env=env, cwd=cwd).stdout
    return [line.split(",", 1)[1] for line in out.splitlines() if line]


def test_completing_a_move_lists_the_legal_ones(cli, tmp_path):
    cli.ok("new", "clans", "--names", "ann,bob", "--seed", "1", "-o", "c.tribes")
    legal = cli.ok("moves", "c.tribes").split()
    assert complete(["act", "c.tribes", ""], tmp_path) == legal
    assert complete(["act", "c.tribes", "1-"], tmp_path) == [m for m in legal if m.startswith("1-")]
    first = legal[0]
    cli.ok("act", "c.tribes", first)
    after = cli.ok("moves", "c.tribes").split()
    cli.ok("fork", "c.tribes", "--at", "1", "-o", "d.tribes")
    assert complete(["act", "d.tribes", first, ""], tmp_path) == after
    assert complete(["act", "missing.tribes", ""], tmp_path) == []


def test_show_and_html_outputs_need_force_to_be_replaced(cli, tmp_path):
    cli.ok("new", "clans", "--names", "ann,bob", "--seed", "3", "-o", "g.tribes")
    cli.ok("show", "g.tribes", "--svg", "-o", "b.svg")
    first = (tmp_path / "b.svg").read_bytes()
    (tmp_path / "b.svg").write_text("mine")
    assert "exists" in cli.fails("show", "g.tribes", "--svg", "-o", "b.svg", code=2)
    assert (tmp_path / "b.svg").read_text() == "mine"
    cli.ok("show", "g.tribes", "--svg", "-o", "b.svg", "--force")
    assert (tmp_path / "b.svg").read_bytes() == first
    cli.ok("html", "g.tribes", "-o", "p.html")
    assert "--force" in cli.fails("html", "g.tribes", "-o", "p.html", code=2)
    cli.ok("html", "g.tribes", "-o", "p.html", "--force")


HUNTERS = Path(__file__).resolve().parents[2] / "fixtures" / "hunters"


def test_hunters_supplies_read_as_words(cli):
    """`show`'s seat lines say "1 hut", "1 member", "1 point", never "1 huts"."""
    log = HUNTERS / "huts-joined-through-lake.json"
    events = int(cli.ok("verify", log, "--json").split('"events": ')[1].split(",")[0])
    seen = []
    for at in range(events + 1):
        shown = cli.ok("show", log, "--at", at)
        assert not re.search(r"\b1 (huts|members|points)\b", shown), (at, shown)
        seen += re.findall(r"\b1 (?:hut|member|point)\b", shown)
    assert seen, "some step has one of something"


def test_hunters_diff_says_what_a_tile_joined_not_a_count_of_features(cli):
    """What a tile changed names the features it made or grew with their sizes (a meadow of 5
    tiles), not "joined features: 108 → 109"; a stack of one is "1 tile"."""
    log = HUNTERS / "full-game-2p.json"
    events = int(cli.ok("verify", log, "--json").split('"events": ')[1].split(",")[0])
    texts = [cli.ok("diff", log, "--at", at) for at in range(1, events + 1)]
    assert not any("joined features" in t for t in texts)
    assert not any(re.search(r"→ 1 tiles\b", t) for t in texts)
    joined = [t for t in texts if "features the tile made or joined: " in t]
    assert len(joined) > events // 3
    assert all(re.search(r"(forest|meadow|river|river system) of \d+ tiles?\b", t) for t in joined)


def test_act_prints_its_moves_and_their_effects_in_two_columns(cli):
    """An Iwari turn of moves longer than the column (``third 5 tent16 t``) once ran into its
    effects with one space; each line's effects now start where the others' do."""
    cli.ok("new", "iwari", "--names", "ann,bob", "--seed", "3", "-o", "i.tribes")
    cli.ok("act", "i.tribes", "3 tent8 t")
    lines = cli.ok("act", "i.tribes", "third 5 tent16 t", "draw d1", "draw deck").splitlines()
    found = [re.match(r"^\s*\d+\s+bob\s+(.+?)\s{2,}(\S.*)$", line) for line in lines]
    assert all(found) and len(found) == 3, lines
    assert [m[1] for m in found if m] == ["third 5 tent16 t", "draw d1", "draw deck"]
    assert len({m.start(2) for m in found if m}) == 1, lines
    assert found[0] and found[0][2].startswith("the third tribe: tent on 16"), lines
