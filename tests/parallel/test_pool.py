"""A local pool whose worker process dies: rebuilt for the shards not yet in, each counted once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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


def double(number: int) -> int:
    return number * 2


class Counted:
    """Shards handed out one by one, counting how many were taken."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.taken = 0

    def __iter__(self):
        for i in range(self.count):
            self.taken += 1
            yield i


def test_shards_are_taken_as_the_work_needs_them_not_all_at_once():
    """A run of many shards (a corpus of a million games) never holds them all: a few per worker
    ahead, whether the work runs here or in a pool; the results are all there, in order."""
    for where, workers in ((Where(1), 1), (Where(jobs=2), 2)):
        shards = Counted(400)
        results = parallel.execute(double, shards, where)
        assert next(results) == 0
        assert shards.taken <= 2 + parallel.WINDOW * workers
        assert list(results) == [2 * i for i in range(1, 400)]
        assert shards.taken == 400


def test_verify_reads_a_corpus_a_chunk_at_a_time(tmp_path: Path, monkeypatch):
    from tribes import games
    from tribes.replay import batch, corpus, simulate

    save = tmp_path / "many.corpus"
    game = games.get("clans")
    simulate.simulate(game, games=64, seed=2, how=simulate.match(game), save=save)
    reads: list[int] = []
    chunk = corpus.Corpus.chunk

    def counted(self, start, stop):
        reads.append(start)
        return chunk(self, start, stop)

    monkeypatch.setattr(corpus.Corpus, "chunk", counted)
    units = batch.units([save], 1)
    next(units)
    assert len(reads) == 1  # one shard's bytes read, not the corpus's
    rest = list(units)
    assert len(rest) == 16  # 64 games in shards of 4 (16 a worker), then the corpus as a whole
    assert isinstance(rest[-1][1], batch.Whole)
    lines: list[str] = []
    totals = batch.verify([save], Where(jobs=2), lines.append)
    assert [line.partition(", digest ")[0] for line in lines] == [
        f"ok    {save}: 64 games, 64 verified, 0 failed"
    ]
    assert totals.ok == 64


def _unreadable_call() -> None:
    raise EOFError("Ran out of input")  # what a call half read by a stopped sibling unpickles to


def test_a_worker_whose_queue_breaks_ends_without_a_traceback(capfd):
    """A pool worker stopped while it read a call leaves the rest of it to the next reader, which
    fails outside any task: that worker ends with status 1 and prints nothing (its pool runs the
    shards again, or its command is ending); a plain process prints the traceback."""
    from multiprocessing.context import ForkProcess

    from tribes.replay import reaping

    plain = ForkProcess(target=_unreadable_call)
    plain.start()
    plain.join()
    assert "EOFError" in capfd.readouterr().err  # what users saw
    for context in (reaping.QuietForkContext(), reaping.QuietForkServerContext()):
        quiet = context.Process(target=_unreadable_call)
        quiet.start()
        quiet.join()
        assert quiet.exitcode == 1
        assert capfd.readouterr().err == ""


def slow_double(number: int) -> int:
    import time

    time.sleep(0.05)
    return number * 2


def test_a_pool_left_with_shards_pending_prints_nothing(capfd):
    """An error while shards are still pending (as SIGTERM or Ctrl-C raises): the workers are
    stopped, the error goes up as it is, and no thread of the pool prints a traceback (Python 3.11
    raised InvalidStateError in the pool's thread for a future this side had cancelled)."""
    for _ in range(5):

        def fail(index: int, result: int) -> None:
            raise RuntimeError("stop here")

        try:
            list(parallel.execute(slow_double, range(40), Where(jobs=2), fail))
        except RuntimeError as error:
            assert str(error) == "stop here"
        else:
            raise AssertionError("the error was lost")
    import time

    time.sleep(0.5)  # the pools' threads have ended with their pools; anything they printed is in
    assert capfd.readouterr().err == ""


def test_the_freed_heap_is_given_back_every_few_shards_however_the_work_runs(monkeypatch):
    """A sweep of a million games drops every shard's results in its main process; the heap's
    free pages are given back every ``heap.EVERY`` shards (regress of 1M games: 63 MB without,
    flat with), here and on a pool."""
    from tribes.replay import heap

    calls: list[int] = []
    monkeypatch.setattr(heap, "give_back", lambda: calls.append(1))
    monkeypatch.setattr(heap, "EVERY", 4)
    for where in (Where(1), Where(jobs=2)):
        calls.clear()
        assert list(parallel.execute(double, range(18), where)) == [2 * i for i in range(18)]
        assert len(calls) == 4  # after shards 4, 8, 12 and 16


def test_a_run_closed_early_stops_its_pool():
    """The consumer of a run stops early (``find --limit``): closing the run stops the pool's
    workers at once (the fork server and resource tracker a test run keeps are not the run's)."""
    import psutil

    def alive() -> set[int]:
        kids = psutil.Process().children(recursive=True)
        return {p.pid for p in kids if p.status() != psutil.STATUS_ZOMBIE}

    before = alive()
    results = parallel.execute(slow_double, range(40), Where(jobs=2))
    assert next(results) == 0
    assert alive() - before  # the pool at work
    results.close()  # type: ignore[attr-defined]  # a generator
    assert not alive() - before


def test_glibc_s_trim_is_found_where_there_is_glibc():
    import platform
    import sys

    from tribes.replay import heap

    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        pytest.skip("malloc_trim is glibc's")
    assert heap._TRIM is not None
    heap.give_back()
