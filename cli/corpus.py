"""``tribes corpus ls|get|add|split|repair`` and ``tribes stats``: thin commands over
:mod:`tribes.replay.corpus`, :mod:`tribes.replay.batch` and :mod:`tribes.replay.stats`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from tribes.cli.common import RulesWarnings, WholeRange, say, work_options
from tribes.core import views
from tribes.core.errors import CorruptLog, TribesError, UsageError
from tribes.events import codec
from tribes.replay import batch, logs
from tribes.replay import corpus as corpora
from tribes.replay.consistency import answer_of
from tribes.replay.parallel import Where

FILE = click.Path(path_type=Path)


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
            named = head.meta.get("bots")
            bots = named if isinstance(named, dict) else {}
            if as_json:
                record = {
                    "game": k + 1,
                    "name": head.game,
                    "seed": head.seed,
                    "seats": list(head.seats),
                    "bots": bots,
                    "events": len(log.events),
                    **({"tags": log.tags} if log.tags else {}),
                }
                click.echo(codec.to_json(record, indent=None))
                continue
            seats = views.printable(
                ",".join(f"{s}({bots[s]})" if s in bots else s for s in head.seats)
            )
            say(
                f"{k + 1:>6}  {head.game}  seed {head.seed}  {seats}  "
                f"{views.count(len(log.events), 'event')}"
            )
        tail = read.layout.tail
        if not as_json:
            say(f"{path}: {views.count(len(read), 'game')}", err=True)
    if tail is not None:  # a script must never take the committed part for the whole corpus
        raise CorruptLog(
            f"{tail.describe()}; 'tribes corpus repair {path}' cuts it", path=str(path)
        )


@corpus.command()
@click.argument("ref", metavar="CORPUS#K", type=FILE)
@click.option("-o", "--output", type=FILE, required=True, help="The log to write (.tribes, .json).")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
def get(ref: Path, output: Path, force: bool) -> None:
    """Write game K of a corpus as a log of its own."""
    if corpora.split_ref(ref) is None:
        raise UsageError(f"'{ref}': name a game of a corpus as CORPUS#K (e.g. runs.corpus#3)")
    where = corpora.split_ref(ref)
    assert where is not None
    with corpora.Corpus(where[0]) as read:
        read.check_number(where[1] - 1)
        game, log = read.file_log(where[1] - 1)
    logs.steps_of(game, log, path=str(ref))  # every mark as the log had it, checked
    logs.write_output(output, logs.encode(output, log), force=force, locked=True)
    say(f"{output}: {game.name}, {views.count(len(log.events), 'event')}")


WAIT = click.option(
    "--wait",
    type=click.FloatRange(0, 3600),
    default=corpora.LOCK_WAIT,
    show_default=True,
    metavar="SECONDS",
    help="How long to wait for another writer of the corpus to finish.",
)


def waiting(line: str) -> None:
    """Say on stderr that a writer waits for another (the lock's holder)."""
    say(line, err=True)


@corpus.command()
@click.argument("path", type=FILE)
@click.argument("sources", nargs=-1, required=True, type=FILE)
@click.option("--new", "new", is_flag=True, help="Start a new corpus (refused if it exists).")
@click.option("--force", is_flag=True, help="With --new: replace an existing corpus.")
@WAIT
def add(path: Path, sources: tuple[Path, ...], new: bool, force: bool, wait: float) -> None:
    """Add logs (or games of other corpora, or the logs of a folder) to a corpus, each checked
    first, with their tags and notes. Without --new the corpus must exist; nothing of it is
    rewritten."""
    if not corpora.is_corpus(path):
        raise UsageError(f"{path}: a corpus is named NAME{corpora.SUFFIX}")
    if not new and not path.exists():
        raise UsageError(f"{path} does not exist; pass --new to start it")
    encoded = []
    for source in batch.expand(list(sources)):  # all checked before any is added
        ref = corpora.split_ref(source)
        if ref is not None or corpora.is_corpus(source):
            with corpora.Corpus(ref[0] if ref else source) as read:
                numbers = [ref[1] - 1] if ref else range(len(read))
                for k in numbers:
                    read.check_number(k)
                    game, log = read.file_log(k)  # as it was added: tags, notes, marks
                    encoded.append(_encoded(Path(f"{read.name}#{k + 1}"), game, log))
            continue
        item = logs.open_log(source)
        encoded.append(_encoded(item.path, item.game, item.log))
    with corpora.Writer(path, new=new, force=force, wait=wait, on_wait=waiting) as writer:
        for record in encoded:
            writer.add_encoded(record)
        before = writer.games
    say(f"{path}: {len(encoded)} added, {views.count(before + len(encoded), 'game')}")


def _encoded(path: Path, game: Any, log: Any) -> corpora.Encoded:
    """A log checked (every event, checkpoint and commit) and encoded for a corpus, its
    checkpoints as recorded. A log the running rules replay otherwise is carried forward
    first (``upgrade --rules``, which says what changes), so that a corpus added to holds games
    consistent with the rules that add them."""
    steps = logs.steps_of(game, log, path=str(path))
    if steps.rules is not None:
        from tribes.replay.consistency import answer_line  # noqa: PLC0415  start-up: the command's machinery, when it runs

        ref = corpora.split_ref(path)
        carried = ref[0] if ref is not None else path
        raise TribesError(
            f"{path}: {answer_line(steps.rules, str(path), shown=False)}; a corpus is added "
            f"games the running rules replay as recorded: 'tribes upgrade --rules {carried}' "
            "first"
        )
    return corpora.encode_game(game, log, steps[-1].state)


@corpus.command()
@click.argument("path", type=FILE)
@click.option("--into", "count", type=WholeRange(1, 100_000), required=True, help="Shards.")
@click.option("--force", is_flag=True, help="Replace shards that exist.")
def split(path: Path, count: int, force: bool) -> None:
    """Split a corpus into COUNT shards, NAME-1.corpus ... in order, records copied as they are."""
    stem = path.with_suffix("")
    out = [Path(f"{stem}-{i + 1}{corpora.SUFFIX}") for i in range(count)]
    for target, size in zip(out, corpora.split(path, out, force=force), strict=True):
        say(f"{target}: {size} game{'s' if size != 1 else ''}")


@corpus.command()
@click.argument("path", type=FILE)
@click.option(
    "--force",
    is_flag=True,
    help="Cut even a damaged last commit (its games are lost); replace an older NAME.corpus.torn.",
)
@WAIT
def repair(path: Path, force: bool, wait: float) -> None:
    """Cut an interrupted append (bytes after the last commit) from a corpus, keeping the bytes
    cut in NAME.corpus.torn."""
    done = corpora.repair(path, force=force, wait=wait, on_wait=waiting)
    if not done.cut:
        say(f"{path}: nothing to repair ({views.count(done.games, 'game')}, all committed)")
        return
    say(
        f"{path}: cut {done.cut} bytes after the last commit; {views.count(done.games, 'game')} "
        f"kept; the bytes cut are kept in {done.backup}"
    )


@click.command()
@click.argument("paths", nargs=-1, required=True, type=FILE)
@click.option("--json", "as_json", is_flag=True, help="A JSON document.")
@work_options
def stats(paths: tuple[Path, ...], as_json: bool, jobs: int, cluster: str | None) -> None:
    """Win rates by turn position and by bot (95% intervals), score and length distributions,
    of corpora and logs (each game replayed and checked)."""
    failures: list[str] = []
    differ = RulesWarnings(as_json)

    def found(record: dict[str, Any]) -> None:
        if "rules" in record and not record.get("corpus"):
            differ(record["path"], answer_of(record["game"], record["rules"]))

    totals = batch.verify(
        list(paths),
        Where(jobs, cluster),
        lambda line: failures.append(line) if line.startswith("FAIL") else None,
        record=found,
    )
    if failures:  # statistics of a damaged input would quietly leave games out
        others = max(totals.failed, 1) - 1  # games and logs that failed, not lines said of them
        more = f" (and {others} more)" if others else ""
        raise TribesError(failures[0].removeprefix("FAIL").strip() + more)
    differ.close()
    if not totals.tally.games:
        raise UsageError("no finished game to count")
    result = totals.tally.stats()
    unfinished = totals.ok - totals.tally.games  # verified, but not over: nothing to count yet
    if as_json:
        document = {**result.document(), "unfinished": unfinished}
        if differ.records:
            document["rules"] = differ.records
        click.echo(codec.to_json(document))
    else:
        for line in result.lines():
            say(line)
        if unfinished:
            say(f"({views.count(unfinished, 'unfinished game')} left out)")
