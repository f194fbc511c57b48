"""Play by mail: what a player's machine remembers of the logs it wrote, and whether a log one
receives (or holds) extends another.

- A log *extends* another when the other's digest (the log digest ``tribes verify`` prints) is
  the digest of the log as it was at one of its commits: the same header, the same events and
  annotations, and more after them. A corpus extends another when the other's digest is one of
  its appends' (each chains on the one before). :func:`prefix_digests`, :func:`extends`.
- ``act --as SEAT`` remembers the log it last wrote for that game and seat: a copy of the file,
  in the player's state folder (:func:`state_folder`: ``$TRIBES_STATE``, else
  ``$XDG_STATE_HOME/tribes``, else ``~/.local/state/tribes``), under the game's identity (the
  digest of its header less its metadata, which ``fork`` and ``whatif`` add to) and the seat's
  number. A log received later must extend it
  (:func:`check_received`): a history rewritten since (an earlier move or draw changed, a move
  taken back) is refused, naming the event where the two part.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import attrs

from tribes.core import views
from tribes.core.errors import LogError, TribesError
from tribes.events import files, logfile
from tribes.events.logfile import GameLog
from tribes.replay import reading
from tribes.replay.reading import Opened

STATE_VARIABLE = "TRIBES_STATE"
"""The folder tribes keeps its state in, when set (tests set it); else the XDG state folder."""


class NotExtending(LogError):
    """A received log does not extend the one this machine last wrote for that game and seat."""


def state_folder(environ: Mapping[str, str] | None = None) -> Path:
    """Where tribes keeps what it remembers on this machine: ``$TRIBES_STATE``, else
    ``$XDG_STATE_HOME/tribes``, else ``~/.local/state/tribes`` (the XDG default)."""
    env = os.environ if environ is None else environ
    if env.get(STATE_VARIABLE):
        return Path(env[STATE_VARIABLE])
    xdg = env.get("XDG_STATE_HOME")
    if xdg and Path(xdg).is_absolute():  # (the XDG rule: a relative path is ignored)
        return Path(xdg) / "tribes"
    return Path(env.get("HOME") or Path.home()) / ".local" / "state" / "tribes"


def digest_of(log: GameLog) -> str:
    """The log digest as ``verify`` prints it (hex)."""
    return logfile.log_digest(log).hex()


def prefix_digests(log: GameLog) -> list[str]:
    """The digests of ``log`` as it was at each of its commits, oldest first, ending with its
    own: what a log it extends may have as its digest. A log without commits (format version
    1) was whole after each of its events."""
    points = [(c.events, c.annotations) for c in log.commits]
    if not points:
        points = [(n, 0) for n in range(len(log.events) + 1)]
    out = []
    for events, notes in points:
        part = GameLog(
            header=log.header,
            events=log.events[:events],
            checkpoints=tuple(c for c in log.checkpoints if c.events <= events),
            annotations=log.annotations[:notes],
        )
        out.append(digest_of(part))
    whole = digest_of(log)
    if whole not in out:
        out.append(whole)
    return out


def extends(log: GameLog, digest: str) -> bool:
    """Whether ``log`` is the log of ``digest`` or goes on from it."""
    return digest.lower() in prefix_digests(log)


def parting(old: GameLog, new: GameLog, game: object) -> str:
    """Where ``new`` leaves ``old``, in words: the header, an event, or the end of one."""
    if old.header != new.header:
        fields = [
            name
            for name in ("game", "rules_version", "seed", "seats", "options", "position", "meta")
            if getattr(old.header, name) != getattr(new.header, name)
        ]
        return f"they start differently ({', '.join(fields) or 'the header'})"
    common = min(len(old.events), len(new.events))
    for i in range(common):
        if old.events[i] != new.events[i]:
            fmt = getattr(game, "format_move", str)
            return (
                f"they part at event {i + 1}: {fmt(new.events[i])} in this log, "
                f"{fmt(old.events[i])} in yours"
            )
    if len(new.events) < len(old.events):
        return (
            f"it stops at event {len(new.events)}, before "
            + (
                f"event {len(old.events)}"
                if len(old.events) == len(new.events) + 1
                else f"events {len(new.events) + 1} to {len(old.events)}"
            )
            + " of yours (moves taken back)"
        )
    return "their events agree but a tag or a note differs"


@attrs.frozen
class Memory:
    """What this machine remembers of one game and seat: a copy of the log last written."""

    path: Path

    @classmethod
    def of(cls, opened: Opened, seat: int, folder: Path | None = None) -> Memory:
        game_id = digest_of(GameLog(header=attrs.evolve(opened.log.header, meta={})))
        suffix = ".json" if reading.is_json(opened.path, opened.raw) else ".tribes"
        where = (folder or state_folder()) / "mail" / f"{game_id}-seat{seat + 1}{suffix}"
        return cls(where)

    def read(self) -> Opened | None:
        """The log remembered, or None when nothing is."""
        if not (self.path.exists() or self.path.is_symlink()):
            other = self.path.with_suffix(".json" if self.path.suffix == ".tribes" else ".tribes")
            if not other.exists():
                return None
            return attrs.evolve(self, path=other).read()
        try:
            data = files.read_regular(self.path, logfile.MAX_LOG_BYTES, "log")
            return reading.opened_from(self.path, data)
        except TribesError as exc:
            raise LogError(
                f"cannot read the copy act --as keeps of this game at {self.path}: {exc.message}; "
                "remove it to stop checking this game against it"
            ) from None

    def write(self, data: bytes) -> None:
        """Remember ``data``, the log as just written (the other form's copy dropped)."""
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        files.write_atomic(self.path, data, replace=True)
        other = self.path.with_suffix(".json" if self.path.suffix == ".tribes" else ".tribes")
        if other.exists():
            other.unlink()


def check_received(opened: Opened, seat: int, folder: Path | None = None) -> None:
    """Refuse ``opened`` unless it extends the log ``act --as`` last wrote here for its game
    and ``seat`` (nothing remembered: any log is taken)."""
    memory = Memory.of(opened, seat, folder)
    held = memory.read()
    if held is None:
        return
    digest = digest_of(held.log)
    if extends(opened.log, digest):
        return
    name = opened.log.header.seats[seat]
    where = parting(held.log, opened.log, opened.game)
    raise NotExtending(
        f"does not extend the log you last wrote as {views.printable(name)} "
        f"({views.count(len(held.log.events), 'event')}, digest {digest}): {where}; "
        f"'tribes diff {held.path} {opened.path}' shows how; ask for the log again, "
        "nothing was appended",
        path=str(opened.path),
    )


def remember(path: Path, seat: int, folder: Path | None = None) -> Path:
    """Remember the log at ``path`` as ``act --as`` just wrote it, for its game and ``seat``;
    where the copy is kept."""
    data = files.read_regular(path, logfile.MAX_LOG_BYTES, "log")
    opened = reading.opened_from(path, data)
    memory = Memory.of(opened, seat, folder)
    memory.write(data)
    return memory.path


@attrs.frozen
class Held:
    """A log or a corpus, as ``verify --extends`` and ``--digest`` compare them: its digest,
    the digests it had at each commit or append (oldest first), how many events or games."""

    path: Path
    corpus: bool
    digest: str
    prefixes: tuple[str, ...]
    counts: tuple[int, ...]
    """Events (a log) or games (a corpus) at each of ``prefixes``."""
    log: GameLog | None = None
    game: object = None


def held(path: Path) -> Held:
    """The log or corpus at ``path`` (``CORPUS#K``: that game's log), read but not replayed."""
    from tribes.replay import corpus  # noqa: PLC0415  start-up: opening a log loads no corpus or append machinery

    if corpus.split_ref(path) is None and corpus.is_corpus(path):
        with corpus.Corpus(path) as read:
            appends = read.layout.appends
            digests = tuple(a.digest.hex() for a in appends)
            counts = tuple(a.games + a.count for a in appends)
            return Held(path, True, read.layout.digest.hex(), digests, counts)
    opened = reading.open_log(path)
    log = opened.log
    points = [c.events for c in log.commits] or list(range(len(log.events) + 1))
    prefixes = prefix_digests(log)
    counts = tuple([*points, len(log.events)][: len(prefixes)])
    return Held(path, False, digest_of(log), tuple(prefixes), counts, log, opened.game)


def extension(new: Held, old: Held) -> str | None:
    """Why ``new`` does not extend ``old`` (in words, naming where they part), or None when
    it does: ``old``'s digest is the one ``new`` had at one of its commits (appends)."""
    if new.corpus != old.corpus:
        kinds = ("a corpus", "a log")
        return f"{new.path} is {kinds[not new.corpus]} and {old.path} {kinds[not old.corpus]}"
    if old.digest in new.prefixes:
        return None
    if new.log is not None and old.log is not None:
        return parting(old.log, new.log, new.game)
    return (
        f"no append of it has the digest of {old.path} ({old.digest}): games or appends "
        "differ, or it holds fewer"
    )


def extension_words(new: Held, old: Held) -> str:
    """``new`` extends ``old``, in words: how many events (games) then and now."""
    noun = "game" if new.corpus else "event"
    then = new.counts[new.prefixes.index(old.digest)]
    now = new.counts[-1] if new.counts else then
    return f"extends {old.path} ({views.count(then, noun)} then, {now} now)"


def taken_back(path: Path, was: str, folder: Path | None = None) -> list[int]:
    """After ``undo`` of the log at ``path`` (whose digest was ``was``): every seat whose kept
    copy was that log keeps the log as it is now, so that ``act --as`` goes on from it. The
    seats whose copy was replaced."""
    data = files.read_regular(path, logfile.MAX_LOG_BYTES, "log")
    opened = reading.opened_from(path, data)
    replaced = []
    for seat in range(len(opened.log.header.seats)):
        memory = Memory.of(opened, seat, folder)
        held = memory.read()
        if held is not None and digest_of(held.log) == was:
            memory.write(data)
            replaced.append(seat)
    return replaced
