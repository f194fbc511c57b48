"""``tribes hunt`` as users drive it: found, written, verified and shrunk; not found with the
closest game kept; the same find for the same seed; bad input in one line; a plugin game; Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from tribes.testing import cli as testing_cli

THREE = "len(VillageFounded) >= 3"
FOUR = "len(VillageFounded) >= 4"


def test_a_found_game_is_a_log_that_verifies_and_is_shrunk(cli, tmp_path: Path) -> None:
    out = cli.ok("hunt", "clans", "--until", THREE, "--budget", "400g", "--seed", "4")
    first, second = out.splitlines()
    assert first.startswith(f"found: '{THREE}' holds at event ")
    assert "of clans-hunt.tribes, after " in first and "(1 process)" in first
    event = int(first.split(" holds at event ")[1].split()[0])
    assert cli.ok("verify", "clans-hunt.tribes").startswith("ok")
    assert cli.ok("bisect", "clans-hunt.tribes", "--until", THREE).startswith(f"{event}:")
    assert len(cli.moves(cli.path("clans-hunt.tribes"))) > 0  # cut where it happens
    assert second.startswith("shrunk: clans-hunt.shrunk.json: from the position after event ")
    shrunk = json.loads((tmp_path / "clans-hunt.shrunk.json").read_text())
    assert shrunk["header"]["meta"]["shrink"]["until"] == THREE
    assert cli.ok("find", "clans-hunt.shrunk.json", "--where", THREE).strip()


def test_not_found_warns_of_a_path_in_no_step_of_the_closest_game(cli, tmp_path: Path) -> None:
    """A typo (``scores.p9`` of three seats) makes the expression impossible: the hunt spends its
    budget, and says which path read as null at every step of its closest game."""
    ran = cli.run("hunt", "clans", "--until", "scores.p9 > 3 or scores.p1 > 900", "--budget", "8g")
    assert ran.exit_code == 1
    assert ran.stderr.splitlines() == [
        "warning: 'scores.p9' is in no state of the closest game; it reads as null"
    ]


def test_the_closest_game_is_named_after_the_output(cli, tmp_path: Path) -> None:
    """``-o NAME.tribes`` and nothing found: the closest game is ``NAME.closest.tribes``, not the
    default name of another hunt."""
    ran = cli.run("hunt", "clans", "--until", FOUR, "--budget", "8g", "-o", "mine.tribes")
    assert ran.exit_code == 1 and ran.stdout.strip().endswith("of mine.closest.tribes")
    assert (tmp_path / "mine.closest.tribes").exists()
    assert not (tmp_path / "clans-hunt.closest.tribes").exists()


def test_the_same_seed_finds_the_same_game(cli, tmp_path: Path) -> None:
    for jobs in ("1", "2"):
        found = []
        for name in ("a.tribes", "b.tribes"):
            cli.ok("hunt", "clans", "--until", THREE, "--budget", "400g", "--seed", "2",
                   "--jobs", jobs, "-o", name, "--no-shrink")  # fmt: skip
            found.append((tmp_path / name).read_bytes())
            (tmp_path / name).unlink()
        assert found[0] == found[1], jobs
    assert not list(tmp_path.glob("*.shrunk.json"))


def test_not_found_exits_1_and_keeps_the_closest_game(cli, tmp_path: Path) -> None:
    ran = cli.run("hunt", "clans", "--until", FOUR, "--budget", "200g", "--closest", "near.json")
    assert ran.exit_code == 1
    line = ran.stdout.strip()
    assert line.startswith(f"not found within 200 games: '{FOUR}' after 200 games in ")
    assert "the closest came to distance 1, at event " in line and line.endswith("of near.json")
    assert cli.ok("verify", "near.json").startswith("ok")
    assert cli.ok("find", "near.json", "--where", "len(VillageFounded) >= 3").strip()
    assert not (tmp_path / "clans-hunt.tribes").exists()


def test_of_steps_as_close_a_playout_keeps_the_latest(cli) -> None:
    """A tie is as close (1) at the start, every score 0, as one point short at the end: the
    closest step kept is the latest, so that the search resumes near the end, not the start."""
    tie = "over and max(scores) == min(scores)"
    ran = cli.run(
        "hunt", "clans", "--until", tie, "--budget", "1g", "--seed", "3", "--closest", "near.json"
    )
    assert ran.exit_code == 1
    assert ran.stdout.startswith(f"not found within 1 game: '{tie}' after 1 game in ")
    assert "the closest came to distance 1, at event 51 (8-9) of near.json" in ran.stdout
    shown = cli.show_json(cli.path("near.json"))  # the end, one point short of a tie
    assert (
        shown["over"] is True and max(shown["scores"].values()) - min(shown["scores"].values()) == 1
    )


def test_the_json_report(cli) -> None:
    report = cli.json("hunt", "iwari", "--until", "DeckRanOut", "--budget", "50g", "--json")
    assert report["found"] is True and report["distance"] == 0 and report["games"] >= 1
    assert report["output"] == "iwari-hunt.tribes" and report["closest"] is None
    assert report["shrunk"]["output"] == "iwari-hunt.shrunk.json"
    assert {"until", "seconds", "event", "move", "interrupted"} <= set(report)
    ran = cli.run("hunt", "clans", "--until", FOUR, "--budget", "200g", "--json")
    assert ran.exit_code == 1
    report = json.loads(ran.stdout)
    assert report["found"] is False and report["distance"] == 1
    assert report["closest"] == "clans-hunt.closest.tribes" and report["output"] is None


def test_no_progress_line_off_a_terminal(cli) -> None:
    ran = cli.run("hunt", "iwari", "--until", "DeckRanOut", "--budget", "50g", "--no-shrink")
    assert ran.exit_code == 0 and ran.stderr == ""


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--until", "len(VillageFounded >= 3"], "bad expression 'len(VillageFounded >= 3'"),
        (["--until", "villagez > 1"], "unknown field 'villagez'"),
        (["--until", "over", "--budget", "60"], "--budget '60' must be seconds or games"),
        (["--until", "over", "--budget", "0g"], "--budget '0g': a whole number of games"),
        (["--until", "over", "--budget", "-5s"], "--budget '-5s' must be seconds or games"),
        (["--until", "over", "--budget", "0s"], "--budget '0s': more than 0 s"),
        (["--until", "over", "--budget", "1.5g"], "--budget '1.5g': a whole number of games"),
        (["--until", "over", "--seats", "9"], "clans is for 2 to 4 seats, not 9"),
        (["--until", "over", "--option", "nope=1"], "nope"),
        (["--until", "over", "--jobs", "0"], "--jobs must be from 1 to 256, not 0"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, args: list[str], says: str) -> None:
    assert says in cli.fails("hunt", "clans", *args, code=2)


def test_bad_input_is_refused_before_any_file_is_checked_or_written(cli, tmp_path: Path) -> None:
    (tmp_path / "clans-hunt.tribes").write_text("mine")
    assert "bad expression" in cli.fails("hunt", "clans", "--until", "(", code=2)
    line = cli.fails("hunt", "clans", "--until", THREE, code=2)
    assert "clans-hunt.tribes exists" in line and "--force" in line
    assert (tmp_path / "clans-hunt.tribes").read_text() == "mine"
    assert "holds at the start" in cli.fails("hunt", "clans", "--until", "not over", code=1)
    assert "unknown game 'nope'" in cli.fails("hunt", "nope", "--until", "over", code=2)


def test_a_plugin_game_through_the_contract_alone(cli) -> None:
    out = cli.ok("hunt", "dice", "--until", "max(scores) >= 30", "--budget", "200g")
    first, second = out.splitlines()
    assert first.startswith("found: 'max(scores) >= 30' holds at event ")
    assert second == "not shrunk: dice has no position form: it cannot write positions"
    assert cli.ok("verify", "dice-hunt.tribes").startswith("ok")


@pytest.mark.parametrize("where", [["--jobs", "2"], ["--cluster", "local:2"]], ids=["pool", "dask"])
def test_ctrl_c_stops_the_workers_and_keeps_the_closest_game(tmp_path: Path, where) -> None:
    if where[0] == "--cluster":
        pytest.importorskip("distributed")
    command = [*testing_cli.tribes_command(), "hunt", "clans", "--until", FOUR, *where,
               "--budget", "10m", "--closest", "near.tribes"]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "TRIBES_DEBUG"}
    with subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True,
    ) as process:  # fmt: skip
        parent = psutil.Process(process.pid)
        _workers_at_work(parent)  # the search is under way
        time.sleep(2 if where[0] == "--jobs" else 10)  # a cluster starts slowly
        children = _workers_at_work(parent)  # a pool's workers live a round: Ctrl-C in one
        os.killpg(process.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole group
        out, err = process.communicate(timeout=300)
    assert process.returncode == 130, (out, err)
    assert out.startswith(f"interrupted: '{FOUR}' after ")
    assert "Traceback" not in err + out
    assert "of near.tribes" in out and (tmp_path / "near.tribes").exists()
    psutil.wait_procs(children, timeout=10)
    assert not [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]


def _workers_at_work(parent: psutil.Process) -> list[psutil.Process]:
    """The workers of ``parent`` once two run at once. A pool's last a round (a fraction of a
    second, then the next round's start): looked for every few milliseconds, since a slower
    look on a loaded machine missed every round and waited without end."""
    deadline = time.monotonic() + 300  # a loaded machine starts processes slowly
    while time.monotonic() < deadline:
        children = parent.children(recursive=True)
        if len(children) >= 2:
            return children
        time.sleep(0.002)
    raise AssertionError("the workers never started")


def test_a_progress_line_on_a_terminal(tmp_path: Path) -> None:
    """stderr a terminal: the line (games, closest distance), rewritten in place and cleared at
    the end; the report on stdout as ever."""
    code, out, said = testing_cli.on_a_terminal(
        "hunt", "clans", "--until", FOUR, "--budget", "40g", cwd=tmp_path
    )
    assert code == 1 and out.startswith("not found within 40 games")
    assert b"\rhunt: 8 games, closest " in said and b"\rhunt: 40 games, closest 1" in said
    assert said.endswith(b"\r")  # cleared


def test_a_local_dask_cluster_finds_what_as_many_processes_find(cli, tmp_path: Path) -> None:
    """``--cluster local:2`` (one cluster for the whole hunt, every round on it) searches the
    lanes ``--jobs 2`` does: the same find; no process of it is left when the command ends."""
    pytest.importorskip("distributed")
    args = ["hunt", "clans", "--until", THREE, "--budget", "400g", "--seed", "2", "--no-shrink"]
    env = {k: v for k, v in os.environ.items() if k != "TRIBES_DEBUG"}
    command = [*testing_cli.tribes_command(), *args, "--cluster", "local:2", "-o", "dask.tribes"]
    with subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True,
    ) as process:  # fmt: skip
        out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    assert out.startswith(f"found: '{THREE}' holds at event ") and "(cluster local:2)" in out
    deadline = time.monotonic() + 30
    while left := [p for p in psutil.process_iter() if _group_of(p) == process.pid]:
        if time.monotonic() > deadline:
            pytest.fail(f"processes of the cluster left: {[p.cmdline() for p in left]}")
        time.sleep(0.2)
    cli.ok(*args, "--jobs", "2", "-o", "pool.tribes")
    assert (tmp_path / "dask.tribes").read_bytes() == (tmp_path / "pool.tribes").read_bytes()
    assert cli.ok("verify", "dask.tribes").startswith("ok")


def _group_of(process: psutil.Process) -> int | None:
    try:
        return os.getpgid(process.pid) if process.status() != psutil.STATUS_ZOMBIE else None
    except (ProcessLookupError, psutil.Error):
        return None
