"""A log as one readable transcript of every step, for golden tests and bug reports.

Each step (0: the start) is one block::

    event 12: ann 15-16
      effect: village 3 founded at 16 ...
      digest: 5d41402abc4b2a76b9719d911017c592
      legal moves (3):
        1-2, 1-6, 2-3
      board:
        <the rendered board, as the viewer sees it>

- the event line: its number, the seat that made it and its notation;
- one ``effect:`` line per effect, in order;
- ``digest:`` the state's hash (:func:`tribes.events.codec.state_hash`): any change to the state
  changes it, hidden parts included;
- ``legal moves (N):`` every legal move in notation, in the game's order, wrapped (``none`` when
  the game is over); left out when ``moves`` is false;
- ``board:`` the rendered state, at every step or only at the steps ``boards`` names.

Pinning a log (:mod:`tribes.replay.pytest_plugin`) takes either the whole board at every step, for
an edge case that one reads step by step, or a compact transcript, for a full game or a corpus:
digests and effects at every step, the board at a few steps (by default the start, a quarter,
half-way, three quarters and the end, see :func:`milestones`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tribes.core import views
from tribes.core.engine import Step
from tribes.core.game import EVERYTHING, Game, Viewer
from tribes.events import codec
from tribes.replay import logs
from tribes.replay.consistency import Answer

Boards = Iterable[int] | Mapping[int, str] | Callable[[int], Mapping[int, str]] | None
"""Which steps show the board: every step (None), the steps listed (negative ones count from the
end: -1 is the last), the steps of a mapping, each with the name that the transcript gives it,
or a function of the number of steps that gives such a mapping (:func:`milestones`)."""

WIDTH = 100
"""Columns of a transcript's wrapped lines (the legal moves)."""


def milestones(steps: int) -> dict[int, str]:
    """The named steps of a game of ``steps`` steps (events + 1): the start, a quarter, half-way,
    three quarters and the end (fewer, when some coincide)."""
    last = steps - 1
    named = {0: "start"}
    for num, den, name in ((1, 4, "a quarter"), (1, 2, "half-way"), (3, 4, "three quarters")):
        step = last * num // den
        if 0 < step < last:
            named.setdefault(step, name)
    if last > 0:
        named[last] = "end"
    return named


def _named_boards(boards: Boards, steps: int) -> dict[int, str] | None:
    if boards is None:
        return None
    if callable(boards):
        boards = boards(steps)
    items = boards.items() if isinstance(boards, Mapping) else ((n, "") for n in boards)
    named: dict[int, str] = {}
    for step, name in items:
        index = step + steps if step < 0 else step
        if not 0 <= index < steps:
            raise ValueError(f"step {step} is out of range: the log has steps 0 to {steps - 1}")
        named[index] = name
    return named


def wrap(items: Sequence[str], indent: int, width: int = WIDTH) -> list[str]:
    """``items`` joined by ", " into lines of at most ``width`` columns (an item is never cut)."""
    lines: list[str] = []
    line = ""
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if line and indent + len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    if line:
        lines.append(line)
    return lines


class Transcript(list[str]):
    """A log's transcript, one block per step, and ``rules``: what the running rules say of the
    intact log (:mod:`tribes.replay.consistency`; None: they give the very states its
    checkpoints recorded)."""

    rules: Answer | None = None


def transcript(
    path: Path | str,
    viewer: Viewer = EVERYTHING,
    *,
    boards: Boards = None,
    moves: bool = True,
) -> Transcript:
    """One text block per step (0: the start), as ``viewer`` sees the board, under the running
    rules; raises the log's TribesError (CorruptLog, RulesRefuse, ...) if it cannot be
    replayed. A log the running rules replay to other states than it recorded is no error:
    ``rules`` of the transcript says so."""
    path = Path(path)
    opened = logs.open_log(path)
    steps = logs.steps_of(opened.game, opened.log, path=str(path))
    named = _named_boards(boards, len(steps))
    seats = opened.log.header.seats
    out = Transcript(
        block(
            opened.game,
            seats,
            step,
            viewer,
            board=named is None or step.index in named,
            name=(named or {}).get(step.index, ""),
            moves=moves,
        )
        for step in steps
    )
    out.rules = steps.rules
    return out


def block(
    game: Game[Any],
    seats: Sequence[str],
    step: Step[Any],
    viewer: Viewer = EVERYTHING,
    *,
    board: bool = True,
    name: str = "",
    moves: bool = True,
) -> str:
    """The transcript's block of one step (see the module's documentation)."""
    lines = [f"event {step.index}: {views.seat_name(seats, step)} {views.notation(game, step)}"]
    lines += [f"  effect: {e.describe(seats)}" for e in step.effects]
    lines.append(f"  digest: {codec.state_hash(step.state)}")
    if moves:
        legal = [game.format_move(m) for m in game.legal_moves(step.state)]
        if legal:
            lines.append(f"  legal moves ({len(legal)}):")
            lines += [f"    {line}" for line in wrap(legal, 4)]
        else:
            lines.append("  legal moves: none")
    if board:
        lines.append(f"  board ({name}):" if name else "  board:")
        rendered = game.render(step.state, seats, viewer)
        lines += [f"    {line}" if line else "" for line in rendered.splitlines()]
    return "\n".join(lines)


def text(blocks: Sequence[str]) -> str:
    """The transcript as one text, as a snapshot file holds it: blocks apart by a blank line."""
    return "\n\n".join(blocks) + "\n"


# --- what differs from a snapshot -----------------------------------------------------------------

_BLOCK_START = re.compile(r"\n\n(?=event [0-9]+: )")
_ASPECTS = ("move", "digest", "effects", "legal moves", "board")


def parse(text: str) -> list[dict[str, Any]]:
    """A transcript's text (as :func:`text` writes it) read back: one dict per step, with the
    step's ``index``, its ``move`` line and its ``effects``, ``digest``, ``legal moves`` and
    ``board`` lines (an aspect the transcript leaves out is absent)."""
    out: list[dict[str, Any]] = []
    for chunk in _BLOCK_START.split(text.rstrip("\n")):
        lines = chunk.split("\n")
        head = lines[0]
        found = re.match(r"event ([0-9]+): ", head)
        step: dict[str, Any] = {"index": int(found[1]) if found else len(out), "move": head}
        section = ""
        for line in lines[1:]:
            if line.startswith("  effect: "):
                step.setdefault("effects", []).append(line[len("  effect: ") :])
            elif line.startswith("  digest: "):
                step["digest"] = line[len("  digest: ") :]
            elif line.startswith("  legal moves"):
                section = "legal moves"
                step[section] = [line]
            elif line.startswith("  board"):
                section = "board"
                step[section] = [line]
            elif section:
                step[section].append(line)
        out.append(step)
    return out


def difference(recorded: str, blocks: Sequence[str]) -> str:
    """What a transcript's snapshot (``recorded``, its text) and the transcript now
    (``blocks``) differ in, for the first line of a failure: the event counts then and now, and
    the first step that differs, with its notation and which of its parts differ (the move,
    digest, effects, legal moves, board); then, a line each, those parts then and now."""
    then, now = parse(recorded), parse(text(blocks))
    counts = f"the snapshot has {_events(then)}, the log now {_events(now)}"
    # A board shown on one side only is where the boards fall (compact mode shows them at the
    # quarters of the game's length, which a shorter log moves), not a change of the game: it
    # counts only when the steps agree in everything else.
    for shown_once in (False, True):
        if shown_once and len(then) != len(now):
            break
        for old, new in zip(then, now, strict=False):
            differ = [a for a in _ASPECTS if _differs(old, new, a, shown_once=shown_once)]
            if differ:
                where = _name(new)
                if "move" in differ and where.endswith(")"):
                    where = f"{where[:-1]}; recorded: {_name(old, move_only=True)})"
                verb = "differs" if len(differ) == 1 else "differ"
                first = f"{counts}; the first difference is at {where}: {_listed(differ)} {verb}"
                return "\n".join([first, *_details(old, new, differ)])
    shorter, longer = (now, then) if len(now) < len(then) else (then, now)
    if len(shorter) == len(longer):
        return f"{counts}; every step reads the same (the text differs in its spacing)"
    extra = longer[len(shorter)]
    side = "the snapshot only" if longer is then else "the log only"
    agree = f"; {_events(shorter)} before it read the same" if len(shorter) > 1 else ""
    return f"{counts}; the first difference is at {_name(extra)}, which is in {side}{agree}"


def _differs(old: dict[str, Any], new: dict[str, Any], aspect: str, *, shown_once: bool) -> bool:
    """Whether one part of a step differs. Boards are compared by their lines, whatever they
    are named ("board (a quarter)"); one shown on a side only differs only with ``shown_once``."""
    before, after = old.get(aspect), new.get(aspect)
    if aspect != "board":
        return bool(before != after)
    if before is None or after is None:
        return shown_once and before != after
    return bool(before[1:] != after[1:]) or (shown_once and before != after)


def _events(steps: Sequence[dict[str, Any]]) -> str:
    return views.count(max(len(steps) - 1, 0), "event")


def _name(step: dict[str, Any], *, move_only: bool = False) -> str:
    """``event 5 (ann 3-9)`` from the step's line ``event 5: ann 3-9``; the start is "the
    start"."""
    line: str = step["move"]
    index, _, move = line.partition(": ")
    if move_only:
        return move
    return "the start" if step["index"] == 0 else f"{index} ({move})"


def _listed(aspects: Sequence[str]) -> str:
    words = ["the move" if a == "move" else a for a in aspects]
    if words[0] != "the move":
        words[0] = f"its {words[0]}"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _details(old: dict[str, Any], new: dict[str, Any], aspects: Sequence[str]) -> list[str]:
    """The differing parts of one step, then and now, a short line each (the whole diff
    follows in the failure)."""
    lines = []
    for aspect in aspects:
        before, after = old.get(aspect), new.get(aspect)
        if aspect == "move":
            continue  # on the first line
        if before is None or after is None:
            said = "recorded, not shown now" if after is None else "shown now, not recorded"
            lines.append(f"  {aspect}: {said}")
        elif aspect == "digest":
            lines.append(f"  digest: recorded {before}, now {after}")
        elif aspect == "effects":
            lines += _effects_change(before, after)
        elif aspect == "legal moves":
            lines.append(f"  legal moves: {_moves_change(before, after)}")
        else:
            lines.append(f"  board: {_board_change(before, after)}")
    return lines


def _moves_change(before: list[str], after: list[str]) -> str:
    def moves(lines: list[str]) -> list[str]:
        return [m for line in lines[1:] for m in line.replace(",", " ").split()]

    old, new = moves(before), moves(after)
    gone = [m for m in old if m not in set(new)]
    added = [m for m in new if m not in set(old)]
    said = f"recorded {views.count(len(old), 'move')}, now {len(new)}"
    if gone:
        said += f"; gone: {_clip(', '.join(gone), 60)}"
    if added:
        said += f"; new: {_clip(', '.join(added), 60)}"
    return said if gone or added else said + " (the same moves, in another order)"


def _effects_change(before: list[str], after: list[str]) -> list[str]:
    """The effects of a step then and now: where they differ in a few words only (a score, a
    count), each changed effect once with its words ``then → now``; else both lists."""
    pairs = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    if len(before) != len(after) or any(_inline(old, new) is None for old, new in pairs):
        return [
            f"  effects: recorded {_clip('; '.join(before))}",
            f"           now      {_clip('; '.join(after))}",
        ]
    said = [_clip(_inline(old, new) or new, 160) for old, new in pairs]
    return [f"  effects: {said[0]}", *(f"           {line}" for line in said[1:])]


CHANGED_LINES = 4
"""The changed lines of a board a failure tells (the whole diff follows)."""


def _board_change(before: list[str], after: list[str]) -> str:
    rows = [
        (row, old, new)
        for row, (old, new) in enumerate(zip(before, after, strict=False))
        if old != new
    ]
    if not rows:
        return f"{len(before) - 1} lines recorded, {len(after) - 1} now"
    told = [_inline(old.strip(), new.strip()) for _, old, new in rows[:CHANGED_LINES]]
    if any(line is None for line in told):
        row, old, new = rows[0]
        return f"line {row} was {_clip(old.strip(), 50)!r}, now {_clip(new.strip(), 50)!r}"
    said = [
        f"line {row}: {_clip(line or '', 130)}"
        for (row, _, _), line in zip(rows[:CHANGED_LINES], told, strict=True)
    ]
    more = len(rows) - CHANGED_LINES
    if more > 0:
        said[-1] += f" (and {views.count(more, 'line')} more)"
    return "\n         ".join(said)


_WORDS = re.compile(r"\s+|[^\s,;:()]+|[,;:()]")
"""A line cut into words, spaces and punctuation (a change is told word by word)."""


def _inline(old: str, new: str) -> str | None:
    """``new`` with each changed run of words told ``then → now`` (``+6 → +5``), if the two
    share most of their words; None when they do not (then both are shown whole)."""
    then, now = _WORDS.findall(old), _WORDS.findall(new)
    matcher = difflib.SequenceMatcher(None, then, now, autojunk=False)
    if matcher.ratio() < 0.6:
        return None
    out = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out.append("".join(then[i1:i2]))
        else:
            was, became = "".join(then[i1:i2]).strip(), "".join(now[j1:j2]).strip()
            out.append(f"{was or '(nothing)'} → {became or '(nothing)'}")
    return "".join(out)


def _clip(text: str, width: int = 110) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."
