"""A log as one readable transcript of every step, for golden tests and bug reports: each step's
event, seat, effects, number of legal moves and rendered board."""

from __future__ import annotations

from pathlib import Path

from tribes.core.game import EVERYTHING, Viewer
from tribes.replay import logs


def transcript(path: Path, viewer: Viewer = EVERYTHING) -> list[str]:
    """One text block per step (0: the start), as ``viewer`` sees it."""
    opened = logs.open_log(path)
    game, seats = opened.game, opened.log.header.seats
    blocks = []
    for step in logs.steps_of(game, opened.log, path=str(path)):
        who = seats[step.seat] if step.seat is not None else "-"
        move = game.format_move(step.event) if step.event is not None else "start"
        lines = [f"event {step.index}: {who} {move}"]
        lines += [f"  effect: {e.describe(seats)}" for e in step.effects]
        lines.append(f"  legal moves: {len(game.legal_moves(step.state))}")
        lines.append(game.render(step.state, seats, viewer))
        blocks.append("\n".join(lines))
    return blocks
