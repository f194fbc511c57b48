"""Seeded games between bots: for ``tribes simulate``, the demo and the benchmarks.

A :class:`Match` says who plays (a bot per seat), with which options and from which position; game
``i`` of a run has a seed drawn from stream ``simulate`` of the run's seed, so a run is the same
on every machine, and its logs record which bot played which seat (``meta.bots``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from tribes import games as games_
from tribes.core import prng
from tribes.core.errors import UsageError
from tribes.core.events import Event
from tribes.core.game import Bot, Game
from tribes.core.header import Header
from tribes.core.prng import Stream
from tribes.events.logfile import Annotation, GameLog
from tribes.replay import corpus, logs, packing, parallel
from tribes.replay.parallel import Where
from tribes.replay.stats import Row, Stats, Tally


@attrs.frozen
class Match:
    """Who plays a simulated game: ``bots`` names one bot per seat (in seat order), ``seats``
    the seat names; ``options`` and ``position`` as ``tribes new`` takes them."""

    bots: tuple[str, ...]
    seats: tuple[str, ...]
    options: Mapping[str, str] = attrs.field(factory=dict)
    position: Any = None


def match(
    game: Game[Any],
    bots: Sequence[str] = ("random",),
    *,
    seats: int | None = None,
    options: Mapping[str, str] | None = None,
    position: Any = None,
) -> Match:
    """A checked Match: one bot name for every seat, or one per seat; the seats from the
    position when there is one, else ``seats`` (default: the game's smallest number plus one)."""
    for bot in bots:
        if bot not in game.bots:
            raise UsageError(f"unknown bot '{bot}'; bots: {', '.join(sorted(game.bots))}")
    if position is not None:
        names = tuple(game.seats_of_position(position))
        if seats is not None and seats != len(names):
            raise UsageError(f"--seats {seats} but the position names {len(names)} seats")
    else:
        count = seats if seats is not None else len(bots) if len(bots) > 1 else None
        count = count if count is not None else game.facts.min_seats + 1
        names = tuple(f"p{i + 1}" for i in range(count))
    if len(bots) not in (1, len(names)):
        raise UsageError(
            f"--bot names {len(bots)} bots for {len(names)} seats; give 1 or {len(names)}"
        )
    logs.check_seats(game, names)
    chosen = tuple(bots) * len(names) if len(bots) == 1 else tuple(bots)
    return Match(bots=chosen, seats=names, options=dict(options or {}), position=position)


@attrs.frozen
class Result:
    log: GameLog
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    moves: int
    first: int = 0
    """The seat that moved first."""
    state: Any = None
    """The state at the end."""


def play_game(
    game: Game[Any],
    seed: int,
    seats: int | Match,
    bot: str = "random",
    *,
    like: Header | None = None,
) -> Result:
    """One game from ``seed``: ``seats`` bots named ``bot``, or the bots of a Match; each bot
    draws from its own stream. ``like``: the checked header of another game of the same Match,
    whose seed alone changes (a run checks its header once, not once a game: a check is a
    setup, a tenth of what a Clans game costs)."""
    how = seats if isinstance(seats, Match) else match(game, (bot,), seats=seats)
    if like is not None:
        head = attrs.evolve(like, seed=seed)
    else:
        meta = {"bots": dict(zip(how.seats, how.bots, strict=True))}
        head = logs.header(
            game, seats=how.seats, seed=seed, options=how.options, position=how.position, meta=meta
        )
    players: list[Bot[Any]] = [game.bots[b](game, seed, s) for s, b in enumerate(how.bots)]
    state = game.setup(head)
    first = game.to_move(state)
    events: list[Event] = []
    legal_moves, to_move, apply, record = game.legal_moves, game.to_move, game.apply, events.append
    while True:  # the loop of every simulated game: the game's methods looked up once
        moves = legal_moves(state)
        if not moves:
            break
        seat = to_move(state)
        assert seat is not None
        move = players[seat].choose(state, moves)
        state, _ = apply(state, move)
        record(move)
    outcome = game.outcome(state)
    return Result(
        GameLog(header=head, events=tuple(events)),
        outcome.scores,
        outcome.winners,
        len(events),
        first if first is not None else 0,
        state,
    )


@attrs.frozen
class Summary:
    games: int
    match: Match
    wins: tuple[float, ...]
    mean_scores: tuple[float, ...]
    mean_moves: float
    best: int
    stats: Stats | None = None

    def lines(self) -> list[str]:
        mixed = len(set(self.match.bots)) > 1
        seat_lines = [
            f"  {name}{f' ({bot})' if mixed else ''}: wins {w:.1f} ({w / self.games:.0%}), "
            f"mean score {s:.1f}"
            for name, bot, w, s in zip(
                self.match.seats, self.match.bots, self.wins, self.mean_scores, strict=True
            )
        ]
        return [
            (
                f"{self.games} game{'' if self.games == 1 else 's'}, {len(self.match.seats)} seats, "
                f"{self.mean_moves:.1f} events a game, best score {self.best}"
            ),
            *seat_lines,
        ]


def saved_name(game: Game[Any], index: int, seed: int) -> str:
    """The file name of game ``index`` (from 1) of a run saved to a folder."""
    return f"{game.name}-{index:04d}-{seed}.tribes"


def seed_of(seed: int, index: int) -> int:
    """The seed of game ``index`` (from 0) of a run: word ``index`` of stream ``simulate`` of the
    run's seed, so any game of a run is played alone, on any worker, the same."""
    return prng.word(prng.stream_key(seed, "simulate"), index)


def seeds(seed: int, games: int) -> Iterator[int]:
    """The seed of each game of a run, one at a time (a million seeds as a list are 44 MB)."""
    stream = Stream(seed, "simulate")
    for _ in range(games):
        yield stream.next_word()


def check_save(
    game: Game[Any], save: Path, seed: int, games: int, *, force: bool, cluster: bool = False
) -> None:
    """UsageError unless a run of ``games`` games from ``seed`` may write its logs to ``save``: a
    folder, holding none of them (or ``force``); or a new corpus (``NAME.corpus``) that does
    not exist (or ``force``). On a ``cluster`` only a corpus: the workers' disks are not this
    one."""
    if cluster and not corpus.is_corpus(save):
        raise UsageError(
            "on a cluster a run saves to a corpus (--save NAME.corpus), not to a folder"
        )
    if corpus.is_corpus(save):
        if save.is_dir():
            raise UsageError(f"--save {save} is a folder; a corpus is a file")
        if (save.exists() or save.is_symlink()) and not force:
            raise UsageError(f"{save} exists; choose another name or pass --force to replace it")
        return
    if save.exists() and not save.is_dir():
        raise UsageError(f"--save {save} is a file; it names a folder for the logs")
    if force:
        return
    taken = [
        name
        for i, s in enumerate(seeds(seed, games), start=1)
        if (save / (name := saved_name(game, i, s))).exists()
    ]
    if taken:
        raise UsageError(
            f"{save / taken[0]} exists ({len(taken)} of the {games} logs do); "
            "choose another folder or pass --force to replace them"
        )


@attrs.frozen
class Plan:
    """A shard of a run: games ``start`` to ``start + count - 1`` (from 0). ``folder``: write
    each game's log there; ``encode``: return each game as a corpus record."""

    game: str
    how: Match
    seed: int
    start: int
    count: int
    folder: str | None = None
    encode: bool = False


@attrs.frozen
class Played:
    """What a shard's games gave: a statistics row each and, when asked, their corpus records
    (``(seed, events, digest)``, all of header part ``part``)."""

    rows: tuple[Row, ...]
    part: bytes = b""
    records: tuple[tuple[int, bytes, bytes, bytes, bytes], ...] = ()

    def __len__(self) -> int:
        """The games played."""
        return len(self.rows)


def play_shard(plan: Plan) -> Played:
    """Play one shard (the task a worker runs)."""
    game = games_.get(plan.game)
    how = plan.how
    rows = []
    records = []
    part = b""
    key = prng.stream_key(plan.seed, "simulate")
    encoder = corpus.Encoder()
    like = None
    for i in range(plan.start, plan.start + plan.count):
        game_seed = prng.word(key, i)
        result = play_game(game, game_seed, how, like=like)
        like = result.log.header
        rows.append(
            Row(how.seats, how.bots, result.scores, result.winners, result.moves, result.first)
        )
        if plan.folder is not None:
            path = Path(plan.folder) / saved_name(game, i + 1, game_seed)
            bots = Annotation(0, "bots", ",".join(how.bots))  # the bots, in seat order
            logs.create(path, attrs.evolve(result.log, annotations=(bots,)), game, force=True)
        if plan.encode:
            encoded = encoder.encode(game, result.log, result.state)
            part = encoded.part
            records.append(
                (encoded.seed, encoded.events, encoded.digest, encoded.annex, encoded.marks)
            )
    return Played(tuple(rows), part, tuple(records))


def simulate(
    game: Game[Any],
    *,
    games: int,
    seed: int,
    how: Match,
    save: Path | None = None,
    force: bool = False,
    where: Where | None = None,
    progress: Callable[[int], None] = lambda n: None,
    on_wait: Callable[[str], None] | None = None,
) -> Summary:
    """``games`` games of ``how``, on ``where``'s workers; the same games and summary however
    many. A shared win counts as a fraction for each winner. With ``save``, each game's log is
    written there (a folder), or all of them to a new corpus (``NAME.corpus``, committed every
    thousand games); a run never replaces logs without ``force`` (checked before the first game
    is played). A corpus replaced with ``force`` is replaced under its lock: a writer at work on
    it is waited for (``on_wait`` is told), never orphaned."""
    where = where or Where()
    to_corpus = save is not None and corpus.is_corpus(save)
    if save is not None:
        check_save(game, save, seed, games, force=force, cluster=where.cluster is not None)
        if not to_corpus:
            save.mkdir(parents=True, exist_ok=True)
    folder = str(save) if save is not None and not to_corpus else None
    size = parallel.shard_size(games, where.workers, most=500)
    plans = [
        Plan(game.name, how, seed, start, count, folder, to_corpus)
        for start, count in parallel.ranges(games, size)
    ]
    writer = (
        corpus.Writer(save, new=True, force=force, on_wait=on_wait) if to_corpus and save else None
    )
    summing = Summing(how)
    made = _identity(writer.fd) if writer is not None else None
    try:
        with writer if writer is not None else contextlib.nullcontext():
            task = packing.travelling(play_shard, where, len)  # what waits here, packed
            for result in parallel.execute(task, plans, where, lambda i, r: progress(len(r))):
                played = packing.unpacked(result)
                for row in played.rows:
                    summing.add(row)
                if writer is not None:
                    for record in played.records:
                        writer.add(played.part, *record)
    except BaseException:
        if writer is not None and save is not None and writer.games == 0:
            _remove_if(save, made)  # a run that failed leaves no empty corpus behind
        raise
    return summing.summary()


def _identity(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


def _remove_if(path: Path, made: tuple[int, int] | None) -> None:
    """Remove ``path`` if it is still the file this run made (never another writer's)."""
    with contextlib.suppress(OSError):
        info = os.stat(path, follow_symlinks=False)
        if (info.st_dev, info.st_ino) == made:
            os.unlink(path)


class Summing:
    """A run's summary taken one game at a time: sums and counts, never a row per game (a
    million games took 323 MB when their rows were kept for the summary)."""

    def __init__(self, how: Match) -> None:
        self.how = how
        self.wins = [0.0] * len(how.seats)
        self.totals = [0] * len(how.seats)
        self.moves = 0
        self.best: int | None = None
        self.tally = Tally()

    def add(self, row: Row) -> None:
        for w in row.winners:
            self.wins[w] += 1 / len(row.winners)
        for s, score in enumerate(row.scores):
            self.totals[s] += score
        self.moves += row.events
        top = max(row.scores)
        self.best = top if self.best is None else max(self.best, top)
        self.tally.add(row)

    def summary(self) -> Summary:
        count = self.tally.games
        if not count or self.best is None:
            raise ValueError("no game to summarise")
        return Summary(
            games=count,
            match=self.how,
            wins=tuple(self.wins),
            mean_scores=tuple(t / count for t in self.totals),
            mean_moves=self.moves / count,
            best=self.best,
            stats=self.tally.stats(),
        )
