"""The kit's hidden-information checks: what a viewer is shown and told of a step must not
change when what they cannot see is dealt afresh (``Game.redeal``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from tribes.core import views
from tribes.core.engine import Step
from tribes.core.errors import IllegalMove
from tribes.core.game import EVERYTHING, Game, Viewer
from tribes.events.logfile import GameLog
from tribes.replay import html
from tribes.testing.playouts import (
    SEEDS,
    Playout,
    clip,
    drawn_steps,
    fail,
    game_of,
    playout,
    viewers,
)

# --- hidden information ---------------------------------------------------------------------------


@attrs.frozen
class Seen:
    """Everything a viewer is shown of one step, each by the name a user knows it by."""

    parts: tuple[tuple[str, Any], ...]

    def first_difference(self, other: Seen) -> str | None:
        for (name, mine), (_, theirs) in zip(self.parts, other.parts, strict=True):
            if mine != theirs:
                return f"{name} {_difference(mine, theirs)}"
        return None


def _difference(old: Any, new: Any, path: str = "") -> str:
    """Where two shown things first differ: a document's path, a text's first differing line."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            if old.get(key) != new.get(key):
                return _difference(old.get(key), new.get(key), f"{path}.{key}" if path else key)
    if isinstance(old, list | tuple) and isinstance(new, list | tuple) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                return _difference(a, b, f"{path}[{i}]")
    if isinstance(old, str) and isinstance(new, str) and ("\n" in old + new or len(old) > 80):
        at = next(
            (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
            min(len(old), len(new)),
        )
        line = old.count("\n", 0, at) + 1
        start = max(old.rfind("\n", 0, at) + 1, old.rfind("<", 0, at + 1), at - 40)
        mine, theirs = old[start : at + 40].strip(), new[start : at + 40].strip()
        return f"at line {line}: {clip(mine, 70)!r} becomes {clip(theirs, 70)!r}"
    where = f"at {path}" if path else ""
    return f"{where}: {clip(repr(old), 70)} becomes {clip(repr(new), 70)}".lstrip(": ")


def seen(
    game: Game[Any], log: GameLog, step: Step[Any], viewer: Viewer, *, drawn: bool = True
) -> Seen:
    """What ``viewer`` is shown of ``step``: ``show --json --as``, the text board and — with
    ``drawn`` — the SVG and the HTML page of the step (its frame of the picture's parts, its
    status, the legal moves it lists, its line of effects)."""
    shown = _shown(game, log, step, viewer)
    return _with_drawings(shown, game, log, step, viewer) if drawn else shown


def _shown(game: Game[Any], log: GameLog, step: Step[Any], viewer: Viewer) -> Seen:
    """What ``viewer`` is shown of ``step`` without drawing it: ``show --json --as`` and the
    text board."""
    document = views.step_document(game, log.header, step.index, step.state, viewer)
    board = game.render(step.state, log.header.seats, viewer)
    return Seen((("show --json --as", document), ("the text board", board)))


def _with_drawings(
    shown: Seen, game: Game[Any], log: GameLog, step: Step[Any], viewer: Viewer
) -> Seen:
    """``shown`` and the step's SVG and HTML page as ``viewer`` sees them."""
    svg = game.svg(step.state, log.header.seats, viewer, step.event)
    page = html.page(game, log, [step], viewer)
    return Seen((*shown.parts, ("the SVG", svg), ("the HTML page", page)))


def said(game: Game[Any], seats: Sequence[str], step: Step[Any], viewer: Viewer) -> Seen:
    """What ``viewer`` is told of the step itself: its effects and its ``log --as`` line."""
    return Seen(
        (
            ("the effects", [e.describe_for(seats, viewer) for e in step.effects]),
            ("log --as", views.step_line(game, seats, step, viewer=viewer)),
        )
    )


REDEALS = 2
"""Re-deals tried at each step and viewer (each from another seed) at the steps drawn; one at
the others."""


def check_hidden_information(run: Playout) -> dict[str, int]:
    """For every step and viewer, states re-dealt for that viewer show them the same; played
    from a re-dealt state, a step that reveals nothing new to the viewer tells them the same
    effects and log line. Returns counts: re-deals that dealt something afresh (``redealt``),
    steps whose effects were compared (``told``)."""
    game = run.game
    counts = {"redealt": 0, "told": 0}
    redeal: Callable[[Any, Viewer, int], Any] | None = getattr(game, "redeal", None)
    if redeal is None or redeal(run.steps[0].state, EVERYTHING, 0) is None:
        if game.facts.hidden:
            raise fail(
                run.where(),
                f"the game hides {game.facts.hidden!r} but cannot re-deal it: give it a "
                "hiding module (GameBase.hiding, tribes.core.hiding)",
            )
        return counts
    seats = run.seats
    drawing = drawn_steps(len(run.steps), phase=run.seed)
    real = _RealSteps(run)
    for step in run.steps:
        drawn = step.index in drawing
        if redeal(step.state, EVERYTHING, run.seed) != step.state:
            raise fail(run.where(step.index, EVERYTHING), "a re-deal for 'all' changed the state")
        real.forget_before(step.index)
        for viewer in viewers(len(seats))[1:]:
            shown = real.shown(step.index, viewer)
            if drawn:
                shown = _with_drawings(shown, game, run.log, step, viewer)
            for attempt in range(REDEALS if drawn else 1):
                salt = run.seed * 1_000_003 + step.index * 101 + attempt
                other = redeal(step.state, viewer, salt)
                if other != step.state:
                    counts["redealt"] += 1
                twin = attrs.evolve(step, state=other)
                problem = shown.first_difference(seen(game, run.log, twin, viewer, drawn=drawn))
                if problem:
                    raise fail(
                        run.where(step.index, viewer),
                        f"what the viewer cannot see shows: after a re-deal, {problem}",
                    )
                if step.index + 1 < len(run.steps):
                    counts["told"] += _told_alike(real, step.index + 1, other, viewer)
    return counts


class _RealSteps:
    """What each viewer is shown of each real step of a playout (undrawn), made once: the
    check compares it with re-dealt states at that step and with steps played from re-deals
    before it."""

    def __init__(self, run: Playout) -> None:
        self.run = run
        self._shown: dict[tuple[int, Viewer], Seen] = {}

    def shown(self, index: int, viewer: Viewer) -> Seen:
        key = (index, viewer)
        if key not in self._shown:
            self._shown[key] = _shown(self.run.game, self.run.log, self.run.steps[index], viewer)
        return self._shown[key]

    def forget_before(self, index: int) -> None:
        """Let go of the steps before ``index``: the check has passed them."""
        self._shown = {key: shown for key, shown in self._shown.items() if key[0] >= index}


def _told_alike(real: _RealSteps, index: int, redealt: Any, viewer: Viewer) -> int:
    """1 if the step ``index``, played from ``redealt`` (a re-deal of the state before it),
    was compared: when it is legal there and reveals nothing new to the viewer, it must tell
    the viewer the same effects and log line as the real step."""
    run = real.run
    game, step = run.game, run.steps[index]
    assert step.event is not None
    try:
        state, effects = game.apply(redealt, step.event)
    except IllegalMove:
        return 0  # the re-deal took away what the move played (a card of another's hand)
    twin = attrs.evolve(step, state=state, effects=effects)
    if real.shown(index, viewer).first_difference(seen(game, run.log, twin, viewer, drawn=False)):
        return 0  # the step revealed something (a drawn tile): another world shows it otherwise
    problem = said(game, run.seats, step, viewer).first_difference(
        said(game, run.seats, twin, viewer)
    )
    if problem:
        raise fail(
            run.where(index, viewer),
            f"the step tells what the viewer cannot see: after a re-deal, {problem}",
        )
    return 1


def check_game_hides(game: Game[Any] | str, seeds: Sequence[int] = SEEDS) -> None:
    """Over the kit's games, a game that hides something re-deals something (a re-deal that
    never deals anything afresh checks nothing)."""
    game = game_of(game)
    if not game.facts.hidden:
        return
    redeal: Callable[[Any, Viewer, int], Any] | None = getattr(game, "redeal", None)
    for seed in seeds[:2]:
        run = playout(game, seed)
        for step in run.steps:
            for viewer in viewers(len(run.seats))[1:]:
                if redeal is not None and redeal(step.state, viewer, seed) not in (
                    None,
                    step.state,
                ):
                    return
    raise fail(game.name, f"a re-deal never changes a state, though {game.facts.hidden!r}")


# --- as pytest tests ------------------------------------------------------------------------------
