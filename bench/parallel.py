"""Scaling of simulate and verify with workers: 1 process, a pool of N, a local Dask cluster of N.

Two figures for each: the best of ``--repeat`` runs of wall-clock time, and one from CPU time,
for a machine that others share (as this project's is): the CPU seconds of the coordinating
process plus those of the workers divided by their number, which is what the wall time would be
on an idle machine with a core per worker if the shards balance (they are small: ~16 a worker)
and the coordinator's work overlapped none of theirs (a conservative sum). The load average is
printed with each run. The Dask cluster is started once, before timing (its start-up is printed
apart); a pool's start-up (spawning and importing) is inside each run. Prints; asserts nothing.

Run: ``.venv/bin/python bench/parallel.py [--game clans] [--games 4000] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tribes import games
from tribes.replay import batch, simulate
from tribes.replay.parallel import Where


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def own_cpu() -> float:
    return time.process_time()


def timed(
    run: Callable[[], object], cpu: Callable[[], float], repeat: int
) -> tuple[float, float, float]:
    """Best wall time of ``repeat`` runs; the least CPU seconds of the coordinator and of the
    workers (all of them) in a run."""
    wall = here = there = float("inf")
    for _ in range(repeat):
        began, mine, theirs = time.perf_counter(), own_cpu(), cpu()
        run()
        wall = min(wall, time.perf_counter() - began)
        here = min(here, own_cpu() - mine)
        there = min(there, cpu() - theirs)
    return wall, here, there


def warm() -> None:
    simulate.play_shard(simulate.Plan("clans", simulate.match(games.get("clans")), 1, 0, 1))


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

    def sim(where: Where) -> Callable[[], object]:
        return lambda: simulate.simulate(game, games=args.games, seed=1, how=how, where=where)

    def ver(where: Where) -> Callable[[], object]:
        return lambda: batch.verify([corpus], where, lambda line: None)

    print(
        f"{args.game}: {args.games} games a run, best of {args.repeat}; load {os.getloadavg()[0]:.1f}"
    )
    rows: list[tuple[str, str, float, float]] = []

    def measure(label: str, where: Where, cpu: Callable[[], float], workers: int) -> None:
        for what, make in (("simulate", sim), ("verify", ver)):
            wall, here, there = timed(make(where), cpu, args.repeat)
            idle = here + there / workers
            rows.append((what, label, args.games / wall, args.games / idle))
            print(
                f"  {what:8} {label:14} {args.games / wall:7,.0f} games/s wall, "
                f"{args.games / idle:7,.0f} from CPU time (coordinator {here:5.2f} s, workers "
                f"{there:5.2f} s; load {os.getloadavg()[0]:.1f})"
            )

    measure("1 process", Where(1), lambda: 0.0, 1)
    if args.only in (None, "pool"):
        measure(f"pool of {n}", Where(jobs=n), children_cpu, n)
    if args.only in (None, "dask"):
        from tribes.replay.parallel import connect

        began = time.perf_counter()
        with connect(f"local:{n}") as client:
            client.run(warm)  # the workers import tribes once, as a long-lived cluster's have
            print(f"  (local Dask cluster of {n} started in {time.perf_counter() - began:.1f} s)")

            def dask_cpu() -> float:
                return sum(client.run(time.process_time).values())

            address = client.scheduler.address
            measure(f"dask local:{n}", Where(cluster=address), dask_cpu, n)
    base = {what: (wall, cpu) for what, label, wall, cpu in rows if label == "1 process"}
    for what, label, wall, cpu in rows:
        if label != "1 process":
            print(
                f"  {what:8} {label:14} {wall / base[what][0]:.2f}x the 1-process figure "
                f"(wall), {cpu / base[what][1]:.2f}x (from CPU time)"
            )


if __name__ == "__main__":
    main()
