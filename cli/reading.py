"""``tribes log`` and ``show``: a log read as a list of events, or as the state at one of them."""

from __future__ import annotations

from pathlib import Path

import click

from tribes.cli.common import LOG, OUT
from tribes.cli.showing import state_text, tag_line
from tribes.core import views
from tribes.core.errors import UsageError
from tribes.events import codec
from tribes.replay import logs, records


@click.command(name="log")
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
            click.echo(views.printable(f"      # {line}".rstrip()))


@click.command()
@click.argument("log", type=LOG)
@click.option(
    "--at", "index", type=int, help="The state after event N (0: the start; default: the last)."
)
@click.option(
    "--as", "who", metavar="SEAT", help="See as this seat, 'spectator' or 'all' (default)."
)
@click.option("--json", "as_json", is_flag=True, help="A JSON document instead of the board.")
@click.option("--svg", "as_svg", is_flag=True, help="The board as an SVG picture.")
@click.option("-o", "--output", type=OUT, help="Write to this file instead of standard output.")
@click.option("--force", is_flag=True, help="Replace the -o file if it exists.")
def show(
    log: Path,
    index: int | None,
    who: str | None,
    as_json: bool,
    as_svg: bool,
    output: Path | None,
    force: bool,
) -> None:
    """The state of a game: as text, as SVG (--svg) or as JSON."""
    out = state_text(log, index, who, as_json=as_json, as_svg=as_svg)
    if output is None:
        click.echo(out, nl=False)
    else:
        logs.write_output(output, out.encode(), force=force)
        click.echo(f"{output}: {len(out.encode())} bytes", err=True)
