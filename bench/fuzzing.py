"""What the input fuzzers of ``bench/`` share (``query_fuzz.py``, ``positions_fuzz.py``): a
verdict given within a time limit, and the command line and table they print."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

Results = tuple[Counter[tuple[str, str, str]], list[str]]
"""Counts by (game, kind, outcome), and a line for each silent accept, crash or hang."""


class Hang(Exception):
    """An input took longer than its limit."""


def _alarm(signum: int, frame: object) -> None:
    raise Hang


@contextmanager
def alarms() -> Iterator[None]:
    """While inside, SIGALRM raises :class:`Hang` (for :func:`within`)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        yield
    finally:
        signal.signal(signal.SIGALRM, previous)


def within(seconds: int, judge: Callable[..., str], *args: object) -> str:
    """``judge(*args)``'s verdict, or "hang" if it takes over ``seconds`` (inside
    :func:`alarms`)."""
    signal.alarm(seconds)
    try:
        return judge(*args)
    except Hang:
        return "hang"
    finally:
        signal.alarm(0)


def main(
    doc: str,
    run: Callable[[int, int, int], Results],
    outcomes: Sequence[str],
    noun: str,
    every_help: str,
    widths: tuple[int, int] = (10, 10),
) -> None:
    """The fuzzer's command: ``--inputs``, ``--seed``, ``--every``; the table of outcomes by
    game and kind, then the bad inputs; exit 1 if there is one."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=100, help=every_help)
    args = parser.parse_args()
    began = time.perf_counter()
    results, bad = run(args.inputs, args.seed, args.every)
    took = time.perf_counter() - began
    kind_width, column = widths
    print(f"{'game':<10}{'kind':<{kind_width}}" + "".join(f"{o:>{column}}" for o in outcomes))
    for name, kind in sorted({(n, k) for n, k, _ in results}):
        row = "".join(f"{results[(name, kind, o)]:>{column}}" for o in outcomes)
        print(f"{name:<10}{kind:<{kind_width}}{row}")
    totals = {o: sum(n for (_, _, v), n in results.items() if v == o) for o in outcomes}
    print(f"{'all':<{10 + kind_width}}" + "".join(f"{totals[o]:>{column}}" for o in outcomes))
    print(f"{sum(results.values())} {noun} in {took:.0f} s")
    for line in bad[:30]:
        print("  " + line)
    sys.exit(1 if bad else 0)
