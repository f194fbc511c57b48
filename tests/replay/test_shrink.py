"""``tribes shrink LOG --until EXPR | --refused RULE``: the planted cases of every game (found by
seeded simulations, kept in ``shrink_cases/``) shrink to a position and one event that still
show them; the result is a JSON log with the original's digest, the event and the expression in
its meta; the same input gives the same bytes; the work is bounded; bad input is one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tribes.core.engine import steps
from tribes.events import logfile
from tribes.replay import logs
from tribes.replay.query import parse
from tribes.testing.cli import Cli

CASES = Path(__file__).resolve().parent / "shrink_cases"


def effects(log: Path) -> list[list[Any]]:
    """The effects of each event of a log (the start first, none)."""
    opened = logs.open_log(log)
    return [list(s.effects) for s in steps(opened.game, opened.log.header, opened.log.events)]


def documents(cli: Cli, log: Path) -> list[dict[str, Any]]:
    count = len(json.loads(log.read_text())["events"])
    return [cli.show_json(log, "--at", i) for i in range(count + 1)]


def shrunk(cli: Cli, case: str, expression: str) -> tuple[Path, dict[str, Any]]:
    """``shrink`` of a planted case; the output log and its header, after checking what every
    reproducer must be: a sealed JSON log that verifies, whose expression is false at every
    state but the last, with its origin in the meta."""
    source = CASES / f"{case}.json"
    out = cli.path(f"{case}.shrunk.json")
    said = cli.ok("shrink", source, "--until", expression, "-o", out)
    assert said.startswith(f"{out}: '{expression}' holds at event ")
    cli.ok("verify", out)
    data = json.loads(out.read_text())
    meta = data["header"]["meta"]["shrink"]
    original = logs.open_log(source).log
    assert meta["log"] == logfile.log_digest(original).hex()
    assert meta["until"] == expression
    held = [parse(expression).holds(d) for d in documents(cli, out)]
    assert held == [False] * (len(held) - 1) + [True]
    first = next(i for i in range(len(original.events) + 1) if _holds(source, expression, i))
    assert meta["at"] == first
    assert meta["after"] == first - len(data["events"])
    return out, data["header"]


def _holds(log: Path, expression: str, index: int) -> bool:
    from tribes.replay.cursor import Cursor

    return parse(expression).holds(Cursor.open(log).document("all", index))


def test_the_first_strife_of_a_clans_game(cli: Cli) -> None:
    """Seed 12: the first strife takes all five lone huts of the village it founds."""
    out, head = shrunk(
        cli, "clans-first-strife", "villages[-1].huts == 0 and not villages[-1].doomed"
    )
    assert len(json.loads(out.read_text())["events"]) == 1
    last = effects(out)[-1]
    assert [type(e).__name__ for e in last][:2] == ["VillageFounded", "StrifeRemoved"]
    huts = head["position"]["huts"]
    assert sum(sum(c.values()) for c in huts.values()) <= 6  # the five lone huts, one move
    assert not head["position"]["villages"]


def test_the_twelfth_and_thirteenth_village_of_clans(cli: Cli) -> None:
    """The demo's game: one move founds the 12th and 13th villages, then ann orders them; the
    reproducer holds both events (it never starts at the pending order, which only numbers
    what the move founded: issue 29), and on the board the hut moved and the two villages."""
    out, head = shrunk(cli, "clans-twelfth-and-thirteenth", "villages[-1].number == 13")
    position = head["position"]
    assert "order" not in position
    assert sorted(position["huts"]) == ["19", "27", "35"]
    assert position["villages"] == [] and sum(position["chips"].values()) == 11
    events = json.loads(out.read_text())["events"]
    assert [e["type"] for e in events] == ["move", "order"]
    names = [type(e).__name__ for e in effects(out)[-1]]
    assert names[:2] == ["VillageFounded", "VillageUnscored"]


def test_an_iwari_half_journey_tie(cli: Cli) -> None:
    """Seed 22: the half-journey scoring leaves ann and bob tied; shrunk to the draw that ends
    the refill, with a tent each left on the map."""
    out, head = shrunk(
        cli, "iwari-half-journey-tie", "half_journey_scored and scores.ann == scores.bob and scores.ann > 0"
    )  # fmt: skip
    assert len(json.loads(out.read_text())["events"]) == 1
    tents = head["position"]["tents"]
    assert sum(len(v) for v in tents.values()) <= 4
    names = [type(e).__name__ for e in effects(out)[-1]]
    assert "DeckReshuffled" in names and "ScoringBegan" in names
    final = json.loads(cli.ok("show", out, "--json"))
    assert final["scores"]["ann"] == final["scores"]["bob"] > 0


def test_a_hunters_bonus_tile_that_fits_nowhere(cli: Cli) -> None:
    """Seed 185: cy's forest with gold earns a bonus tile, and the top one, 86, fits nowhere."""
    out, head = shrunk(cli, "hunters-bonus-fits-nowhere", "86 in removed")
    position = head["position"]
    assert position["bonus_stack"][0] == 86
    assert len(position["tiles"]) <= 6 and not position["pieces"]
    removed = [e for e in effects(out)[-1] if type(e).__name__ == "TileRemoved"]
    assert [(e.tile, e.bonus) for e in removed] == [(86, True)]


def test_the_same_input_gives_the_same_output(cli: Cli) -> None:
    source = CASES / "hunters-bonus-fits-nowhere.json"
    a, b = cli.path("a.json"), cli.path("b.json")
    cli.ok("shrink", source, "--until", "86 in removed", "-o", a)
    cli.ok("shrink", source, "--until", "86 in removed", "-o", b)
    assert a.read_bytes() == b.read_bytes()
    assert cli.ok("shrink", source, "--until", "86 in removed") == a.read_text()


def test_max_tries_bounds_the_work(cli: Cli) -> None:
    """Few tries: the fewest events are found, the position is simplified only so far, and the
    output still shows the case."""
    source = CASES / "clans-twelfth-and-thirteenth.json"
    out = cli.path("few.json")
    said = cli.ok(
        "shrink", source, "--until", "villages[-1].number == 13", "--max-tries", 3, "-o", out
    )
    assert "in 3 tries (--max-tries ran out)" in said
    report = json.loads(
        cli.ok("shrink", source, "--until", "villages[-1].number == 13", "--max-tries", 3, "--json")
    )
    assert report["tries"] == 3 and report["bounded"] is True and report["events"] == 2
    assert report["log"]["header"]["meta"]["shrink"]["at"] == 36
    held = [parse("villages[-1].number == 13").holds(d) for d in documents(cli, out)]
    assert held == [False, False, True]


def test_a_refused_move_given_with_then(cli: Cli) -> None:
    """The demo's board after event 30: territory 15 holds 7 huts, which cannot move onto 14
    (C9). shrink plays the move after the log (--then) and keeps what the refusal needs; the
    reproducer is a hand-written scenario whose last event is refused, as verify says."""
    cli.ok("demo", "-o", cli.path("out"))
    forked = cli.path("f.tribes")
    cli.ok("fork", cli.path("out") / "demo.tribes", "--at", 31, "-o", forked)
    out = cli.path("c9.json")
    said = cli.ok("shrink", forked, "--refused", "C9", "--then", "15-14", "-o", out)
    assert "a refusal naming C9 at event 31" in said
    data = json.loads(out.read_text())
    assert "digest" not in data and data["events"] == [{"type": "move", "source": 15, "target": 14}]
    assert data["header"]["meta"]["shrink"]["then"] == ["15-14"]
    huts = data["header"]["position"]["huts"]
    assert set(huts) == {"14", "15"} and sum(huts["15"].values()) == 7
    verified = cli.run("verify", out)
    assert verified.exit_code == 1 and "a group of 7 or more cannot move (C9)" in verified.stdout
    again = cli.path("again.json")
    cli.ok("shrink", out, "--refused", "C9", "-o", again)  # the scenario is a shrink input too
    assert json.loads(again.read_text())["header"]["position"] == data["header"]["position"]


def test_a_scenario_whose_last_event_is_refused(cli: Cli) -> None:
    """A hand-written scenario (no digest, commits, checkpoints) may end with a refused move."""
    cli.ok("demo", "-o", cli.path("out"))
    text = json.loads(cli.ok("export", cli.path("out") / "demo.tribes", "--json"))
    scenario = {
        "format": "tribes-log",
        "version": 2,
        "header": text["header"],
        "events": [*text["events"][:30], "15-14"],
    }
    source = cli.path("scenario.json")
    source.write_text(json.dumps(scenario))
    said = cli.ok("shrink", source, "--refused", "C9", "-o", cli.path("s.json"))
    assert "a refusal naming C9 at event 31" in said
    line = cli.fails("shrink", source, "--refused", "C10")
    assert "event 31 (15-14) is refused naming C9, not C10" in line
    line = cli.fails("shrink", source, "--refused", "C9", "--then", "1-2", code=2)
    assert "ends with a refused event" in line


def test_bad_input_is_one_line(cli: Cli) -> None:
    source = CASES / "clans-first-strife.json"
    assert "--until EXPR or --refused RULE" in cli.fails("shrink", source, code=2)
    both = cli.fails("shrink", source, "--until", "over", "--refused", "C9", code=2)
    assert "one of them" in both
    assert "never holds" in cli.fails("shrink", source, "--until", "len(villages) > 40")
    assert "holds at the start" in cli.fails("shrink", source, "--until", "not over")
    assert "unknown field 'colour'" in cli.fails("shrink", source, "--until", "colour", code=2)
    assert "no event is refused" in cli.fails("shrink", source, "--refused", "C9")
    assert "cannot read move" in cli.fails("shrink", source, "--refused", "C9", "--then", "x")
    out = cli.path("o.json")
    out.write_text("keep")
    line = cli.fails("shrink", source, "--until", "over", "-o", out, code=2)
    assert "exists" in line and out.read_text() == "keep"
    # refused before the work, not after it: the search that never ends well is not started
    early = cli.fails("shrink", source, "--until", "len(villages) > 40", "-o", out, code=2)
    assert "exists" in early and out.read_text() == "keep"


def test_no_progress_line_without_a_terminal(cli: Cli) -> None:
    result = cli.run(
        "shrink", CASES / "clans-first-strife.json", "--until", "over", "-o", cli.path("o.json")
    )
    assert result.exit_code == 0 and result.stderr == ""


@pytest.mark.parametrize("case", sorted(p.stem for p in CASES.glob("*.json")))
def test_the_planted_inputs_still_show_their_case(case: str) -> None:
    """The inputs are what build.py wrote: they still replay and verify."""
    opened = logs.open_log(CASES / f"{case}.json")
    logs.steps_of(opened.game, opened.log, verify=True)
    assert opened.log.header.meta == {"case": case}


def test_the_docs_example_runs_from_the_demo_log(tmp_path: Path) -> None:
    """docs/replay.md, "Positions and reproducers": its commands, line by line, as a user types
    them after ``tribes demo``."""
    import os
    import re
    import subprocess
    import sys

    page = (Path(__file__).resolve().parents[2] / "docs" / "replay.md").read_text()
    section = page[page.index("## Positions and reproducers") :]
    block = re.search(r"^```sh\n(.*?)^```", section, re.DOTALL | re.MULTILINE)
    assert block is not None
    lines = [line.split("  #")[0].strip() for line in block[1].splitlines() if line.strip()]
    assert lines[0] == "tribes demo" and any(line.startswith("tribes shrink") for line in lines)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for line in lines:
        ran = subprocess.run(
            ["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert ran.returncode == 0, (line, ran.stdout[-500:], ran.stderr[-500:])
        assert "Traceback" not in ran.stderr
    twelfth = json.loads((tmp_path / "twelfth.json").read_text())
    assert sorted(twelfth["header"]["position"]["huts"]) == ["19", "27", "35"]
    assert json.loads((tmp_path / "c9.json").read_text())["events"][-1]["source"] == 15


def test_shrink_reads_a_game_of_a_corpus(cli: Cli) -> None:
    corpus = cli.path("r.corpus")
    cli.ok("simulate", "clans", "--games", 2, "--seed", 3, "--bot", "greedy", "--save", corpus)
    out = cli.path("s.json")
    said = cli.ok("shrink", f"{corpus}#2", "--until", "len(villages) >= 3", "-o", out)
    assert f"of {corpus}#2" in said
    cli.ok("verify", out)
