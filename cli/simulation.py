"""``tribes simulate`` and ``demo``: games played by bots, many at once or one shown step by step."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time
from pathlib import Path

import click

from tribes import games
from tribes.cli.common import WHOLE, WholeRange, options, read_position, say, work_options
from tribes.events import codec
from tribes.replay.demo import run as run_demo
from tribes.replay.parallel import Where
from tribes.replay.simulate import check_save, match
from tribes.replay.simulate import simulate as run_simulation


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option("--games", "count", type=WholeRange(1, 1_000_000), default=100, show_default=True)
@click.option("--seed", type=WHOLE, default=1, show_default=True)
@click.option("--seats", type=WHOLE, help="Seats per game (default: the game's smallest plus one).")
@click.option(
    "--bot",
    default="random",
    show_default=True,
    help="The bot of every seat (random, greedy), or one per seat: greedy,random,random.",
)
@click.option(
    "--option", "option_pairs", multiple=True, metavar="K=V", help="A game option, as for new."
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
    option_pairs: tuple[str, ...],
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
        options=game.check_options(options(option_pairs)),
        position=read_position(position) if position else None,
    )
    where = Where(jobs, cluster)
    if save is not None:
        check_save(game, save, seed, count, force=force, cluster=cluster is not None)
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
            on_wait=lambda line: say(line, err=True),
        )
    took = time.perf_counter() - began
    assert summary.stats is not None
    if as_json:
        click.echo(codec.to_json(summary.stats.document()))
        return
    for line in [*summary.lines(), *summary.stats.lines()]:
        say(line)
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


@click.command()
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("out"),
    show_default=True,
)
def demo(output: Path) -> None:
    """A seeded Clans game with an edge-case finish, played, saved and replayed step by step."""
    run_demo(output, click.echo, _invoked_as())


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
