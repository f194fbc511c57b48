"""CPU time an event of ``tribes log --json --states``, one game a process, as a user runs it.

    python bench/log_states.py [--games 20] [--seed 1] [GAME ...]

Plays ``--games`` seeded random games of each game (default: all three) with ``tribes simulate
--save`` into a scratch folder, then reads each log in a process of its own: it opens the log and
replays it once (what every command pays once: its modules, the game's tables), then times
``log --json --states`` of it (``time.process_time``, the records consumed, nothing written).
Prints each game's milliseconds an event and, by game, the mean over all events. The memos of
the documents and of the legal moves' text start empty in every process, as in a user's.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ONE = """
import sys, time
from pathlib import Path
from tribes.cli.quick import log_lines
from tribes.replay import logs
path = Path(sys.argv[1])
opened = logs.open_log(path)
list(logs.shown(opened.game, opened.log, str(path), None))
for _ in log_lines(path, None, as_json=False, states=False):
    pass
start = time.process_time()
records = sum(1 for _ in log_lines(path, None, as_json=True, states=True))
print(time.process_time() - start, records - 1)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("names", nargs="*", default=["hunters", "clans", "iwari"])
    args = parser.parse_args()
    tribes = Path(sys.executable).with_name("tribes")
    with tempfile.TemporaryDirectory() as scratch:
        for name in args.names:
            folder = Path(scratch) / name
            play = ["simulate", name, "--games", str(args.games), "--seed", str(args.seed)]
            subprocess.run(
                [tribes, *play, "--save", str(folder)],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            seconds = events = 0.0
            for log in sorted(folder.glob("*.tribes")):
                out = subprocess.run(
                    [sys.executable, "-c", ONE, str(log)],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout.split()
                spent, count = float(out[0]), int(out[1])
                seconds, events = seconds + spent, events + count
                print(
                    f"{log.name[:32]:32} {count:4d} events {spent / count * 1000:.3f} ms an event"
                )
            print(f"{name}: {events:.0f} events, {seconds / events * 1000:.3f} ms of CPU an event")


if __name__ == "__main__":
    main()
