"""Mutated logs against ``verify``: crashes, hangs and silent accepts, over both forms.

    python bench/logs_fuzz.py --mutants 20000

Logs are played by ``new`` and several ``act`` (1 to 6 moves each); each mutant (bit flips,
cuts, inserted and deleted bytes, hostile msgpack in well-framed records, legal-looking
replacements of an event with later records dropped, header tampering, swapped, duplicated and
dropped records, version downgrades; in JSON: changed characters, cuts, any value replaced or
deleted, lone surrogates, NaN, numbers that are not integers, replaced events with and without a
recomputed digest, rotated seats, forged metadata, changed commits and digests) is verified with
a 10 s alarm. A *silent accept* is a mutant that verify calls ok whose content (header and
events) is neither the original's nor the log as it was at one of its commits. Every cut at
every offset of one log of each form is added. Prints counts by outcome and kind.
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

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "logs"))

import mutants

from tribes.events import logfile


class Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def run(count: int, seed: int) -> Counter[tuple[str, str]]:
    rng = random.Random(seed)
    signal.signal(signal.SIGALRM, _alarm)
    results: Counter[tuple[str, str]] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sources = []
        for i, appends in enumerate([[1], [1, 2], [3, 1, 1], [6, 6, 6, 6], [1, 1, 1, 1, 1, 1]]):
            for suffix in (".tribes", ".json"):
                path = mutants.played(10 + i, appends, folder, f"orig{i}{suffix}")
                sources.append(path)
        per = count // len(sources)
        target = folder / "m"
        for src in sources:
            prefixes = mutants.commit_prefixes(src)
            data = src.read_bytes()
            if src.suffix == ".json":
                made = mutants.json_mutants(data.decode(), rng, per)
            else:
                made = mutants.binary_mutants(data, rng, per)
            if src.name.startswith("orig1"):
                cuts = [("cut-every", data[:n]) for n in range(len(data))]
                made = iter([*made, *cuts])
            for kind, mutant in made:
                path = target.with_suffix(src.suffix)
                path.write_bytes(mutant)
                signal.alarm(10)
                try:
                    verdict = mutants.judge(path, prefixes)
                except Hang:
                    verdict = "hang"
                except MemoryError:
                    verdict = "blow-up"
                except Exception as exc:
                    verdict = f"crash {type(exc).__name__}"
                finally:
                    signal.alarm(0)
                results[(verdict, kind)] += 1
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.perf_counter()
    results = run(args.mutants, args.seed)
    took = time.perf_counter() - began
    total = sum(results.values())
    verdicts: Counter[str] = Counter()
    for (verdict, _), n in results.items():
        verdicts[verdict.split()[0]] += n
    print(
        f"{total} mutants in {took:.0f} s (limits: {logfile.MAX_EVENTS} events, "
        f"{logfile.MAX_LOG_BYTES} bytes); outcome counts:"
    )
    for verdict, n in sorted(verdicts.items()):
        print(f"  {verdict}: {n}")
    print("by kind (refused / ok-same / other):")
    kinds = sorted({k for _, k in results})
    for kind in kinds:
        other = sum(
            n for (v, k), n in results.items() if k == kind and v not in ("refused", "ok-same")
        )
        print(f"  {kind}: {results[('refused', kind)]} / {results[('ok-same', kind)]} / {other}")
    bad = [(v, k, n) for (v, k), n in results.items() if v not in ("refused", "ok-same")]
    for v, k, n in bad:
        print(f"  BAD {v} {k}: {n}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
