"""``verify`` and ``stats`` over many inputs: log files, corpora and games of corpora, in shards.

Each input becomes work units: a log file is one unit (its path: the worker reads it, so on a
cluster the logs must be on a disk the workers share), a corpus is cut into chunks that travel as
bytes (no shared disk needed), ``CORPUS#K`` is a chunk of one game. Reports come back in input
order (:func:`tribes.replay.parallel.execute`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeAlias

import attrs

from tribes.core import views
from tribes.core.errors import TribesError
from tribes.replay import corpus, logs, parallel
from tribes.replay import verify as checking
from tribes.replay.parallel import Where
from tribes.replay.stats import Row, bots_of


@attrs.frozen
class Report:
    """The outcome of one unit: a line per log (or per failed game), how many games passed and
    failed, and the finished games' rows for statistics."""

    lines: tuple[str, ...]
    ok: int
    failed: int
    rows: tuple[Row, ...] = ()
    found: tuple[dict[str, Any], ...] = ()
    """Per line, what was found as data (``verify --json``): the log's game, events, state and
    digest, or the error."""
    tail: str = ""
    """Bytes after a corpus's last commit (an interrupted append), described: not part of the
    corpus, named in its summary line."""


@attrs.frozen
class LogUnit:
    path: str


@attrs.frozen
class Broken:
    """An input that could not even be opened: its one FAIL line."""

    message: str
    path: str = ""


@attrs.frozen
class Tail:
    """Bytes after a corpus's last commit: named with the corpus, not a failure of its games."""

    description: str


Unit: TypeAlias = LogUnit | Broken | Tail | corpus.Chunk


def units(paths: Sequence[Path], workers: int) -> Iterator[tuple[int, Unit]]:
    """``(input number, unit)`` for every input, in order; a corpus's chunks sized so that the
    workers share the work evenly."""
    for number, path in enumerate(paths):
        try:
            ref = corpus.split_ref(path)
            if ref is not None:
                with corpus.Corpus(ref[0]) as read:
                    read.check_number(ref[1] - 1)
                    yield number, read.chunk(ref[1] - 1, ref[1])
            elif corpus.is_corpus(path):
                with corpus.Corpus(path) as read:  # read a chunk at a time, as the work asks
                    size = parallel.shard_size(len(read), workers)
                    if not len(read):
                        yield number, read.chunk(0, 0)
                    for chunk in read.chunks(size):
                        yield number, chunk
                    tail = read.layout.tail
                if tail is not None:  # an interrupted append: named in the corpus's line
                    yield number, Tail(f"{tail.describe()}; 'tribes corpus repair {path}' cuts it")
            else:
                yield number, LogUnit(str(path))
        except TribesError as exc:
            message = exc.message if str(path) in exc.message else f"{path}: {exc.message}"
            yield number, Broken(message, str(path))


def run_unit(unit: Unit) -> Report:
    """Verify one unit (the task a worker runs)."""
    if isinstance(unit, LogUnit):
        return verify_log(Path(unit.path))
    if isinstance(unit, Broken):
        failure = {"path": unit.path, "ok": False, "error": one_line(unit.message)}
        return Report((f"FAIL  {unit.message}",), 0, 1, (), (failure,))
    if isinstance(unit, Tail):
        return Report((), 0, 0, tail=unit.description)
    checked = corpus.check_chunk(unit)
    failed = [c for c in checked if c.error is not None]
    lines = tuple(c.line(unit.path) for c in checked)
    rows = tuple(c.row for c in checked if c.row is not None)
    found = tuple(_found(unit.path, c) for c in checked)
    return Report(lines, len(checked) - len(failed), len(failed), rows, found)


def _found(path: str, checked: corpus.Checked) -> dict[str, Any]:
    """A corpus game's findings as ``verify --json`` gives them, as a log's are."""
    where = f"{path}#{checked.number}"
    if checked.error is not None:
        return {"path": where, "ok": False, "error": one_line(checked.error)}
    return {
        "path": where,
        "ok": True,
        "game": checked.game,
        "events": checked.events,
        "over": checked.over,
        "state": checked.state,
    }


def verify_log(path: Path) -> Report:
    """Replay a log file with every check (:func:`tribes.replay.verify.verify`); its line, and
    its row for statistics when the game is over."""
    try:
        verified = checking.verify(path)
        line = f"ok    {one_line(verified.line())}"
        opened = logs.open_log(path)
        game, head = opened.game, opened.log.header
        steps = logs.steps_of(game, opened.log, verify=False)
        state = steps[-1].state
        row = None
        if game.is_over(state):
            outcome = game.outcome(state)
            to_move = game.to_move(steps[0].state)
            row = Row(
                head.seats,
                bots_of(head.seats, head.meta),
                outcome.scores,
                outcome.winners,
                len(opened.log.events),
                to_move if to_move is not None else 0,
            )
        found = {
            "path": str(path),
            "ok": True,
            "game": verified.game,
            "events": verified.events,
            "over": verified.over,
            "state": verified.state,
            "digest": verified.digest,
            "version": verified.version,
        }
        return Report((line,), 1, 0, (row,) if row else (), (found,))
    except TribesError as exc:
        message = exc.message if str(path) in exc.message else f"{path}: {exc.message}"
        failure = {"path": str(path), "ok": False, "error": one_line(message)}
        return Report((f"FAIL  {one_line(message)}",), 0, 1, (), (failure,))


def one_line(text: str) -> str:
    """``text`` as one printable line: control characters and lone surrogates escaped."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


@attrs.frozen
class Totals:
    inputs: int
    ok: int
    failed: int
    """Games (or logs) that failed."""
    failed_inputs: int
    """Inputs (logs, corpora) with a failure."""
    rows: list[Row]


def verify(
    paths: Sequence[Path],
    where: Where,
    echo: Callable[[str], None],
    progress: Callable[[int], None] = lambda n: None,
    record: Callable[[dict[str, Any]], None] | None = None,
) -> Totals:
    """Verify every input, echoing each report's lines in input order; a corpus adds one summary
    line of its own after its games."""
    inputs: list[int] = []
    wholes: list[bool] = []

    def numbered() -> Iterator[Unit]:
        for number, unit in units(paths, where.workers):
            inputs.append(number)
            wholes.append(
                isinstance(unit, corpus.Chunk) and corpus.split_ref(paths[number]) is None
            )
            yield unit

    rows: list[Row] = []
    ok = failed = 0
    per_input: dict[int, list[int]] = {}
    reports = parallel.execute(run_unit, numbered(), where, lambda i, r: progress(r.ok + r.failed))

    tails: dict[int, str] = {}
    """By input: the bytes after a corpus's last commit, described."""

    def summary(number: int) -> None:
        """The line of a whole corpus after its games: how many, how many failed, and what
        follows its last commit."""
        good, bad = per_input[number]
        state = "ok   " if not bad else "FAIL "
        games = views.count(good + bad, "game")
        tail = f"; {tails[number]}" if number in tails else ""
        echo(f"{state} {paths[number]}: {games}, {good} verified, {bad} failed{tail}")
        if record is not None and number in tails:
            record({"path": str(paths[number]), "ok": not bad, "tail": tails[number]})

    whole_inputs: set[int] = set()
    last: int | None = None  # the input of the unit before
    for i, report in enumerate(reports):
        number, whole = inputs[i], wholes[i]
        if last is not None and last != number and last in whole_inputs:
            summary(last)
        for k, line in enumerate(report.lines):
            if not whole or line.startswith("FAIL"):  # a whole corpus: its failures only
                echo(line)
                if record is not None:
                    found = report.found[k] if k < len(report.found) else None
                    record(found or {"ok": line.startswith("ok"), "text": line[6:]})
        ok += report.ok
        failed += report.failed
        rows.extend(report.rows)
        counts = per_input.setdefault(number, [0, 0])
        counts[0] += report.ok
        counts[1] += report.failed
        if whole:
            whole_inputs.add(number)
        if report.tail:
            tails[number] = report.tail
        last = number
    if last is not None and last in whole_inputs:
        summary(last)
    bad = sum(1 for good_bad in per_input.values() if good_bad[1])
    return Totals(len(paths), ok, failed, bad, rows)
