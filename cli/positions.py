"""``tribes position`` and ``tribes shrink``: thin commands over the Game contract's positions and
:mod:`tribes.replay.shrink`."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click

from tribes.cli.common import WHOLE, WholeRange, say, warn
from tribes.cli.quick import viewer_of
from tribes.core import views
from tribes.core.engine import play
from tribes.core.errors import UsageError
from tribes.core.game import EVERYTHING
from tribes.events import codec
from tribes.replay import logs
from tribes.replay.cursor import check_point
from tribes.replay.reading import open_with_refused
from tribes.replay.shrink import MAX_TRIES, Target, scenario_text, shrink

LOG = click.Path(path_type=Path)
OUT = click.Path(path_type=Path, dir_okay=False)


@click.command()
@click.argument("log", type=LOG)
@click.option("--at", type=WHOLE, help="The state after event N (0: the start; default: the last).")
@click.option(
    "-o", "--output", type=OUT, help="Write the position here (default: standard output)."
)
@click.option("--force", is_flag=True, help="Replace the -o file if it exists.")
@click.option("--json", "as_json", is_flag=True, help="A JSON report: game, event, seed, position.")
@click.option(
    "--as",
    "who",
    metavar="SEAT",
    help="As this seat, 'spectator' or 'all' (default: $TRIBES_SEAT's seat, else all): a "
    "position holds every hidden part, so only 'all' writes one of a game that hides any.",
)
def position(
    log: Path, at: int | None, output: Path | None, force: bool, as_json: bool, who: str | None
) -> None:
    """The position file of the state after event N, in the --position format of its game:
    'tribes new GAME --position FILE --seed S' starts a game in that very state (the same
    show --json, bar what a position cannot know, and the same legal moves)."""
    opened = logs.open_log(log)
    head = opened.log.header
    hidden = opened.game.facts.hidden
    if hidden and viewer_of(head.seats, who) != EVERYTHING:
        raise UsageError(
            f"a position holds every hidden part of the game ({hidden}), which this view may "
            "not see; --as all writes it"
        )
    asked = None if at is None else check_point(at, len(opened.log.events))
    steps = logs.shown(opened.game, opened.log, str(log), warn, index=asked)
    index = len(steps) - 1 if asked is None else asked
    pos = opened.game.position(steps[index].state, head.seats)
    text = codec.to_readable_json(pos) + "\n"
    if output is not None:
        logs.write_output(output, text.encode(), force=force)
    for option in sorted(head.files):
        say(
            f"note: the game has --option {option}={head.options[option]}: give new the same",
            err=True,
        )
    if as_json:
        report = {"game": head.game, "events": index, "seed": head.seed, "output": output}
        if steps.rules is not None:
            report["rules"] = steps.rules.record()
        click.echo(codec.to_json({**report, "position": pos}))
    elif output is None:
        click.echo(text, nl=False)
    else:
        what = "the start" if index == 0 else f"event {index}"
        say(
            f"{output}: the position after {what} of {log}; "
            f"tribes new {head.game} --position {output} --seed {head.seed} starts from it"
        )


@click.command(name="shrink")
@click.argument("log", type=LOG)
@click.option("--until", "until", metavar="EXPR", help="It happens where EXPR becomes true.")
@click.option("--refused", metavar="RULE", help="It happens where an event is refused naming RULE.")
@click.option(
    "--then",
    "then",
    multiple=True,
    metavar="MOVE",
    help="A move to play after the log's events (the refused one, say); repeatable.",
)
@click.option("-o", "--output", type=OUT, help="Write the reproducer here (default: stdout).")
@click.option("--force", is_flag=True, help="Replace the -o file if it exists.")
@click.option(
    "--max-tries",
    type=WholeRange(1, 1_000_000),
    default=MAX_TRIES,
    show_default=True,
    help="At most this many positions set up and played.",
)
@click.option("--json", "as_json", is_flag=True, help="A JSON report (with the log without -o).")
def shrink_command(
    log: Path,
    until: str | None,
    refused: str | None,
    then: tuple[str, ...],
    output: Path | None,
    force: bool,
    max_tries: int,
    as_json: bool,
) -> None:
    """From a log where something happens — EXPR becomes true at an event (--until, the bisect
    language), or an event is refused naming RULE (--refused: the log's last event, in a
    hand-written JSON scenario, or a move given with --then) — a small reproducer: a position
    and the fewest events after it such that it still happens at the last one, the position
    then simplified while it stays valid and it still happens. The result is a JSON log, the
    original's digest, the event and EXPR in its meta."""
    target = Target(until=until, refused=refused)
    if output is not None:
        logs.check_output(output, force=force)
    opened, refused_event = open_with_refused(log)
    game, seats = opened.game, opened.log.header.seats
    state = logs.shown(game, opened.log, str(log), warn, partial=False)[-1].state
    if refused_event is not None and then:
        raise UsageError(f"{log} ends with a refused event: no --then move can follow it")
    moves = [refused_event] if refused_event is not None else []
    for i, text in enumerate(then):
        moves.append(game.parse_move(state, text))
        if i < len(then) - 1:  # the last may be the refused one: shrink plays it
            state = play(game, state, moves[-1], len(opened.log.events) + i + 1).state
    shown = sys.stderr.isatty()
    bar = click.progressbar(length=max_tries, label="shrink", file=sys.stderr)
    with bar if shown else contextlib.nullcontext(bar):
        found = shrink(
            game,
            opened.log,
            target,
            then=moves,
            max_tries=max_tries,
            progress=bar.update if shown else lambda n: None,
        )
        if shown:  # done before the bound: the bar ends full
            bar.update(max_tries - found.tries)
    text = scenario_text(found.log) if found.refused else logs.to_json(logs.seal(game, found.log))
    if output is not None:
        logs.write_output(output, text.encode(), force=force)
    line = (
        f"{target.words} at event {found.at} of {log}: from the position after event "
        f"{found.after}, {views.count(len(found.log.events), 'event')}; "
        f"{views.count(found.simplified, 'simplification')} in "
        f"{views.count(found.tries, 'try', 'tries')}"
        + (" (--max-tries ran out)" if found.bounded else "")
    )
    if as_json:
        report = {**found.document(), "output": output, "seats": list(seats)}
        if output is None:
            report["log"] = codec.from_json(text)
        click.echo(codec.to_json(report))
    elif output is None:
        click.echo(text, nl=False)
        say(line, err=True)
    else:
        say(f"{output}: {line}")
