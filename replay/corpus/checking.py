"""Checking the games of a corpus: each replayed, every event legal, its digest matching its
header, events, annex and the state it reaches (the task of ``verify`` and ``stats``)."""

from __future__ import annotations

import attrs

from tribes.core import views
from tribes.core.errors import CorruptLog, IllegalMove, TribesError
from tribes.core.game import Game
from tribes.events import codec
from tribes.events import corpus as fmt
from tribes.events.corpus import CorruptCorpus
from tribes.events.logfile import GameLog
from tribes.replay import stats as stats_
from tribes.replay.corpus.reader import Chunk, Decoder, raw_of
from tribes.replay.stats import Row


@attrs.frozen
class Checked:
    """What replaying one game of a corpus found: ``error`` is None when it verified."""

    number: int
    """From 1."""
    game: str
    events: int
    over: bool
    state: str
    row: Row | None
    error: str | None = None

    def line(self, path: str) -> str:
        if self.error is not None:
            return f"FAIL  {self.error}"
        over = "over" if self.over else "in progress"
        return (
            f"ok    {path}#{self.number}: {self.game}, {views.count(self.events, 'event')}, {over}, "
            f"state {self.state[:16]}"
        )


def check(
    game: Game,
    log: GameLog,
    raw: fmt.RawGame,
    path: str,
    k: int,
    part: bytes,
    annex: bytes = b"",
) -> Checked:
    """Replay one game: every event legal, the digest matching its header, events, annex and
    the state reached. Raises a TribesError naming the game."""
    head = log.header
    state = game.setup(head)
    first = game.to_move(state)
    apply = game.apply  # the reducer itself: a corpus needs no step records, only the end
    for index, event in enumerate(log.events, start=1):
        try:
            state, _ = apply(state, event)
        except IllegalMove as exc:
            moved = exc.at(game.format_move(event), index)
            raise moved.within(f"{path}#{k + 1}") from None
    full = codec.legacy_state_hash(state)  # what format version 2 mixes into its digest
    if fmt.game_digest(part, raw.seed, raw.events, full, annex) != raw.digest:
        raise CorruptCorpus(
            "its digest does not match its header, events, tags and notes and replayed state "
            "(the game was altered, or the rules changed since it was written)",
            path=path,
            game=k + 1,
        )
    outcome = game.outcome(state)
    over = game.is_over(state)
    row = (
        Row(
            seats=head.seats,
            bots=stats_.bots_of(head.seats, head.meta),
            scores=outcome.scores,
            winners=outcome.winners,
            events=len(log.events),
            first=first if first is not None else 0,
        )
        if over
        else None
    )
    return Checked(k + 1, game.name, len(log.events), over, codec.state_hash(state), row)


def check_chunk(chunk: Chunk) -> list[Checked]:
    """Every game of a chunk checked (the task of ``verify`` and ``stats`` on a corpus); a
    damaged game is a failed entry, and the rest are still checked."""
    out: list[Checked] = []
    decoder = Decoder(chunk.path, chunk.parts, chunk.annexes)
    for i, at in enumerate(chunk.offsets):
        k = chunk.first + i
        try:
            raw = raw_of(chunk, i)
            game, log = decoder.log(raw, k, at)
            part = decoder.part_bytes(raw.part)
            out.append(check(game, log, raw, chunk.path, k, part, decoder.annex(raw)))
        except (TribesError, CorruptLog) as exc:
            message = exc.message if chunk.path in exc.message else f"{chunk.path}: {exc.message}"
            out.append(Checked(k + 1, "?", 0, False, "", None, message))
    return out
