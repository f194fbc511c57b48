"""No worker outlives its command: however the process that started a pool ends, its workers end
within seconds, and no file is left half-written.

Without this, a command whose main process was killed (SIGKILL, or SIGTERM, whose default action
runs no clean-up) left its pool's workers alive for ever: each blocked reading the pool's queue,
whose other end it holds itself, reparented to init, the corpus still open. Now:

- a worker asks the kernel for SIGTERM when its parent dies (``prctl(PR_SET_PDEATHSIG)``, Linux)
  and watches its parent too (a thread: a worker whose parent changed, or whose command's main
  process is gone, ends), which covers the systems without ``prctl`` and the forkserver's
  workers (their parent is the fork server, which ends when the main process does);
- a worker takes SIGTERM as the end of its work: ``SystemExit`` unwinds what it was doing (an
  atomic write removes its temporary file), then the watch ends the process;
- the main process, while a pool or a local cluster of its own runs, takes SIGTERM the same way:
  its workers are told to stop (SIGTERM, then SIGKILL for one that lingers), and ``SystemExit``
  (status 143, 128 + SIGTERM) unwinds the command (a corpus writer abandons its uncommitted games,
  an atomic write its temporary file).

SIGINT (Ctrl-C) reaches the whole process group and needs none of this.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import multiprocessing
import multiprocessing.context
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

PR_SET_PDEATHSIG = 1
"""``prctl``'s option: the signal a process gets when its parent dies (linux/prctl.h)."""
WATCH_SECONDS = 0.25
"""How often a worker looks at its parent."""
GRACE_SECONDS = 2.0
"""How long a worker told to stop may take to unwind before it is killed."""
TERMINATED = 128 + signal.SIGTERM
"""The exit status of a command ended by SIGTERM (as a shell reports a process killed by it)."""

_live: dict[int, Callable[[], list[Any]]] = {}
"""The pools and clusters running now: a key each, and how to list their worker processes."""


def worker_start(main: int) -> None:
    """The initializer of every pool worker: it ends when its parent or ``main`` (the command's
    main process) does."""
    parent = os.getppid()
    signal.signal(signal.SIGTERM, _stop)
    _die_with_parent()
    if _orphaned(parent, main):  # it died before the kernel was asked
        os._exit(1)
    threading.Thread(target=_watch, args=(parent, main), name="tribes-watch", daemon=True).start()


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def _orphaned(parent: int, main: int) -> bool:
    if os.getppid() != parent:
        return True
    try:
        os.kill(main, 0)
    except ProcessLookupError:
        return True
    except OSError:  # there, but another user's: not ours any more
        return True
    return False


def _watch(parent: int, main: int) -> None:
    while not _orphaned(parent, main):
        time.sleep(WATCH_SECONDS)
    with contextlib.suppress(OSError):
        os.kill(os.getpid(), signal.SIGTERM)  # unwind what it was doing, if it can
    time.sleep(GRACE_SECONDS)
    os._exit(1)


def _stop(signum: int, frame: Any) -> None:
    """SIGTERM in a worker: unwind (``finally`` blocks, temporary files removed), then end."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once is enough
    threading.Thread(target=_exit_soon, name="tribes-exit", daemon=True).start()
    raise SystemExit(TERMINATED)


def _exit_soon() -> None:
    time.sleep(GRACE_SECONDS)
    os._exit(TERMINATED)


class _QuietRun:
    """A pool worker whose pool's queue breaks under it ends with status 1 and no traceback.

    Workers share the queue of calls: one stopped while it read a call (SIGTERM as its command
    ends, the OOM killer) leaves the rest of that call for the next reader, which fails to
    unpickle it outside any task (``EOFError``) and used to print the traceback on the user's
    terminal. The pool sees a worker gone either way: it runs its shards again on a new pool, or
    its command is ending. What a task raises never gets here: the pool sends it back."""

    def run(self) -> None:
        try:
            super().run()  # type: ignore[misc]  # mixed into a multiprocessing Process class
        except Exception:  # noqa: BLE001  garbage unpickles into any error
            raise SystemExit(1) from None


class QuietForkProcess(_QuietRun, multiprocessing.context.ForkProcess):
    """A forked pool worker (:class:`_QuietRun`)."""


class QuietForkServerProcess(_QuietRun, multiprocessing.context.ForkServerProcess):
    """A pool worker from the fork server (:class:`_QuietRun`); the server unpickles it by this
    module's name, which it has imported."""


class QuietForkContext(multiprocessing.context.ForkContext):
    """The fork context, its workers :class:`QuietForkProcess`."""

    Process = QuietForkProcess


class QuietForkServerContext(multiprocessing.context.ForkServerContext):
    """The fork server's context, its workers :class:`QuietForkServerProcess`."""

    Process = QuietForkServerProcess


# --- the main process -----------------------------------------------------------------------------


@contextlib.contextmanager
def running(processes: Callable[[], list[Any]]) -> Iterator[None]:
    """While the block runs, SIGTERM to this process stops the worker processes ``processes()``
    lists (``multiprocessing.Process`` objects, or pids) and ends the command by ``SystemExit``,
    so that the block and every one around it unwind."""
    key = id(processes)
    _live[key] = processes
    installed = _install()
    try:
        yield
    finally:
        _live.pop(key, None)
        if installed and not _live:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        check()  # a SIGTERM that waited: the command ends here at the latest


def _install() -> bool:
    """Take SIGTERM here, unless another handler has it or this is not the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return False
    current = signal.getsignal(signal.SIGTERM)
    if current is _terminated:
        return False  # an outer pool installed it
    if current not in (signal.SIG_DFL, None):
        return False
    signal.signal(signal.SIGTERM, _terminated)
    return True


_deferred = False
"""SIGTERM came while the main thread was inside the locks of a library: the SystemExit waits
for :func:`check`."""
DEFERRED_SECONDS = 15.0
"""How long a deferred SIGTERM may wait for :func:`check` before the process ends without
unwinding (its atomic writes have no name until whole; a corpus keeps what it committed)."""


def _terminated(signum: int, frame: Any) -> None:
    """SIGTERM in the main process: its workers told to stop; the command unwinds by SystemExit,
    at once, or at the next :func:`check` when the signal came inside the locks of
    ``concurrent.futures``, ``threading``, ``queue`` or ``multiprocessing``. Raised there, it
    left a future's lock held for ever (``wait`` takes every future's lock, and an exception
    between taking one and entering its ``with`` skips the release), and the pool's own thread,
    setting that future's result, blocked on it: the pool's shutdown waited for that thread,
    and the command never ended (1 run in 40 of ``stats --jobs 2`` killed by SIGTERM)."""
    global _deferred  # noqa: PLW0603  the handler's only way to reach the main thread's next check
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends it at once
    stop_all()
    if _in_locked_code(frame):
        _deferred = True
        threading.Thread(target=_end_unless_unwound, name="tribes-exit", daemon=True).start()
        return
    raise SystemExit(TERMINATED)


def check() -> None:
    """End the command (SystemExit, status 143) if a SIGTERM is waiting: called by the main
    thread where it holds no library's lock."""
    global _deferred  # noqa: PLW0603  see _terminated
    if _deferred:
        _deferred = False
        raise SystemExit(TERMINATED)


def _end_unless_unwound() -> None:
    time.sleep(DEFERRED_SECONDS)
    if _deferred:
        os._exit(TERMINATED)


_LOCKED = tuple(
    os.path.dirname(module.__file__) + os.sep
    if module.__file__.endswith("__init__.py")
    else module.__file__
    for module in (concurrent.futures, multiprocessing, queue, threading)
    if module.__file__
)
"""The library code that takes locks a signal handler's exception must not cut through."""


def _in_locked_code(frame: Any) -> bool:
    """Whether ``frame`` or a frame it was called from runs library code of :data:`_LOCKED`."""
    while frame is not None:
        if frame.f_code.co_filename.startswith(_LOCKED):
            return True
        frame = frame.f_back
    return False


def stop_all() -> None:
    """Tell every worker of the running pools to stop (SIGTERM)."""
    for processes in list(_live.values()):
        with contextlib.suppress(Exception):
            for process in processes():
                _signal(process, signal.SIGTERM)


def stop(processes: list[Any], grace: float = GRACE_SECONDS) -> None:
    """Stop ``processes`` (``multiprocessing.Process`` objects): SIGTERM, then SIGKILL for those
    still alive after ``grace`` seconds (each unwinds its work on SIGTERM: no temporary file is
    left behind)."""
    alive = [p for p in processes if p.is_alive()]
    for process in alive:
        _signal(process, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for process in alive:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1.0)


def _signal(process: Any, signum: int) -> None:
    pid = process if isinstance(process, int) else process.pid
    if pid:
        with contextlib.suppress(OSError):
            os.kill(pid, signum)
