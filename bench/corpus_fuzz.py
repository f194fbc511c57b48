"""Mutated corpora against ``verify``: crashes, hangs and silent accepts.

    python bench/corpus_fuzz.py --mutants 20000

Corpora of small Clans games (tags, notes, several appends) are mutated
(``tests/corpus/corpus_mutants.py``): a cut at every offset and a flipped bit in every byte of
each, then seeded mutants of every kind — games swapped, duplicated, dropped, moved; appends
dropped, swapped; bytes hidden between records; forged digests; hostile index and trailer values
with their CRCs recomputed; bytes inserted and deleted — each verified (in process, as ``tribes
verify`` does) with a 10 s alarm. A *silent accept* is a mutant that verify calls ok whose games
read back otherwise than the original's, or than the corpus at one of its earlier commits (a
clean cut at a commit is that earlier corpus: ``prefix``). Prints counts by kind and outcome.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "corpus"))

import corpus_mutants as mutants

ORIGINALS = ((2, 3, 1), (1, 1, 1, 1), (4,))
"""The games of each append of each original corpus."""


class Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def changed(data: bytes, kind: str, rng: random.Random, scratch: Path) -> bytes:
    """A mutant of ``kind`` that differs from ``data`` (an edit can happen to change nothing: a
    game moved to where it was, a count lowered below 0 and kept at 0)."""
    for _ in range(20):
        mutant = mutants.edited(data, kind, rng, scratch)
        if mutant != data:
            break
    return mutant


def run(count: int, seed: int) -> tuple[Counter[tuple[str, str]], list[str]]:
    rng = random.Random(seed)
    signal.signal(signal.SIGALRM, _alarm)
    results: Counter[tuple[str, str]] = Counter()
    bad: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        target, scratch = folder / "m.corpus", folder / "s.corpus"
        sources = []
        for i, groups in enumerate(ORIGINALS):
            path = folder / f"orig{i}.corpus"
            expected = mutants.original(path, groups)
            sources.append((path.read_bytes(), expected, mutants.commits_of(groups)))
        every = sum(2 * len(data) for data, _, _ in sources)
        share = len(mutants.KINDS) * len(sources)
        per_kind = max(1, -(-(count - every) // share))  # rounded up: at least ``count``
        for data, expected, commits in sources:
            made = [*mutants.every_cut(data), *mutants.every_flip(data, rng)]
            made += [
                (kind, changed(data, kind, rng, scratch))
                for kind in mutants.KINDS
                for _ in range(per_kind)
            ]
            for kind, mutant in made:
                target.write_bytes(mutant)
                signal.alarm(10)
                try:
                    verdict = mutants.judge(target, expected, commits)
                except Hang:
                    verdict = "hang"
                finally:
                    signal.alarm(0)
                short = verdict.split(":")[0]
                results[(kind, short)] += 1
                if short in ("silent", "crash", "hang"):
                    bad.append(f"{kind}: {verdict}")
    return results, bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.perf_counter()
    results, bad = run(args.mutants, args.seed)
    took = time.perf_counter() - began
    kinds = sorted({kind for kind, _ in results})
    outcomes = ("refused", "same", "prefix", "silent", "crash", "hang")
    print(f"{'kind':<16}" + "".join(f"{o:>9}" for o in outcomes))
    for kind in kinds:
        print(f"{kind:<16}" + "".join(f"{results[(kind, o)]:>9}" for o in outcomes))
    total = sum(results.values())
    totals = {o: sum(n for (_, v), n in results.items() if v == o) for o in outcomes}
    print(f"{'all':<16}" + "".join(f"{totals[o]:>9}" for o in outcomes))
    print(f"{total} mutants in {took:.0f} s")
    for line in bad[:20]:
        print("  " + line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
