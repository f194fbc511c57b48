"""``tribes new``, ``moves`` and ``act``: start a log, ask what is legal, play moves into it."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import click.shell_completion

from tribes import games
from tribes.cli.common import LOG, WHOLE, WholeRange, options, read_position, say, tag_pairs, warn
from tribes.cli.quick import at, viewer_of
from tribes.core import views
from tribes.core.errors import TribesError, UsageError
from tribes.core.game import EVERYTHING, Game, Viewer
from tribes.events import codec
from tribes.events.logfile import Annotation, GameLog
from tribes.replay import logs, mail


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option("--seats", type=WholeRange(1, 9), help="Number of seats, named p1, p2, ...")
@click.option("--names", help="Seat names in seat order, comma-separated: ann,bob,cy")
@click.option("--seed", type=WHOLE, help="The game's seed (default: a random one, printed).")
@click.option(
    "--option", "option_pairs", multiple=True, metavar="K=V", help="A game option, e.g. board=PATH."
)
@click.option(
    "--position",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Start from a position file (JSON).",
)
@click.option(
    "-o", "--output", type=LOG, required=True, help="The log to write (.tribes, or .json)."
)
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
@click.option(
    "--tag",
    "tags",
    multiple=True,
    metavar="KEY=VALUE",
    help="A tag (event, site, date, round, players, result, or any key); repeatable.",
)
def new(
    game_name: str,
    seats: int | None,
    names: str | None,
    seed: int | None,
    option_pairs: tuple[str, ...],
    position: Path | None,
    output: Path,
    force: bool,
    tags: tuple[str, ...],
) -> None:
    """Start a new game log."""
    game = games.get(game_name)
    tagged = tuple(Annotation(0, key, value) for key, value in tag_pairs(tags))
    pos = read_position(position) if position else None
    seat_names = _seat_names(game, seats, names, pos)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big") >> 1
    head = logs.header(
        game, seats=seat_names, seed=seed, options=options(option_pairs), position=pos
    )
    logs.create(output, GameLog(header=head, annotations=tagged), game, force=force)
    state = game.setup(head)
    to_move = game.to_move(state)
    say(
        f"{output}: new {game.name} game, seed {seed}, seats {', '.join(seat_names)}; "
        + (f"{seat_names[to_move]} to move" if to_move is not None else "over")
    )


def _seat_names(game: Game[Any], seats: int | None, names: str | None, position: Any) -> list[str]:
    if names is not None:
        chosen = [n.strip() for n in names.split(",")]
        if seats is not None and seats != len(chosen):
            raise UsageError(f"--seats {seats} but --names gives {len(chosen)} names")
        return chosen
    if position is not None:
        return list(game.seats_of_position(position))
    return [f"p{i + 1}" for i in range(seats if seats is not None else game.facts.min_seats + 1)]


@click.command()
@click.argument("log", type=LOG)
@click.option(
    "--at", "index", type=WHOLE, help="The moves after event N (0: the start; default: the last)."
)
@click.option("--json", "as_json", is_flag=True, help="A JSON document: who moves, and the moves.")
@click.option(
    "--as",
    "who",
    metavar="SEAT",
    help="As this seat, 'spectator' or 'all' (default: $TRIBES_SEAT's seat, else all): "
    "another seat's moves are not shown where they would tell its hidden cards.",
)
def moves(log: Path, index: int | None, as_json: bool, who: str | None) -> None:
    """The legal moves, one per line, in notation (none once the game is over)."""
    opened = logs.open_log(log)
    asked = None if index is None else at(len(opened.log.events), index)
    history = logs.shown(opened.game, opened.log, str(log), warn, index=asked)
    index = len(history) - 1 if asked is None else asked
    state = history[index].state
    seats = opened.log.header.seats
    viewer = viewer_of(seats, who)
    legal = views.legal_notation(opened.game, state, viewer)
    to_move = opened.game.to_move(state)
    if as_json:
        doc = {"events": index, "to_move": None if to_move is None else seats[to_move]}
        click.echo(codec.to_json({**doc, "moves": legal}))
        return
    if legal is None:
        mover = seats[to_move] if to_move is not None else "another seat"
        click.echo(
            f"it is {mover}'s turn: {mover}'s moves would tell what only {mover} may see "
            "(--as all shows them)",
            err=True,
        )
        return
    for move in legal:
        click.echo(move)
    if not legal:
        click.echo("the game is over: no move is legal", err=True)


class _MovesCommand(click.Command):
    """A command whose moves may start with a minus (Hunters and Gatherers' ``-1,0N``): from the
    first argument that is a minus and a digit on, everything is a move, not an option."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" not in args:
            first = next((i for i, a in enumerate(args) if re.match(r"^-\d", a)), None)
            if first is not None:
                later = args[first:]
                options = []  # --as SEAT after the moves is still the option
                while "--as" in later[:-1]:
                    at = later.index("--as")
                    options += later[at : at + 2]
                    del later[at : at + 2]
                options += [a for a in later if a.startswith("--as=")]
                later = [a for a in later if not a.startswith("--as=")]
                args = [*args[:first], *options, "--", *later]
        return super().parse_args(ctx, args)


def _complete_moves(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[click.shell_completion.CompletionItem]:
    """Shell completion of ``tribes act LOG <TAB>``: the legal moves after the moves already
    typed. Nothing on any error: completion never prints one."""
    try:
        opened = logs.open_log(Path(ctx.params["log"]))
        state = logs.steps_of(opened.game, opened.log)[-1].state
        for typed in ctx.params.get("moves") or ():
            state, _ = opened.game.apply(state, opened.game.parse_move(state, typed))
        legal = [opened.game.format_move(m) for m in opened.game.legal_moves(state)]
    except (TribesError, KeyError, TypeError, OSError):
        return []
    return [click.shell_completion.CompletionItem(m) for m in legal if m.startswith(incomplete)]


@click.command(cls=_MovesCommand)
@click.argument("log", type=LOG)
@click.argument("moves", nargs=-1, required=True, shell_complete=_complete_moves)
@click.option(
    "--as",
    "who",
    metavar="SEAT",
    envvar="TRIBES_SEAT",
    help="Make only this seat's moves (default: $TRIBES_SEAT): another seat's is refused.",
)
def act(log: Path, moves: tuple[str, ...], who: str | None) -> None:
    """Check moves and append them to the log (all of them, or none). With --as SEAT (or
    TRIBES_SEAT set), a move that is not SEAT's to make is refused, naming whose turn it is."""
    opened = logs.open_log(log)
    seats = opened.log.header.seats
    seat = _mover(seats, who)
    if seat is not None:
        mail.check_received(opened, seat)
    steps = logs.act(opened, list(moves), seat)
    width = max([14, *(len(views.notation(opened.game, s)) + 1 for s in steps)])  # in one column
    viewer: Viewer = EVERYTHING if seat is None else seat
    for step in steps:
        click.echo(views.step_line(opened.game, seats, step, width, viewer))
    if seat is not None:
        try:
            mail.remember(log, seat)
        except (TribesError, OSError) as exc:
            why = exc.message if isinstance(exc, TribesError) else exc.strerror or str(exc)
            click.echo(
                f"tribes: warning: the moves are appended, but this machine could not keep a "
                f"copy of the log ({why}): the next log you receive is not checked against it",
                err=True,
            )


def _mover(seats: Sequence[str], who: str | None) -> int | None:
    """The seat ``act --as`` (or TRIBES_SEAT) names; None when neither names one."""
    if not who:
        return None
    if who in seats:
        return list(seats).index(who)
    source = click.get_current_context().get_parameter_source("who")
    named = "TRIBES_SEAT" if source is click.core.ParameterSource.ENVIRONMENT else "--as"
    raise UsageError(
        f"{named} '{views.printable(who)}' is no seat of this log; its seats: {', '.join(seats)}"
    )
