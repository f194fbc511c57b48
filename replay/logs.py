"""Logs as users handle them: create, open (either form), replay with checks, append, convert.

This is the library under the CLI: every command is a call or two here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from tribes import games
from tribes.core.engine import Step, play, steps
from tribes.core.errors import (
    BadNotation,
    BadPosition,
    CorruptLog,
    IllegalMove,
    LogError,
    UnsupportedVersion,
    UsageError,
)
from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.header import Header
from tribes.events import codec, logfile
from tribes.events.logfile import Checkpoint, FileEnd, GameLog

MAX_SEED = logfile.MAX_SEED
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,24}$")


@attrs.frozen
class Opened:
    """A log as read from disk: which file, in which form, and where its bytes end."""

    path: Path
    log: GameLog
    game: Game
    end: FileEnd | None
    """None for the JSON form, which is rewritten whole on append."""


def header(
    game: Game,
    *,
    seats: Sequence[str],
    seed: int,
    options: Mapping[str, str] | None = None,
    position: Any = None,
    meta: Mapping[str, Any] | None = None,
) -> Header:
    """A checked header for a new game."""
    check_seats(game, seats)
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"the seed must be a whole number from 0 to {MAX_SEED}")
    if position is not None:
        why = logfile.json_problem(position)
        if why:
            raise BadPosition(f"the position {why}")
        position = codec.canonical(position)
    head = Header(
        game=game.name,
        rules_version=game.rules_version,
        seed=seed,
        seats=tuple(seats),
        options=game.check_options(dict(options or {})),
        position=position,
        meta=dict(meta or {}),
        schema=game.events.versions(),
    )
    game.setup(head)  # refuses a bad position now, not at the first replay
    return head


# --- reading ---------------------------------------------------------------------------------------


def is_json(path: Path, data: bytes) -> bool:
    return path.suffix == ".json" or data.lstrip()[:1] == b"{"


def open_log(path: Path) -> Opened:
    """Read a log in either form. JSON events may be dicts or, in hand-written scenarios, moves
    in notation; both are resolved against the states as the log replays."""
    from tribes.replay import corpus  # a game of a corpus: CORPUS#K

    if (ref := corpus.split_ref(path)) is not None:
        return corpus.open_game(path, *ref)
    data = logfile.read_bytes(path)
    if is_json(path, data):
        try:
            text = data.decode()
        except UnicodeDecodeError:
            raise CorruptLog("is not UTF-8 text", path=str(path)) from None
        raw = logfile.read_json_text(text, str(path))
        game = _game_of(raw.header, str(path))
        log = _resolve_json(game, raw, str(path))
        return Opened(path, log, game, None)
    log, end = logfile.decode(data, games.event_table, str(path))
    game = _game_of(log.header, str(path))
    return Opened(path, log, game, end)


def _game_of(head: Header, path: str) -> Game:
    """The log's game, once its header is found fit for it: seats, names and options."""
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
    return game


def check_seats(game: Game, seats: Sequence[str]) -> None:
    if not game.facts.min_seats <= len(seats) <= game.facts.max_seats:
        raise UsageError(
            f"{game.name} is for {game.facts.min_seats} to {game.facts.max_seats} seats, not {len(seats)}"
        )
    for name in seats:
        if not _NAME.match(name):
            raise UsageError(f"seat name '{name}' must be 1 to 24 letters, digits, '_', '.' or '-'")
    if len(set(seats)) != len(seats):
        raise UsageError("seat names must differ")


def _resolve_json(game: Game, raw: logfile.JsonLog, path: str) -> GameLog:
    events: list[Event] = []
    state = game.setup(raw.header)
    for index, item in enumerate(raw.items, start=1):
        try:
            if isinstance(item, str):
                event = game.parse_move(state, item)
            else:
                event = codec.event_from_dict(game.events, item, raw.header.schema)
        except (BadNotation, CorruptLog, UnsupportedVersion) as exc:
            raise exc.within(f"{path}: event {index}") from None
        state = play(game, state, event, index).state
        events.append(event)
    log = GameLog(header=raw.header, events=tuple(events))
    if raw.checkpoints is None:
        return attrs.evolve(log, checkpoints=checkpoints(game, log, ()))
    return attrs.evolve(log, checkpoints=raw.checkpoints)


# --- replaying and checking ------------------------------------------------------------------------


def steps_of(
    game: Game, log: GameLog, *, verify: bool = True, path: str | None = None
) -> list[Step]:
    """Every step of the log; checks each event's legality and, with ``verify``, every checkpoint."""
    by_count = {c.events: c for c in log.checkpoints}
    out: list[Step] = []
    try:
        for step in steps(game, log.header, log.events):
            out.append(step)
            if verify and step.index in by_count:
                _check_checkpoint(step, by_count[step.index], path)
    except IllegalMove as exc:
        if path is None:
            raise
        raise exc.within(path) from None
    if verify:
        beyond = [c.events for c in log.checkpoints if c.events > len(log.events)]
        if beyond:
            raise CorruptLog(f"a checkpoint names event {beyond[0]}, beyond the last", path=path)
    return out


def _check_checkpoint(step: Step, checkpoint: Checkpoint, path: str | None) -> None:
    digest = bytes.fromhex(codec.state_hash(step.state))[: len(checkpoint.digest)]
    if digest != checkpoint.digest or len(checkpoint.digest) != logfile.DIGEST_BYTES:
        raise CorruptLog(
            f"checkpoint after event {step.index}: the replayed state differs from the recorded "
            "one (the log was altered, or the rules changed since it was written)",
            path=path,
            index=step.index,
        )


def digest(state: Any) -> bytes:
    return bytes.fromhex(codec.state_hash(state))[: logfile.DIGEST_BYTES]


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
            have[n] = Checkpoint(n, digest(walk[n].state))
    return tuple(have[n] for n in sorted(have))


# --- writing ---------------------------------------------------------------------------------------


def create(path: Path, log: GameLog, game: Game, *, force: bool = False) -> GameLog:
    """Write a new log (either form, by the file's suffix) with its checkpoints."""
    if path.exists() and not force:
        raise UsageError(f"{path} exists; choose another name or pass --force to replace it")
    full = attrs.evolve(log, checkpoints=checkpoints(game, log, log.checkpoints))
    if path.suffix == ".json":
        _write_text(path, logfile.to_json_text(full))
    else:
        logfile.write_new(path, full)
    return full


def _write_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise LogError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None


def act(opened: Opened, moves: Sequence[str]) -> list[Step]:
    """Check every move, then append them all or none: on any error the file is untouched."""
    from tribes.replay import corpus

    corpus.refuse_append(opened.path)
    game, log = opened.game, opened.log
    history = steps_of(game, log, path=str(opened.path))
    state = history[-1].state
    new: list[Step] = []
    for offset, text in enumerate(moves, start=1):
        index = len(log.events) + offset
        try:
            event = game.parse_move(state, text)
        except BadNotation as exc:
            raise exc.within(f"event {index}") from None
        step = play(game, state, event, index)
        new.append(step)
        state = step.state
    longer = attrs.evolve(
        log, events=log.events + tuple(s.event for s in new if s.event is not None)
    )
    longer = attrs.evolve(
        longer, checkpoints=checkpoints(game, longer, log.checkpoints, history + new)
    )
    if opened.end is None:
        _write_text(opened.path, logfile.to_json_text(longer))
    else:
        logfile.append(opened.path, log, opened.end, longer)
    return new


def to_json(log: GameLog) -> str:
    return logfile.to_json_text(log)
