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
from tribes.replay.consistency import MoveRefused
from tribes.replay.parallel import Where
from tribes.replay.stats import Row, Tally, bots_of


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
    whole: Whole | None = None
    """What was found of a corpus as a whole, named in its summary line."""
    differ: int = 0
    """Logs found intact but replayed otherwise by the running rules (counted in ``ok``)."""


@attrs.frozen
class LogUnit:
    path: str


@attrs.frozen
class Broken:
    """An input that could not even be opened: its one FAIL line."""

    message: str
    path: str = ""


@attrs.frozen
class Whole:
    """What was found of a whole corpus beyond its games, in the coordinator (it reads every
    byte once): its format version, its digest, and the first problem of its records and
    appends or the bytes after its last commit (``problem``: "" when none)."""

    games: int
    version: int
    digest: str
    problem: str = ""


Unit: TypeAlias = LogUnit | Broken | Whole | corpus.Chunk

LOG_SUFFIXES = (".tribes", ".json", corpus.SUFFIX)
"""What a folder given as input holds: its files of these kinds."""


def expand(paths: Sequence[Path]) -> list[Path]:
    """The inputs with each folder replaced by its logs and corpora (its files named
    ``*.tribes``, ``*.json``, ``*.corpus``, in name order, hidden ones left out): ``simulate
    --save DIR`` writes one. A folder holding none stays as it is, to be named as a failure."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir() and not corpus.is_corpus(path):
            found = sorted(
                p
                for p in path.iterdir()
                if p.suffix in LOG_SUFFIXES and not p.name.startswith(".") and not p.is_dir()
            )
            out.extend(found or [path])
        else:
            out.append(path)
    return out


SHARD = 200
"""Games of a corpus a unit holds at most: the results of a few units a worker wait in memory
(:data:`tribes.replay.parallel.WINDOW`), so this bounds the memory of ``verify`` and of a
sweep at a million games (1,000-game units held up to 8 MB of results at once)."""


def units(paths: Sequence[Path], workers: int, most: int = SHARD) -> Iterator[tuple[int, Unit]]:
    """``(input number, unit)`` for every input, in order; a corpus's chunks sized so that the
    workers share the work evenly (``most`` games a chunk at most), then what was found of the
    corpus as a whole."""
    for number, path in enumerate(paths):
        try:
            ref = corpus.split_ref(path)
            if ref is not None:
                with corpus.Corpus(ref[0]) as read:
                    read.check_number(ref[1] - 1)
                    yield number, read.chunk(ref[1] - 1, ref[1])
            elif corpus.is_corpus(path):
                with corpus.Corpus(path) as read:  # read a chunk at a time, as the work asks
                    size = parallel.shard_size(len(read), workers, most=most)
                    if not len(read):
                        yield number, read.chunk(0, 0)
                    for chunk in read.chunks(size):
                        yield number, chunk
                    yield number, whole(read)
            elif path.is_dir():
                yield (
                    number,
                    Broken(f"{path}: is a directory holding no logs or corpora", str(path)),
                )
            else:
                yield number, LogUnit(str(path))
        except TribesError as exc:
            message = exc.message if str(path) in exc.message else f"{path}: {exc.message}"
            yield number, Broken(message, str(path))


def whole(read: corpus.Corpus) -> Whole:
    """Every byte of the corpus checked (records, appends, digests) and what follows its last
    commit; the first problem named, with the byte."""
    problem = read.whole_problem()
    why = problem.message.removeprefix(f"{read.name}: ") if problem is not None else ""
    tail = read.layout.tail
    if tail is not None and not why:  # a damaged last commit looks like an interrupted append
        why = f"{tail.describe()}; 'tribes corpus repair {read.name}' cuts it"
    return Whole(len(read), read.version, read.layout.digest.hex(), why)


def run_unit(unit: Unit) -> Report:
    """Verify one unit (the task a worker runs)."""
    if isinstance(unit, LogUnit):
        return verify_log(Path(unit.path))
    if isinstance(unit, Broken):
        failure = {"path": unit.path, "ok": False, "error": one_line(unit.message)}
        return Report((f"FAIL  {unit.message}",), 0, 1, (), (failure,))
    if isinstance(unit, Whole):
        return Report((), 0, 0, whole=unit)
    checked = corpus.check_chunk(unit)
    failed = [c for c in checked if c.error is not None]
    lines = tuple(one_line(c.line(unit.path)) for c in checked)
    rows = tuple(c.row for c in checked if c.row is not None)
    found = tuple(_found(unit.path, c) for c in checked)
    differ = sum(1 for c in checked if c.rules is not None)
    return Report(lines, len(checked) - len(failed), len(failed), rows, found, differ=differ)


def _found(path: str, checked: corpus.Checked) -> dict[str, Any]:
    """A corpus game's findings as ``verify --json`` gives them, as a log's are."""
    where = f"{path}#{checked.number}"
    if checked.error is not None:
        return {"path": where, "ok": False, "error": one_line(checked.error)}
    out = {
        "path": where,
        "ok": True,
        "game": checked.game,
        "events": checked.events,
        "over": checked.over,
        "state": checked.state,
    }
    if checked.rules is not None:
        out["rules"] = checked.rules.record()
    return out


def verify_log(path: Path) -> Report:
    """Replay a log file with every check (:func:`tribes.replay.verify.verify`); its line, and
    its row for statistics when the game is over."""
    try:
        verified = checking.verify(path)
        mark = "ok    " if verified.rules is None else "RULES "
        line = f"{mark}{one_line(verified.line())}"
        opened = logs.open_log(path)
        game, head = opened.game, opened.log.header
        refused = isinstance(verified.rules, MoveRefused)
        played = opened.log.events
        if isinstance(verified.rules, MoveRefused):
            played = played[: verified.rules.event - 1]
        steps = logs.steps_of(game, attrs.evolve(opened.log, events=played), verify=False)
        state = steps[-1].state
        row = None
        if game.is_over(state) and not refused:
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
        if verified.rules is not None:
            found["rules"] = verified.rules.record()
        differ = int(verified.rules is not None)
        return Report((line,), 1, 0, (row,) if row else (), (found,), differ=differ)
    except TribesError as exc:
        message = exc.message if str(path) in exc.message else f"{path}: {exc.message}"
        failure = {"path": str(path), "ok": False, "error": one_line(message)}
        return Report((f"FAIL  {one_line(message)}",), 0, 1, (), (failure,))


def one_line(text: str) -> str:
    """``text`` as one printable line (:func:`tribes.core.views.printable`)."""
    return views.printable(text)


@attrs.frozen
class Totals:
    inputs: int
    ok: int
    failed: int
    """Games (or logs) that failed, and corpora found damaged as a whole."""
    failed_inputs: int
    """Inputs (logs, corpora) with a failure."""
    tally: Tally
    """The statistics of the finished games (none counted without ``rows``)."""
    differ: int = 0
    """Logs intact but replayed otherwise by the running rules."""


def verify(
    paths: Sequence[Path],
    where: Where,
    echo: Callable[[str], None],
    progress: Callable[[int], None] = lambda n: None,
    record: Callable[[dict[str, Any]], None] | None = None,
    rows: bool = True,
) -> Totals:
    """Verify every input (a folder: its logs and corpora), echoing each report's lines in
    input order; a corpus adds one summary line of its own after its games (and ``record`` one
    record for it, after one per failed game). With ``rows`` the finished games are counted for
    statistics (sums and counts: the memory stays flat at a million games either way)."""
    paths = expand(paths)
    inputs: list[int] = []
    wholes: list[bool] = []

    def numbered() -> Iterator[Unit]:
        for number, unit in units(paths, where.workers):
            inputs.append(number)
            wholes.append(
                isinstance(unit, corpus.Chunk | Whole) and corpus.split_ref(paths[number]) is None
            )
            yield unit

    kept = Tally()
    ok = failed = differ = 0
    per_input: dict[int, list[int]] = {}
    found_whole: dict[int, Whole] = {}
    reports = parallel.execute(run_unit, numbered(), where, lambda i, r: progress(r.ok + r.failed))

    def summary(number: int) -> None:
        """The line of a whole corpus after its games: how many, how many failed, its digest,
        and the first problem of the corpus as a whole (a damaged record or append, bytes
        after its last commit)."""
        good, bad, other = per_input[number]
        seen = found_whole.get(number)
        problem = seen.problem if seen is not None else ""
        state = "ok   " if not bad and not problem else "FAIL "
        if state == "ok   " and other:
            state = "RULES"
        games = views.count(good + bad, "game")
        if problem:
            said = f"; {problem}"
        elif seen is not None and seen.version < 2:
            said = (
                f" (format version {seen.version}: the order of its games, games there twice and"
                " games dropped cannot be detected in that version; 'tribes upgrade"
                f" {paths[number]} -o NEW.corpus' writes it as version 3, which can)"
            )
        elif seen is not None and seen.version < 3 and not bad:
            said = (
                f", digest {seen.digest} (format version {seen.version}: a game altered and one"
                " written under other rules cannot be told apart in that version; 'tribes"
                f" upgrade --rules {paths[number]}' writes it as version 3, which can)"
            )
        else:
            said = f", digest {seen.digest}" if seen is not None and not bad else ""
        if other:
            said = f", {other} intact under other rules{said}"
        echo(one_line(f"{state} {paths[number]}: {games}, {good} verified, {bad} failed{said}"))
        if record is not None:
            entry: dict[str, Any] = {
                "path": str(paths[number]),
                "ok": not bad and not problem,
                "corpus": True,
                "games": good + bad,
                "verified": good,
                "failed": bad,
                "rules_differ": other,
            }
            if seen is not None:
                entry |= {"version": seen.version, "digest": seen.digest}
            if problem:
                entry["error"] = one_line(problem)
            record(entry)

    whole_inputs: set[int] = set()
    last: int | None = None  # the input of the unit before
    for i, report in enumerate(reports):
        number, is_whole = inputs[i], wholes[i]
        if last is not None and last != number and last in whole_inputs:
            summary(last)
        for k, line in enumerate(report.lines):
            if not is_whole or line.startswith(("FAIL", "RULES")):  # a corpus: what is not ok
                echo(line)
                if record is not None:
                    found = report.found[k] if k < len(report.found) else None
                    record(found or {"ok": line.startswith("ok"), "text": line[6:]})
        ok += report.ok
        failed += report.failed
        differ += report.differ
        if rows:
            for row in report.rows:
                kept.add(row)
        counts = per_input.setdefault(number, [0, 0, 0])
        counts[0] += report.ok
        counts[1] += report.failed
        counts[2] += report.differ
        if is_whole:
            whole_inputs.add(number)
        if report.whole is not None:
            found_whole[number] = report.whole
            failed += bool(report.whole.problem)
        last = number
    if last is not None and last in whole_inputs:
        summary(last)
    bad = sum(
        1
        for n, counted in per_input.items()
        if counted[1] or (n in found_whole and found_whole[n].problem)
    )
    return Totals(len(paths), ok, failed, bad, kept, differ)
