"""Ctrl-C ends any command with one line and exit 130 (128 + SIGINT), whenever it comes: while
the program is still loading its modules (it printed a KeyboardInterrupt traceback there), in
click's parsing or in the command (click said "Aborted!" and exit 1), in the quick ``show``."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from tribes.testing import cli as testing_cli

LONG = ["simulate", "clans", "--games", "200000", "--seed", "1"]


def interrupted_after(args: list[str], cpu: float, cwd: Path) -> tuple[int, str, str]:
    """Run ``tribes ARGS``, Ctrl-C its process group once it has spent ``cpu`` seconds of CPU
    (a clock a loaded machine does not stretch: the interpreter starts in about 0.05 s of it,
    ``tribes`` loads ``simulate``'s modules by about 0.4 s), as a terminal does; its exit
    status, stdout and stderr."""
    env = {k: v for k, v in os.environ.items() if k != "TRIBES_DEBUG"}
    with (
        _as_from_a_terminal(),
        subprocess.Popen(
            [*testing_cli.tribes_command(), *args],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        ) as process,
    ):
        try:
            watched = psutil.Process(process.pid)
            deadline = time.monotonic() + 120
            while process.poll() is None and time.monotonic() < deadline:
                spent = watched.cpu_times()
                if spent.user + spent.system >= cpu:
                    break
                time.sleep(0.001)
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGINT)
            out, err = process.communicate(timeout=60)
        finally:  # a command that did not stop: stopped here, not waited for to its end
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, out, err


@contextlib.contextmanager
def _as_from_a_terminal() -> Iterator[None]:
    """Ctrl-C left to the command, as a shell at a terminal leaves it: a test runner's workers
    (xdist) ignore SIGINT, and a process started with it ignored keeps ignoring it (as after
    ``nohup``, which tribes respects). A handler of ours meanwhile: on ``exec`` the child has
    the default."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="module")
def started() -> float:
    """The CPU seconds a process takes to start Python and import ``tribes.cli`` (the script's
    first line) on this machine: a Ctrl-C before that is the interpreter's to answer (CPython
    prints "Fatal Python error" while it starts), not tribes'. The fastest of three."""
    took = []
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", "import tribes.cli"], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        took.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(took)


@pytest.mark.parametrize("later", [0.01, 0.03, 0.08, 0.18, 0.35, 0.9])
def test_ctrl_c_at_any_moment_is_one_line_and_exit_130(
    tmp_path: Path, started: float, later: float
) -> None:
    """Ctrl-C ``later`` CPU seconds after tribes' script began: loading (``simulate``'s modules
    take about 0.35 s), parsing, playing."""
    status, out, err = interrupted_after(LONG, started + later, tmp_path)
    assert "Traceback" not in out + err
    assert "Aborted!" not in err
    assert status == 130, (status, out, err)
    assert err.strip().splitlines() == ["tribes: interrupted"], err
