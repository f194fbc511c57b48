"""Making a log: its header, checked, with the text of every file an option names read once,
safely (:func:`tribes.events.files.read_regular`), and carried in it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tribes.core.errors import BadData, BadOption, BadPosition, LogError, UsageError
from tribes.core.game import Game
from tribes.core.header import Header
from tribes.core.positions import position_options
from tribes.events import codec, files, logfile
from tribes.events.headers import seat_name_problem

MAX_SEED = logfile.MAX_SEED
MAX_SEAT_NAME = 24


def file_options(game: Game[Any]) -> Mapping[str, str]:
    """The options of ``game`` that name a file (option -> what it is: "board file"): those that
    take a PATH. Their files are read at ``new`` and carried in the header."""
    return {o.name: f"{o.name} file" for o in game.facts.options if o.takes == "PATH"}


def header(
    game: Game[Any],
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
    named = position_options(position)
    unknown = sorted(set(named) - {o.name for o in game.facts.options})
    if unknown:
        raise BadPosition(f"position options: {game.name} takes no option '{unknown[0]}'")
    options = {**named, **(options or {})}  # --option K=V wins over the position's
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


def setup(game: Game[Any], head: Header) -> Any:
    """The game's first state; a file of an option that the game refuses is a bad option."""
    try:
        return game.setup(head)
    except BadData as exc:
        option = next(iter(head.files), None)
        if option is None:
            raise
        raise BadOption(f"option {option}: {exc.message}") from None


RESERVED_SEAT_NAMES = ("spectator", "all")
"""Names ``--as`` gives a meaning of its own: no seat may have them."""


def check_seats(game: Game[Any], seats: Sequence[str], *, new: bool = True) -> None:
    """Refuse seat names a log cannot hold (UsageError, one line); ``new`` also refuses the
    names ``--as`` reserves (a log written before they were refused is still read)."""
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
    reserved = [n for n in seats if n.casefold() in RESERVED_SEAT_NAMES] if new else []
    if reserved:
        raise UsageError(
            f"seat name '{reserved[0]}' is reserved: --as '{reserved[0].casefold()}' means "
            f"{'no seat' if reserved[0].casefold() == 'spectator' else 'every seat'}; "
            "choose another name"
        )
