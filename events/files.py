"""Files on disk, safely: bounded reads of regular files only, atomic whole-file writes, appends
that are cut back on failure, and one exclusive lock per log.

- **Reading** opens with ``O_NONBLOCK`` (a FIFO never hangs), refuses what ``fstat`` says is
  not a regular file (``/dev/zero``, a FIFO, a folder), and reads at most ``limit + 1`` bytes.
- **Writing** a whole file goes through a file without a name in the same folder
  (``O_TMPFILE``, Linux: a killed writer leaves nothing) or else a unique temporary file
  (``O_CREAT | O_EXCL | O_NOFOLLOW``: never through a planted link), fsync, rename, fsync of the
  folder. Without ``replace`` the rename is a hard link, which fails if the name exists.
- **Locking**: ``fcntl.flock`` on the log file itself. A JSON log is replaced by rename, so
  whoever takes the lock checks that the name still leads to the file it locked, and else locks
  again.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from tribes.core.errors import LogBusy, LogError

LOCK_WAIT = 30.0
"""Seconds a writer waits for another to finish before giving up (LogBusy)."""


def read_regular(path: Path, limit: int, what: str = "log") -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise LogError("no such file", path=str(path)) from None
    except IsADirectoryError:
        raise LogError(f"is a directory, not a {what}", path=str(path)) from None
    except OSError as exc:
        raise LogError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None
    try:
        return read_fd(fd, str(path), limit, what)
    finally:
        os.close(fd)


def read_fd(fd: int, path: str, limit: int, what: str = "log") -> bytes:
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise LogError(f"is a directory, not a {what}", path=path)
        if not stat.S_ISREG(info.st_mode):
            raise LogError(f"is not a regular file; a {what} is read only from one", path=path)
        if info.st_size > limit:
            raise LogError(
                f"is {info.st_size} bytes; a {what} is read up to {limit} bytes", path=path
            )
        os.lseek(fd, 0, os.SEEK_SET)
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise LogError(f"cannot read: {exc.strerror or exc}", path=path) from None
    data = b"".join(chunks)
    if len(data) > limit:
        raise LogError(f"is over {limit} bytes; a {what} is read up to {limit} bytes", path=path)
    return data


def fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


STALE_SECONDS = 600
"""A temporary file of a write this old was left by a process killed mid-write (a write takes
milliseconds): the next rewrite of the same file removes it."""


def write_atomic(path: Path, data: bytes, *, replace: bool) -> None:
    """Write ``path`` whole: a unique temporary file beside it, fsync, then rename (``replace``)
    or link (which refuses an existing name), then fsync the folder. A rewrite (``replace``)
    first removes the stale temporary files of earlier writes of ``path`` that never finished."""

    def fill(fd: int) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]

    write_atomic_from(path, fill, replace=replace)


def write_atomic_from(path: Path, fill: Callable[[int], None], *, replace: bool) -> None:
    """:func:`write_atomic` of what ``fill`` writes to the file descriptor it is given (a file
    made as it is written, never held whole: a baseline of a million games).

    Where the system has them (Linux), the file is made without a name (``O_TMPFILE``) and given
    one only when it is whole: a process killed while it writes (SIGKILL, which nothing can
    catch; a write that takes minutes) leaves nothing behind. Elsewhere a named temporary file,
    removed on any failure that lets the process unwind, and else by the next rewrite."""
    folder = path.parent
    if replace:
        sweep_stale(path)
    fd = _anonymous(path)
    if fd is not None:
        _write_anonymous(path, fd, fill, replace=replace)
        return
    tmp = _temporary(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(tmp, flags | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        raise LogError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None
    try:
        try:
            fill(fd)
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)
            os.unlink(tmp)
        fsync_folder(folder)
    except FileExistsError:
        _remove(tmp)
        raise LogError(
            "exists; choose another name or pass --force to replace it", path=str(path)
        ) from None
    except OSError as exc:
        _remove(tmp)
        raise LogError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None
    except BaseException:
        _remove(tmp)
        raise


def _temporary(path: Path) -> Path:
    """A fresh name beside ``path`` for a write of it (what :func:`sweep_stale` knows)."""
    return path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp"


def _anonymous(path: Path) -> int | None:
    """A file without a name in the folder of ``path``, open for writing (``O_TMPFILE``), or None where the
    system or the file system has none (then a named temporary file is used)."""
    tmpfile = getattr(os, "O_TMPFILE", 0)
    if not tmpfile or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(path.parent, os.O_WRONLY | tmpfile | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
            return None  # not supported here: a named one
        raise LogError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None


def _write_anonymous(path: Path, fd: int, fill: Callable[[int], None], *, replace: bool) -> None:
    """Fill the nameless file ``fd``, then give it ``path`` (a hard link through ``/proc``,
    ``linkat`` following it: refused if the name exists; with ``replace``, a fresh name renamed
    over ``path``)."""
    source = f"/proc/self/fd/{fd}"
    folder = -1
    try:
        fill(fd)
        os.fsync(fd)
        folder = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        # a folder's descriptor on both sides makes it linkat(AT_SYMLINK_FOLLOW): link(2) would
        # link the /proc entry itself (EXDEV)
        name = path.name if not replace else _temporary(path).name
        os.link(source, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=True)
        if replace:
            try:
                os.replace(name, path.name, src_dir_fd=folder, dst_dir_fd=folder)
            except BaseException:
                with suppress(OSError):
                    os.unlink(name, dir_fd=folder)
                raise
        with suppress(OSError):
            os.fsync(folder)
    except FileExistsError:
        raise LogError(
            "exists; choose another name or pass --force to replace it", path=str(path)
        ) from None
    except OSError as exc:
        raise LogError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None
    finally:
        os.close(fd)
        if folder >= 0:
            os.close(folder)


def sweep_stale(path: Path, older_than: float = STALE_SECONDS) -> list[str]:
    """Remove the temporary files ``.NAME.<12 hex digits>.tmp`` beside ``path`` (what
    :func:`write_atomic` makes) last changed more than ``older_than`` seconds ago: left by a
    process killed mid-write. Returns their names. Never follows a link; errors are ignored."""
    head, removed = f".{path.name}.", []
    limit = time.time() - older_than
    with suppress(OSError), os.scandir(path.parent) as entries:
        for entry in entries:
            name = entry.name
            middle = name[len(head) : -4]
            if not (name.startswith(head) and name.endswith(".tmp") and len(middle) == 12):
                continue
            if not all(c in "0123456789abcdef" for c in middle):
                continue
            with suppress(OSError):
                if entry.stat(follow_symlinks=False).st_mtime < limit:
                    os.unlink(entry.path)
                    removed.append(name)
    return removed


def _remove(tmp: Path) -> None:
    with suppress(OSError):
        os.unlink(tmp)


def append_at(fd: int, path: str, size: int, data: bytes) -> None:
    """Write ``data`` at byte ``size`` of the open file and fsync it; on any failure cut the file
    back to ``size``, so that it is as it was."""
    try:
        try:
            os.ftruncate(fd, size)  # nothing beyond the committed part (checked under the lock)
            view = memoryview(data)
            offset = size
            while view:
                written = os.pwrite(fd, view, offset)
                view = view[written:]
                offset += written
            os.fsync(fd)
        except BaseException:
            os.ftruncate(fd, size)
            os.fsync(fd)
            raise
    except OSError as exc:
        raise LogError(f"cannot append: {exc.strerror or exc}", path=path) from None


@contextmanager
def locked(path: Path, wait: float = LOCK_WAIT) -> Iterator[int]:
    """An exclusive lock on the log at ``path``, held for the block; yields a read-write file
    descriptor of the very file the name leads to while it is held."""
    deadline = time.monotonic() + wait
    fd = hold_named(
        path,
        lambda: _open_log(path),
        lambda fd: _flock(fd, path, deadline, fcntl.LOCK_EX),
        follow=False,
    )
    try:
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


def hold_named(
    path: Path, open_fd: Callable[[], int], take: Callable[[int], None], *, follow: bool = True
) -> int:
    """A descriptor from ``open_fd`` on which ``take`` (a lock) succeeded while ``path`` still
    led to its file: a writer that waited for a lock while the file was replaced by a rename
    would otherwise write to a file no one reads any more. Opened and taken again until so."""
    while True:
        fd = open_fd()
        try:
            take(fd)
            try:
                now = os.stat(path, follow_symlinks=follow)
            except FileNotFoundError:
                same = False
            else:
                mine = os.fstat(fd)
                same = (now.st_ino, now.st_dev) == (mine.st_ino, mine.st_dev)
        except BaseException:
            os.close(fd)
            raise
        if same:
            return fd
        os.close(fd)  # replaced while we waited: the name leads to another file now


def _open_log(path: Path) -> int:
    """A read-write descriptor of the log at ``path``, a regular file, never through a symbolic
    link (as a corpus: every writer of a log in place refuses one, so that the link and the file
    it leads to never disagree)."""
    flags = os.O_RDWR | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise LogError("no such file", path=str(path)) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP and path.is_symlink():
            raise LogError(
                f"is a symbolic link (to '{os.readlink(path)}'); a log is written only at its "
                "own name, never through a link: name the file itself",
                path=str(path),
            ) from None
        raise LogError(f"cannot open for writing: {exc.strerror or exc}", path=str(path)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise LogError("is not a regular file; a log is only a regular file", path=str(path))
    except BaseException:
        os.close(fd)
        raise
    return fd


def _flock(fd: int, path: Path, deadline: float, mode: int) -> None:
    """Take the lock ``mode`` (exclusive or shared) on ``fd``, waiting up to ``deadline``."""
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise LogError(f"cannot lock: {exc.strerror or exc}", path=str(path)) from None
        else:
            return
        if time.monotonic() > deadline:
            raise LogBusy("is locked by another writer; try again", path=str(path))
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


@contextmanager
def shared_lock(path: Path, wait: float = LOCK_WAIT) -> Iterator[None]:
    """A shared lock on the log at ``path``: waits for a writer at work to finish."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise LogError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None
    try:
        _flock(fd, path, time.monotonic() + wait, fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)
