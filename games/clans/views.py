"""What a viewer may see of a Clans state (C23) and the ``show --json`` document."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tribes.core.game import EVERYTHING, Viewer
from tribes.games.clans.board import COLOUR_NAMES, TERRITORIES, VILLAGES
from tribes.games.clans.state import ClansState, Village


def visible_clans(state: ClansState, viewer: Viewer) -> list[str | None]:
    """C23: a player sees their own colour; a spectator none; after the end, all."""
    if state.over or viewer == EVERYTHING:
        return [c.value for c in state.clans]
    return [c.value if seat == viewer else None for seat, c in enumerate(state.clans)]


def visible_scores(state: ClansState, viewer: Viewer) -> tuple[int | None, ...]:
    """A seat's score is its colour's track score plus chips: hidden where its colour is (C23)."""
    clans = visible_clans(state, viewer)
    return tuple(s if clans[i] else None for i, s in enumerate(state.scores()))


def doomed(state: ClansState, village: Village) -> bool:
    """C15: a village (1st to 11th; C16: never the 12th) founded on a terrain its epoch finds
    unfavourable lost its huts and scored nothing."""
    if village.epoch is None or village.number >= VILLAGES:
        return False
    terrain = state.board.territory(village.territory).terrain
    return terrain in state.board.epoch(village.epoch).unfavourable


def fields(state: ClansState, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
    """The Clans fields of ``show --json`` (the common ones come from tribes.core.views)."""
    clans = visible_clans(state, viewer)
    return {
        "track": dict(zip(COLOUR_NAMES, state.track, strict=True)),
        "chips": dict(zip(seats, state.chips, strict=True)),
        "chips_left": max(0, 12 - state.founded),
        "epoch": state.epoch,
        "villages": [
            {
                "territory": v.territory,
                "number": v.number,
                "epoch": v.epoch,
                "huts": sum(v.huts),
                "value": v.value,
                "colours": {COLOUR_NAMES[i]: n for i, n in enumerate(v.huts) if n},
                "doomed": doomed(state, v),
            }
            for v in state.villages
        ],
        "huts": {
            str(t): {COLOUR_NAMES[i]: n for i, n in enumerate(state.huts[t]) if n}
            for t in range(1, TERRITORIES + 1)
            if state.totals[t]
        },
        "clans": {name: clans[i] for i, name in enumerate(seats) if clans[i]},
    }


def phrase(path: tuple[str | int, ...], old: Any, new: Any) -> str | None:
    """One change between two documents in Clans terms ("territory 37: red 2 → 0")."""
    head = path[0]
    if head == "huts" and len(path) == 3:
        return f"territory {path[1]}: {path[2]} {old or 0} → {new or 0}"
    if head == "huts" and len(path) == 2:
        return f"territory {path[1]}: {_huts(old)} → {_huts(new)}"
    if head in ("track", "chips", "scores") and len(path) == 2:
        label = {"track": "track", "chips": "chips", "scores": "score"}[head]
        return f"{label} {path[1]}: {_value(old)} → {_value(new)}"
    if head in ("epoch", "chips_left"):
        return f"{'epoch' if head == 'epoch' else 'chips left'} {old} → {new}"
    if head == "villages" and len(path) == 2 and (old is None or new is None):
        if old is None:
            if new["number"] > 12:
                return f"village {new['number']} at {new['territory']}: beyond the 12th, it scores nothing"
            epoch = f"epoch {new['epoch']}, " if new["epoch"] is not None else ""
            huts = f"{new['huts']} hut{'' if new['huts'] == 1 else 's'}"
            return f"village {new['number']} founded at {new['territory']} ({epoch}{huts}, value {new['value']})"
        return f"village {old['number']} at {old['territory']} is gone"
    if head == "villages" and len(path) == 4 and path[2] == "colours":
        return f"village {path[1]}: {path[3]} {old or 0} → {new or 0}"
    if head == "villages" and len(path) == 3:
        return f"village {path[1]} {path[2]}: {_value(old)} → {_value(new)}"
    if head == "pending" and len(path) == 1:
        return f"pending: {_pending(old)} → {_pending(new)}"
    if head == "pending" and len(path) == 2:
        return f"pending {path[1]}: {_listed(old)} → {_listed(new)}"
    if head == "clans" and len(path) == 2:
        return f"clan of {path[1]}: {old or 'hidden'} → {new or 'hidden'}"
    return None


def _listed(value: Any) -> str:
    return " ".join(map(str, value)) if isinstance(value, list) else _value(value)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def _huts(huts: Any) -> str:
    if not huts:
        return "empty"
    return ", ".join(f"{n} {colour}" for colour, n in huts.items())


def _pending(pending: Any) -> str:
    if pending is None:
        return "none"
    listed = " ".join(map(str, pending["villages"]))
    return f"{pending['seat']} to order villages {listed}"
