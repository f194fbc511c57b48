"""Work in shards, on this process, a pool of processes or a Dask cluster, results in input order.

Long work (``simulate``, ``verify``, ``stats``) is cut into *shards*: a range of the games of a
run, a slice of a corpus, a few log files. A shard is the unit of work everywhere: a task is a
pure function of its shard (game ``i`` of a run has its seed from the run's seed and ``i``, a
corpus slice travels as its bytes), so a shard may run anywhere, and again, with the same result.

:func:`execute` runs the tasks and yields their results *in input order*, each exactly once: a
result fills the slot of its shard, so a shard that ran twice (its first worker died after
finishing it, or the scheduler ran it again) is counted once, and a shard whose worker died is run
again, on a new pool (``jobs``) or by Dask's scheduler (``cluster``).

Where the work runs (:class:`Where`):

- ``jobs=1``: in this process (no pickling, no start-up);
- ``jobs=N``: a pool of N processes (``concurrent.futures``; forked, or from a fork server);
- ``cluster=ADDRESS``: a Dask distributed scheduler (``tcp://host:8786``); its workers need
  tribes installed, nothing else (no shared disk: a task carries its input);
- ``cluster="local:N"``: a Dask ``LocalCluster`` of N worker processes started for the run.

Dask is optional (``pip install tribes[cluster]``); asking for a cluster without it is a usage
error that says how to install it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, ExitStack
from typing import Any, TypeVar

import attrs

from tribes.core import digits
from tribes.core.errors import TribesError, UsageError
from tribes.replay import heap, reaping

T = TypeVar("T")
R = TypeVar("R")

MAX_JOBS = 256
POOL_RETRIES = 3
"""How many times a local pool is rebuilt after a worker process died, before giving up."""


@attrs.frozen
class Where:
    """Where a run's work goes: ``jobs`` processes here, or a Dask ``cluster``."""

    jobs: int = 1
    cluster: str | None = None

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.jobs <= MAX_JOBS:
            raise UsageError(f"--jobs must be from 1 to {MAX_JOBS}, not {self.jobs}")
        if self.cluster is not None and self.jobs != 1:
            raise UsageError("--jobs and --cluster do not mix; --cluster local:N starts N workers")
        if self.cluster is not None:
            local_workers(self.cluster)  # a bad local:N is refused before any work

    @property
    def workers(self) -> int:
        """How many workers the work will have (for a remote cluster: a guess, 8)."""
        if self.cluster is None:
            return self.jobs
        return local_workers(self.cluster) or 8

    def describe(self) -> str:
        if self.cluster is not None:
            return f"cluster {self.cluster}"
        return "1 process" if self.jobs == 1 else f"{self.jobs} processes"


def local_workers(cluster: str) -> int | None:
    """N of ``local:N`` (None for the address of a running scheduler)."""
    if not cluster.startswith("local"):
        return None
    _, sep, text = cluster.partition(":")
    count = digits.natural(text) if sep else None
    if count is None or not 1 <= count <= MAX_JOBS:
        raise UsageError(
            f"--cluster '{cluster}': a local cluster is local:N, N from 1 to {MAX_JOBS}"
        )
    return count


def shard_size(total: int, workers: int, *, most: int = 1000) -> int:
    """Items per shard: about 16 shards a worker (so that the work evens out and progress shows),
    at most ``most``."""
    return max(1, min(most, -(-total // (workers * 16))))


def ranges(total: int, size: int) -> list[tuple[int, int]]:
    """``(start, count)`` of each shard of ``total`` items, ``size`` a shard."""
    return [(start, min(size, total - start)) for start in range(0, total, size)]


def execute(
    task: Callable[[T], R],
    shards: Iterable[T],
    where: Where,
    done: Callable[[int, R], None] = lambda i, r: None,
) -> Iterator[R]:
    """``task`` of every shard, yielded in the order of ``shards`` as soon as all before it are in;
    ``done(i, result)`` is called as each shard finishes, in any order (for progress). Shards are
    taken from ``shards`` as the work needs them, a few per worker ahead (``WINDOW``): a run of a
    million games never holds all its inputs at once."""
    source = iter(shards)
    first = list(itertools.islice(source, max(2, where.jobs)))  # no more workers than shards
    if not first:
        return iter(())
    source = itertools.chain(first, source)
    if where.cluster is not None:
        return _giving_back(_on_dask(task, source, where.cluster, done))
    if where.jobs == 1 or len(first) == 1:
        return _giving_back(_here(task, source, done))
    return _giving_back(_in_pool(task, source, min(where.jobs, len(first)), done))


def _giving_back(results: Iterator[R]) -> Iterator[R]:
    """``results`` as they come, the freed heap given back every ``heap.EVERY`` shards
    (:mod:`tribes.replay.heap`); closed with them when the consumer stops early (a pool's
    workers are stopped then)."""
    try:
        for count, result in enumerate(results, start=1):
            yield result
            if count % heap.EVERY == 0:
                heap.give_back()
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


WINDOW = 4
"""Shards taken ahead per worker: in flight, or finished and waiting for one before them."""


def _here(
    task: Callable[[T], R], shards: Iterable[T], done: Callable[[int, R], None]
) -> Iterator[R]:
    for i, shard in enumerate(shards):
        result = task(shard)
        done(i, result)
        yield result


class _InOrder:
    """Results by shard: each slot filled once, yielded in order as the front fills."""

    def __init__(self) -> None:
        self.slots: dict[int, Any] = {}
        self.next = 0

    def put(self, index: int, result: Any) -> bool:
        """False if the shard was in already (a second run of it: not counted again)."""
        if index in self.slots or index < self.next:
            return False
        self.slots[index] = result
        return True

    def ready(self) -> Iterator[Any]:
        while self.next in self.slots:
            yield self.slots.pop(self.next)
            self.next += 1


class _Feed:
    """The shards still to start, numbered, and those started whose result is not in yet (a
    pool that lost a worker starts those again)."""

    def __init__(self, shards: Iterator[T], limit: int) -> None:
        self.source = enumerate(shards)
        self.limit = limit
        self.started: dict[int, Any] = {}

    def more(self, waiting: int) -> Iterator[tuple[int, Any]]:
        """Shards to start now, so that no more than ``limit`` are started or waiting."""
        while len(self.started) + waiting < self.limit:
            item = next(self.source, None)
            if item is None:
                return
            self.started[item[0]] = item[1]
            yield item

    def finished(self, index: int) -> None:
        self.started.pop(index, None)


def _in_pool(
    task: Callable[[T], R], shards: Iterator[T], jobs: int, done: Callable[[int, R], None]
) -> Iterator[R]:
    results = _InOrder()
    feed = _Feed(shards, WINDOW * jobs)
    for _attempt in range(POOL_RETRIES + 1):
        pool = ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=_context(),
            initializer=reaping.worker_start,
            initargs=(os.getpid(),),
        )
        with pool, reaping.running(functools.partial(_workers, pool)):
            running: dict[Future[R], int] = {
                pool.submit(task, shard): i for i, shard in feed.started.items()
            }  # after a worker died: what it and the others had not finished
            try:
                while True:
                    for i, shard in feed.more(len(results.slots)):
                        running[pool.submit(task, shard)] = i
                    if not running:
                        return
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    reaping.check()  # a SIGTERM that came inside wait's locks
                    for future in finished:
                        index = running.pop(future)
                        result = future.result()
                        feed.finished(index)
                        if results.put(index, result):
                            done(index, result)
                    yield from results.ready()
            except BrokenProcessPool:  # its futures failed already: nothing to cancel
                _kill_workers(pool)
                reaping.check()  # the workers died of a SIGTERM to this command
                continue  # a worker died: a new pool runs what is missing
            except BaseException:  # SIGTERM, Ctrl-C, an error, the consumer gone: none waits
                # No future is cancelled here: the pool's own thread fails every pending one
                # once its workers are gone, and Python 3.11 raises InvalidStateError in that
                # thread (a traceback on stderr) for one this thread cancelled meanwhile.
                reaping.stop(_workers(pool))
                raise
    raise TribesError(f"worker processes kept dying; {len(feed.started)} shards never finished")


def _workers(pool: ProcessPoolExecutor) -> list[Any]:
    """The pool's worker processes (the executor keeps them in ``_processes``: no public name)."""
    processes = getattr(pool, "_processes", None) or {}
    try:
        return list(processes.values())
    except RuntimeError:  # the executor's thread changed it meanwhile
        return []


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill what is left of a broken pool's workers before it is shut down: leaving the pool
    waits for every worker, and one still blocked reading the call queue was seen to keep that
    wait going for twenty minutes (Python 3.11, under load). The executor keeps its processes in
    ``_processes`` (no public name for them); where it does not, its own clean-up stands."""
    processes = getattr(pool, "_processes", None) or {}
    try:
        workers = list(processes.values())
    except RuntimeError:  # the executor's thread changed it meanwhile: its clean-up runs
        return
    for process in workers:
        if process.is_alive():
            process.kill()


def _context() -> multiprocessing.context.BaseContext:
    """How pool workers start: forked when this process runs one thread (nothing to import
    again: a worker costs nothing to start), else from a fork server (forking a process that runs
    threads is unsafe) that has imported tribes once."""
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return reaping.QuietForkContext()
    context = reaping.QuietForkServerContext()
    context.set_forkserver_preload(["tribes.replay.simulate", "tribes.replay.batch"])
    return context


def _on_dask(
    task: Callable[[T], R], shards: Iterator[T], cluster: str, done: Callable[[int, R], None]
) -> Iterator[R]:
    distributed = _distributed()
    results = _InOrder()
    with ExitStack() as stack:
        stack.enter_context(reaping.running(list))  # SIGTERM: the cluster closed on the way out
        client = stack.enter_context(connect(cluster))
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        feed = _Feed(shards, WINDOW * workers)
        where: dict[str, int] = {}
        flow = distributed.as_completed()

        def start_more() -> None:
            for i, shard in feed.more(len(results.slots)):
                future = client.submit(task, shard, pure=False, retries=2)
                where[future.key] = i
                flow.add(future)

        start_more()
        try:
            for future in flow:
                reaping.check()
                index = where.pop(future.key)
                result = future.result()
                feed.finished(index)
                if results.put(index, result):
                    done(index, result)
                yield from results.ready()
                start_more()
        except distributed.client.FutureCancelledError as exc:  # pragma: no cover - rare
            raise TribesError(f"the cluster cancelled the work: {exc}") from None
        except distributed.scheduler.KilledWorker as exc:
            raise TribesError(
                f"a shard killed every worker that ran it ({exc.args[0] if exc.args else ''}); "
                "the cluster gave up on it"
            ) from None
    if feed.started:  # pragma: no cover - as_completed returns every future
        raise TribesError(f"{len(feed.started)} shards never came back from the cluster")


def _distributed() -> Any:
    try:
        import distributed  # noqa: PLC0415  optional: the cluster extra
    except ImportError:
        raise UsageError(
            "--cluster needs Dask distributed: pip install 'tribes[cluster]'"
        ) from None
    return distributed


QUIET_WORKERS = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "1s",
}
"""What a local cluster's workers leave out or do less often: the statistical profiler (it
samples every thread every 10 ms, a tenth of a worker's CPU here), GIL monitoring, and the
event loop's tick (every 20 ms by default: each tick takes the GIL from the task's thread, which
made a game a third slower in a worker than in a plain process; measured in bench/parallel.py).
A cluster of your own: set the same in its Dask configuration."""


def connect(cluster: str) -> AbstractContextManager[Any]:
    """A Dask client for ``cluster``: a scheduler's address, or ``local:N`` (a LocalCluster of N
    single-threaded worker processes, closed with the client)."""
    distributed = _distributed()
    count = local_workers(cluster)
    if count is None:
        try:
            return distributed.Client(cluster, timeout="10s")  # type: ignore[no-any-return]  # untyped
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"--cluster {cluster}: cannot reach the scheduler ({exc})") from None
    import dask  # noqa: PLC0415  optional: the cluster extra

    stack = ExitStack()
    stack.enter_context(dask.config.set(QUIET_WORKERS))
    local = stack.enter_context(
        distributed.LocalCluster(
            n_workers=count,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # a free port: never one another cluster holds
            silence_logs=logging.ERROR,
        )
    )
    client = stack.enter_context(distributed.Client(local))
    return _Closing(client, stack)


@contextlib.contextmanager
def kept(where: Where) -> Iterator[Where]:
    """``where`` for work that calls :func:`execute` many times (``hunt``'s rounds): a
    ``local:N`` cluster started once for all of them (the Where of its scheduler's address;
    closed on the way out, SIGTERM included), anything else as it is."""
    if where.cluster is None or local_workers(where.cluster) is None:
        yield where
        return
    with reaping.running(list), connect(where.cluster) as client:
        client.run(_leave_interrupts_to_the_client)
        try:
            yield Where(cluster=client.scheduler.address)
        finally:  # closing: what Dask says of connections it is losing is no news to anyone
            logging.getLogger("distributed").setLevel(logging.CRITICAL)


def _leave_interrupts_to_the_client() -> None:
    """In a worker of a local cluster, Ctrl-C is ignored: the terminal sends it to the whole
    process group, and the command that started the cluster stops the work and closes it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Closing(AbstractContextManager[Any]):
    def __init__(self, client: Any, stack: ExitStack) -> None:
        self.client = client
        self.stack = stack

    def __enter__(self) -> Any:
        return self.client

    def __exit__(self, *exc: object) -> None:
        self.stack.close()
