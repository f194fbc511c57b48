"""Memory a long run has freed, given back to the system as it goes.

A sweep of a million games (``baseline``, ``regress``) receives every shard's results in its
main process: a few hundred kilobytes a shard, unpickled, read and dropped. glibc's allocator
keeps the pages those results leave free inside its heap for later reuse, and under the mix of
sizes a sweep allocates, the heap's resident size crept up by ~37 bytes a game, though Python
held no more objects (tracemalloc: flat): ``regress`` of a million Clans games peaked at 63 MB
against 37 MB at 100,000. ``malloc_trim(0)`` returns the free pages of every arena to the
system; called every few thousand games, it keeps the peak where a thousand games put it. On a
C library without it (musl, macOS) nothing is done: their allocators return memory otherwise.
"""

from __future__ import annotations

import contextlib
import ctypes
import sys
from collections.abc import Callable

EVERY = 32
"""Shards between two trims (with shards of up to 200 games: every ~6,400 games)."""


def _trimmer() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    with contextlib.suppress(OSError, AttributeError):
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
        return trim
    return None


_TRIM = _trimmer()


def give_back() -> None:
    """Return the heap's free pages to the system (glibc's ``malloc_trim``; elsewhere nothing)."""
    if _TRIM is not None:
        _TRIM(0)
