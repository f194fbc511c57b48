"""``tribes find``: every game and event of many games where an expression holds.

The expression is the bisect language (:mod:`tribes.replay.query`) read at each step: the
``show --json`` document after the event (built only when the expression reads a field of it),
the event in notation (``move``) and its effects by type (``len(VillageFounded) >= 2``). Each
game is replayed once, in shards (:mod:`tribes.replay.sweep`), and the expression evaluated at
its steps only.
"""

from __future__ import annotations

from typing import Any

import attrs

from tribes.core.errors import GameOver, IllegalMove
from tribes.core.game import Game
from tribes.events.logfile import GameLog
from tribes.replay.consistency import Answer, Watch
from tribes.replay.query import Query, at_step, step_query


@attrs.frozen
class Match:
    """A step where the expression holds: event ``event`` (0: the start), its notation."""

    event: int
    move: str | None


@attrs.frozen
class Found:
    """One game's matches (the first only with ``first``) and how many events it has;
    ``rules``: what the running rules say of an intact log written under others (None:
    consistent), the game searched under the running rules (up to an event they refuse)."""

    matches: tuple[Match, ...]
    events: int
    rules: Answer | None = None
    absent: frozenset[str] = frozenset()
    """With no match: the paths of the expression in no step of the game (read as null there):
    ``scores[5]`` of a game of three seats, ``track.pink``."""


@attrs.define
class Finder:
    """The visit of ``find``: a game's steps where ``where`` holds (the expression is parsed
    once per game in each worker)."""

    where: str
    first: bool = False
    queries: dict[str, Query] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    def query(self, game: Game[Any], log: GameLog) -> Query:
        query = self.queries.get(game.name)
        if query is None:
            query = self.queries[game.name] = step_query(game, log.header, self.where)
        return query

    def __call__(self, name: str, game: Game[Any], log: GameLog) -> Found:
        query = self.query(game, log)
        header = log.header
        state = game.setup(header)
        watch = Watch(game, log)
        watch.at(0, state)
        found: list[Match] = []
        absent = {text for text, _ in query.paths}
        doc = at_step(game, header, 0, state, None, game.setup_effects(header, state))
        if query.holds(doc):
            found.append(Match(0, None))
        elif absent:
            absent &= query.missing(doc)
        apply, move = game.apply, game.format_move
        for index, event in enumerate(log.events, start=1):
            done = found and self.first
            if done and (watch.answer is not None or index > watch.last):
                break  # (the checkpoints still ahead are compared first)
            try:
                state, effects = apply(state, event)
            except IllegalMove as exc:
                if watch.refuse(
                    exc.reason, exc.rule, move(event), index, ended=isinstance(exc, GameOver)
                ):
                    break
                raise exc.at(move(event), index) from None
            watch.at(index, state)
            if done:
                continue
            doc = at_step(game, header, index, state, event, effects)
            if query.holds(doc):
                found.append(Match(index, move(event)))
            elif absent and not found:
                absent &= query.missing(doc)
        unread = frozenset() if found else frozenset(absent)
        return Found(tuple(found), len(log.events), watch.answer, unread)
