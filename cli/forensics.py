"""``tribes find``, ``baseline``, ``regress`` and ``coverage``: thin commands over
:mod:`tribes.replay.find`, :mod:`tribes.replay.baseline` and :mod:`tribes.replay.coverage`, each
reading many games (logs, folders, corpora, ``CORPUS#K``) through :mod:`tribes.replay.sweep`."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import click

from tribes.cli.common import WHOLE, RulesWarnings, say, work_options
from tribes.core import views
from tribes.core.errors import UsageError
from tribes.events import codec
from tribes.replay import sweep
from tribes.replay.parallel import Where

GAMES = click.Path(path_type=Path)
OUT = click.Path(path_type=Path, dir_okay=False)


def progress(paths: Sequence[Path], label: str) -> AbstractContextManager[Callable[[int], None]]:
    """A progress bar of games on stderr when it is a terminal (nothing on a pipe or a file)."""
    return _bar(label, lambda: sweep.count_games(paths))


@contextlib.contextmanager
def _bar(label: str, total: Callable[[], int | None]) -> Iterator[Callable[[int], None]]:
    """A progress bar of ``total()`` on stderr when it is a terminal; its update, or nothing."""
    if not sys.stderr.isatty():
        yield lambda n: None
        return
    with click.progressbar(length=total() or 0, label=label, file=sys.stderr) as bar:
        yield bar.update


def _size(path: Path) -> int | None:
    """The file's size, None when it cannot be read (its reader says why)."""
    try:
        return path.stat().st_size
    except OSError:
        return None


class Failures:
    """The games that could not be read or replayed: each said in one line on stderr (unless
    the output is JSON), all of them kept for the JSON document and the exit status."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.found: list[dict[str, Any]] = []

    def say(self, name: str, error: str) -> None:
        self.found.append({"path": name, "error": error})
        if not self.as_json:
            say(f"tribes: {error}", err=True)

    def __call__(self, visited: sweep.Visited[Any]) -> bool:
        """Whether ``visited`` failed (and is now said)."""
        if visited.error is None:
            return False
        self.say(visited.name, visited.error)
        return True


@click.command()
@click.argument("paths", nargs=-1, required=True, type=GAMES)
@click.option("--where", "where_text", required=True, metavar="EXPR", help="The expression.")
@click.option("--first", is_flag=True, help="Only the first matching event of each game.")
@click.option("--count", "counts", is_flag=True, help="Only the counts: events, games.")
@click.option("--limit", type=WHOLE, metavar="K", help="Stop after K matches.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document: matches and counts.")
@work_options
def find(
    paths: tuple[Path, ...],
    where_text: str,
    first: bool,
    counts: bool,
    limit: int | None,
    as_json: bool,
    jobs: int,
    cluster: str | None,
) -> None:
    """Every game and event of logs, folders and corpora where EXPR holds, one line each:
    'runs.corpus#17 event 38: EXPR'. EXPR is the bisect language over the state after the
    event, with 'move' (the event in notation) and the game's effect types by name, each the
    list of the event's effects of that type: len(VillageFounded) >= 2. Exit 1 when nothing
    matches or a game cannot be read."""
    from tribes.replay.find import Finder  # noqa: PLC0415  start-up: the command's machinery, when it runs

    if limit is not None and limit < 1:
        raise UsageError(f"--limit must be 1 or more, not {limit}")
    where = Where(jobs, cluster)
    matches: list[dict[str, Any]] = []
    failed = Failures(as_json)
    differ = RulesWarnings(as_json)
    games = matched_games = events = 0
    absent: frozenset[str] | None = None  # paths in no step of any game read
    with progress(paths, "find") as told:
        for visited in sweep.sweep(paths, Finder(where_text, first), where, told):
            if failed(visited):
                continue
            assert visited.result is not None
            differ(visited.name, visited.result.rules)
            games += 1
            found = visited.result.matches
            unread = visited.result.absent
            absent = unread if absent is None else absent & unread
            if limit is not None:
                found = found[: limit - events]
            matched_games += bool(found)
            events += len(found)
            for match in found:
                record = {"game": visited.name, "event": match.event, "move": match.move}
                if as_json:
                    matches.append(record)
                elif not counts:
                    say(f"{visited.name} event {match.event}: {where_text}")
            if limit is not None and events >= limit:
                break
    differ.close()
    if not events:
        for path in sorted(absent or ()):
            read = views.count(games, "game")
            say(f"warning: '{path}' is in no state of the {read} read; it reads as null", err=True)
    summary = (
        f"{views.count(events, 'event')} in {matched_games} of {views.count(games, 'game')} "
        f"{'matches' if events == 1 else 'match'} {where_text}"
    )
    if as_json:
        document = {"where": where_text, "events": events, "games": games}
        document |= {"matched_games": matched_games, "failed": failed.found}
        if differ.records:
            document["rules"] = differ.records
        if not counts:
            document["matches"] = matches
        click.echo(codec.to_json(document))
    elif counts:
        say(summary)
    if failed.found or not events:
        sys.exit(1)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=GAMES)
@click.option("-o", "--output", type=OUT, required=True, help="The baseline file to write.")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
@click.option("--json", "as_json", is_flag=True, help="A JSON report: games, events, bytes.")
@work_options
def baseline(
    paths: tuple[Path, ...],
    output: Path,
    force: bool,
    as_json: bool,
    jobs: int,
    cluster: str | None,
) -> None:
    """Record every game's outcome, a digest of its state after every event and the words of
    the events that moved a score, for 'tribes regress' to compare with after a change to the
    code."""
    from tribes.replay import logs  # noqa: PLC0415  start-up: the command's machinery, when it runs
    from tribes.replay.baseline import Made, fd_writer, make  # noqa: PLC0415  start-up: the command's machinery, when it runs

    logs.check_output(output, force=force)  # before the work, not after it
    made: list[Made] = []

    def fill(fd: int) -> None:
        with progress(paths, "baseline") as told:
            made.append(make(paths, Where(jobs, cluster), fd_writer(fd), told, failures.say))

    failures = Failures(as_json)
    logs.write_output_from(output, fill, force=force)
    (done,) = made
    size, failed = done.size, done.failed
    if as_json:
        report = {"output": str(output), "games": done.games, "events": done.events}
        click.echo(codec.to_json(report | {"bytes": size, "failed": list(failed)}))
    else:
        per_event = size / done.events if done.events else 0.0
        per_game = size / done.games if done.games else 0.0
        say(
            f"{output}: {views.count(done.games, 'game')}, {views.count(done.events, 'event')}, "
            f"{size:,} bytes ({per_game:.0f} a game, {per_event:.1f} an event)"
            + (f"; {_not_replayed(len(failed))}" if failed else "")
        )
    if failed:
        sys.exit(1)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=GAMES)
@click.option(
    "--baseline", "baseline_file_path", type=GAMES, required=True, help="The baseline file."
)
@click.option("--all", "every", is_flag=True, help="A line for every game, unchanged ones too.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document: each game, the summary.")
@work_options
def regress(
    paths: tuple[Path, ...],
    baseline_file_path: Path,
    every: bool,
    as_json: bool,
    jobs: int,
    cluster: str | None,
) -> None:
    """Replay games with the code installed now against a baseline: per changed game the first
    event that differs, what it did before and does now in the game's words, the outcomes before
    and now, the first event now illegal; then a summary: winners changed, games now illegal by
    rule, score shifts by seat, lengths. Exit 1 if any game changed (or cannot be read)."""
    from tribes.replay import baseline_file  # noqa: PLC0415  start-up: the command's machinery, when it runs
    from tribes.replay import regress as regressing  # noqa: PLC0415  start-up: the command's machinery, when it runs
    from tribes.replay.regress_summary import Tally  # noqa: PLC0415  start-up: the command's machinery, when it runs

    with _bar("checking the baseline", lambda: _size(baseline_file_path)) as told:
        recorded = baseline_file.read(baseline_file_path, told)
    tally = Tally()
    found: list[dict[str, Any]] = []
    failed = Failures(as_json)

    def missing(n: int) -> None:
        tally.missing = n

    with progress(paths, "regress") as told:
        for item in regressing.regress(paths, recorded, Where(jobs, cluster), told, missing):
            if isinstance(item, sweep.Visited):
                failed(item)
                continue
            tally.add(item)
            if not (item.changed or every or item.notes):
                continue
            if as_json:
                found.append(item.document())
            else:
                say(item.line())
    summary = tally.summary()
    if as_json:
        document = {"summary": summary.document(), "games": found, "failed": failed.found}
        click.echo(codec.to_json(document))
    else:
        unread = len(failed.found)
        lines = summary.lines()
        lines[0] += f"; {unread} could not be read" if unread else ""
        for line in lines:
            say(line)
    if summary.changed or failed.found:
        sys.exit(1)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=GAMES)
@click.option("--json", "as_json", is_flag=True, help="One JSON document: each game's rules.")
@work_options
def coverage(paths: tuple[Path, ...], as_json: bool, jobs: int, cluster: str | None) -> None:
    """For every rule id of each game read: how many games and events applied it in a way that
    mattered, which rules no event can show (and why), and which never happened."""
    from tribes import games as registry  # noqa: PLC0415  start-up: the command's machinery, when it runs
    from tribes.replay.coverage import Coverage, Coverer  # noqa: PLC0415  start-up: the command's machinery, when it runs

    by_game: dict[str, Coverage] = {}
    failed = Failures(as_json)
    differ = RulesWarnings(as_json)
    with progress(paths, "coverage") as told:
        for visited in sweep.sweep(paths, Coverer(), Where(jobs, cluster), told):
            if failed(visited):
                continue
            assert visited.result is not None
            differ(visited.name, visited.result.rules)
            name = visited.result.game
            if name not in by_game:
                by_game[name] = Coverage(registry.get(name))
            by_game[name].add(visited.result)
    differ.close()
    ordered = [by_game[name] for name in sorted(by_game)]
    if as_json:
        document = {"games": [c.document() for c in ordered], "failed": failed.found}
        if differ.records:
            document["rules"] = differ.records
        click.echo(codec.to_json(document))
    else:
        for found in ordered:
            for line in found.lines():
                say(line)
    if failed.found or not by_game:
        sys.exit(1)


def _not_replayed(count: int) -> str:
    """The games a baseline leaves out, in words: "1 could not be replayed and is not in it"."""
    if count == 1:
        return "1 game could not be replayed and is not in it"
    return f"{count} games could not be replayed and are not in it"
