"""SIGTERM to a command's main process while it is inside the locks of ``concurrent.futures``
(its pool's ``wait``): the SystemExit waits for the next safe point, so that no lock is left held
and the pool's shutdown does not wait for ever (seen: 1 run in 40 of ``stats --jobs 2`` killed by
SIGTERM hung with its main thread joining the pool's thread, blocked on a future's lock)."""

from __future__ import annotations

import signal
import sys
import threading
from types import FrameType
from typing import Any

import pytest

from tribes.replay import reaping

pytestmark = pytest.mark.skipif(
    signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None),
    reason="SIGTERM is handled by the test runner here",
)


class SignallingLock:
    """A lock whose taking delivers SIGTERM to this process first (in ``__enter__``, a frame
    called from ``threading.Condition``'s own)."""

    def __init__(self) -> None:
        self.inner = threading.Lock()
        self.frames: list[FrameType] = []

    def __enter__(self) -> bool:
        frame = sys._getframe()
        self.frames.append(frame)
        signal.raise_signal(signal.SIGTERM)
        return self.inner.__enter__()

    def __exit__(self, *exc: object) -> None:
        self.inner.release()

    def acquire(self, *args: Any) -> bool:
        return self.inner.acquire(*args)

    def release(self) -> None:
        self.inner.release()


def condition_of(lock: SignallingLock) -> threading.Condition:
    return threading.Condition(lock)  # type: ignore[arg-type]  # the lock protocol, as threading's


def test_library_code_that_holds_locks_is_recognised():
    lock = SignallingLock()
    lock.frames.append(sys._getframe())
    assert not reaping._in_locked_code(lock.frames[0])  # a test's own frame
    with pytest.raises(SystemExit), reaping.running(list), condition_of(lock):
        pass
    assert reaping._in_locked_code(lock.frames[1])  # its caller is threading.py's


def test_a_sigterm_inside_a_library_lock_waits_for_the_next_check():
    lock = SignallingLock()
    reached: list[str] = []
    with pytest.raises(SystemExit) as ended, reaping.running(list):
        with condition_of(lock):
            reached.append("inside")  # not cut through by the signal's exception
        reached.append("after")
        assert not lock.inner.locked()  # released as ever
        reaping.check()
        reached.append("never")
    assert ended.value.code == reaping.TERMINATED
    assert reached == ["inside", "after"]
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    reaping.check()  # nothing waits any more


def test_a_sigterm_waiting_ends_the_command_when_its_pool_block_ends():
    lock = SignallingLock()
    with pytest.raises(SystemExit) as ended, reaping.running(list), condition_of(lock):
        pass
    assert ended.value.code == reaping.TERMINATED


def test_a_sigterm_in_the_commands_own_code_ends_it_at_once():
    reached: list[str] = []
    with pytest.raises(SystemExit) as ended, reaping.running(list):
        signal.raise_signal(signal.SIGTERM)
        reached.append("never")
    assert ended.value.code == reaping.TERMINATED and reached == []
