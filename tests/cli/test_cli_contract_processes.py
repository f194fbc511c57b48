"""End to end, in real processes: the installed ``tribes`` script, its exit statuses and streams."""

from __future__ import annotations

import json
import subprocess

import pytest

from tribes.testing import cli as testing_cli


def test_a_game_from_start_to_verify(run_process):
    done = run_process("new", "clans", "--names", "ann,bob,cy", "--seed", 7, "-o", "g.tribes")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    seat = json.loads(run_process("show", "g.tribes", "--json").stdout)["to_move"]
    moves = run_process("moves", "g.tribes").stdout.splitlines()
    assert moves
    done = run_process("act", "g.tribes", moves[0])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:3] == ["1", seat, moves[0]]
    assert run_process("log", "g.tribes").stdout == done.stdout
    done = run_process("verify", "g.tribes")
    assert done.returncode == 0
    assert done.stdout.startswith("ok")


def test_export_and_import_in_processes(run_process, tmp_path):
    run_process("new", "clans", "--seats", 4, "--seed", 5, "-o", "g.tribes")
    for _ in range(3):
        move = run_process("moves", "g.tribes").stdout.splitlines()[-1]
        assert run_process("act", "g.tribes", move).returncode == 0
    exported = run_process("export", "g.tribes", "--json")
    assert exported.returncode == 0
    (tmp_path / "g.json").write_text(exported.stdout)
    done = run_process("import", "g.json", "-o", "back.tribes")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "back.tribes").read_bytes() == (tmp_path / "g.tribes").read_bytes()


def test_an_illegal_move_in_a_process(run_process, tmp_path):
    run_process("new", "clans", "--names", "ann,bob,cy", "--seed", 7, "-o", "g.tribes")
    before = (tmp_path / "g.tribes").read_bytes()
    done = run_process("act", "g.tribes", "1-60")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("tribes: illegal move '1-60' at event 1: ")
    assert (tmp_path / "g.tribes").read_bytes() == before


def test_a_usage_error_in_a_process(run_process):
    done = run_process("new", "chess", "-o", "c.tribes")
    assert done.returncode == 2
    assert done.stderr.startswith("tribes: unknown game 'chess'")
    done = run_process("show", "--nonsense")
    assert done.returncode == 2
    assert "--nonsense" in done.stderr


def test_a_damaged_log_in_a_process(run_process, tmp_path):
    run_process("new", "clans", "--seed", 7, "-o", "g.tribes")
    path = tmp_path / "g.tribes"
    data = bytearray(path.read_bytes())
    data[20] ^= 0x01
    path.write_bytes(bytes(data))
    done = run_process("show", "g.tribes")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert "g.tribes" in done.stderr and "corrupt" in done.stderr
    done = run_process("verify", "g.tribes")
    assert done.returncode == 1 and done.stdout.startswith("FAIL")


def test_simulate_in_a_process_keeps_stdout_for_the_summary(run_process, tmp_path):
    done = run_process(
        "simulate", "clans", "--games", 5, "--seed", 3, "--bot", "greedy", "--save", "saved"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("5 games, 3 seats")
    assert lines[-1].endswith("games/s")
    saved = sorted(p.name for p in (tmp_path / "saved").glob("*.tribes"))
    assert len(saved) == 5
    verified = run_process("verify", *(f"saved/{name}" for name in saved))
    assert verified.returncode == 0
    assert verified.stdout.splitlines()[-1] == "5 ok, 0 failed"


def test_demo_in_a_process(run_process, tmp_path):
    done = run_process("demo", "-o", "demo")
    assert done.returncode == 0, done.stderr
    assert any("village 12 " in line and "village 13 " in line for line in done.stdout.splitlines())
    assert run_process("verify", "demo/demo.tribes").returncode == 0


def test_version(run_process):
    done = run_process("--version")
    assert done.returncode == 0
    assert "0." in done.stdout or "1." in done.stdout


def test_many_empty_records_are_refused_quickly(run_process, tmp_path):
    """A file of the mark and then zero bytes is a stream of empty frames whose check bytes all
    match; refusing it must not take time that grows with the square of the records."""
    (tmp_path / "zeros.tribes").write_bytes(b"\x89TRB" + bytes(200_000))
    try:
        done = run_process("show", "zeros.tribes", timeout=5)
    except subprocess.TimeoutExpired:
        pytest.fail("tribes show took more than 5 s on a 200 kB file")
    assert done.returncode == 1
    assert "zeros.tribes" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("show", "g.tribes"),
        ("log", "g.tribes"),
        ("log", "g.tribes", "--json"),
        ("moves", "g.tribes"),
        ("show", "g.tribes", "--svg"),
    ],
    ids=" ".join,
)
def test_output_to_a_full_disk_is_one_line_and_exit_1(run_process, tmp_path, args):
    """No room for the output is the machine's state, not a bug of tribes: one line naming it,
    exit status 1 (a file error), no traceback and no "internal error"."""
    run_process("new", "clans", "--seed", 3, "-o", "g.tribes")
    run_process("act", "g.tribes", run_process("moves", "g.tribes").stdout.split()[0])
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*testing_cli.tribes_command(), *args],
            cwd=tmp_path,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    assert (done.returncode, done.stderr) == (
        1,
        "tribes: cannot write the output: No space left on device\n",
    )
