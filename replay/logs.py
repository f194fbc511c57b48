"""Logs as users handle them: create, open (either form), replay with checks, append, convert.

This is the library under the CLI: every command is a call or two here. Appending lives in
:mod:`tribes.replay.appending` (``act``), checking in :mod:`tribes.replay.verify`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from tribes import games
from tribes.core.engine import Step, play, steps
from tribes.core.errors import (
    BadData,
    BadNotation,
    BadOption,
    BadPosition,
    CorruptLog,
    IllegalMove,
    LogError,
    UncommittedTail,
    UnsupportedVersion,
    UsageError,
)
from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.header import Header
from tribes.events import codec, digest, files, logfile
from tribes.events.headers import seat_name_problem
from tribes.events.logfile import Checkpoint, Commit, FileEnd, GameLog, Tail

MAX_SEED = logfile.MAX_SEED
MAX_SEAT_NAME = 24


@attrs.frozen
class Opened:
    """A log as read from disk: which file, in which form, and where its committed bytes end."""

    path: Path
    log: GameLog
    game: Game
    end: FileEnd | None
    """None for the JSON form, which is rewritten whole on append."""
    raw: bytes = b""
    """The bytes read, to tell whether another writer changed the file since."""

    @property
    def tail(self) -> Tail | None:
        """Records after the last commit (an interrupted append): never part of the game."""
        return self.end.tail if self.end is not None else None


def file_options(game: Game) -> Mapping[str, str]:
    """The options of ``game`` that name a file (option -> what it is: "board file"): those that
    take a PATH. Their files are read at ``new`` and carried in the header."""
    return {o.name: f"{o.name} file" for o in game.facts.options if o.takes == "PATH"}


def header(
    game: Game,
    *,
    seats: Sequence[str],
    seed: int,
    options: Mapping[str, str] | None = None,
    position: Any = None,
    meta: Mapping[str, Any] | None = None,
) -> Header:
    """A checked header for a new game. Every file an option names is read now, once (a regular
    file of at most MAX_FILE_BYTES, UTF-8 text), and its text goes into the header."""
    check_seats(game, seats)
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"the seed must be a whole number from 0 to {MAX_SEED}")
    if position is not None:
        why = logfile.json_problem(position)
        if why:
            raise BadPosition(f"the position {why}")
        position = codec.canonical(position)
    meta = dict(meta or {})
    why = logfile.json_problem(meta)
    if why:
        raise UsageError(f"the metadata {why}")
    options = dict(options or {})
    checked = game.check_options(options)
    contents = {
        k: read_option_file(k, what, v)
        for k, v in checked.items()
        if (what := file_options(game).get(k))
    }
    head = Header(
        game=game.name,
        rules_version=game.rules_version,
        seed=seed,
        seats=tuple(seats),
        options=checked,
        position=position,
        meta=meta,
        schema=game.events.versions(),
        files=contents,
    )
    setup(game, head)  # refuses a bad position or board now, not at the first replay
    return head


def read_option_file(option: str, what: str, value: str) -> str:
    try:
        data = files.read_regular(Path(value), logfile.MAX_FILE_BYTES, what)
        return data.decode("utf-8")
    except LogError as exc:
        raise BadOption(f"option {option}: {what} {exc.message}") from None
    except UnicodeDecodeError:
        raise BadOption(f"option {option}: {what} '{value}' is not UTF-8 text") from None


def setup(game: Game, head: Header) -> Any:
    """The game's first state; a file of an option that the game refuses is a bad option."""
    try:
        return game.setup(head)
    except BadData as exc:
        option = next(iter(head.files), None)
        if option is None:
            raise
        raise BadOption(f"option {option}: {exc.message}") from None


# --- reading ---------------------------------------------------------------------------------------


def is_json(path: Path, data: bytes) -> bool:
    return path.suffix == ".json" or data.lstrip()[:1] == b"{"


def open_log(path: Path) -> Opened:
    """Read a log in either form, checked as far as can be without replaying it. JSON events
    may be dicts or, in hand-written scenarios (version 1), moves in notation; both are resolved
    against the states as the log replays."""
    data = logfile.read_bytes(path)
    opened = opened_from(path, data)
    if opened.tail is not None:  # a writer at work, or one that was interrupted?
        with files.shared_lock(path):
            opened = opened_from(path, logfile.read_bytes(path))
        refuse_tail(opened)
    return opened


def refuse_tail(opened: Opened) -> None:
    """Raise UncommittedTail if the log has records after its last commit."""
    tail = opened.tail
    if tail is not None:
        raise UncommittedTail(
            f"{tail.describe()}; 'tribes repair {opened.path}' cuts it (keeping a backup)",
            path=str(opened.path),
            offset=tail.offset,
            records=tail.records,
        )


def opened_from(path: Path, data: bytes, texts: Mapping[str, str] | None = None) -> Opened:
    """The log in ``data`` as read from ``path``; ``texts`` adds file texts to its header (the
    upgrade of a version 1 log)."""
    where = str(path)
    if is_json(path, data):
        raw = _json_of(path, data)
        if texts:
            raw = attrs.evolve(raw, header=_with_files(raw.header, texts))
        game = _game_of(raw.header, where)
        log = _resolve_json(game, raw, where)
        return Opened(path, log, game, None, data)
    log, end = logfile.decode(data, games.event_table, where)
    if texts:
        log = attrs.evolve(log, header=_with_files(log.header, texts))
    game = _game_of(log.header, where)
    return Opened(path, log, game, end, data)


def read_header(path: Path, data: bytes) -> Header:
    """The header of the log in ``data``, checked as data but not against its game."""
    if is_json(path, data):
        return _json_of(path, data).header
    return logfile.decode(data, games.event_table, str(path))[0].header


def _json_of(path: Path, data: bytes) -> logfile.JsonLog:
    try:
        text = data.decode()
    except UnicodeDecodeError:
        raise CorruptLog("is not UTF-8 text", path=str(path)) from None
    return logfile.read_json_text(text, str(path))


def _with_files(head: Header, texts: Mapping[str, str]) -> Header:
    return attrs.evolve(head, files={**head.files, **texts})


def _game_of(head: Header, path: str) -> Game:
    """The log's game, once its header is found fit for it: seats, names, options, files."""
    game = games.get_for_log(head.game, path)
    if head.rules_version > game.rules_version:
        raise UnsupportedVersion(
            f"written for {game.name} rules version {head.rules_version}; "
            f"this tribes plays version {game.rules_version}",
            path=path,
        )
    try:
        check_seats(game, head.seats)
        game.check_options(head.options)
    except UsageError as exc:
        raise CorruptLog(f"the header does not fit {game.name}: {exc.message}", path=path) from None
    for option, what in file_options(game).items():
        if option in head.options and option not in head.files:
            raise UnsupportedVersion(
                f"names {what} '{head.options[option]}' without holding it (a log of format "
                f"version 1?); 'tribes upgrade LOG -o NEW --file {option}=PATH' puts it in",
                path=path,
            )
    unknown = sorted(set(head.files) - set(head.options) - set(file_options(game)))
    if unknown or any(k not in head.options for k in head.files):
        raise CorruptLog(
            f"the header holds a file for no option ({(unknown or list(head.files))[0]})", path=path
        )
    return game


def check_seats(game: Game, seats: Sequence[str]) -> None:
    if not game.facts.min_seats <= len(seats) <= game.facts.max_seats:
        raise UsageError(
            f"{game.name} is for {game.facts.min_seats} to {game.facts.max_seats} seats, not {len(seats)}"
        )
    for name in seats:
        if (
            seat_name_problem(name)
            or len(name) > MAX_SEAT_NAME
            or not all(c.isalnum() or c in "_.-" for c in name)
        ):
            shown = ascii(name)[1:-1] if not name.isprintable() else name
            raise UsageError(
                f"seat name '{shown}' must be 1 to 24 letters, digits, '_', '.' or '-'"
            )
    if len(set(seats)) != len(seats):
        raise UsageError("seat names must differ")


def _resolve_json(game: Game, raw: logfile.JsonLog, path: str) -> GameLog:
    events: list[Event] = []
    state = setup(game, raw.header)
    for index, item in enumerate(raw.items, start=1):
        try:
            if isinstance(item, str) and raw.version == 1:
                event = game.parse_move(state, item)
            else:
                event = codec.event_from_dict(game.events, item, raw.header.schema)
        except (CorruptLog, UnsupportedVersion) as exc:
            raise exc.placed(path=path, record=f"event {index}", index=index) from None
        except BadNotation as exc:
            raise exc.within(f"{path}: event {index}") from None
        state = play(game, state, event, index).state
        events.append(event)
    log = GameLog(header=raw.header, events=tuple(events))
    if raw.version >= 2:
        if logfile.log_digest(log) != raw.digest:
            raise CorruptLog(
                "its digest does not match its header and events: the log was altered or damaged",
                path=path,
            )
        return attrs.evolve(log, checkpoints=raw.checkpoints or (), commits=raw.commits)
    if raw.checkpoints is None:
        return attrs.evolve(log, checkpoints=checkpoints(game, log, ()))
    return attrs.evolve(log, checkpoints=raw.checkpoints)


# --- replaying and checking ------------------------------------------------------------------------


def steps_of(
    game: Game, log: GameLog, *, verify: bool = True, path: str | None = None
) -> list[Step]:
    """Every step of the log; checks each event's legality and, with ``verify``, every checkpoint
    and every commit."""
    by_count = {c.events: c for c in log.checkpoints}
    commits = {c.events: c for c in log.commits}
    running = digest.Running(log.header) if verify and commits else None
    out: list[Step] = []
    try:
        for step in steps(game, log.header, log.events):
            out.append(step)
            if running is not None and step.event is not None:
                running.add(step.event)
            if verify and step.index in by_count:
                _check_checkpoint(step, by_count[step.index], path)
            if running is not None and step.index in commits:
                _check_commit(step, running.at(), commits[step.index], path)
    except IllegalMove as exc:
        if path is None:
            raise
        raise exc.within(path) from None
    except BadData as exc:
        raise CorruptLog(
            f"the header's file is refused by the game: {exc.message}", path=path
        ) from None
    if verify:
        beyond = [c.events for c in (*log.checkpoints, *log.commits) if c.events > len(log.events)]
        if beyond:
            raise CorruptLog(f"a checkpoint names event {beyond[0]}, beyond the last", path=path)
    return out


def _check_checkpoint(step: Step, checkpoint: Checkpoint, path: str | None) -> None:
    if digest_of(step.state) != checkpoint.digest:
        raise CorruptLog(
            "the replayed state differs from the recorded one (the log was altered, or the "
            "rules changed since it was written)",
            path=path,
            index=step.index,
            record=f"checkpoint after event {step.index}",
        )


def _check_commit(step: Step, so_far: bytes, commit: Commit, path: str | None) -> None:
    if digest.commit_digest(so_far, step.state) != commit.digest:
        raise CorruptLog(
            "does not match: its checkpoint of the state and digest of the header and events "
            "differ from the replay's (the log was altered, or the rules changed since)",
            path=path,
            index=step.index,
            record=f"the commit after event {step.index}",
        )


def digest_of(state: Any) -> bytes:
    return bytes.fromhex(codec.state_hash(state))[: logfile.DIGEST_BYTES]


digest_ = digest_of  # the name of version 1 of this module was digest()


def checkpoints(
    game: Game, log: GameLog, kept: Iterable[Checkpoint], states: Sequence[Step] | None = None
) -> tuple[Checkpoint, ...]:
    """The log's checkpoints: ``kept`` ones, plus every CHECKPOINT_EVERY and one at the end."""
    have = {c.events: c for c in kept}
    wanted = logfile.checkpoint_points(len(log.events), have)
    missing = [n for n in wanted if n not in have]
    if missing:
        walk = states if states is not None else steps_of(game, log, verify=False)
        for n in missing:
            have[n] = Checkpoint(n, digest_of(walk[n].state))
    return tuple(have[n] for n in sorted(have))


def seal(
    game: Game,
    log: GameLog,
    states: Sequence[Step] | None = None,
    appended_from: Iterable[int] = (),
) -> GameLog:
    """The log in the current format, every mark recomputed: a commit at the end and at each
    earlier end of an append (``appended_from``), checkpoints every CHECKPOINT_EVERY elsewhere."""
    walk = states if states is not None else steps_of(game, log, verify=False)
    count = len(log.events)
    ends = {n for n in appended_from if 0 <= n <= count} | {count}
    running = digest.Running(log.header)
    commits = []
    for n in range(count + 1):
        if n:
            running.add(log.events[n - 1])
        if n in ends:
            commits.append(Commit(n, digest.commit_digest(running.at(), walk[n].state)))
    marks = [
        Checkpoint(n, digest_of(walk[n].state))
        for n in range(logfile.CHECKPOINT_EVERY, count + 1, logfile.CHECKPOINT_EVERY)
        if n not in ends
    ]
    return attrs.evolve(log, checkpoints=tuple(marks), commits=tuple(commits))


# --- writing ---------------------------------------------------------------------------------------


def encode(path: Path, log: GameLog) -> bytes:
    """The bytes of ``log`` in the form ``path``'s suffix names (``.json``, or else ``.tribes``)."""
    if path.suffix == ".json":
        return logfile.to_json_text(log).encode()
    return logfile.encode(log)


def create(path: Path, log: GameLog, game: Game, *, force: bool = False) -> GameLog:
    """Write a new log (either form, by the file's suffix), sealed with its commits, atomically.
    An existing file is replaced only with ``force`` (and then under its writers' lock)."""
    if (path.exists() or path.is_symlink()) and not force:
        raise UsageError(f"{path} exists; choose another name or pass --force to replace it")
    ends = [c.events for c in log.commits] or ([0] if not log.events else [])
    full = seal(game, log, appended_from=ends)
    data = encode(path, full)
    try:
        if path.is_file() and not path.is_symlink():
            with files.locked(path):
                files.write_atomic(path, data, replace=True)
        else:
            files.write_atomic(path, data, replace=force)
    except LogError as exc:
        if "exists" in exc.reason:
            raise UsageError(
                f"{path} exists; choose another name or pass --force to replace it"
            ) from None
        raise
    return full


def act(opened: Opened, moves: Sequence[str]) -> list[Step]:
    """Check every move, then append them all or none (:func:`tribes.replay.appending.act`)."""
    from tribes.replay import appending

    return appending.act(opened, moves)


def to_json(log: GameLog) -> str:
    return logfile.to_json_text(log)
