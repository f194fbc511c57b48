"""Scaling of simulate and verify with workers: one process, a pool of N, local Dask clusters
of 1 and of N workers.

Each figure is the best of ``--repeat`` rounds, and the rounds interleave the ways of running
(one round runs each way once, in turn), so that a machine whose speed drifts from one minute to
the next (this project's does, by ±15%) slows every way alike. Two figures for each: wall-clock
time, and one from CPU time for a machine that others share: the CPU seconds of the
coordinating process plus those of the workers divided by their number, which is what the wall
time would be on an idle machine with a core per worker if the shards balance (~16 a worker) and
the coordinator's work overlapped none of theirs (a conservative sum).

The ratios printed at the end are the issue's: N workers against 1 worker, for the pool (whose
one-worker run is the plain process: ``--jobs 1`` forks nothing) and for Dask (local:N against
local:1, both started before timing; their start-up is printed apart). The pool's rounds run
before the clusters start, the clusters' rounds interleave with each other. A pool's start-up
(forking) is inside each run. Prints; asserts nothing.

Run: ``.venv/bin/python bench/parallel.py [--game clans] [--games 4000] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from tribes import games
from tribes.replay import batch, simulate
from tribes.replay.parallel import Where, connect


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def warm() -> None:
    simulate.play_shard(simulate.Plan("clans", simulate.match(games.get("clans")), 1, 0, 1))


class Way:
    """One way of running the work, and the best figures it reached."""

    def __init__(self, label: str, where: Where, cpu: Callable[[], float], workers: int) -> None:
        self.label = label
        self.where = where
        self.cpu = cpu
        self.workers = workers
        self.best: dict[str, tuple[float, float, float]] = {}
        """By work: (wall s, coordinator CPU s, workers' CPU s), each the least of the rounds."""

    def run(self, what: str, work: Callable[[Where], object]) -> None:
        began, mine, theirs = time.perf_counter(), time.process_time(), self.cpu()
        work(self.where)
        took = (
            time.perf_counter() - began,
            time.process_time() - mine,
            self.cpu() - theirs,
        )
        old = self.best.get(what, (float("inf"),) * 3)
        self.best[what] = (min(old[0], took[0]), min(old[1], took[1]), min(old[2], took[2]))

    def rates(self, what: str, games_count: int) -> tuple[float, float]:
        """Games a second: by wall time, and from CPU time."""
        wall, here, there = self.best[what]
        return games_count / wall, games_count / (here + there / self.workers)


def rounds(ways: list[Way], work: dict[str, Callable[[Where], object]], repeat: int) -> None:
    for round_ in range(repeat):
        for way in ways:
            for what, job in work.items():
                way.run(what, job)
        print(
            f"  ({', '.join(w.label for w in ways)}: round {round_ + 1} done; load "
            f"{os.getloadavg()[0]:.1f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="clans")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=["pool", "dask"], help="Measure one kind only.")
    args = parser.parse_args()
    game = games.get(args.game)
    how = simulate.match(game, ("random",))
    n = args.workers
    folder = Path(tempfile.mkdtemp(prefix="tribes-bench-"))
    corpus = folder / "bench.corpus"
    simulate.simulate(game, games=args.games, seed=1, how=how, save=corpus, where=Where(jobs=n))
    work: dict[str, Callable[[Where], object]] = {
        "simulate": lambda where: simulate.simulate(
            game, games=args.games, seed=1, how=how, where=where
        ),
        "verify": lambda where: batch.verify([corpus], where, lambda line: None),
    }
    print(
        f"{args.game}: {args.games} games a run, best of {args.repeat} interleaved rounds; "
        f"load {os.getloadavg()[0]:.1f}"
    )
    ways = [Way("1 process", Where(1), lambda: 0.0, 1)]
    if args.only in (None, "pool"):
        ways.append(Way(f"pool of {n}", Where(jobs=n), children_cpu, n))
    rounds(ways, work, args.repeat)  # before any cluster: its threads would make the pool
    # start its workers from a fork server, whose CPU time this process cannot read
    if args.only in (None, "dask"):
        with ExitStack() as stack:
            clusters = []
            for count in (1, n):
                began = time.perf_counter()
                client = stack.enter_context(connect(f"local:{count}"))
                client.run(warm)  # the workers import tribes once, as a long-lived cluster's do
                took = time.perf_counter() - began
                print(f"  (local Dask cluster of {count} started in {took:.1f} s)")

                def dask_cpu(client: Any = client) -> float:
                    return sum(client.run(time.process_time).values())

                where = Where(cluster=client.scheduler.address)
                clusters.append(Way(f"dask local:{count}", where, dask_cpu, count))
            rounds(clusters, work, args.repeat)
            ways.extend(clusters)
    for what in work:
        for way in ways:
            wall, cpu = way.rates(what, args.games)
            _, here, there = way.best[what]
            print(
                f"  {what:8} {way.label:14} {wall:7,.0f} games/s wall, {cpu:7,.0f} from CPU time "
                f"(coordinator {here:5.2f} s, workers {there:5.2f} s)"
            )
    by_label = {way.label: way for way in ways}
    pairs = [(f"pool of {n}", "1 process"), (f"dask local:{n}", "dask local:1")]
    pairs.append((f"dask local:{n}", "1 process"))
    for what in work:
        for many, one in pairs:
            if many in by_label and one in by_label:
                a, b = by_label[many].rates(what, args.games), by_label[one].rates(what, args.games)
                print(
                    f"  {what:8} {many:14} {a[0] / b[0]:.2f}x {one} (wall), "
                    f"{a[1] / b[1]:.2f}x (from CPU time)"
                )


if __name__ == "__main__":
    main()
