"""``tribes undo``: take back the last append(s) of one's own log (:mod:`tribes.replay.undo`)."""

from __future__ import annotations

from pathlib import Path

import click

from tribes.cli.common import WHOLE
from tribes.core import views
from tribes.core.errors import TribesError
from tribes.replay import mail
from tribes.replay.undo import undo as take_back

LOG = click.Path(path_type=Path)


@click.command()
@click.argument("log", type=LOG)
@click.option(
    "--moves",
    type=WHOLE,
    metavar="K",
    help="Take back the last K moves (default: those of the last append).",
)
@click.option(
    "--force", is_flag=True, help="Replace LOG.undone rather than keep the next LOG.undone.N."
)
def undo(log: Path, moves: int | None, force: bool) -> None:
    """Cut the last append of LOG (what one act wrote) or its last K moves, keeping the file as
    it was in LOG.undone. The log's digest changes: undo is for your own games, not a log you
    already shared. Refused when a tag or note was added after those moves, or when nothing
    would be left."""
    undone = take_back(log, moves, force=force)
    click.echo(views.printable(undone.line()))
    try:
        mail.taken_back(log, undone.was)  # act --as goes on from the log as it is now
    except (TribesError, OSError) as exc:
        why = exc.message if isinstance(exc, TribesError) else exc.strerror or str(exc)
        click.echo(f"tribes: warning: the copy act --as keeps is as it was ({why})", err=True)
