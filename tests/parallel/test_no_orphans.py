"""Issue 31, section 1: no worker outlives its command. The main process of every command that
works in shards is killed (SIGKILL, SIGTERM) while its workers run; within seconds no process of
the command is left (its process group, the workers' parent gone), and no file half-written: no
temporary file beside an output, an output there only if it verifies."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tribes.testing.cli import run_process, tribes_command

pytestmark = pytest.mark.xdist_group("orphans")  # one worker runs them: each starts a pool

GAMES = 2000
"""Games in the corpus the commands read: enough that none ends before it is killed."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("orphans")
    run_process(
        "simulate", "clans", "--games", GAMES, "--seed", 1, "--jobs", 2, "--save", "runs.corpus",
        cwd=root, timeout=300,
    )  # fmt: skip
    run_process("baseline", "runs.corpus", "-o", "base.json", cwd=root, timeout=300)
    return root


COMMANDS = {
    "find": ["find", "runs.corpus", "--where", "over and track.red > 1000"],
    "baseline": ["baseline", "runs.corpus", "-o", "out.json"],
    "regress": ["regress", "runs.corpus", "--baseline", "base.json"],
    "verify": ["verify", "runs.corpus"],
    "simulate": ["simulate", "clans", "--games", 200_000, "--seed", 2, "--save", "out.corpus"],
    "coverage": ["coverage", "runs.corpus"],
    "stats": ["stats", "runs.corpus"],
}
OUTPUTS = {"baseline": "out.json", "simulate": "out.corpus"}


def _processes() -> dict[int, tuple[str, int]]:
    """Every process: its state letter and its process group (from /proc)."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isascii() or not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        out[int(name)] = (fields[0], int(fields[2]))
    return out


def _group(pgid: int) -> list[int]:
    """The live processes (not zombies) of process group ``pgid``."""
    return [pid for pid, (state, group) in _processes().items() if group == pgid and state != "Z"]


def _kill_when_working(
    args: list[object], cwd: Path, signum: int, workers: int = 2
) -> tuple[int, int]:
    """Start ``tribes ARGS`` in a session of its own, wait for its workers, kill its main
    process with ``signum``; its process id (its group's) and its exit status."""
    errors = cwd / "stderr.txt"
    with errors.open("wb") as err:
        process = subprocess.Popen(
            [*tribes_command(), *map(str, args)],
            cwd=cwd,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        deadline = time.monotonic() + 120
        while len(_group(process.pid)) < workers + 1:
            assert process.poll() is None, errors.read_text()
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.05)
        time.sleep(0.3)  # at work
        assert process.poll() is None, "it ended before it was killed: give it more work"
        os.kill(process.pid, signum)
        code = process.wait(30)
        stderr = errors.read_text()
        assert "Traceback" not in stderr and "internal error" not in stderr, stderr
        return process.pid, code
    finally:
        errors.unlink()
        if process.poll() is None:
            process.kill()
            process.wait()


def _no_process_left(pgid: int, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while _group(pgid):
        if time.monotonic() > deadline:
            left = _group(pgid)
            for pid in left:  # not left behind by the test either
                os.kill(pid, signal.SIGKILL)
            pytest.fail(f"{len(left)} processes of the killed command still alive: {left}")
        time.sleep(0.1)


def _nothing_half_written(folder: Path, command: str) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
    output = OUTPUTS.get(command)
    if output and (folder / output).exists():
        if output.endswith(".corpus"):
            run_process("verify", output, cwd=folder, timeout=120)  # never a crash
            done = run_process("verify", output, cwd=folder, timeout=120)
            assert done.returncode == 0 or "interrupted" in done.stderr, done.stderr
        (folder / output).unlink()


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["KILL", "TERM"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_killing_the_main_process_ends_its_workers(folder: Path, command: str, signum: int):
    args = [*COMMANDS[command], "--jobs", 2]
    pid, code = _kill_when_working(args, folder, signum)
    if signum == signal.SIGTERM:
        assert code == 128 + signal.SIGTERM  # it unwound
    else:
        assert code == -signal.SIGKILL
    _no_process_left(pid)
    _nothing_half_written(folder, command)


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["KILL", "TERM"])
def test_killing_the_main_process_ends_its_local_cluster(folder: Path, signum: int):
    pytest.importorskip("distributed")
    args = ["verify", "runs.corpus", "--cluster", "local:2"]
    pid, _ = _kill_when_working(args, folder, signum)
    _no_process_left(pid)
