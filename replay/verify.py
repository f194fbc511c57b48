"""Checking logs and mending them: ``verify``, ``repair`` and ``upgrade`` as library calls (the
CLI only prints what they return).

- :func:`verify` replays a log: every commit matching (it is intact), every event legal and
  every checkpoint matching (the running rules give its states), two replays ending in the
  same state; it names an uncommitted tail (an interrupted append) as a failure, and gives
  the log digest, the same for both forms of a log. An intact log that the running rules
  replay otherwise is no failure: ``Verified.rules`` says how.
- :func:`repair` cuts an uncommitted tail, keeping the whole file as a backup first.
- :func:`upgrade` writes a log of format version 1 in the current version, putting in the text
  of every file its options name (which version 1 left on disk).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import attrs

from tribes import games
from tribes.core import views
from tribes.core.errors import CorruptLog, TribesError, UncommittedTail, UsageError
from tribes.core.header import Header
from tribes.events import codec, files, logfile
from tribes.events.logfile import GameLog
from tribes.replay import consistency, logs
from tribes.replay.consistency import Answer


@attrs.frozen
class Verified:
    """What ``verify`` found in one log."""

    path: Path
    game: str
    events: int
    over: bool
    state: str
    """The state hash after the last event (hex)."""
    digest: str
    """The log digest (hex): header and events; equal for the log's two forms."""
    version: int
    rules: Answer | None = None
    """What the running rules say of the intact log (None: they give every state it recorded)."""

    def line(self) -> str:
        over = "over" if self.over else "in progress"
        old = ""
        if self.version < 2:
            old = f" (format version {self.version}: 'tribes upgrade' commits it)"
        elif self.version < logfile.FORMAT_VERSION:
            old = (
                f" (format version {self.version}: 'tribes upgrade' writes it in version "
                f"{logfile.FORMAT_VERSION})"
            )
        text = (
            f"{self.path}: {self.game}, {views.count(self.events, 'event')}, {over}, "
            f"state {self.state[:16]}, "
            f"digest {self.digest}{old}"
        )
        if self.rules is not None:
            text += "; " + consistency.answer_line(self.rules, str(self.path), shown=False)
        return text


def verify(path: Path) -> Verified:
    """Replay the log at ``path`` with every check; raises a TribesError on the first problem."""
    opened = logs.open_log(path)
    first = logs.steps_of(opened.game, opened.log, path=str(path), partial=True)
    replayed = attrs.evolve(opened.log, events=opened.log.events[: len(first) - 1])
    second = logs.steps_of(opened.game, replayed, verify=False)
    log = opened.log
    last = log.checkpoints[-1].events if log.checkpoints else 0
    if log.version < 2 and log.events and last != len(log.events):
        raise CorruptLog(
            f"ends without a checkpoint after its last event ({len(log.events)}); every append "
            "of format version 1 ended with one (the log was cut or altered)",
            path=str(path),
        )
    end_a, end_b = codec.state_hash(first[-1].state), codec.state_hash(second[-1].state)
    if end_a != end_b:
        raise TribesError(f"{path}: two replays end in different states ({end_a} and {end_b})")
    return Verified(
        path=path,
        game=opened.game.name,
        events=len(opened.log.events),
        over=opened.game.is_over(first[-1].state),
        state=end_a,
        digest=logfile.log_digest(opened.log).hex(),
        version=opened.log.version,
        rules=first.rules,
    )


@attrs.frozen
class Repaired:
    path: Path
    backup: Path | None
    dropped: str
    """What was cut, in words (the tail described), or "" when nothing was."""
    dropped_bytes: int
    events: int

    def line(self) -> str:
        if self.backup is None:
            return f"{self.path}: nothing to repair ({self.events} events, all committed)"
        return (
            f"{self.path}: cut {self.dropped} ({self.dropped_bytes} bytes); "
            f"{views.count(self.events, 'event')} kept, as of the last commit; the file as it "
            f"was is kept as {self.backup}"
        )


def repair(path: Path, *, force: bool = False) -> Repaired:
    """Cut what follows the last commit of a ``.tribes`` log (an interrupted append). The file
    as it was is first written to ``NAME.torn`` (``--force`` replaces an older backup)."""
    with files.locked(path) as fd:
        data = files.read_fd(fd, str(path), logfile.MAX_LOG_BYTES)
        opened = logs.opened_from(path, data)
        if opened.end is None or opened.log.version < 2:
            raise UsageError(
                f"{path}: only a .tribes log of format version 2 has commits to repair back to"
            )
        tail = opened.tail
        if tail is None:
            return Repaired(path, None, "", 0, len(opened.log.events))
        later = _commit_in(data[tail.offset :], len(opened.log.events))
        if later is not None:
            raise CorruptLog(
                f"{tail.describe()}, but a commit lies in what follows (byte "
                f"{tail.offset + later}): the log is damaged, not interrupted, and repair would "
                "drop committed moves; take the log from whoever shared it",
                path=str(path),
            )
        logs.steps_of(opened.game, opened.log, path=str(path))  # what is kept is sound
        backup = path.with_name(path.name + ".torn")
        if (backup.exists() or backup.is_symlink()) and not force:
            raise UsageError(f"{backup} exists; move it away or pass --force to replace it")
        files.write_atomic(backup, data, replace=force)
        files.append_at(fd, str(path), opened.end.size, b"")
        return Repaired(path, backup, tail.describe(), tail.size, len(opened.log.events))


_COMMIT = re.compile(rb"[\x10-\x12]\xff(?:[\x00-\x7f]|\xcc.|\xcd..)\xc4\x0c", re.DOTALL)


def _commit_in(data: bytes, committed: int) -> int | None:
    """Where a commit record of a later event seems to start in ``data``, or None: a damaged
    length can make the rest of a log look like a torn tail, and repair must not cut that."""
    for found in _COMMIT.finditer(data):
        if found.start() + data[found.start()] + 2 > len(data):
            continue  # the torn commit of the interrupted append itself
        count = codec.unpack_all(found.group()[2:-2])
        if count and type(count[0]) is int and count[0] > committed:
            return found.start()
    return None


def upgrade(
    source: Path, output: Path, *, force: bool = False, file_paths: Mapping[str, str] = {}
) -> GameLog:
    """Write the log at ``source`` (any version) as a log of the current version at ``output``;
    a file an option of a version 1 log names is read from ``file_paths`` (option -> path)."""
    if output.resolve() == source.resolve():
        raise UsageError("upgrade writes a new log; name another output with -o")
    data = logfile.read_bytes(source)
    extra = _read_files(source, logs.read_header(source, data), file_paths)
    opened = logs.opened_from(source, data, texts=extra)
    if opened.tail is not None:
        raise UncommittedTail(
            f"{opened.tail.describe()}; 'tribes repair {source}' first", path=str(source)
        )
    # a version 1 state named its board by path: its checkpoints cannot match a board carried in
    # the header, so only the legality of every event is checked then
    logs.steps_of(opened.game, opened.log, path=str(source), verify=not extra)
    return logs.create(output, opened.log, opened.game, force=force)  # its appends kept


def _read_files(source: Path, head: Header, file_paths: Mapping[str, str]) -> dict[str, str]:
    game = games.get_for_log(head.game, str(source))
    out = {}
    for option, what in logs.file_options(game).items():
        if option in head.options and option not in head.files:
            if option not in file_paths:
                raise UsageError(
                    f"{source} names {what} '{head.options[option]}'; pass --file "
                    f"{option}=PATH to put it in the log"
                )
            out[option] = logs.read_option_file(option, what, file_paths[option])
    return out
