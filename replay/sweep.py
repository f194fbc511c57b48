"""Many games, each replayed once: the games of logs, folders of logs and corpora (``CORPUS#K``
too), visited in shards on this process, a pool of processes or a Dask cluster, the results in
input order. ``find``, ``baseline``, ``regress`` and ``coverage`` are visits.

A *visit* is a picklable callable ``visit(name, game, log) -> result`` (an attrs object of plain
fields: it travels to the workers); a game is named as commands name it, ``path`` for a log,
``path#K`` for game K of a corpus. Corpora are read through the batch reader
(:func:`tribes.replay.batch.units`): a chunk of a corpus travels as its bytes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import attrs

from tribes.core.errors import TribesError, UsageError
from tribes.core.game import Game
from tribes.events import corpus as fmt
from tribes.events.corpus import CorruptCorpus
from tribes.events.logfile import GameLog
from tribes.replay import batch, corpus, logs, marks, packing, parallel
from tribes.replay.corpus.reader import older_digest_differs
from tribes.replay.parallel import Where

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)

SHARD = batch.SHARD
"""Games of a corpus a shard holds at most (:data:`tribes.replay.batch.SHARD`)."""
SUFFIXES = (".tribes", ".json", corpus.SUFFIX)
"""What a folder's logs and corpora are called: the files of a folder a sweep reads."""


class Visit(Protocol[R_co]):
    def __call__(self, name: str, game: Game[Any], log: GameLog) -> R_co:
        """What one game gives; a TribesError is that game's failure (a UsageError stops the
        whole run: the question itself is wrong)."""


@attrs.frozen
class Visited(Generic[R]):
    """One game's result, or why it could not be read or replayed (``error``: one line)."""

    name: str
    result: R | None = None
    error: str | None = None


def expand(paths: Sequence[Path]) -> list[Path]:
    """The inputs, a folder replaced by its logs and corpora (every ``.tribes``, ``.json`` and
    ``.corpus`` file under it, in name order); a folder with none is a usage error."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
            if not found:
                raise UsageError(
                    f"{path}: the folder holds no log or corpus (.tribes, .json, .corpus)"
                )
            out.extend(found)
        else:
            out.append(path)
    return out


def sweep(
    paths: Sequence[Path],
    visit: Visit[R],
    where: Where,
    progress: Callable[[int], None] = lambda n: None,
) -> Iterator[Visited[R]]:
    """``visit`` of every game of the inputs, in input order (folders expanded); ``progress``
    told how many more games are done as each shard finishes."""
    inputs = expand(paths)
    task = packing.travelling(functools.partial(_visit_unit, visit), where, len)
    shards = (
        _damage(inputs[n], unit) if isinstance(unit, batch.Whole) else unit
        for n, unit in batch.units(inputs, where.workers, SHARD)
        if not isinstance(unit, batch.Whole) or unit.problem
    )
    for results in parallel.execute(task, shards, where, lambda i, r: progress(len(r))):
        for visited in packing.unpacked(results):
            if isinstance(visited, _Refused):
                raise UsageError(visited.message)
            yield visited


@attrs.frozen
class _Refused:
    """The visit refused the question (a UsageError): the run stops with it."""

    message: str


_Result = Visited[R] | _Refused
"""One game's result, or the visit's refusal that stops the run."""


def _damage(path: Path, whole: batch.Whole) -> batch.Broken:
    """What is wrong with a corpus as a whole (its appends, the bytes after its last commit):
    one line of its own, its games read as far as they go."""
    return batch.Broken(f"{path}: {whole.problem}", str(path))


def _visit_unit(visit: Visit[R], unit: batch.Unit) -> list[Visited[R] | _Refused]:
    """Every game of one unit of work (the task a worker runs)."""
    if isinstance(unit, batch.Broken):
        return [Visited(unit.path, error=batch.one_line(unit.message))]
    if isinstance(unit, batch.Whole):
        return []  # said by the coordinator (``_damage``) when anything is wrong
    if isinstance(unit, batch.LogUnit):
        try:
            opened = logs.open_log(Path(unit.path))
            checked(opened.game, opened.log, unit.path)
        except TribesError as exc:
            return [Visited(unit.path, error=_message(unit.path, exc))]
        return [_one(visit, unit.path, opened.game, opened.log)]
    out: list[Visited[R] | _Refused] = []
    decoder = corpus.Decoder(unit.path, unit.parts, unit.annexes)
    try:
        for k, (game, log, raw) in corpus.chunk_games(unit, decoder):
            name = f"{unit.path}#{k + 1}"
            if unit.version < 3:
                try:
                    older_checked(game, log, raw, decoder, unit.path, k)
                except TribesError as exc:
                    out.append(Visited(name, error=_message(unit.path, exc)))
                    continue
            out.append(_one(visit, name, game, log))
            if isinstance(out[-1], _Refused):
                break
    except TribesError as exc:  # a damaged game: the rest of the chunk cannot be read
        out.append(Visited(unit.path, error=_message(unit.path, exc)))
    return out


def checked(game: Game[Any], log: GameLog, path: str) -> None:
    """Refuse a damaged log (CorruptLog) before a visit replays it, as every command that
    reads one does: a log of format version 3 by its commits, from its bytes alone
    (:func:`tribes.replay.marks.intact`); one of version 1 or 2 that has commits or
    checkpoints by replaying it with them checked (they cover the replayed states: there, a
    damaged log and one written under other rules cannot be told apart). A corpus's games are
    checked by its own digests as they are read."""
    if log.version >= 3:
        marks.intact(log, path)
    elif log.commits or log.checkpoints:
        marks.steps_of(game, log, path=path)


def older_checked(
    game: Game[Any], log: GameLog, raw: fmt.RawGame, decoder: corpus.Decoder, path: str, k: int
) -> None:
    """Refuse game ``k`` of a corpus of format version 1 or 2 unless its digest matches: it
    covers the state the game's last event reaches, so the game is replayed to its end first
    (a visit may stop sooner). Under rules that reach another state an altered game and one
    written under other rules cannot be told apart there: the line says so and names
    ``tribes upgrade``, as a reader of the one game does."""
    part, annex = decoder.part_bytes(raw.part), decoder.annex(raw)
    try:
        corpus.check(game, log, raw, path, k, part, annex)
    except CorruptCorpus:  # its digest: all such a game can tell
        raise older_digest_differs(path, k, upgrade=True) from None


def _one(visit: Visit[R], name: str, game: Game[Any], log: GameLog) -> Visited[R] | _Refused:
    try:
        return Visited(name, visit(name, game, log))
    except UsageError as exc:
        return _Refused(exc.message)
    except TribesError as exc:
        return Visited(name, error=_message(name, exc))


def _message(name: str, exc: TribesError) -> str:
    text = exc.message if name in exc.message else f"{name}: {exc.message}"
    return batch.one_line(text)


def count_games(paths: Sequence[Path]) -> int | None:
    """How many games the inputs hold (a corpus says it at once), or None when one cannot be
    opened (the sweep names it)."""
    total = 0
    for path in expand(paths):
        try:
            if corpus.split_ref(path) is not None:
                total += 1
            elif corpus.is_corpus(path):
                with corpus.Corpus(path) as read:
                    total += len(read)
            else:
                total += 1
        except TribesError:
            return None
    return total
