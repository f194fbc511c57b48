"""``tribes log`` and ``show``: a log read as a list of events, or as the state at one of them."""

from __future__ import annotations

from pathlib import Path

import click

from tribes.cli.common import LOG, OUT, WHOLE, say, warn
from tribes.cli.quick import log_lines, state_text
from tribes.replay import logs


@click.command(name="log")
@click.argument("log", type=LOG)
@click.option("--json", "as_json", is_flag=True, help="One JSON record per event, a line each.")
@click.option(
    "--states",
    is_flag=True,
    help="With --json: each record holds the state after it and the legal moves (start included).",
)
@click.option(
    "--as",
    "who",
    metavar="SEAT",
    help="Effects (and states) as this seat, 'spectator' or 'all' may see them "
    "(default: $TRIBES_SEAT's seat, else all).",
)
def log_(log: Path, as_json: bool, states: bool, who: str | None) -> None:
    """One line per event: index, seat, notation, effects."""
    for line in log_lines(log, who, as_json=as_json, states=states, warn=warn):
        say(line)


@click.command()
@click.argument("log", type=LOG)
@click.option(
    "--at", "index", type=WHOLE, help="The state after event N (0: the start; default: the last)."
)
@click.option(
    "--as",
    "who",
    metavar="SEAT",
    help="See as this seat, 'spectator' or 'all' (default: $TRIBES_SEAT's seat, else all).",
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
    out = state_text(log, index, who, as_json=as_json, as_svg=as_svg, warn=warn)
    if output is None:
        click.echo(out, nl=False)
    else:
        logs.write_output(output, out.encode(), force=force)
        say(f"{output}: {len(out.encode())} bytes", err=True)
