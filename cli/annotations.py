"""``tribes tag`` and ``note``: a log's tags and comments, as a PGN has them; appended to the log,
never changing a state."""

from __future__ import annotations

from pathlib import Path

import click

from tribes.cli.common import LOG, WHOLE, say, tag_pairs
from tribes.core import views
from tribes.core.errors import UsageError
from tribes.events import annotation, codec
from tribes.replay import logs


@click.command()
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
            say(f"{key}={value}")
        return
    if as_json:
        raise UsageError("--json lists the tags; it does not go with changes")
    changes: list[tuple[str | int, str | None]] = [*tag_pairs(pairs)]
    for key in removed:
        why = annotation.tag_key_problem(key)
        if why:
            raise UsageError(why)
        changes.append((key, None))
    logs.annotate(log, changes)
    say(f"{log}: {views.count(len(changes), 'tag change')}")


@click.command()
@click.argument("log", type=LOG)
@click.argument("index", metavar="N", type=WHOLE)
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
    say(f"{log}: note on {what} " + ("removed" if remove else "written"))


def _checked(path: Path) -> logs.Opened:
    """The log, replayed with every check: a tampered tag or note is refused, as an event is."""
    opened = logs.open_log(path)
    logs.steps_of(opened.game, opened.log, path=str(path))
    return opened
