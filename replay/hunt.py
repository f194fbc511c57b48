"""``tribes hunt``: steer play toward a step where an expression holds, instead of waiting for it.

The expression is the language of ``find`` and ``shrink``; :mod:`tribes.replay.distance` gives
each step of a game its distance from holding (0: it holds). The search plays **playouts**
(a game played from its start, or from part of an earlier one, to the step where the expression
holds or to the end) and keeps the closest ones:

- a playout starts afresh (a new game seed: the game's chance steered by restarts), or, most of
  the time, from one of the **closest games kept** (a pool of the ``POOL`` closest, the nearer
  more often): that game's seed and its events up to a point a little before its closest step,
  so that play around the near miss is tried again differently;
- at each turn it plays the move that brings the next step closest (of a sample of the legal
  moves, each applied and measured; for an expression that reads ``scores``, with the game's
  provisional scores weighed in, ``Guide.steered``), or, at other turns, a move at random, in a
  proportion drawn for each playout: the guide where it has something to say, the randomness that finds what one
  step of look-ahead cannot see. An expression that reads only what the event did (its effects,
  ``move``) is played at random from the near misses alone: its distance starts afresh at each
  event, and the move closest now spends the board a rarer event needs;
- the closest step of each playout and the events leading to it join the pool; of steps as close,
  the latest, for an expression that reads the state (``over and max(scores) == min(scores)`` is
  as close, 1, at the start, where every score is 0, as at the end of a game one point short of a
  tie: the earliest would send every playout back to the start).

Work goes in rounds of **lanes**: with ``--jobs N`` N lanes search side by side (each with its own
draws and its own pool, :mod:`tribes.replay.parallel`), a round being ``ROUND`` playouts of each.
Everything a lane draws comes from the hunt's seed, its lane and its round, so the same seed, job
count and number of games give the same games and the same find; a budget of seconds decides
only how many rounds run (a round still under way when the time is up stops at its next playout).
The first lane (by number) that found in a round gives the find.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from tribes import games as games_
from tribes.core.errors import IllegalMove, TribesError
from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.header import Header
from tribes.core.prng import Stream
from tribes.events.logfile import GameLog
from tribes.replay import logs, parallel
from tribes.replay.distance import Guide, guide
from tribes.replay.parallel import Where
from tribes.replay.query import at_step
from tribes.replay.simulate import Match

POOL = 16
"""How many of the closest games a lane keeps to start playouts from."""
ROUND = 8
"""Playouts of each lane between two looks at the budget (and at the other lanes)."""


@attrs.frozen
class Tactics:
    """How a lane plays: in a playout ``greedy`` in 100 turns take the move closest of ``sample``
    legal moves, the others one at random, ``greedy`` being one of ``greedy_levels`` drawn for
    each playout (a portfolio: the guide helps where the expression sees progress, random play
    where the case needs the board to ripen); ``resume`` in 100 playouts start from a kept game,
    cut back by up to ``back`` events before its closest step (measured on Clans, a three-way
    tie, seeds 1-5: levels (0, 50, 90) and 8 events back, 259, 3, 49, 52, 63 games; (50, 90,
    100) and 16 back, 9, 3, 2, 99, 2; a score of 65: 181, 196, 94, 69, 291 and 115, 68, 89, 194,
    129; with the provisional scores, seeds 1-3, 16 and 32 back: the Clans tie 9, 78, 139 and 9,
    54, 60, a score of 65 18, 176, 55 and 6, 33, 54, Hunters' every seat 30 52, 34, 1 and 8, 28,
    1, its 70 points 3, 9, 41 and 3, 9, 6; a sample of 16 moves with 32 back, no better: 34, 31,
    35 and 51, 38, 40 for the Clans tie and 65 points, at twice the CPU a turn)."""

    greedy_levels: tuple[int, ...] = (50, 90, 100)
    event_levels: tuple[int, ...] = (0,)
    """The levels of an expression that reads only what the event did (its effects, ``move``):
    each event's distance starts from nothing, and playing the move closest now spends the
    board that a rarer event needs (measured: Clans' four villages in one move on a board that
    allows them, found in 37 to 1,763 games at random from near misses, in none of 3,000 with
    the portfolio)."""
    sample: int = 8
    resume: int = 75
    back: int = 32
    event_back: int = 8
    """``back`` for an expression that reads only what the event did."""
    ahead: int = 0
    """With more than 0, a greedy turn weighs each sampled move by the closest step of up to
    ``ahead`` moves after it (two steps of look-ahead), not by its own step."""
    provisional: int = 50
    """For an expression that reads ``scores``: the weight in 100 of its distance with the
    game's provisional scores (``Game.provisional``) in the distance a turn steers by (the
    closest step of a playout, kept in the pool, is by the expression's own distance).
    Measured, seeds 1-3: with 50, Iwari's tie, 55 points and every seat 40 found in 1 or 2
    games (68 to > 500 without); a bandit over the weights 0 and 50 (UCB1, a playout rewarded
    when it joined the closer half of the pool) in 1 to 11; weights 25 and 75, and a
    portfolio of 0, 50 and 100 drawn for each playout, no better in Clans (the tie: 32, 123,
    32; 26, 7, 101; 306, 36, 34)."""


@attrs.frozen
class Near:
    """A game and how close it came: ``events`` lead from the start of seed ``seed`` to its
    closest step, whose distance is ``distance`` (0: the expression holds there)."""

    distance: float
    seed: int
    events: tuple[Event, ...]


@attrs.frozen
class Lane:
    """One lane's round (the task a worker runs)."""

    game: str
    header: Header
    until: str
    seed: int
    lane: int
    round: int
    playouts: int
    pool: tuple[Near, ...] = ()
    tactics: Tactics = Tactics()
    deadline: float | None = None
    """The wall-clock time (``time.time()``) after which no playout starts."""


@attrs.frozen
class Done:
    """What a lane's round gave: the playouts it played, its pool after them (closest first),
    and the game where the expression holds, if one did."""

    played: int
    pool: tuple[Near, ...]
    found: Near | None = None


def run_lane(lane: Lane) -> Done:
    """Play one lane's round."""
    _leave_interrupts_to_the_parent()
    game = games_.get(lane.game)
    searcher = _Searcher(game, lane.header, guide(game, lane.header, lane.until), lane.tactics)
    draws = Stream(lane.seed, f"hunt-{lane.lane}-{lane.round}")
    pool = list(lane.pool)
    played = 0
    for _ in range(lane.playouts):
        if lane.deadline is not None and time.time() >= lane.deadline:
            break
        near = searcher.playout(draws, pool)
        played += 1
        if near.distance == 0:
            return Done(played, tuple(pool), near)
        _keep(pool, near)
    return Done(played, tuple(pool))


def _leave_interrupts_to_the_parent() -> None:
    """In a worker process, Ctrl-C is ignored: the terminal sends it to the whole process group,
    and the hunt (the parent) stops the search, lets the workers finish their round and keeps
    the closest game; a worker interrupted on its own would only print a traceback."""
    if (
        multiprocessing.parent_process() is not None
        and threading.current_thread() is threading.main_thread()
    ):
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _noted() -> Iterator[list[bool]]:
    """Ctrl-C noted, not raised, while the hunt runs (in the main thread): its flag is read
    between rounds. A KeyboardInterrupt raised wherever the signal lands (inside the pool's
    wait for a round, or in :func:`_held` between blocking the signal and its ``try``) could
    leave the signal blocked and the pool waiting on a lost round: the hunt hung there, one
    time in three under load."""
    said = [False]
    if threading.current_thread() is not threading.main_thread():
        yield said
        return

    def note(_signal: int, _frame: object) -> None:
        said[0] = True

    previous = signal.signal(signal.SIGINT, note)
    try:
        yield said
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _held() -> Iterator[None]:
    """Ctrl-C held back while a round runs (or a cluster starts): a worker started meanwhile
    inherits the held signal and drops it (:func:`_leave_interrupts_to_the_parent`), so that it
    never dies of a Ctrl-C before it could ignore it; the hunt takes it when the round is over
    (a round is a few playouts a lane), keeps the round's closest game and stops."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _keep(pool: list[Near], near: Near) -> None:
    """``near`` in the pool, closest first (a newer game before an older one as close, the
    farthest out when it is full)."""
    at = next((i for i, kept in enumerate(pool) if kept.distance >= near.distance), len(pool))
    pool.insert(at, near)
    del pool[POOL:]


class _Searcher:
    def __init__(self, game: Game[Any], header: Header, guide: Guide, tactics: Tactics) -> None:
        self.game = game
        self.header = header
        self.guide = guide
        self.tactics = tactics

    def measure(
        self, header: Header, index: int, state: Any, event: Event, effects: Any
    ) -> tuple[float, float]:
        """The distance the search steers by at a step, and the expression's own."""
        doc = at_step(self.game, header, index, state, event, effects)
        plain = self.guide.distance(doc)
        if not (plain and self.guide.reads_scores and self.tactics.provisional):
            return plain, plain
        provisional = self.game.provisional(state)
        scores = dict(zip(header.seats, provisional.scores, strict=True))
        scores.update(provisional.others)
        return self.guide.steered(doc, scores, self.tactics.provisional / 100), plain

    def start(self, draws: Stream, pool: Sequence[Near]) -> tuple[int, list[Event]]:
        """The seed and first events of the next playout."""
        tactics = self.tactics
        if pool and draws.below(100) < tactics.resume:
            kept = pool[min(draws.below(len(pool)), draws.below(len(pool)))]  # nearer, oftener
            back = tactics.back if self.guide.reads_state else tactics.event_back
            cut = max(0, len(kept.events) - 1 - draws.below(back))
            return kept.seed, list(kept.events[:cut])
        return draws.next_word() & logs.MAX_SEED, []

    def playout(self, draws: Stream, pool: Sequence[Near]) -> Near:
        """One game, from the start or from part of a kept one, to where the expression holds
        or to the end: its closest step."""
        game, tactics = self.game, self.tactics
        seed, events = self.start(draws, pool)
        levels = tactics.greedy_levels if self.guide.reads_state else tactics.event_levels
        greedy = levels[draws.below(len(levels))]
        later = self.guide.reads_state
        header = attrs.evolve(self.header, seed=seed)
        state = game.setup(header)
        for event in events:
            state, _ = game.apply(state, event)
        best, best_at = float("inf"), len(events)
        legal_moves, apply = game.legal_moves, game.apply
        while True:
            moves = legal_moves(state)
            if not moves:
                break
            index = len(events) + 1
            if greedy and len(moves) > 1 and draws.below(100) < greedy:
                move, after, effects, steer = self.closest(header, index, state, moves, draws)
            else:
                move = moves[draws.below(len(moves))]
                after, effects = apply(state, move)
                steer = self.measure(header, index, after, move, effects)
            distance = steer[1]
            events.append(move)
            state = after
            if distance < best or (later and distance == best):
                best, best_at = distance, len(events)
                if distance == 0:
                    break
        return Near(best, seed, tuple(events[:best_at]))

    def closest(
        self, header: Header, index: int, state: Any, moves: Sequence[Event], draws: Stream
    ) -> tuple[Event, Any, Any, tuple[float, float]]:
        """Of a sample of ``moves`` (in a random order: the first of the closest wins a tie),
        the one whose step is closest, its state, effects and distances (:meth:`measure`)."""
        sample = self.tactics.sample
        count = len(moves)
        picks = (
            range(count) if count <= sample else sorted({draws.below(count) for _ in range(sample)})
        )
        offset = draws.below(count)
        best: tuple[Event, Any, Any, tuple[float, float]] | None = None
        best_score = float("inf")
        for pick in picks:
            move = moves[(pick + offset) % count]
            after, effects = self.game.apply(state, move)
            distances = self.measure(header, index, after, move, effects)
            if distances[1] == 0:
                return move, after, effects, distances
            score = (
                distances[0]
                if not self.tactics.ahead
                else self.potential(header, index + 1, after, draws)
            )
            if best is None or score < best_score:
                best, best_score = (move, after, effects, distances), score
        assert best is not None
        return best

    def potential(self, header: Header, index: int, state: Any, draws: Stream) -> float:
        """The closest step one move after ``state`` (of up to ``ahead`` of its moves)."""
        moves = self.game.legal_moves(state)
        count = len(moves)
        if not count:
            return float("inf")
        ahead = self.tactics.ahead
        picks = range(count) if count <= ahead else [draws.below(count) for _ in range(ahead)]
        best = float("inf")
        for pick in picks:
            move = moves[pick]
            after, effects = self.game.apply(state, move)
            best = min(best, self.measure(header, index, after, move, effects)[0])
            if best == 0:
                break
        return best


# --- the hunt -------------------------------------------------------------------------------------


@attrs.frozen
class Budget:
    """At most ``games`` playouts, or ``seconds`` of wall-clock time."""

    games: int | None = None
    seconds: float | None = None

    def words(self) -> str:
        if self.games is not None:
            return f"{self.games:,} {'game' if self.games == 1 else 'games'}"
        return f"{self.seconds:g} s"


@attrs.frozen
class Outcome:
    """How a hunt ended: the game where the expression holds (``found``), else the closest one;
    the playouts and seconds it took; whether it was interrupted."""

    closest: Near | None
    games: int
    seconds: float
    found: bool
    header: Header
    """The header of every game of the hunt (each playout's seed aside)."""
    interrupted: bool = False

    def log(self) -> GameLog | None:
        """The closest game (the found one) as a log: the hunt's header with its seed."""
        if self.closest is None:
            return None
        head = attrs.evolve(self.header, seed=self.closest.seed)
        return GameLog(header=head, events=self.closest.events)


Progress = Callable[[int, float], None]
"""Told the playouts so far and the closest distance so far."""


def prepare(game: Game[Any], how: Match, until: str, *, seed: int) -> Header:
    """The header of the hunt's games (its meta names the hunt), once ``until`` is checked: a
    bad expression is a usage error, one that holds at the start a refusal (no event makes it
    happen, nothing to hunt)."""
    meta = {"hunt": {"until": until, "seed": seed}}
    header = logs.header(
        game, seats=how.seats, seed=seed, options=how.options, position=how.position, meta=meta
    )
    checked = guide(game, header, until)
    start = game.setup(header)
    if checked.holds(at_step(game, header, 0, start, None, game.setup_effects(header, start))):
        raise TribesError(f"'{until}' holds at the start: no event makes it happen")
    return header


def hunt(
    game: Game[Any],
    header: Header,
    until: str,
    *,
    budget: Budget,
    where: Where | None = None,
    tactics: Tactics = Tactics(),
    progress: Progress = lambda games, distance: None,
) -> Outcome:
    """Search for a game of ``header`` (each playout's seed aside; from :func:`prepare`) in
    which ``until`` holds at an event (see the module)."""
    where = where or Where()
    seed = header.seed
    began = time.perf_counter()
    deadline = None if budget.seconds is None else time.time() + budget.seconds
    lanes = where.workers
    pools: list[tuple[Near, ...]] = [() for _ in range(lanes)]
    played = 0
    closest: Near | None = None
    found: Near | None = None
    interrupted = False
    try:
        with _noted() as stopped, contextlib.ExitStack() as stack:
            with _held():  # a cluster's workers start
                place = stack.enter_context(parallel.kept(where))
            for number in range(1_000_000_000):
                if stopped[0]:
                    interrupted = True
                    break
                left = None if budget.games is None else budget.games - played
                if left is not None and left <= 0:
                    break
                if deadline is not None and time.time() >= deadline:
                    break
                shares = _shares(left, lanes)
                tasks = [
                    Lane(game.name, header, until, seed, i, number, n, pools[i], tactics, deadline)
                    for i, n in enumerate(shares)
                ]
                with _held():
                    dones = list(parallel.execute(run_lane, tasks, place))
                for i, done in enumerate(dones):
                    played += done.played
                    pools[i] = done.pool
                    for near in (done.found, *done.pool[:1]):
                        if near is not None and (
                            closest is None or near.distance < closest.distance
                        ):
                            closest = near
                    if done.found is not None and found is None:
                        found = done.found
                    progress(played, closest.distance if closest else float("inf"))
                if found is not None:
                    break
            interrupted = interrupted or stopped[0]
    except KeyboardInterrupt:  # before the hunt noted Ctrl-C itself
        interrupted = True
    took = time.perf_counter() - began
    _check_log(game, header, found)
    return Outcome(found or closest, played, took, found is not None, header, interrupted)


def _shares(left: int | None, lanes: int) -> list[int]:
    """The playouts of each lane this round: ``ROUND``, fewer when the budget is nearly spent."""
    if left is None or left >= ROUND * lanes:
        return [ROUND] * lanes
    return [left // lanes + (1 if i < left % lanes else 0) for i in range(lanes)]


def _check_log(game: Game[Any], header: Header, found: Near | None) -> None:
    """The found game replays, every event legal (a search bug would show here, not in a log)."""
    if found is None:
        return
    state = attrs.evolve(header, seed=found.seed)
    current = game.setup(state)
    for index, event in enumerate(found.events, start=1):
        try:
            current, _ = game.apply(current, event)
        except IllegalMove as exc:  # pragma: no cover - a bug of the search
            raise exc.at(game.format_move(event), index) from None
