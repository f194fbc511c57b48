"""``tribes hunt``: a thin command over :mod:`tribes.replay.hunt` and :mod:`tribes.replay.shrink`."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import click

from tribes import games
from tribes.cli.common import OUT, WHOLE, options, read_position, say, work_options
from tribes.core import views
from tribes.core.errors import TribesError, UsageError
from tribes.events import codec
from tribes.replay import logs
from tribes.replay.cursor import Cursor
from tribes.replay.hunt import Budget, Outcome, hunt, prepare
from tribes.replay.parallel import Where
from tribes.replay.questions import never_present
from tribes.replay.shrink import Target, shrink
from tribes.replay.simulate import match

_BUDGET = re.compile(r"(\d+(?:\.\d+)?)\s*(s|sec|seconds?|m|min|minutes?|g|games?)", re.IGNORECASE)
MAX_GAMES = 100_000_000
MAX_SECONDS = 7 * 24 * 3600


def parse_budget(text: str) -> Budget:
    """``60s``, ``2m`` (seconds, minutes) or ``5000g``, ``5000 games``; anything else, or a
    budget of nothing, is a usage error."""
    found = _BUDGET.fullmatch(text.strip())
    if not found:
        raise UsageError(f"--budget '{text}' must be seconds or games: 60s, 2m, 5000g (5000 games)")
    number, unit = float(found[1]), found[2].lower()
    if unit.startswith("g"):
        if number != int(number) or not 1 <= number <= MAX_GAMES:
            raise UsageError(f"--budget '{text}': a whole number of games from 1 to {MAX_GAMES:,}")
        return Budget(games=int(number))
    seconds = number * (60 if unit.startswith("m") else 1)
    if not 0 < seconds <= MAX_SECONDS:
        raise UsageError(f"--budget '{text}': more than 0 s and at most a week")
    return Budget(seconds=seconds)


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option(
    "--until", "until", metavar="EXPR", required=True, help="What to hunt: it holds at an event."
)
@click.option(
    "--budget", default="60s", show_default=True, help="Seconds (60s, 2m) or games (5000g)."
)
@click.option("--seed", type=WHOLE, default=1, show_default=True)
@click.option("--seats", type=WHOLE, help="Seats per game (default: the game's smallest plus one).")
@click.option(
    "--option", "option_pairs", multiple=True, metavar="K=V", help="A game option, as for new."
)
@click.option(
    "--position", type=click.Path(path_type=Path, dir_okay=False), help="Every game starts here."
)
@click.option("-o", "--output", type=OUT, help="The found game's log (default: GAME-hunt.tribes).")
@click.option(
    "--closest",
    type=OUT,
    help="The closest game's log when none is found (default: OUTPUT's name with "
    ".closest.tribes, GAME-hunt.closest.tribes).",
)
@click.option("--no-shrink", is_flag=True, help="Keep the found game as it is: no shrunk case.")
@click.option("--force", is_flag=True, help="Replace the output files if they exist.")
@click.option("--json", "as_json", is_flag=True, help="A JSON report.")
@work_options
def hunt_command(
    game_name: str,
    until: str,
    budget: str,
    seed: int,
    seats: int | None,
    option_pairs: tuple[str, ...],
    position: Path | None,
    output: Path | None,
    closest: Path | None,
    no_shrink: bool,
    force: bool,
    as_json: bool,
    jobs: int,
    cluster: str | None,
) -> None:
    """Steer play toward an event where EXPR holds (the find and shrink language), guided by a
    distance from EXPR: every seat's moves and the games' seeds are searched, for a budget of
    seconds or games. Found: the game is written as a log, shrunk (unless --no-shrink) beside it
    as OUTPUT's name with .shrunk.json; not found: exit 1, the closest game kept (--closest).
    The same --seed, --jobs and budget of games give the same find."""
    game = games.get(game_name)
    limit = parse_budget(budget)
    where = Where(jobs, cluster)
    how = match(
        game,
        ["random"],
        seats=seats,
        options=game.check_options(options(option_pairs)),
        position=read_position(position) if position else None,
    )
    header = prepare(game, how, until, seed=seed)
    output = output or Path(f"{game.name}-hunt.tribes")
    shrunk_path = output.with_name(output.name.split(".")[0] + ".shrunk.json")
    closest = closest or output.with_name(output.name.split(".")[0] + ".closest.tribes")
    for path in (output, *(() if no_shrink else (shrunk_path,)), closest):
        logs.check_output(path, force=force)
    line = _Line(sys.stderr.isatty())
    try:
        outcome = hunt(game, header, until, budget=limit, where=where, progress=line.show)
    finally:
        line.clear()
    report = _write(game, outcome, until, output, closest, force)
    kept = outcome.log()
    if not outcome.found and kept is not None:
        for path in never_present(Cursor(game, kept), until):
            say(f"warning: '{path}' is in no state of the closest game; it reads as null", err=True)
    if outcome.found and not no_shrink:
        report["shrunk"] = _shrink(game, output, until, shrunk_path, force)
    if as_json:
        click.echo(codec.to_json(report))
    else:
        for text in _lines(report, until, limit, where):
            say(text)  # the expression and the paths, as typed: escaped
    if outcome.interrupted:
        raise SystemExit(130)
    if not outcome.found:
        raise SystemExit(1)


def _write(
    game: Any, outcome: Outcome, until: str, output: Path, closest: Path, force: bool
) -> dict[str, Any]:
    """The found (or closest) game written as a log; the report of ``--json``."""
    report: dict[str, Any] = {
        "until": until,
        "found": outcome.found,
        "games": outcome.games,
        "seconds": round(outcome.seconds, 2),
        "interrupted": outcome.interrupted,
        "distance": None,
        "event": None,
        "move": None,
        "output": None,
        "closest": None,
        "shrunk": None,
    }
    near = outcome.closest
    if near is None or not near.events:
        return report
    log = outcome.log()
    assert log is not None
    path = output if outcome.found else closest
    logs.create(path, log, game, force=force)
    report.update(
        distance=near.distance,
        event=len(near.events),
        move=game.format_move(near.events[-1]),
        **{"output" if outcome.found else "closest": str(path)},
    )
    return report


def _shrink(game: Any, log_path: Path, until: str, path: Path, force: bool) -> dict[str, Any]:
    """The found game shrunk (``shrink --until``), or why it could not be (a game with no
    position form, say: the found game is the case then)."""
    opened = logs.open_log(log_path)
    try:
        found = shrink(game, opened.log, Target(until=until))
    except TribesError as exc:
        return {"output": None, "why": str(exc)}
    logs.write_output(path, logs.to_json(logs.seal(game, found.log)).encode(), force=force)
    return {**found.document(), "output": str(path)}


def _lines(report: dict[str, Any], until: str, budget: Budget, where: Where) -> list[str]:
    took = (
        f"{views.count(report['games'], 'game')} in {report['seconds']:.1f} s ({where.describe()})"
    )
    if report["found"]:
        lines = [
            (
                f"found: '{until}' holds at event {report['event']} ({report['move']}) of "
                f"{report['output']}, after {took}"
            )
        ]
        shrunk = report["shrunk"]
        if shrunk is not None and shrunk["output"] is None:
            lines.append(f"not shrunk: {shrunk['why']}")
        elif shrunk is not None:
            lines.append(
                f"shrunk: {shrunk['output']}: from the position after event {shrunk['after']}, "
                f"{views.count(shrunk['events'], 'event')}; "
                f"{views.count(shrunk['simplified'], 'simplification')} in "
                f"{views.count(shrunk['tries'], 'try', 'tries')}"
            )
        return lines
    why = "interrupted" if report["interrupted"] else f"not found within {budget.words()}"
    if report["closest"] is None:
        return [f"{why}: '{until}' after {took}; no game came any closer than another"]
    return [
        (
            f"{why}: '{until}' after {took}; the closest came to distance {report['distance']:g}, "
            f"at event {report['event']} ({report['move']}) of {report['closest']}"
        )
    ]


class _Line:
    """The progress line on a terminal (nothing when stderr is not one)."""

    def __init__(self, shown: bool) -> None:
        self.shown = shown
        self.width = 0

    def show(self, played: int, distance: float) -> None:
        if not self.shown:
            return
        text = f"hunt: {played:,} games, closest {distance:g}"
        self.width = max(self.width, len(text))
        click.echo(f"\r{text:<{self.width}}", err=True, nl=False)

    def clear(self) -> None:
        if self.shown and self.width:
            click.echo(f"\r{' ' * self.width}\r", err=True, nl=False)
