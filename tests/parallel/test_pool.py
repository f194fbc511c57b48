"""A local pool whose worker process dies: rebuilt for the shards not yet in, each counted once."""

from __future__ import annotations

import os
from pathlib import Path

from tribes.replay import parallel
from tribes.replay.parallel import Where


def die_once(item: tuple[str, int]) -> int:
    """Doubles the number; the first call anywhere kills its worker process instead."""
    marker, number = item
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return number * 2
    os.close(fd)
    os._exit(1)


def test_a_pool_worker_that_dies_loses_and_double_counts_nothing(tmp_path: Path):
    marker = str(tmp_path / "died")
    done: list[int] = []
    items = [(marker, i) for i in range(8)]
    results = list(parallel.execute(die_once, items, Where(jobs=2), lambda i, r: done.append(i)))
    assert Path(marker).exists()  # a worker did die
    assert results == [2 * i for i in range(8)]
    assert sorted(done) == list(range(8))  # each shard reported once
