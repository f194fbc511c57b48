"""Checking the games of a corpus (the task of ``verify`` and ``stats``), each with the two
questions a log has. Format version 3: is it intact (its digest over its header, events, annex
and checkpoints as recorded: bytes, checked as it is read), then do the running rules give the
states it recorded (its checkpoints compared as it replays: consistent, rules differ, or a move
they refuse). Versions 1 and 2: every event legal and the digest matching its header, events,
annex and the state it reaches, so there a rule change and an altered game look alike."""

from __future__ import annotations

from typing import Any

import attrs

from tribes.core import views
from tribes.core.errors import CorruptLog, GameOver, IllegalMove, TribesError
from tribes.core.game import Game
from tribes.events import codec
from tribes.events import corpus as fmt
from tribes.events.logfile import Checkpoint, GameLog
from tribes.replay import stats as stats_
from tribes.replay.consistency import (
    Answer,
    MoveRefused,
    RulesDiffer,
    answer_line,
    parts_compared,
    state_digest,
)
from tribes.replay.corpus.reader import (
    Chunk,
    Decoder,
    older_digest_differs,
    older_digest_matches,
    raw_of,
)
from tribes.replay.marks import written_under
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
    rules: Answer | None = None
    """What the running rules say of an intact game of version 3 (None: consistent)."""

    def line(self, path: str) -> str:
        if self.error is not None:
            return f"FAIL  {self.error}"
        over = "over" if self.over else "in progress"
        where = f"{path}#{self.number}"
        text = (
            f"{where}: {self.game}, {views.count(self.events, 'event')}, {over}, "
            f"state {self.state[:16]}"
        )
        if self.rules is None:
            return f"ok    {text}"
        return f"RULES {text}; {answer_line(self.rules, where, shown=False)}"


def check(
    game: Game[Any],
    log: GameLog,
    raw: fmt.RawGame,
    path: str,
    k: int,
    part: bytes,
    annex: bytes = b"",
) -> Checked:
    """Replay one game: a game of version 3 (found intact as it was read) with its
    checkpoints compared, ``rules`` the answer; an older one with every event legal and its
    digest matching its header, events, annex and the state reached. Raises a TribesError
    naming the game."""
    head = log.header
    state = game.setup(head)
    first = game.to_move(state)
    marks = {c.events: c for c in log.checkpoints}
    rules: Answer | None = None
    agreed: int | None = None
    apply = game.apply  # the reducer itself: a corpus needs no step records
    for index in range(len(log.events) + 1):
        if index:
            event = log.events[index - 1]
            try:
                state, _ = apply(state, event)
            except IllegalMove as exc:
                if not marks:
                    moved = exc.at(game.format_move(event), index)
                    raise moved.within(f"{path}#{k + 1}") from None
                rules = refused(game, log, exc, game.format_move(event), index)
                break
        mark = marks.get(index)
        if mark is not None and rules is None:
            if state_digest(state) == mark.digest:
                agreed = index
            else:
                rules = differ(game, mark, state, agreed)
    if not marks and not older_digest_matches(part, raw, annex, state):
        raise older_digest_differs(path, k, upgrade=False)
    outcome = game.outcome(state)
    over = game.is_over(state) and not isinstance(rules, MoveRefused)
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
    events = len(log.events)
    return Checked(k + 1, game.name, events, over, codec.state_hash(state), row, rules=rules)


def differ(game: Game[Any], mark: Checkpoint, state: Any, agreed: int | None) -> RulesDiffer:
    """The answer for a game whose state after ``mark.events`` events is not the recorded
    one: which parts differ, the rules versions then and now."""
    parts, agree = parts_compared(game, mark, state)
    return RulesDiffer(
        game=game.name,
        event=mark.events,
        parts=parts,
        agree=agree,
        written_under=mark.rules,
        running=game.rules_version,
        agreed=agreed,
    )


def refused(game: Game[Any], log: GameLog, exc: IllegalMove, move: str, index: int) -> MoveRefused:
    """The answer for a game one of whose events (``index``) the running rules refuse."""
    return MoveRefused(
        game=game.name,
        event=index,
        move=move,
        reason=exc.reason,
        rule=exc.rule,
        written_under=written_under(log),
        running=game.rules_version,
        ended=isinstance(exc, GameOver),
    )


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
