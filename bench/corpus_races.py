"""Races of corpus writers: ``--force`` against a writer at work, two new corpora at one name.

    python bench/corpus_races.py --races 200

Each race runs two writer processes at once (forked, each with its own open files and locks,
as two ``tribes`` commands are):

- **force**: a writer makes a corpus and appends games in several commits, pausing between
  them; at a random moment another replaces the corpus (``new=True, force=True``, as ``simulate
  --save X --force`` and ``corpus add --new --force`` do). Each writer, when it acknowledges
  (its last commit done, its lock still held), checks that the name still leads to the file it
  wrote: an *orphaned* writer is one whose acknowledged games are not at the name. Then the
  corpus must verify and hold exactly the games of the writer that finished last.
- **new**: two writers make the same new corpus at once (half the races with a link planted at
  the old fixed temporary name, ``.NAME.tmp``, leading to a victim file; a quarter with a link
  at the name itself, both with ``force``): without ``force`` one makes it and the other is told
  it exists; the corpus holds the maker's games; the victim is never written; the name is never
  left a link.

Prints the races by kind and outcome; any lost game, orphan or followed link is a failure.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tribes import games
from tribes.core.errors import TribesError
from tribes.replay import batch, corpus, simulate
from tribes.replay.parallel import Where

GAME = games.get("clans")
HOW = simulate.match(GAME, ("random",))


def encoded(seeds: range) -> list[corpus.Encoded]:
    return [corpus.encode_game(GAME, simulate.play_game(GAME, s, HOW).log) for s in seeds]


def writer(path: str, records: list[Any], force: bool, pause: float, start: Any, out: Any) -> None:
    """Write ``records`` to a new corpus in commits of a few, pausing between them; report
    what happened, and whether the name led to this writer's file when it acknowledged."""
    start.wait()
    try:
        with corpus.Writer(Path(path), new=True, force=force, wait=30) as w:
            for i, record in enumerate(records):
                w.add_encoded(record)
                if i % 3 == 2:
                    w.commit()
                    time.sleep(pause)
            w.commit()
            mine, now = os.fstat(w.fd), os.stat(path, follow_symlinks=False)
            at_name = (mine.st_ino, mine.st_dev) == (now.st_ino, now.st_dev)
        out.put(("ok", [r.seed for r in records], at_name, time.monotonic()))
    except TribesError as exc:
        out.put(("exists" if "exists" in exc.message else exc.message, [], True, 0.0))
    except Exception as exc:
        out.put((f"crash {type(exc).__name__}: {exc}", [], True, 0.0))


def seeds_of(path: Path) -> list[int] | str:
    lines: list[str] = []
    totals = batch.verify([path], Where(), lines.append)
    if totals.failed or totals.failed_inputs:
        return f"verify fails: {lines[-1]}"
    with corpus.Corpus(path) as read:
        return [read.log(k)[1].header.seed for k in range(len(read))]


def race(kind: str, folder: Path, rng: random.Random, pools: dict[str, list[Any]]) -> str:
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    path = folder / f"{kind}-{rng.randrange(1 << 30)}.corpus"
    victim = folder / "victim"
    victim.write_text("data\n")
    if kind == "force":
        start = context.Barrier(2)
        first = context.Process(
            target=writer, args=(str(path), pools["a"], False, 0.02, start, out)
        )
        second = context.Process(
            target=_delayed, args=(str(path), pools["b"], rng.uniform(0, 0.15), start, out)
        )
        plant = ""
    else:
        plant = rng.choice(["", "", "tmp", "name"])
        force = plant == "name"
        if plant == "tmp":
            (folder / f".{path.name}.tmp").symlink_to(victim)
        if plant == "name":
            path.symlink_to(victim)
        start = context.Barrier(2)
        first = context.Process(
            target=writer, args=(str(path), pools["a"][:2], force, 0, start, out)
        )
        second = context.Process(
            target=writer, args=(str(path), pools["b"][:2], force, 0, start, out)
        )
    for p in (first, second):
        p.start()
    for p in (first, second):
        p.join(120)
        if p.is_alive():
            p.kill()
            return "hang"
    results = [out.get(timeout=5) for _ in range(2)]
    if victim.read_text() != "data\n":
        return "link followed"
    if path.is_symlink():
        return "left a link"
    for outcome, _, at_name, _ in results:
        if outcome.startswith("crash"):
            return outcome
        if outcome == "ok" and not at_name:
            return "orphaned writer"
    done = sorted((r for r in results if r[0] == "ok"), key=lambda r: r[3])
    if not done:
        return "no writer made it: " + "; ".join(r[0] for r in results)
    found = seeds_of(path)
    if found != done[-1][1]:
        return f"lost games: {found} instead of the last writer's {done[-1][1]}"
    if kind == "new" and plant != "name":
        outcomes = sorted(r[0] for r in results)
        if outcomes != ["exists", "ok"]:
            return f"two makers: {outcomes}"
        return f"one made it, one told it exists{' (link planted)' if plant else ''}"
    if kind == "new":
        return "both replaced the link in turn"
    return "replaced after the writer" if len(done) == 2 else f"one refused: {_refused(results)}"


def _refused(results: list[Any]) -> str:
    return next(r[0] for r in results if r[0] != "ok")[:40]


def _delayed(path: str, records: list[Any], delay: float, start: Any, out: Any) -> None:
    class Later:
        def wait(self) -> None:
            start.wait()
            time.sleep(delay)

    writer(path, records, True, 0, Later(), out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pools = {"a": encoded(range(1, 13)), "b": encoded(range(101, 106))}
    outcomes: Counter[tuple[str, str]] = Counter()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.races):
            kind = "force" if i % 2 == 0 else "new"
            folder = Path(tmp) / str(i)
            folder.mkdir()
            outcomes[(kind, race(kind, folder, rng, pools))] += 1
    good = (
        "replaced after the writer",
        "both replaced the link in turn",
        "one made it, one told it exists",
        "one made it, one told it exists (link planted)",
    )
    bad = 0
    for (kind, outcome), n in sorted(outcomes.items()):
        fine = outcome in good or outcome.startswith("one refused")
        bad += 0 if fine else n
        print(f"{kind:<6} {n:>4}  {outcome}{'' if fine else '   <-- FAILURE'}")
    print(f"{args.races} races in {time.perf_counter() - began:.0f} s, {bad} failures")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
