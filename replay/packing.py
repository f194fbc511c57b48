"""A shard's results as they travel from a worker and wait for their turn: one compressed pickle,
unpacked when the run reaches them.

A sweep's results are mostly text: a ``baseline`` or ``regress`` record holds each game's digests,
outcome and the effects' words. A shard of 200 Clans games is 630 KB as Python objects, 330 KB
pickled and 94 KB pickled and compressed (zlib level 1: 3 ms of the half second a worker takes for
the shard). Up to four finished shards a worker wait in the main process for one before them
(:data:`tribes.replay.parallel.WINDOW`): packed, they are under 1 MB at two workers, against 5 MB
as objects; that was most of what a run of a million games held above a run of a thousand.

The pickle never leaves the run: a worker of the run makes it and the process that started that
worker reads it, as ``concurrent.futures`` and Dask do with every task and result. No file, log,
corpus or baseline is ever read with pickle.
"""

from __future__ import annotations

import functools
import pickle
import zlib
from collections.abc import Callable, Sequence
from typing import Generic, TypeAlias, TypeVar

import attrs

T = TypeVar("T")
R = TypeVar("R")

LEVEL = 1
"""zlib's fastest level: 3.5× smaller for a sweep's records; level 6 is 5× at three times the
cost."""


@attrs.frozen
class Packed(Generic[R]):
    """A list of results, pickled and compressed; ``len`` is how many it holds (for progress)."""

    count: int
    data: bytes

    def __len__(self) -> int:
        return self.count

    def unpack(self) -> list[R]:
        results: list[R] = pickle.loads(zlib.decompress(self.data))  # noqa: S301  made by a worker of this run
        return results


def pack(results: Sequence[R]) -> Packed[R]:
    data = pickle.dumps(list(results), protocol=pickle.HIGHEST_PROTOCOL)
    return Packed(len(results), zlib.compress(data, LEVEL))


def packed(task: Callable[[T], Sequence[R]]) -> Callable[[T], Packed[R]]:
    """``task`` with its results packed as it returns them (picklable when ``task`` is)."""
    return functools.partial(_packing, task)


def _packing(task: Callable[[T], Sequence[R]], shard: T) -> Packed[R]:
    return pack(task(shard))


Maybe: TypeAlias = "Packed[R] | Sequence[R]"
"""A task's results, packed (they travel) or not (the task runs in this process)."""


def unpacked(results: Maybe[R]) -> Sequence[R]:
    """The results themselves, packed or not."""
    return results.unpack() if isinstance(results, Packed) else results
