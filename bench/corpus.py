"""The corpus file: what saving costs a simulation, bytes per event, verifying a big corpus.

- ``simulate`` without saving against ``simulate --save NAME.corpus`` (one process; target: within
  15%), best of ``--repeat`` runs, by wall time and by CPU time (this project's machine is
  shared: CPU time is what the work itself costs);
- bytes per event of the corpus, header parts, index and commits included (target for Clans:
  under 8), for Clans and Iwari;
- ``verify`` of a corpus of ``--verify-games`` Clans games with ``--jobs`` workers (target: 100,000
  games in under 60 s with 2), with the CPU seconds of the workers.

Run: ``.venv/bin/python bench/corpus.py [--games 3000] [--verify-games 100000] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from tribes import games
from tribes.replay import batch, corpus, simulate
from tribes.replay.parallel import Where


def run(game_name: str, count: int, save: Path | None, where: Where) -> tuple[float, float]:
    game = games.get(game_name)
    how = simulate.match(game, ("random",))
    if save is not None and save.exists():
        save.unlink()
    began, cpu = time.perf_counter(), time.process_time()
    simulate.simulate(game, games=count, seed=1, how=how, save=save, where=where)
    return time.perf_counter() - began, time.process_time() - cpu


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--verify-games", type=int, default=0, help="0: skip the big verify.")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tribes-corpus-bench-"))
    print(f"load {os.getloadavg()[0]:.1f}")
    for name in ("clans", "iwari"):
        count = args.games if name == "clans" else max(1, args.games // 4)
        path = folder / f"{name}.corpus"
        plain, saved = [], []
        for _ in range(args.repeat):  # interleaved, so that a drifting machine slows both alike
            plain.append(run(name, count, None, Where(1)))
            saved.append(run(name, count, path, Where(1)))
        wall = min(p[0] for p in plain), min(s[0] for s in saved)
        cpu = min(p[1] for p in plain), min(s[1] for s in saved)
        print(
            f"{name}: simulate {count / wall[0]:6,.0f} games/s, with --save .corpus "
            f"{count / wall[1]:6,.0f} (wall: {wall[1] / wall[0] - 1:+.1%}; CPU: "
            f"{cpu[0]:.2f} s -> {cpu[1]:.2f} s, {cpu[1] / cpu[0] - 1:+.1%})"
        )
        with corpus.Corpus(path) as read:
            events = sum(len(log.events) for _, _, log in read.stream())
        size = path.stat().st_size
        print(
            f"{name}: {size:,} bytes for {count:,} games of {events / count:.1f} events: "
            f"{size / events:.2f} bytes/event, {size / count:.0f} bytes/game "
            f"(parts, index and commits included)"
        )
    if args.verify_games:
        path = folder / "big.corpus"
        began = time.perf_counter()
        run("clans", args.verify_games, path, Where(jobs=args.jobs))
        print(f"made {args.verify_games:,} Clans games in {time.perf_counter() - began:.1f} s")
        began, mine, theirs = time.perf_counter(), time.process_time(), children_cpu()
        totals = batch.verify([path], Where(jobs=args.jobs), lambda line: None)
        took = time.perf_counter() - began
        here, there = time.process_time() - mine, children_cpu() - theirs
        print(
            f"verify {totals.ok:,} games ({path.stat().st_size / 1e6:.1f} MB), --jobs "
            f"{args.jobs}: {took:.1f} s wall ({totals.ok / took:,.0f} games/s); CPU: "
            f"coordinator {here:.1f} s, workers {there:.1f} s -> {here + there / args.jobs:.1f} s "
            f"on an idle machine; load {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
