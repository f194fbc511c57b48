"""Peak memory and time of ``tribes verify`` on big corpora, each measured in a process of its own.

    python bench/corpus_memory.py [--games 1000000] [--events 2] [--jobs 1]

- **many games**: a corpus of ``--games`` Clans games (``--events`` moves each, so that replaying
  costs little and the corpus's own reading shows), committed a thousand at a time as `simulate
  --save` does: what the coordinator holds grows with the appends (56 bytes each, the games'
  offsets read from their indexes as asked), the rest (a few chunks in flight) does not.
- **many appends**: a hostile corpus as big, of nothing but empty appends (an index and a
  trailer, 31 bytes each): the most appends a file of that size can hold.

Prints the file size, the wall time and the peak resident memory (``ru_maxrss`` of the verify
process and its workers) of each.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tribes import games
from tribes.events import corpus as fmt
from tribes.events.logfile import GameLog
from tribes.replay import corpus, logs

GAME = games.get("clans")


def many_games(path: Path, count: int, events: int) -> None:
    head = logs.header(GAME, seats=["ann", "bob", "cy"], seed=1)
    encoder = corpus.Encoder()
    with corpus.Writer(path, new=True) as writer:
        for i in range(count):
            state = GAME.setup(attrs_seed(head, i))
            played = []
            for _ in range(events):
                move = GAME.legal_moves(state)[0]
                state, _ = GAME.apply(state, move)
                played.append(move)
            log = GameLog(header=attrs_seed(head, i), events=tuple(played))
            writer.add_encoded(encoder.encode(GAME, log, state))


def attrs_seed(head: object, seed: int) -> object:
    import attrs

    return attrs.evolve(head, seed=seed)


def many_appends(path: Path, size: int) -> int:
    first = fmt.MAGIC + fmt.corpus_header()
    out = bytearray(first)
    digest, previous, appends = fmt.NO_DIGEST, 0, 0
    while len(out) < size:
        digest = fmt.AppendDigest(digest).finish(0, 0)
        at = len(out)
        out += fmt.index_record(0, previous, [], at, [], digest) + fmt.trailer(at, 0)
        previous = at
        appends += 1
    path.write_bytes(bytes(out))
    return appends


WRAPPER = """
import resource, subprocess, sys, time
began = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=False)
took = time.perf_counter() - began
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
out = done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or [""]
print(f"{took:.1f} s, peak {peak:.0f} MB (exit {done.returncode}): {out[-1][:100]}")
"""
"""Runs verify and reports on it alone: the peak of its own process tree, not of the ones before."""


def measure(path: Path, jobs: int) -> str:
    verify = [sys.executable, "-m", "tribes.cli.main", "verify", str(path), "--jobs", str(jobs)]
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, *verify], capture_output=True, text=True, check=True
    )
    return f"{path.stat().st_size / 1e6:.1f} MB, {done.stdout.strip()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--events", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "games.corpus"
        began = time.perf_counter()
        many_games(big, args.games, args.events)
        print(f"made {args.games:,} games in {time.perf_counter() - began:.0f} s")
        print(f"many games:   {measure(big, args.jobs)}")
        size = big.stat().st_size
        big.unlink()
        hostile = Path(tmp) / "appends.corpus"
        appends = many_appends(hostile, size)
        print(f"many appends ({appends:,}): {measure(hostile, args.jobs)}")


if __name__ == "__main__":
    main()
