"""A shard's results as they travel from a worker and wait for their turn: one compressed pickle,
unpacked when the run reaches them.

A sweep's results are mostly text: a ``baseline`` or ``regress`` record holds each game's digests,
outcome and the effects' words. A shard of 200 Clans games is 630 KB as Python objects, 330 KB
pickled and 94 KB pickled and compressed (zlib level 1: 3 ms of the half second a worker takes for
the shard). Up to four finished shards a worker wait in the main process for one before them
(:data:`tribes.replay.parallel.WINDOW`): packed, they are under 1 MB at two workers, against 5 MB
as objects; that was most of what a run of a million games held above a run of a thousand. A
``simulate --save`` shard of 500 games (a statistics row and a corpus record each) is 370 KB as
objects, 78 KB packed.

The pickle never leaves the run: a worker of the run makes it and the process that started that
worker reads it, as ``concurrent.futures`` and Dask do with every task and result. No file, log,
corpus or baseline is ever read with pickle.
"""

from __future__ import annotations

import functools
import pickle
import zlib
from collections.abc import Callable
from typing import Generic, TypeAlias, TypeVar

import attrs

from tribes.replay.parallel import Where

T = TypeVar("T")
R = TypeVar("R")

LEVEL = 1
"""zlib's fastest level: 3.5× smaller for a sweep's records; level 6 is 5× at three times the
cost."""


@attrs.frozen
class Packed(Generic[R]):
    """A task's result, pickled and compressed; ``len`` is how many games it holds (for
    progress)."""

    count: int
    data: bytes

    def __len__(self) -> int:
        return self.count

    def unpack(self) -> R:
        result: R = pickle.loads(zlib.decompress(self.data))  # noqa: S301  made by a worker of this run
        return result


def pack(result: R, count: int) -> Packed[R]:
    data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    return Packed(count, zlib.compress(data, LEVEL))


def packed(task: Callable[[T], R], count: Callable[[R], int]) -> Callable[[T], Packed[R]]:
    """``task`` with its result packed as it returns it, ``count(result)`` the games it holds
    (picklable when ``task`` and ``count`` are: functions of a module)."""
    return functools.partial(_packing, task, count)


def _packing(task: Callable[[T], R], count: Callable[[R], int], shard: T) -> Packed[R]:
    result = task(shard)
    return pack(result, count(result))


def travelling(
    task: Callable[[T], R], where: Where, count: Callable[[R], int]
) -> Callable[[T], Maybe[R]]:
    """``task`` itself where it runs in this process (nothing travels), else packed."""
    if where.jobs == 1 and where.cluster is None:
        return task
    return packed(task, count)


Maybe: TypeAlias = "Packed[R] | R"
"""A task's result, packed (it travels) or not (the task runs in this process)."""


def unpacked(result: Maybe[R]) -> R:
    """The result itself, packed or not."""
    return result.unpack() if isinstance(result, Packed) else result
