"""``tribes html``: a log as one self-contained page (thin: the page is tribes.replay.html's)."""

from __future__ import annotations

from pathlib import Path

import click

from tribes.cli.common import say, warn
from tribes.cli.quick import viewer_of
from tribes.replay import html, logs


@click.command(name="html")
@click.argument("log", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The page to write (default: the log's name with .html).",
)
@click.option(
    "--as",
    "who",
    metavar="SEAT",
    help="Whose view the page shows: a seat, 'spectator' or 'all' (every hidden card); "
    "default: $TRIBES_SEAT's seat, else spectator.",
)
@click.option("--force", is_flag=True, help="Replace the page if it exists.")
def html_page(log: Path, output: Path | None, who: str | None, force: bool) -> None:
    """One HTML file that steps through a game in any browser, offline."""
    opened = logs.open_log(log)
    steps = logs.shown(opened.game, opened.log, str(log), warn)
    viewer = viewer_of(opened.log.header.seats, who, default="spectator")
    text = html.page(opened.game, opened.log, steps, viewer)
    target = output if output is not None else log.with_suffix(".html")
    logs.write_output(target, text.encode(), force=force)
    say(
        f"{target}: {len(steps) - 1} event{'' if len(steps) == 2 else 's'} as {html.viewer_name(opened.log.header.seats, viewer)}, "
        f"{len(text.encode()) / 1024:.0f} KB; open it in a browser"
    )
