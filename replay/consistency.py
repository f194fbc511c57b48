"""Do the running rules give the states a log was written with? The second of a log's two
questions (the first, *is this the file that was written?*, is bytes: its commits).

A log that is intact gets one of three answers from :func:`tribes.replay.marks.steps_of`:

- consistent: every recorded checkpoint matches the replayed state (``Steps.rules`` is None);
- :class:`RulesDiffer`: the rules changed since it was written. The first checkpoint whose
  state the replay no longer gives, which top-level parts of the state differ and which agree
  (from the parts' digests a checkpoint of format version 3 records), the rules version the
  log was written under and the running one. The game still replays, under the running rules;
- :class:`MoveRefused`: the running rules refuse one of its events: which, by which rule.

Every command, the cursor and the pytest plugin say these with the same :meth:`line` (a
warning on stderr; ``record()`` in ``--json``). A damaged or tampered log is no answer here:
it is a :class:`~tribes.core.errors.CorruptLog`, as ever.
"""

from __future__ import annotations

from typing import Any

import attrs

from tribes.core.blake2 import blake2b
from tribes.core.errors import TribesError
from tribes.core.game import Game
from tribes.core.reprs import fields_repr
from tribes.events import codec
from tribes.events.model import DIGEST_BYTES, PART_BYTES, Checkpoint

VERIFY_RULES_DIFFER = 3
"""``tribes verify``'s exit status for a log that is intact but that the running rules replay
differently (or refuse a move of): neither 0 (consistent) nor 1 (damaged, tampered, refused)."""


def state_parts(state: Any) -> dict[str, bytes]:
    """Each top-level part of the state's canonical document (by name, sorted) and the first
    PART_BYTES of its digest: what a checkpoint records so that a later replay can name which
    parts of a state differ without the code that wrote it. The document is the state's
    identity (:func:`tribes.events.codec.identity`, fields at their defaults left out), the one
    the state hash covers."""
    return _parts(codec.identity(state))


def _parts(document: Any) -> dict[str, bytes]:
    if not isinstance(document, dict):
        document = {"state": document}
    return {
        str(name): blake2b(
            codec.pack(document[name]), digest_size=PART_BYTES, person=b"tribes-part"
        ).digest()
        for name in sorted(document, key=str)
    }


def state_digest(state: Any) -> bytes:
    """The first DIGEST_BYTES of the state hash: what a checkpoint records of a state."""
    return bytes.fromhex(codec.state_hash(state))[:DIGEST_BYTES]


def checkpoint_of(game: Game[Any], events: int, state: Any) -> Checkpoint:
    """The checkpoint of format version 3 of ``state``, after ``events`` events, recorded
    under the running rules (their version, and the outcome once the game is over). The
    state's identity is walked once, for its digest (:func:`state_digest`) and its parts."""
    document = codec.identity(state)
    parts = _parts(document)
    digest = blake2b(codec.pack(document), digest_size=16).digest()[:DIGEST_BYTES]
    outcome = None
    if game.is_over(state):
        result = game.outcome(state)
        outcome = (tuple(result.scores), tuple(result.winners))
    return Checkpoint(
        events,
        digest,
        tuple(parts),
        b"".join(parts.values()),
        game.rules_version,
        outcome,
    )


def parts_compared(
    game: Game[Any], recorded: Checkpoint, state: Any
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The parts of ``state`` that differ from those ``recorded`` and those that agree, by
    name: a part only one of them has differs. A checkpoint without parts (format version 2)
    names none. A checkpoint recorded at the end of a game also holds its outcome: ``scores``
    and ``winners`` are named among the parts when the running rules end it otherwise (a
    reviewer's first question; a game that does not end there any more differs in both)."""
    if not recorded.names:
        return (), ()
    then = recorded.part_digests()
    now = state_parts(state)
    names = sorted(set(then) | set(now))
    differ = [n for n in names if then.get(n) != now.get(n)]
    agree = [n for n in names if then.get(n) == now.get(n)]
    if recorded.outcome is not None:
        over = game.is_over(state)
        result = game.outcome(state) if over else None
        for name, was, is_now in (
            ("scores", recorded.outcome[0], tuple(result.scores) if result else None),
            ("winners", recorded.outcome[1], tuple(result.winners) if result else None),
        ):
            (agree if was == is_now else differ).append(name)
    return tuple(sorted(differ)), tuple(sorted(agree))


def _versions(game: str, written_under: int, running: int) -> str:
    if written_under == running:
        return (
            f"written under {game} rules version {written_under}, the running one "
            "(the rules changed without a new version)"
        )
    return f"written under {game} rules version {written_under}, running version {running}"


@attrs.frozen(kw_only=True)
class RulesDiffer:
    """An intact log that the running rules replay to other states than it recorded: after
    event ``event`` (its first checkpoint that differs; ``agreed`` the checkpoint before it
    that still agrees, None if none) the ``parts`` of the state differ and ``agree`` agree."""

    game: str
    event: int
    parts: tuple[str, ...]
    agree: tuple[str, ...]
    written_under: int
    running: int
    agreed: int | None = None

    __repr__ = fields_repr

    def line(self, shown: bool = True) -> str:
        """The answer in one line (``shown``: a warning of a command that shows the game, under
        the running rules)."""
        where = f"after event {self.event}"
        if self.agreed is None and self.event > 1:
            where += " (its first checkpoint)"
        elif self.agreed is not None and self.agreed < self.event - 1:
            where += f" (its checkpoint after event {self.agreed} agrees)"
        if self.parts:
            which = f"differ: {', '.join(self.parts)}"
            if self.agree:
                which += f"; agree: {', '.join(self.agree)}"
        else:
            which = "its checkpoints record no parts (format version 2)"
        return (
            f"intact, rules differ: the running rules give another state {where} than the log "
            f"recorded ({which}); {_versions(self.game, self.written_under, self.running)}"
            + ("; shown under the running rules" if shown else "")
        )

    def record(self) -> dict[str, Any]:
        """The answer as a JSON field (``--json``)."""
        return {
            "answer": "rules differ",
            "event": self.event,
            "agreed": self.agreed,
            "parts": list(self.parts),
            "agree": list(self.agree),
            "written_under": self.written_under,
            "running": self.running,
        }


@attrs.frozen(kw_only=True)
class MoveRefused:
    """An intact log one of whose events the running rules refuse: event ``event`` (``move``
    in notation), ``reason`` and ``rule`` (its id, if the rules name one)."""

    game: str
    event: int
    move: str
    reason: str
    rule: str | None
    written_under: int
    running: int
    ended: bool = False
    """Whether the running rules end the game before the event (a move after the end): a fork
    there keeps the game as they end it, with nothing to play on."""

    __repr__ = fields_repr

    def line(self, path: str = "LOG") -> str:
        rule = f" ({self.rule})" if self.rule else ""
        fork = f"'tribes fork {path} --at {self.event} -o NEW'"
        then = (
            f"the running rules end the game after event {self.event - 1} ({fork} keeps it so)"
            if self.ended
            else f"the game stops after event {self.event - 1} ({fork} plays on from there)"
        )
        return (
            f"intact, but the running rules refuse event {self.event} ('{self.move}'): "
            f"{self.reason}{rule}; {_versions(self.game, self.written_under, self.running)}; "
            f"{then}"
        )

    def record(self) -> dict[str, Any]:
        return {
            "answer": "move refused",
            "event": self.event,
            "move": self.move,
            "reason": self.reason,
            "rule": self.rule,
            "written_under": self.written_under,
            "running": self.running,
            "ended": self.ended,
        }


class RulesRefuse(TribesError):
    """A command that needs every event of an intact log met one the running rules refuse
    (``refused`` says which)."""

    def __init__(self, refused: MoveRefused, path: str | None) -> None:
        self.refused = refused
        self.path = path
        line = refused.line(path or "LOG")
        super().__init__(line if path is None else f"{path}: {line}")


Answer = RulesDiffer | MoveRefused


def answer_of(game: str, record: dict[str, Any]) -> Answer:
    """An answer from its ``record()`` (what a worker sends back) and its game's name."""
    fields = {k: v for k, v in record.items() if k != "answer"}
    if record["answer"] == "move refused":
        return MoveRefused(game=game, **fields)
    fields["parts"], fields["agree"] = tuple(fields["parts"]), tuple(fields["agree"])
    return RulesDiffer(game=game, **fields)


class Watch:
    """The second question asked along a replay a command makes anyway (``find``,
    ``coverage``): each checkpoint of format version 3 the log recorded compared with the state
    the running rules give there (:meth:`at`, cheap away from a checkpoint), and an event they
    refuse turned into the answer (:meth:`refuse`). ``answer`` is None while consistent. A log
    without such checkpoints (version 1 or 2, or built in memory) is not asked."""

    __slots__ = ("_log", "_marks", "agreed", "answer", "game", "last")

    def __init__(self, game: Game[Any], log: Any) -> None:
        self.game = game
        self._log = log
        self._marks = {c.events: c for c in log.checkpoints if c.rules}
        self.last = max(self._marks, default=-1)
        """The last event a checkpoint follows (-1: none): a replay cut short may go on to it."""
        self.agreed: int | None = None
        self.answer: Answer | None = None

    def at(self, index: int, state: Any) -> None:
        """The state after event ``index`` (0: the start) under the running rules."""
        mark = self._marks.get(index)
        if mark is None or self.answer is not None:
            return
        if state_digest(state) == mark.digest:
            self.agreed = index
            return
        differ, agree = parts_compared(self.game, mark, state)
        self.answer = RulesDiffer(
            game=self.game.name,
            event=index,
            parts=differ,
            agree=agree,
            written_under=mark.rules,
            running=self.game.rules_version,
            agreed=self.agreed,
        )

    def refuse(
        self, reason: str, rule: str | None, move: str, index: int, *, ended: bool = False
    ) -> bool:
        """Whether an event the running rules refuse (``index``, ``move`` in notation) is the
        answer (the log recorded checkpoints: it is intact, written under other rules) rather
        than an error; it then is."""
        if not self._marks:
            return False
        recorded = [c.rules for c in self._log.checkpoints if c.rules]
        self.answer = MoveRefused(
            game=self.game.name,
            event=index,
            move=move,
            reason=reason,
            rule=rule,
            written_under=recorded[-1] if recorded else self._log.header.rules_version,
            running=self.game.rules_version,
            ended=ended,
        )
        return True


def answer_line(answer: Answer, path: str, shown: bool = True) -> str:
    """An intact log's answer in one line, ``path`` named in what it suggests."""
    return answer.line(path) if isinstance(answer, MoveRefused) else answer.line(shown)


def warning(answer: Answer | None, path: str) -> str | None:
    """The warning line a command prints for an intact log's answer (None: consistent)."""
    if answer is None:
        return None
    return f"warning: {path}: {answer_line(answer, path)}"


__all__ = [
    "VERIFY_RULES_DIFFER",
    "Answer",
    "MoveRefused",
    "RulesDiffer",
    "RulesRefuse",
    "Watch",
    "answer_line",
    "answer_of",
    "checkpoint_of",
    "parts_compared",
    "state_digest",
    "state_parts",
    "warning",
]
