"""``tribes diff``, ``fork``, ``bisect`` and ``whatif``: thin commands over tribes.replay.questions."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tribes.cli.common import WHOLE, say, warn
from tribes.cli.quick import viewer_of
from tribes.core import views
from tribes.core.errors import TribesError, UsageError
from tribes.events import codec
from tribes.replay import logs, questions
from tribes.replay.cursor import Cursor, check_point
from tribes.replay.diff import Change

LOG = click.Path(path_type=Path)
OUT = click.Path(path_type=Path, dir_okay=False)


def _print_changes(
    changes: list[Change], as_json: bool, head: dict[str, object] | None = None
) -> None:
    if as_json:
        click.echo(codec.to_json({**(head or {}), "changes": [c.to_json() for c in changes]}))
        return
    if head:
        click.echo(
            "  ".join(
                str(v) if k == "event" else f"{k} {v}" for k, v in head.items() if v is not None
            )
        )
    for change in changes:
        say(f"  {change.text}")
    if not changes:
        click.echo("  no change")


@click.command()
@click.argument("paths", nargs=-1, required=True, type=LOG)
@click.option("--at", type=WHOLE, help="What event N changed (default: the last event).")
@click.option("--from", "start", type=WHOLE, help="From the state after event N ...")
@click.option("--to", "end", type=WHOLE, help="... to the state after event M.")
@click.option("--json", "as_json", is_flag=True, help="A machine-readable list of changes.")
@click.option(
    "--as",
    "who",
    metavar="SEAT",
    help="The states as this seat, 'spectator' or 'all' see them "
    "(default: $TRIBES_SEAT's seat, else all).",
)
def diff(
    paths: tuple[Path, ...],
    at: int | None,
    start: int | None,
    end: int | None,
    as_json: bool,
    who: str | None,
) -> None:
    """What changed: within one log (event N, or from N to M), or where two logs diverge. Two
    logs exit as diff(1) does: 0 the same, 1 they differ, 2 trouble (a log missing, damaged)."""
    if len(paths) == 2:
        if at is not None or start is not None or end is not None:
            raise UsageError(
                "--at, --from and --to go with one log; two logs are compared where they part"
            )
        try:
            same = _diff_logs(paths[0], paths[1], as_json, who)
        except TribesError as exc:
            exc.exit_code = TROUBLE  # as diff(1): 2 for trouble, 1 only for logs that differ
            raise
        sys.exit(0 if same else 1)
    if len(paths) != 1:
        raise UsageError("diff takes one log, or two logs to compare")
    if at is not None and (start is not None or end is not None):
        raise UsageError("--at N shows what event N changed; --from and --to go without it")
    cursor = Cursor.open(paths[0], warn)
    viewer = viewer_of(cursor.seats, who)
    if start is None and end is None:
        if at is None and not len(cursor):
            raise UsageError(
                f"{paths[0]} has no event yet: diff shows what an event changed; "
                "'tribes act LOG MOVE' plays one"
            )
        n = check_point(len(cursor) if at is None else at, len(cursor), events=True)
        a, b = n - 1, n
        title: dict[str, object] = {"event": cursor.describe(n, viewer)}
    else:
        a = check_point(
            start if start is not None else 0,
            len(cursor),
            option="--from",
        )
        b = check_point(end if end is not None else len(cursor), len(cursor), option="--to")
        title = {"from": a, "to": b}
    if as_json and cursor.rules is not None:
        title["rules"] = cursor.rules.record()
    _print_changes(questions.state_diff(cursor, a, b, viewer), as_json, title)


TROUBLE = 2
"""diff's exit status for two logs it cannot compare, as diff(1)'s."""


def _diff_logs(path_a: Path, path_b: Path, as_json: bool, who: str | None) -> bool:
    """Where two logs part, printed; whether they are the same game (header, events and
    states)."""
    a, b = Cursor.open(path_a, warn), Cursor.open(path_b, warn)
    viewer = viewer_of(a.seats, who)
    where = questions.diverge(a, b, viewer)
    same = where.event is None and where.state is None and not where.header
    if as_json:
        head = {
            "event": where.event,
            "state": where.state,
            "common": where.common,
            "header": {name: {"a": x, "b": y} for name, x, y in where.header},
        }
        for key, cursor in (("rules_a", a), ("rules_b", b)):
            if cursor.rules is not None:
                head[key] = cursor.rules.record()
        _print_changes(where.changes, True, codec.unstructure(head))
        return same
    for name, x, y in where.header:
        say(f"the logs start differently: {name} {_value(x)} in {path_a}, {_value(y)} in {path_b}")
    if where.event is None and where.state is None:
        if not where.header:
            say(f"the logs are the same game: {views.count(len(a), 'event')}, same states")
        return same
    if where.event is not None:
        if where.event > where.common:
            longer = path_a if len(a) > len(b) else path_b
            say(f"the logs agree on all {where.common} events of the shorter; {longer} goes on")
        else:
            say(
                f"the logs part at event {where.event}: "
                f"{a.notation(where.event)} in {path_a}, {b.notation(where.event)} in {path_b}"
            )
    if where.state is not None:
        say(f"the states first differ after event {where.state}:")
        _print_changes(where.changes, False)
    return same


LATER_EVENT_ILLEGAL = 3
"""whatif's exit status when the replacement made a later event illegal."""


def _value(value: object) -> str:
    if isinstance(value, tuple | list):
        return ",".join(map(str, value))
    return codec.to_json(value, indent=None) if isinstance(value, dict) else str(value)


@click.command()
@click.argument("log", type=LOG)
@click.option(
    "--at", type=WHOLE, required=True, help="Keep events before N: event N is to be played anew."
)
@click.option("-o", "--output", type=OUT, required=True, help="The new log.")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
def fork(log: Path, at: int, output: Path, force: bool) -> None:
    """A new log with the events before N, to try another line of play."""
    opened = logs.open_log(log)
    steps = logs.shown(opened.game, opened.log, str(log), warn)
    if at <= len(opened.log.events):  # event ``at`` is played anew: the rules may refuse it
        logs.refused_beyond(steps, at - 1, str(log))
    forked = questions.fork(opened.log, at)
    logs.create(output, forked, opened.game, force=force)
    kept = f"events 1 to {at - 1}" if at > 1 else "no event (the start)"
    state = logs.steps_of(opened.game, forked)[-1].state
    then = (
        "the game is over there" if opened.game.is_over(state) else f"event {at} is yours to play"
    )
    say(f"{output}: {kept} of {log}; {then}")


@click.command()
@click.argument("log", type=LOG)
@click.option(
    "--until", "expression", required=True, help="An expression over the show --json document."
)
def bisect(log: Path, expression: str) -> None:
    """The first event after which an expression holds ('len(villages) >= 12').

    The expression reads the show --json document: 'len(villages) >= 12', 'track.red > 30',
    'pending != null'. Exits 1 when it never holds."""
    cursor = Cursor.open(log, warn)
    found = questions.bisect(cursor, expression)
    if found is None:
        for path in questions.never_present(cursor, expression):
            say(f"warning: '{path}' is in no state of {log}; it reads as null", err=True)
        say(f"'{expression}' never holds in the {views.count(len(cursor), 'event')} of {log}")
        sys.exit(1)
    say(f"event {found}" if found == 0 else cursor.describe(found))


@click.command()
@click.argument("log", type=LOG)
@click.option("--at", type=WHOLE, required=True, help="The event to replace.")
@click.argument("move")
@click.option("-o", "--output", type=OUT, help="Write the new log, up to its last legal event.")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
@click.option("--json", "as_json", is_flag=True, help="A machine-readable report.")
def whatif(log: Path, at: int, move: str, output: Path | None, force: bool, as_json: bool) -> None:
    """Replace event N by MOVE and re-check every later event. Exit status: 0 when every later
    event is still legal, 3 when one became illegal (it is named), 1 when MOVE itself is
    illegal or the log is damaged, 2 for a usage error."""
    cursor = Cursor.open(log, warn)
    result = questions.whatif(cursor, at, move)
    end = len(result.log.events)
    if output is not None:
        logs.create(output, result.log, cursor.game, force=force)
    if as_json:
        head = {
            "at": at,
            "move": move,
            "legal_until": end,
            "illegal_at": result.illegal_at,
            "reason": result.reason,
        }
        if cursor.rules is not None:
            head["rules"] = cursor.rules.record()
        _print_changes(result.changes, True, head)
        sys.exit(0 if result.illegal_at is None else LATER_EVENT_ILLEGAL)
    say(f"event {at} replaced by {move}")
    if result.illegal_at is None:
        say(f"every later event is still legal ({len(cursor)} events)")
    else:
        later = cursor.notation(result.illegal_at)
        say(f"event {result.illegal_at} ({later}) became illegal: {result.reason}")
    say(f"state after event {end}, compared with the original:")
    _print_changes(result.changes, False)
    if output is not None:
        say(f"{output}: {end} event{'' if end == 1 else 's'}")
    if result.illegal_at is not None:
        sys.exit(LATER_EVENT_ILLEGAL)
