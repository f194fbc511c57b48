"""Reading a log in either form: checked as far as can be without replaying it, its game found
fit for its header, an uncommitted tail refused (after waiting for a writer at work)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from tribes import games
from tribes.core.engine import play, steps
from tribes.core.errors import (
    BadNotation,
    CorruptLog,
    IllegalMove,
    UncommittedTail,
    UnsupportedVersion,
    UsageError,
)
from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.header import Header
from tribes.core.reprs import fields_repr
from tribes.events import codec, files, logfile
from tribes.events.logfile import FileEnd, GameLog, Tail
from tribes.events.model import CORPUS_MAGIC
from tribes.replay.making import check_seats, file_options, setup
from tribes.replay.marks import checkpoints

TYPE_CHECKING = False
if TYPE_CHECKING:  # the JSON form is loaded when a JSON log is read, not to read a .tribes one
    from tribes.events.jsonform import JsonLog


@attrs.frozen
class Opened:
    """A log as read from disk: which file, in which form, and where its committed bytes end."""

    path: Path
    log: GameLog
    game: Game[Any]
    end: FileEnd | None
    """None for the JSON form, which is rewritten whole on append."""
    raw: bytes = b""
    """The bytes read, to tell whether another writer changed the file since."""

    __repr__ = fields_repr

    @property
    def tail(self) -> Tail | None:
        """Records after the last commit (an interrupted append): never part of the game."""
        return self.end.tail if self.end is not None else None


# --- reading ---------------------------------------------------------------------------------------


def is_json(path: Path, data: bytes) -> bool:
    return path.suffix == ".json" or data.lstrip()[:1] == b"{"


def _starts_a_corpus(data: bytes) -> bool:
    """Whether ``data``, which begins with the corpus mark, is a corpus (a log with a flipped bit
    in its mark is a damaged log): asked only then, so that opening a log does not load the
    corpus machinery."""
    from tribes.events.corpus import starts_a_corpus  # noqa: PLC0415  start-up: opening a log loads no corpus or append machinery

    return starts_a_corpus(data)


def open_log(path: Path) -> Opened:
    """Read a log in either form, checked as far as can be without replaying it. JSON events
    may be dicts or, in hand-written scenarios (version 1), moves in notation; both are resolved
    against the states as the log replays. ``CORPUS#K`` is game K of a corpus."""
    if "#" in str(path):  # a game of a corpus, maybe: only then load the corpus machinery
        from tribes.replay import corpus  # noqa: PLC0415  start-up: opening a log loads no corpus or append machinery

        if (ref := corpus.split_ref(path)) is not None:
            return _corpus_game(path, *ref)
    data = logfile.read_bytes(path)
    if data.startswith(CORPUS_MAGIC) and _starts_a_corpus(data):
        raise UsageError(
            f"{path} is a corpus of many games and this command reads one: name it as "
            f"{path}#K (K from 1; 'tribes corpus ls {path}' lists them)"
        )
    opened = opened_from(path, data)
    if opened.tail is not None:  # a writer at work, or one that was interrupted?
        with files.shared_lock(path):
            opened = opened_from(path, logfile.read_bytes(path))
        refuse_tail(opened)
    return opened


def _corpus_game(ref: Path, path: Path, number: int) -> Opened:
    """Game ``number`` (from 1) of the corpus at ``path`` as an opened log named ``ref``."""
    from tribes.replay.corpus import Corpus  # noqa: PLC0415  start-up: opening a log loads no corpus or append machinery

    with Corpus(path) as read:
        read.check_number(number - 1)
        game, log = read.file_log(number - 1)
    return Opened(ref, log, game, None)


def encode(path: Path, log: GameLog) -> bytes:
    """The bytes of ``log`` in the form ``path``'s suffix names (``.json``, or else ``.tribes``):
    beside the reading of either form, so that appending and undo write the form they read."""
    if path.suffix == ".json":
        return logfile.to_json_text(log).encode()
    return logfile.encode(log)


def refuse_tail(opened: Opened) -> None:
    """Raise UncommittedTail if the log has records after its last commit."""
    tail = opened.tail
    if tail is not None:
        raise UncommittedTail(
            f"{tail.describe()}, or a file cut short on its way: a file received whole cannot "
            "have an interrupted append, so for a log you were sent, ask for it again; "
            f"'tribes repair {opened.path}' drops the records after byte {tail.offset} "
            "(keeping a backup)",
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


def _json_of(path: Path, data: bytes) -> JsonLog:
    try:
        text = data.decode()
    except UnicodeDecodeError:
        raise CorruptLog("is not UTF-8 text", path=str(path)) from None
    return logfile.read_json_text(text, str(path))


def _with_files(head: Header, texts: Mapping[str, str]) -> Header:
    return attrs.evolve(head, files={**head.files, **texts})


def _game_of(head: Header, path: str) -> Game[Any]:
    """The log's game, once its header is found fit for it: seats, names, options, files."""
    game = games.get_for_log(head.game, path)
    if head.rules_version > game.rules_version:
        raise UnsupportedVersion(
            f"written for {game.name} rules version {head.rules_version}; "
            f"this tribes plays version {game.rules_version}",
            path=path,
        )
    try:
        check_seats(game, head.seats, new=False)
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
    stray = sorted(k for k in head.files if k not in head.options or k not in file_options(game))
    if stray:
        raise CorruptLog(
            f"the header holds a file for no option that names one ({ascii(stray[0])[:40]})",
            path=path,
        )
    return game


def open_with_refused(path: Path) -> tuple[Opened, Event | None]:
    """A log whose last event may be refused: the log before that event, and the event (None
    when every event is legal). Only a hand-written scenario (a JSON log without digest,
    commits and checkpoints) can hold one: every other log was checked as it was written, so
    an illegal event in it is damage, refused as ever."""
    try:
        return open_log(path), None
    except IllegalMove as exc:
        from tribes.replay import corpus  # noqa: PLC0415  start-up: opening a log loads no corpus or append machinery

        if corpus.split_ref(path) is not None:
            raise
        data = logfile.read_bytes(path)
        if not is_json(path, data):
            raise
        raw = _json_of(path, data)
        if raw.version != 1 or exc.index != len(raw.items):
            raise
        where = str(path)
        game = _game_of(raw.header, where)
        log = _resolve_json(game, attrs.evolve(raw, items=raw.items[:-1]), where)
        state = steps(game, log.header, log.events)
        last = _event_of(game, list(state)[-1].state, raw, len(raw.items), where)
        return Opened(path, log, game, None, data), last


def _event_of(game: Game[Any], state: object, raw: JsonLog, index: int, path: str) -> Event:
    """Item ``index`` of a JSON log as an event, read in ``state`` (the state before it)."""
    item = raw.items[index - 1]
    try:
        if isinstance(item, str) and raw.version == 1:
            return game.parse_move(state, item)
        return codec.event_from_dict(game.events, item, raw.header.schema)
    except (CorruptLog, UnsupportedVersion) as exc:
        raise exc.placed(path=path, record=f"event {index}", index=index) from None
    except BadNotation as exc:
        raise exc.within(f"{path}: event {index}") from None


def _resolve_json(game: Game[Any], raw: JsonLog, path: str) -> GameLog:
    events: list[Event] = []
    if raw.version >= 2:  # every event an object: read without the rules (which check it later)
        events = [_event_of(game, None, raw, i, path) for i in range(1, len(raw.items) + 1)]
    else:
        state = setup(game, raw.header)
        for index in range(1, len(raw.items) + 1):
            event = _event_of(game, state, raw, index, path)
            state = play(game, state, event, index).state
            events.append(event)
    log = GameLog(header=raw.header, events=tuple(events), annotations=raw.annotations)
    if raw.version >= 2:
        try:
            digest = logfile.log_digest(log)
        except (OverflowError, ValueError):  # what no sealed log holds: it was packed
            raise CorruptLog(
                "holds a number out of the range of a log: it was altered or damaged", path=path
            ) from None
        if digest != raw.digest:
            raise CorruptLog(
                "its digest does not match its header and events"
                + (" and annotations" if raw.annotations else "")
                + ": the log was altered or damaged",
                path=path,
            )
        return attrs.evolve(
            log, checkpoints=raw.checkpoints or (), commits=raw.commits, format=raw.version
        )
    if raw.checkpoints is None:
        return attrs.evolve(log, checkpoints=checkpoints(game, log, ()))
    return attrs.evolve(log, checkpoints=raw.checkpoints)
