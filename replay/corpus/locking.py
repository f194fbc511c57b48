"""Opening a corpus to write it, and making a new one, so that no writer is ever orphaned and no
symbolic link is ever followed.

- **One writer at a time**: an exclusive ``flock`` on the corpus file, waited for up to a bound
  (``wait`` seconds; ``on_wait`` is told once when the wait begins), then :class:`LogBusy`.
  Whoever takes the lock checks that the name still leads to the file it locked (else it was
  replaced meanwhile: it locks the file the name leads to now).
- **A new corpus** is written in a temporary file of its own, created beside it with
  ``O_CREAT | O_EXCL | O_NOFOLLOW`` under a random name and locked before anyone can see it, then
  linked to its name (which fails if the name exists: of two runs making one corpus, one gets
  "exists"). ``--force`` replaces an existing corpus only while holding its lock, so a writer at
  work on it is waited for (up to the bound), never left writing into a file that no longer has
  a name; a symbolic link at the name is replaced itself, never written through.
- **Makers take turns**: whoever makes a corpus holds the lock of its folder from looking at the
  name to renaming onto it, so that two makers (one with ``--force``) never replace each other's
  new file unseen.
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from tribes.core.errors import LogBusy, LogError, UsageError
from tribes.events import files
from tribes.replay.corpus.reader import open_regular

LOCK_WAIT = files.LOCK_WAIT
"""Seconds a writer waits for another to finish before giving up."""

Notice = Callable[[str], None]


def lock(fd: int, path: Path, wait: float, on_wait: Notice | None, doing: str = "") -> None:
    """Take the exclusive lock of ``fd``, waiting up to ``wait`` seconds for the writer that
    holds it; ``on_wait`` gets one line when the wait begins."""
    deadline = time.monotonic() + wait
    delay = 0.002
    told = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise LogError(f"cannot lock: {exc.strerror or exc}", path=str(path)) from None
        else:
            return
        if time.monotonic() >= deadline:
            raise LogBusy(
                f"another writer holds the corpus (waited {wait:g} s){doing}; try again when "
                "it is done",
                path=str(path),
            )
        if not told and on_wait is not None:
            on_wait(f"{path}: another writer holds the corpus; waiting up to {wait:g} s")
            told = True
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def open_locked(path: Path, wait: float, on_wait: Notice | None = None, doing: str = "") -> int:
    """A read-write descriptor of the corpus at ``path`` (a regular file, never through a
    link), locked, and still the file the name leads to."""
    return files.hold_named(
        path,
        lambda: open_regular(path, os.O_RDWR, follow=False),
        lambda fd: lock(fd, path, wait, on_wait, doing),
        follow=False,
    )


def create(
    path: Path,
    data: bytes,
    *,
    force: bool,
    wait: float = LOCK_WAIT,
    on_wait: Notice | None = None,
) -> int:
    """Make the file ``path`` holding ``data``, atomically; a read-write descriptor of it,
    locked. An existing file is refused, or with ``force`` replaced under its lock. Makers of
    corpora in one folder take turns (the folder's lock, held from looking at the name to
    renaming onto it), so that no two of them replace one another's file unseen."""
    with _folder_locked(path, wait, on_wait):
        old = _claimed(path, force=force, wait=wait, on_wait=on_wait)
        try:
            fd, tmp = _write_temporary(path, data)
            try:
                if force:
                    os.replace(tmp, path)  # a link at the name is replaced, never followed
                else:
                    os.link(tmp, path)  # fails if the name exists, whoever made it meanwhile
                    os.unlink(tmp)
                files.fsync_folder(path.parent)
            except FileExistsError:
                _discard(fd, tmp)
                raise _exists(path) from None
            except OSError as exc:
                _discard(fd, tmp)
                raise LogError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None
            except BaseException:
                _discard(fd, tmp)
                raise
            return fd
        finally:
            if old >= 0:
                os.close(old)  # the replaced file's writers, waiting, find the name leads on


def _claimed(path: Path, *, force: bool, wait: float, on_wait: Notice | None) -> int:
    """The name ``path`` claimed for a new corpus, under the folder's lock: refused if a file is
    there (a folder always), unless ``force``; then the old corpus's descriptor, locked, so that
    a writer at work on it is waited for (-1: nothing there, or a link, replaced itself: no
    writer writes through one). The caller closes it once the new file has the name."""
    if not (path.is_symlink() or path.exists()):
        return -1
    if path.is_dir() and not path.is_symlink():
        raise UsageError(f"{path} is a folder; a corpus is a file")
    if not force:
        raise _exists(path)
    if path.is_symlink():
        return -1
    return open_locked(path, wait, on_wait, "; it was not replaced")


@contextmanager
def made_whole(
    path: Path, *, force: bool, wait: float = LOCK_WAIT, on_wait: Notice | None = None
) -> Iterator[Path]:
    """A name beside ``path`` to write a whole new corpus at, put at ``path`` once the block
    ends without error, as :func:`create` puts a new file there (refused if the name exists,
    unless ``force``; an old corpus replaced under its lock). A block that fails (a game
    refused, a full disk, Ctrl-C) leaves no corpus at ``path`` and, with ``force``, the one
    there as it was. The temporary name is ``write_atomic``'s, swept when left by a kill."""
    if (path.is_symlink() or path.exists()) and not force:
        raise _exists(path)  # said before any work; said again if made meanwhile
    files.sweep_stale(path)
    tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    try:
        yield tmp
        with _folder_locked(path, wait, on_wait):
            old = _claimed(path, force=force, wait=wait, on_wait=on_wait)
            try:
                if force:
                    os.replace(tmp, path)
                else:
                    os.link(tmp, path)
                    os.unlink(tmp)
                files.fsync_folder(path.parent)
            except FileExistsError:
                raise _exists(path) from None
            except OSError as exc:
                raise LogError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None
            finally:
                if old >= 0:
                    os.close(old)
    finally:
        with suppress(OSError):
            os.unlink(tmp)


@contextmanager
def _folder_locked(path: Path, wait: float, on_wait: Notice | None) -> Iterator[None]:
    """The exclusive lock of the folder of ``path``, held by whoever makes a corpus there."""
    folder = path.parent
    try:
        fd = os.open(
            folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
        )
    except OSError as exc:
        raise LogError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None
    try:
        lock(fd, path, wait, on_wait, "; it was not made")
        yield
    finally:
        os.close(fd)


def _write_temporary(path: Path, data: bytes) -> tuple[int, Path]:
    """A new temporary file beside ``path`` holding ``data``, locked: its descriptor and name."""
    files.sweep_stale(path)
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(8):
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(tmp, flags | getattr(os, "O_CLOEXEC", 0), 0o644)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            raise LogError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None
    else:
        raise LogError("cannot write: no free temporary name", path=str(path))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody else can know it yet
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError as exc:
        _discard(fd, tmp)
        raise LogError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None
    return fd, tmp


def _discard(fd: int, tmp: Path) -> None:
    with suppress(OSError):
        os.unlink(tmp)
    with suppress(OSError):
        os.close(fd)


def _exists(path: Path) -> UsageError:
    return UsageError(
        f"{path} exists; choose another name, pass --force to replace it, or add to it with "
        "'tribes corpus add'"
    )
