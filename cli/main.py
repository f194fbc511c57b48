"""The ``tribes`` command: thin click commands over ``tribes.replay``.

Every TribesError becomes one line on stderr and its exit status (1, or 2 for usage); a
traceback from here on any input is a bug.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click
import click.shell_completion

from tribes import games
from tribes.cli.corpus import work_options
from tribes.core import views
from tribes.core.errors import (
    BadPosition,
    LogError,
    TribesError,
    UsageError,
)
from tribes.core.game import Game
from tribes.events import annotation, codec, files
from tribes.events.logfile import Annotation, GameLog
from tribes.replay import logs, records
from tribes.replay.cursor import check_point
from tribes.replay.parallel import Where
from tribes.replay.simulate import check_save, match, seeds
from tribes.replay.simulate import simulate as run_simulation

LOG = click.Path(path_type=Path)
"""A log to read: whatever is wrong with it (missing, a folder, damaged) the library says."""
OUT = click.Path(path_type=Path, dir_okay=False)


class TribesGroup(click.Group):
    """Turns every TribesError into one line and an exit status, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except TribesError as exc:
            fail(exc)
        except BrokenPipeError:
            sys.stderr.close()
            sys.exit(1)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except Exception as exc:  # a bug: say so in one line; TRIBES_DEBUG=1 shows the traceback
            if os.environ.get("TRIBES_DEBUG"):
                raise
            click.echo(
                f"tribes: internal error: {type(exc).__name__}: {exc} (please report it)", err=True
            )
            sys.exit(70)


def fail(exc: TribesError) -> NoReturn:
    click.echo(f"tribes: {one_line(exc.message)}", err=True)
    sys.exit(exc.exit_code)


def one_line(text: str) -> str:
    """``text`` as one printable line: control characters and lone surrogates escaped."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


@click.group(cls=TribesGroup)
@click.version_option(package_name="tribes")
def main() -> None:
    """tribes: Clans, Iwari and Carcassonne: Hunters and Gatherers as event logs you can
    replay, check, step through and share."""


# --- new, moves, act ------------------------------------------------------------------------------


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--seats", type=click.IntRange(1, 9), help="Number of seats, named p1, p2, ...")
@click.option("--names", help="Seat names in seat order, comma-separated: ann,bob,cy")
@click.option("--seed", type=int, help="The game's seed (default: a random one, printed).")
@click.option(
    "--option", "options", multiple=True, metavar="K=V", help="A game option, e.g. board=PATH."
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
    "tag_pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help="A tag (event, site, date, round, players, result, or any key); repeatable.",
)
def new(
    game_name: str,
    seats: int | None,
    names: str | None,
    seed: int | None,
    options: tuple[str, ...],
    position: Path | None,
    output: Path,
    force: bool,
    tag_pairs: tuple[str, ...],
) -> None:
    """Start a new game log."""
    game = games.get(game_name)
    tagged = tuple(Annotation(0, key, value) for key, value in _tag_pairs(tag_pairs))
    pos = _read_position(position) if position else None
    seat_names = _seat_names(game, seats, names, pos)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big") >> 1
    head = logs.header(game, seats=seat_names, seed=seed, options=_options(options), position=pos)
    logs.create(output, GameLog(header=head, annotations=tagged), game, force=force)
    state = game.setup(head)
    to_move = game.to_move(state)
    click.echo(
        f"{output}: new {game.name} game, seed {seed}, seats {', '.join(seat_names)}; "
        + (f"{seat_names[to_move]} to move" if to_move is not None else "over")
    )


def _tag_pairs(pairs: Sequence[str]) -> list[tuple[str, str]]:
    """``KEY=VALUE`` texts as tags, each checked (a bad one is a usage error)."""
    out = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"tag {ascii(pair)[:60]} must be KEY=VALUE (--remove KEY removes one)")
        why = annotation.tag_key_problem(key) or annotation.tag_value_problem(value)
        if why:
            raise UsageError(f"tag {ascii(key)[:40]}: {why}")
        out.append((key, value))
    return out


# --- tag, note ------------------------------------------------------------------------------------


@main.command(short_help="List a log's tags, or set and remove them.")
@click.argument("log", type=LOG)
@click.argument("pairs", nargs=-1, metavar="[KEY=VALUE]...")
@click.option("--remove", "removed", multiple=True, metavar="KEY", help="Remove this tag.")
@click.option("--json", "as_json", is_flag=True, help="List the tags as a JSON object.")
def tag(log: Path, pairs: tuple[str, ...], removed: tuple[str, ...], as_json: bool) -> None:
    """Tags, as a PGN has them: set (KEY=VALUE), remove (--remove KEY) or, with neither, list
    them (KEY=VALUE a line). A change is appended to the log; it never changes a state."""
    if not pairs and not removed:
        tags = _checked(log).log.tags
        if as_json:
            click.echo(codec.to_json(tags))
        for key, value in () if as_json else tags.items():
            click.echo(f"{key}={value}")
        return
    if as_json:
        raise UsageError("--json lists the tags; it does not go with changes")
    changes: list[tuple[str | int, str | None]] = [*_tag_pairs(pairs)]
    for key in removed:
        why = annotation.tag_key_problem(key)
        if why:
            raise UsageError(why)
        changes.append((key, None))
    logs.annotate(log, changes)
    click.echo(f"{log}: {views.count(len(changes), 'tag change')}")


@main.command(short_help="Comment on an event (0: the start), or remove the comment.")
@click.argument("log", type=LOG)
@click.argument("index", metavar="N", type=int)
@click.argument("text", required=False)
@click.option("--remove", "remove", is_flag=True, help="Remove the note on event N.")
def note(log: Path, index: int, text: str | None, remove: bool) -> None:
    """A note on event N (0: the start), as a PGN's comment: appended to the log, shown by log,
    show, replay and html; it never changes a state. Without TEXT, prints the note."""
    if remove and text is not None:
        raise UsageError("note takes TEXT or --remove, not both")
    if text is None and not remove:
        notes = _checked(log).log.notes
        if index not in notes:
            raise UsageError(f"{log} has no note on event {index}")
        click.echo(notes[index])
        return
    logs.annotate(log, [(index, text)])
    what = "the start" if index == 0 else f"event {index}"
    click.echo(f"{log}: note on {what} " + ("removed" if remove else "written"))


def _checked(path: Path) -> logs.Opened:
    """The log, replayed with every check: a tampered tag or note is refused, as an event is."""
    opened = logs.open_log(path)
    logs.steps_of(opened.game, opened.log, path=str(path))
    return opened


def _read_position(path: Path) -> Any:
    """A position file: a regular file (never a device or a FIFO) of at most 1 MiB of JSON."""
    try:
        position = codec.from_json(files.read_regular(path, 1 << 20, "position file").decode())
    except LogError as exc:
        raise BadPosition(f"cannot read position {path}: {exc.reason}") from None
    except (ValueError, RecursionError) as exc:
        raise BadPosition(f"position {path} is not valid JSON: {exc}") from None
    if not isinstance(position, dict):
        raise BadPosition(f"position {path} must be a JSON object, not {type(position).__name__}")
    return position


def _seat_names(game: Game, seats: int | None, names: str | None, position: Any) -> list[str]:
    if names is not None:
        chosen = [n.strip() for n in names.split(",")]
        if seats is not None and seats != len(chosen):
            raise UsageError(f"--seats {seats} but --names gives {len(chosen)} names")
        return chosen
    if position is not None:
        return list(game.seats_of_position(position))
    return [f"p{i + 1}" for i in range(seats if seats is not None else game.facts.min_seats + 1)]


def _options(pairs: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"option '{pair}' must be KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


@main.command(short_help="The legal moves now (or after event N), in notation.")
@click.argument("log", type=LOG)
@click.option("--at", type=int, help="The moves after event N (0: the start; default: the last).")
@click.option("--json", "as_json", is_flag=True, help="A JSON document: who moves, and the moves.")
def moves(log: Path, at: int | None, as_json: bool) -> None:
    """The legal moves, one per line, in notation (none once the game is over)."""
    opened = logs.open_log(log)
    history = logs.steps_of(opened.game, opened.log, path=str(log))
    index = _at(len(opened.log.events), at)
    state = history[index].state
    legal = [opened.game.format_move(m) for m in opened.game.legal_moves(state)]
    if as_json:
        to_move = opened.game.to_move(state)
        seats = opened.log.header.seats
        doc = {"events": index, "to_move": None if to_move is None else seats[to_move]}
        click.echo(codec.to_json({**doc, "moves": legal}))
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


@main.command(cls=_MovesCommand)
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
    for step in logs.act(opened, list(moves), seat):
        click.echo(views.step_line(opened.game, seats, step))


def _mover(seats: Sequence[str], who: str | None) -> int | None:
    """The seat ``act --as`` (or TRIBES_SEAT) names; None when neither names one."""
    if not who:
        return None
    if who in seats:
        return list(seats).index(who)
    source = click.get_current_context().get_parameter_source("who")
    named = "TRIBES_SEAT" if source is click.core.ParameterSource.ENVIRONMENT else "--as"
    raise UsageError(
        f"{named} '{one_line(who)}' is no seat of this log; its seats: {', '.join(seats)}"
    )


# --- log, show, verify ----------------------------------------------------------------------------


@main.command(name="log")
@click.argument("log", type=LOG)
@click.option("--json", "as_json", is_flag=True, help="One JSON record per event, a line each.")
@click.option(
    "--states",
    is_flag=True,
    help="With --json: each record holds the state after it and the legal moves (start included).",
)
@click.option("--as", "who", metavar="SEAT", help="Effects (and states) as this seat may see them.")
def log_(log: Path, as_json: bool, states: bool, who: str | None) -> None:
    """One line per event: index, seat, notation, effects."""
    opened = logs.open_log(log)
    head = opened.log.header
    if states and not as_json:
        raise UsageError("--states goes with --json")
    steps = logs.steps_of(opened.game, opened.log, path=str(log))
    viewer = views.viewer_named(head.seats, who)
    notes = opened.log.notes
    if as_json:
        for record in records.step_records(
            opened.game, head, steps, viewer, states=states, notes=notes
        ):
            click.echo(codec.to_json(record, indent=None))
        return
    width = max(
        [14, *(len(opened.game.format_move(s.event)) for s in steps if s.event is not None)]
    )
    for key, value in opened.log.tags.items():
        click.echo(tag_line(key, value))
    for step in steps if 0 in notes or steps[0].effects else steps[1:]:  # what the start did
        click.echo(views.step_line(opened.game, head.seats, step, width, viewer))
        for line in notes.get(step.index, "").splitlines():
            click.echo(one_line(f"      # {line}".rstrip()))


def tag_line(key: str, value: str) -> str:
    """A tag as a PGN writes one: ``[event "Club night"]``."""
    return one_line(f"[{key} {codec.to_json(value, indent=None)}]")


def _at(count: int, at: int | None) -> int:
    return count if at is None else check_point(at, count)


@main.command()
@click.argument("log", type=LOG)
@click.option("--at", type=int, help="The state after event N (0: the start; default: the last).")
@click.option(
    "--as", "who", metavar="SEAT", help="See as this seat, 'spectator' or 'all' (default)."
)
@click.option("--json", "as_json", is_flag=True, help="A JSON document instead of the board.")
@click.option("--svg", "as_svg", is_flag=True, help="The board as an SVG picture.")
@click.option("-o", "--output", type=OUT, help="Write to this file instead of standard output.")
@click.option("--force", is_flag=True, help="Replace the -o file if it exists.")
def show(
    log: Path,
    at: int | None,
    who: str | None,
    as_json: bool,
    as_svg: bool,
    output: Path | None,
    force: bool,
) -> None:
    """The state of a game: as text, as SVG (--svg) or as JSON."""
    if as_json and as_svg:
        raise UsageError("show prints --json or --svg, not both")
    opened = logs.open_log(log)
    head = opened.log.header
    index = _at(len(opened.log.events), at)
    step = logs.steps_of(opened.game, opened.log, path=str(log))[index]
    state = step.state
    viewer = views.viewer_named(head.seats, who)
    tags, noted = opened.log.tags, opened.log.notes.get(index)
    if as_json:
        doc = views.step_document(opened.game, head, index, state, viewer)
        out = codec.to_json({**doc, "tags": tags, "note": noted}) + "\n"
    elif as_svg:
        out = opened.game.svg(state, head.seats, viewer, step.event)
    else:
        board = opened.game.render(state, head.seats, viewer) + "\n"
        top = "".join(tag_line(k, v) + "\n" for k, v in tags.items())
        what = "the start" if index == 0 else f"event {index}"
        below = "".join(
            one_line(line) + "\n"
            for line in (f"note on {what}: {noted}" if noted else "").splitlines()
        )
        out = top + (top and "\n") + board + below
    if output is None:
        click.echo(out, nl=False)
    else:
        logs.write_output(output, out.encode(), force=force)
        click.echo(f"{output}: {len(out.encode())} bytes", err=True)


# --- simulate, demo -------------------------------------------------------------------------------


@main.command(short_help="Play seeded games between bots: a summary and statistics.")
@click.argument("game_name", metavar="GAME")
@click.option("--games", "count", type=click.IntRange(1, 1_000_000), default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--seats", type=int, help="Seats per game (default: the game's smallest plus one).")
@click.option(
    "--bot",
    default="random",
    show_default=True,
    help="The bot of every seat (random, greedy), or one per seat: greedy,random,random.",
)
@click.option(
    "--option", "options", multiple=True, metavar="K=V", help="A game option, as for new."
)
@click.option(
    "--position",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Every game starts from this position (its seats too).",
)
@click.option(
    "--save",
    type=click.Path(path_type=Path),
    help="Write every game's log to this folder, or all of them to NAME.corpus.",
)
@click.option("--force", is_flag=True, help="Replace logs of an earlier run in --save.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as a JSON document.")
@work_options
def simulate(
    game_name: str,
    count: int,
    seed: int,
    seats: int | None,
    bot: str,
    options: tuple[str, ...],
    position: Path | None,
    save: Path | None,
    force: bool,
    as_json: bool,
    jobs: int,
    cluster: str | None,
) -> None:
    """Play seeded games between bots and summarise wins and scores (with --jobs N on N
    processes, with --cluster on Dask: the same games and summary)."""
    game = games.get(game_name)
    how = match(
        game,
        [b.strip() for b in bot.split(",")],
        seats=seats,
        options=game.check_options(_options(options)),
        position=_read_position(position) if position else None,
    )
    where = Where(jobs, cluster)
    if save is not None:
        check_save(game, save, seeds(seed, count), force=force, cluster=cluster is not None)
    began = time.perf_counter()
    shown = sys.stderr.isatty()  # elsewhere click would print the label alone, a stray line
    bar = click.progressbar(length=count, label=f"{game.name} x{count}", file=sys.stderr)
    with bar if shown else contextlib.nullcontext(bar):
        summary = run_simulation(
            game,
            games=count,
            seed=seed,
            how=how,
            save=save,
            force=force,
            where=where,
            progress=bar.update if shown else lambda n: None,
        )
    took = time.perf_counter() - began
    assert summary.stats is not None
    if as_json:
        click.echo(codec.to_json(summary.stats.document()))
        return
    for line in [*summary.lines(), *summary.stats.lines()]:
        click.echo(line)
    click.echo(rate(count, took))


def rate(games_played: int, seconds: float) -> str:
    """How fast the games went, in a unit that reads as a number: games/s from one a second
    up, games/min below that, s/game below one a minute (never ``0 games/s``)."""
    per_second = games_played / seconds if seconds > 0 else float("inf")
    if per_second >= 1:
        return f"{per_second:.0f} games/s"
    if per_second * 60 >= 1:
        return f"{per_second * 60:.1f} games/min"
    return f"{seconds / games_played:.0f} s/game"


@main.command(short_help="A seeded Clans game, played and replayed with the tooling.")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("out"),
    show_default=True,
)
def demo(output: Path) -> None:
    """A seeded Clans game with an edge-case finish, played, saved and replayed step by step."""
    from tribes.replay.demo import run

    run(output, click.echo, _invoked_as())


def _invoked_as() -> str:
    """How the user ran this command, to tell them the next ones: ``tribes`` when that is what
    their PATH finds, else the path they typed (``.venv/bin/tribes``)."""
    typed = sys.argv[0] if sys.argv else "tribes"
    if Path(typed).name != "tribes":
        return "tribes"  # python -m, or a test runner
    found = shutil.which("tribes")
    if os.sep not in typed or (found and Path(found).resolve() == Path(typed).resolve()):
        return "tribes"
    return typed


def _register() -> None:
    from tribes.cli import corpus, logfiles, pages, positions, questions, rules, tui, undo

    for command in (
        logfiles.verify,
        logfiles.repair,
        undo.undo,
        logfiles.upgrade,
        logfiles.export,
        logfiles.import_,
        questions.diff,
        questions.fork,
        questions.bisect,
        questions.whatif,
        tui.replay,
        rules.rules,
        corpus.corpus,
        corpus.stats,
        pages.html_page,
        positions.position,
        positions.shrink_command,
    ):
        main.add_command(command)


_register()

if __name__ == "__main__":
    main()
