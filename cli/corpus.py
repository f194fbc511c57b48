"""``tribes corpus ls|get|add|split|repair`` and ``tribes stats``: thin commands over
:mod:`tribes.replay.corpus`, :mod:`tribes.replay.batch` and :mod:`tribes.replay.stats`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from tribes.core import views
from tribes.core.errors import TribesError, UsageError
from tribes.events import codec
from tribes.replay import batch, logs
from tribes.replay import corpus as corpora
from tribes.replay.parallel import Where
from tribes.replay.stats import stats as compute_stats

FILE = click.Path(path_type=Path)


def work_options(command: Any) -> Any:
    """``--jobs N`` and ``--cluster ADDRESS`` of the commands whose work runs in shards."""
    command = click.option(
        "--cluster",
        metavar="ADDRESS",
        help="Run on a Dask cluster: its scheduler's address, or local:N (N local workers).",
    )(command)
    return click.option(
        "--jobs", type=int, default=1, show_default=True, help="Worker processes on this machine."
    )(command)


@click.group()
def corpus() -> None:
    """Corpora: many games in one file (NAME.corpus); CORPUS#K is game K wherever a log is read."""


@corpus.command(name="ls")
@click.argument("path", type=FILE)
@click.option("--json", "as_json", is_flag=True, help="One JSON record per game, a line each.")
def ls(path: Path, as_json: bool) -> None:
    """One line per game: number, game, seed, seats (with their bots), events."""
    with corpora.Corpus(path) as read:
        for k in range(len(read)):
            _game, log = read.log(k)
            head = log.header
            bots = head.meta.get("bots") if isinstance(head.meta.get("bots"), dict) else {}
            if as_json:
                record = {
                    "game": k + 1,
                    "name": head.game,
                    "seed": head.seed,
                    "seats": list(head.seats),
                    "bots": bots,
                    "events": len(log.events),
                }
                click.echo(codec.to_json(record, indent=None))
                continue
            seats = ",".join(f"{s}({bots[s]})" if s in bots else s for s in head.seats)
            click.echo(
                f"{k + 1:>6}  {head.game}  seed {head.seed}  {seats}  "
                f"{views.count(len(log.events), 'event')}"
            )
        if not as_json:
            tail = read.layout.tail
            click.echo(
                f"{path}: {len(read)} game{'s' if len(read) != 1 else ''}"
                + (f"; {tail.describe()}" if tail else ""),
                err=True,
            )


@corpus.command()
@click.argument("ref", metavar="CORPUS#K", type=FILE)
@click.option("-o", "--output", type=FILE, required=True, help="The log to write (.tribes, .json).")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
def get(ref: Path, output: Path, force: bool) -> None:
    """Write game K of a corpus as a log of its own."""
    if corpora.split_ref(ref) is None:
        raise UsageError(f"'{ref}': name a game of a corpus as CORPUS#K (e.g. runs.corpus#3)")
    opened = logs.open_log(ref)
    logs.steps_of(opened.game, opened.log, path=str(ref))
    logs.create(output, opened.log, opened.game, force=force)
    click.echo(f"{output}: {opened.game.name}, {views.count(len(opened.log.events), 'event')}")


@corpus.command()
@click.argument("path", type=FILE)
@click.argument("sources", nargs=-1, required=True, type=FILE)
@click.option("--new", "new", is_flag=True, help="Start a new corpus (refused if it exists).")
@click.option("--force", is_flag=True, help="With --new: replace an existing corpus.")
def add(path: Path, sources: tuple[Path, ...], new: bool, force: bool) -> None:
    """Add logs (or games of other corpora) to a corpus, each checked first. Without --new the
    corpus must exist; nothing of it is rewritten."""
    if not corpora.is_corpus(path):
        raise UsageError(f"{path}: a corpus is named NAME{corpora.SUFFIX}")
    if not new and not path.exists():
        raise UsageError(f"{path} does not exist; pass --new to start it")
    opened = []
    for source in sources:  # all checked before any is added
        if corpora.is_corpus(source):
            with corpora.Corpus(source) as read:
                for k in range(len(read)):
                    opened.append(logs.open_log(Path(f"{source}#{k + 1}")))
            continue
        opened.append(logs.open_log(source))
    encoded = []
    for item in opened:
        if item.log.annotations:  # a corpus holds a header part, a seed and events only
            raise UsageError(
                f"{item.path} has tags or notes, which a corpus does not hold; nothing was added"
            )
        steps = logs.steps_of(item.game, item.log, path=str(item.path))
        encoded.append(corpora.encode_game(item.game, item.log, steps[-1].state))
    with corpora.Writer(path, new=new, force=force) as writer:
        for record in encoded:
            writer.add(*record)
        before = writer.games
    click.echo(f"{path}: {len(encoded)} added, {views.count(before + len(encoded), 'game')}")


@corpus.command()
@click.argument("path", type=FILE)
@click.option("--into", "count", type=click.IntRange(1, 100_000), required=True, help="Shards.")
@click.option("--force", is_flag=True, help="Replace shards that exist.")
def split(path: Path, count: int, force: bool) -> None:
    """Split a corpus into COUNT shards, NAME-1.corpus ... in order, records copied as they are."""
    stem = path.with_suffix("")
    out = [Path(f"{stem}-{i + 1}{corpora.SUFFIX}") for i in range(count)]
    for target, size in zip(out, corpora.split(path, out, force=force), strict=True):
        click.echo(f"{target}: {size} game{'s' if size != 1 else ''}")


@corpus.command()
@click.argument("path", type=FILE)
def repair(path: Path) -> None:
    """Cut an interrupted append (bytes after the last commit) from a corpus."""
    cut = corpora.repair(path)
    click.echo(
        f"{path}: " + (f"cut {cut} bytes after the last commit" if cut else "nothing to repair")
    )


@click.command()
@click.argument("paths", nargs=-1, required=True, type=FILE)
@click.option("--json", "as_json", is_flag=True, help="A JSON document.")
@work_options
def stats(paths: tuple[Path, ...], as_json: bool, jobs: int, cluster: str | None) -> None:
    """Win rates by turn position and by bot (95% intervals), score and length distributions,
    of corpora and logs (each game replayed and checked)."""
    failures: list[str] = []
    totals = batch.verify(
        list(paths),
        Where(jobs, cluster),
        lambda line: failures.append(line) if line.startswith("FAIL") else None,
    )
    if failures:  # statistics of a damaged input would quietly leave games out
        others = max(totals.failed, 1) - 1  # games and logs that failed, not lines said of them
        more = f" (and {others} more)" if others else ""
        raise TribesError(failures[0].removeprefix("FAIL").strip() + more)
    if not totals.rows:
        raise UsageError("no finished game to count")
    result = compute_stats(totals.rows)
    unfinished = totals.ok - len(totals.rows)  # verified, but not over: nothing to count yet
    if as_json:
        click.echo(codec.to_json({**result.document(), "unfinished": unfinished}))
    else:
        for line in result.lines():
            click.echo(line)
        if unfinished:
            click.echo(f"({views.count(unfinished, 'unfinished game')} left out)")
