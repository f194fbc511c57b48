"""Writers that never lose a promise: several ``tribes act`` at once on one log, and ``kill -9``
in the middle of ``act``. Bounded: a few rounds each (bench/logs_crash.py runs thousands)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tribes import games
from tribes.replay import logs
from tribes.testing.cli import tribes_command

GAME = games.get("clans")


def start(cwd: Path, *args: str, quiet: bool = False) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "TRIBES_DEBUG"}
    out = subprocess.DEVNULL if quiet else subprocess.PIPE
    return subprocess.Popen(
        [*tribes_command(), *args], cwd=cwd, stdout=out, stderr=out, text=True, env=env
    )


@pytest.mark.parametrize("suffix", [".tribes", ".json"])
def test_concurrent_appenders_lose_no_acknowledged_move(cli, suffix):
    path = cli.new(f"race{suffix}")
    for _ in range(2):  # two rounds of three writers, each with a move legal when it started
        legal = cli.moves(path)
        writers = [start(cli.root, "act", path.name, legal[i]) for i in range(3)]
        results = [(w.wait(timeout=60), *w.communicate()) for w in writers]
        for code, _, err in results:
            assert code in (0, 1), err
            assert "Traceback" not in err
            if code == 1:  # its move no longer fits (it lost the race, or read after the winner)
                assert len(err.splitlines()) == 1, err
                assert "another writer" in err or "illegal move" in err, err
        events = logs.open_log(path).log.events
        for code, out, _ in results:
            if code == 0:  # what act printed is in the log, at the index it printed
                index, _, move = out.split()[:3]
                assert GAME.format_move(events[int(index) - 1]) == move
        cli.ok("verify", path)
        assert sum(code == 0 for code, _, _ in results) >= 1


@pytest.mark.parametrize("suffix", [".tribes", ".json"])
def test_kill_9_during_act_leaves_the_old_log_or_all_the_moves(cli, suffix):
    path = cli.new(f"kill{suffix}")
    cli.ok("act", path, "1-2")
    for delay in (0.0, 0.15, 0.3, 0.45, 0.6, 1.0):
        before = logs.open_log(path).log.events
        moves = three_moves(path)
        writer = start(cli.root, "act", path.name, *moves, quiet=True)
        time.sleep(delay)
        writer.send_signal(signal.SIGKILL)
        code = writer.wait(timeout=60)
        opened = logs.open_log(path)  # readable: no tail, since a commit is one write
        assert opened.log.events in (
            before,
            before + tuple(GAME.parse_move(None, m) for m in moves),
        )
        if code == 0:  # it finished before the kill: its moves were acknowledged
            assert len(opened.log.events) == len(before) + 3
        cli.ok("verify", path)


def three_moves(path: Path) -> list[str]:
    opened = logs.open_log(path)
    state = logs.steps_of(GAME, opened.log)[-1].state
    out = []
    for _ in range(3):
        move = GAME.legal_moves(state)[0]
        out.append(GAME.format_move(move))
        state, _ = GAME.apply(state, move)
    return out
