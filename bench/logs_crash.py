"""Writers under fire: kill -9 during ``act``, and 2–4 ``act`` at once on one log.

    python bench/logs_crash.py --kills 1000 --races 500 [--cli-kills 200]

**Kill trials**: a fresh Clans log with a few moves; a forked process runs ``act`` of three moves
(``logs.act``, as the CLI does) and is killed with SIGKILL after a random delay (0 to 6 times
what an act takes, so that kills land before, during and after the write). Then the log must
read as the old log or the old log plus all three moves (a tail is allowed and cut by
``repair``); an act that reported success before the kill must be in it.

**Command kill trials** (``--cli-kills``): the same with the real ``tribes act`` process, killed
0.1 to 0.6 s after it starts (it takes about 0.3 s, most of it starting Python).

**Races**: 2–4 forked writers, released together, each reads the log, picks a legal move and
appends it; whoever loses the lock re-reads and appends after the others or fails with
LogChanged. Every move a writer was told is in the log (``act`` returned) must be there, at the
index it was told, and the log must verify. Both forms, ``.tribes`` and ``.json``.

Prints the counts; asserts nothing (tests of the suite do, on a few trials).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

from tribes import games
from tribes.core.errors import TribesError
from tribes.events.logfile import GameLog
from tribes.replay import logs, verify

GAME = games.get("clans")


def new_log(folder: Path, name: str, moves: int, seed: int) -> Path:
    head = logs.header(GAME, seats=["ann", "bob", "cy"], seed=seed)
    path = folder / name
    logs.create(path, GameLog(header=head), GAME)
    for _ in range(moves):
        opened = logs.open_log(path)
        state = logs.steps_of(GAME, opened.log)[-1].state
        logs.act(opened, [GAME.format_move(GAME.legal_moves(state)[0])])
    return path


def three_moves(path: Path) -> list[str]:
    opened = logs.open_log(path)
    state = logs.steps_of(GAME, opened.log)[-1].state
    out = []
    for _ in range(3):
        move = GAME.legal_moves(state)[0]
        out.append(GAME.format_move(move))
        state, _ = GAME.apply(state, move)
    return out


def kill_trial(folder: Path, index: int, rng: random.Random, suffix: str, window: float) -> dict:
    path = new_log(folder, f"k{index}{suffix}", 2, index)
    before = logs.open_log(path).log.events
    moves = three_moves(path)
    done = folder / f"k{index}.done"
    pid = os.fork()
    if pid == 0:  # the writer
        try:
            logs.act(logs.open_log(path), moves)
            done.write_text("acknowledged")
            os._exit(0)
        except BaseException:
            os._exit(1)
    time.sleep(rng.uniform(0, window))
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    acknowledged = done.exists()
    result = {"lost": 0, "corrupt": 0, "partial": 0, "tails": 0, "acknowledged": acknowledged}
    try:
        opened = logs.open_log(path)
    except TribesError as exc:
        if "after the last commit" not in exc.message:
            result["corrupt"] = 1
            return result
        result["tails"] = 1
        verify.repair(path)
        opened = logs.open_log(path)
    try:
        verify.verify(path)
    except TribesError:
        result["corrupt"] = 1
    events = opened.log.events
    if events not in (before, before + tuple(GAME.parse_move(None, m) for m in moves)):
        result["partial"] = 1
    if acknowledged and len(events) != len(before) + 3:
        result["lost"] = 1
    return result


def cli_kill_trial(folder: Path, index: int, rng: random.Random, suffix: str) -> dict:
    """A kill trial of the real command: ``tribes act LOG m1 m2 m3`` killed at a random time."""
    import shutil
    import subprocess

    path = new_log(folder, f"c{index}{suffix}", 2, index)
    before = logs.open_log(path).log.events
    moves = three_moves(path)
    tribes = shutil.which("tribes", path=str(Path(sys.executable).parent)) or "tribes"
    writer = subprocess.Popen(
        [tribes, "act", str(path), *moves], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    time.sleep(rng.uniform(0.1, 0.6))
    writer.send_signal(signal.SIGKILL)
    acknowledged = writer.wait() == 0
    result = {"lost": 0, "corrupt": 0, "partial": 0, "acknowledged": acknowledged}
    try:
        verify.verify(path)
        events = logs.open_log(path).log.events
    except TribesError:
        result["corrupt"] = 1
        return result
    if events not in (before, before + tuple(GAME.parse_move(None, m) for m in moves)):
        result["partial"] = 1
    if acknowledged and len(events) != len(before) + 3:
        result["lost"] = 1
    return result


def race(folder: Path, index: int, writers: int, suffix: str) -> dict:
    path = new_log(folder, f"r{index}{suffix}", 1, 1000 + index)
    gate_r, gate_w = os.pipe()
    report_r, report_w = os.pipe()
    pids = []
    for w in range(writers):
        pid = os.fork()
        if pid == 0:
            os.close(gate_w)
            os.read(gate_r, 1)
            try:
                opened = logs.open_log(path)
                state = logs.steps_of(GAME, opened.log)[-1].state
                moves = GAME.legal_moves(state)
                move = GAME.format_move(moves[(w * 7 + index) % len(moves)])
                steps = logs.act(opened, [move])
                line = f"ok {steps[0].index} {GAME.format_move(steps[0].event)}\n"
            except TribesError as exc:
                line = f"failed {type(exc).__name__}\n"
            except BaseException as exc:  # a crash: counted
                line = f"crash {type(exc).__name__}\n"
            os.write(report_w, line.encode())
            os._exit(0)
        pids.append(pid)
    os.close(gate_r)
    os.write(gate_w, b"x" * writers)
    os.close(gate_w)
    for pid in pids:
        os.waitpid(pid, 0)
    os.close(report_w)
    lines = os.read(report_r, 1 << 16).decode().splitlines()
    os.close(report_r)
    result = {"lost": 0, "corrupt": 0, "crash": 0, "acknowledged": 0, "refused": 0}
    try:
        verify.verify(path)
        events = logs.open_log(path).log.events
    except TribesError:
        result["corrupt"] = 1
        return result
    seen = set()
    for line in lines:
        word, *rest = line.split(" ", 2)
        if word == "ok":
            result["acknowledged"] += 1
            at, move = int(rest[0]), rest[1]
            if at in seen or at > len(events) or GAME.format_move(events[at - 1]) != move:
                result["lost"] += 1
            seen.add(at)
        elif word == "failed":
            result["refused"] += 1
        else:
            result["crash"] += 1
    return result


def act_time(folder: Path) -> float:
    path = new_log(folder, "timing.tribes", 2, 1)
    moves = three_moves(path)
    began = time.perf_counter()
    logs.act(logs.open_log(path), moves)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--races", type=int, default=500)
    parser.add_argument("--cli-kills", type=int, default=0, help="Kill trials of the command.")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        window = 6 * act_time(folder)
        totals: dict[str, int] = {}
        for i in range(args.kills):
            suffix = ".json" if i % 2 else ".tribes"
            for key, value in kill_trial(folder, i, rng, suffix, window).items():
                totals[f"kill {key}"] = totals.get(f"kill {key}", 0) + int(value)
        for i in range(args.cli_kills):
            suffix = ".json" if i % 2 else ".tribes"
            for key, value in cli_kill_trial(folder, i, rng, suffix).items():
                totals[f"cli-kill {key}"] = totals.get(f"cli-kill {key}", 0) + int(value)
        for i in range(args.races):
            suffix = ".json" if i % 2 else ".tribes"
            for key, value in race(folder, i, 2 + i % 3, suffix).items():
                totals[f"race {key}"] = totals.get(f"race {key}", 0) + int(value)
    print(f"kill -9 trials: {args.kills} (window {window * 1000:.1f} ms); races: {args.races}")
    for key in sorted(totals):
        print(f"  {key}: {totals[key]}")
    bad = sum(
        totals.get(k, 0) for k in totals if k.split()[1] in ("lost", "corrupt", "partial", "crash")
    )
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
