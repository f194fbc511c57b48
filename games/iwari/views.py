"""What a viewer may see of an Iwari state (I22) and the ``show --json`` document."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tribes.core.game import EVERYTHING, Viewer
from tribes.core.views import count
from tribes.games.iwari.board import TERRAINS
from tribes.games.iwari.state import FEAT_KINDS, IwariState


def tribe_names(state: IwariState, seats: Sequence[str]) -> list[str]:
    return [*seats, "third"][: state.tribes]


def sees_hand(state: IwariState, viewer: Viewer, seat: int) -> bool:
    """I22: a player sees their own hand only; after the end, and for 'everything', all."""
    return state.over or viewer in (EVERYTHING, seat)


def hand_text(hand: Sequence[int]) -> str:
    return "".join(t.letter * n for t, n in zip(TERRAINS, hand, strict=True))


def fields(state: IwariState, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
    """The Iwari fields of ``show --json`` (the common ones come from tribes.core.views)."""
    names = tribe_names(state, seats)
    game_map = state.map
    tents: dict[str, dict[str, list[int]]] = {}
    for territory in game_map.territories:
        row = {
            names[state.tents[s] - 1]: [
                x for x in territory.spaces if state.tents[x] == state.tents[s]
            ]
            for s in territory.spaces
            if state.tents[s]
        }
        if row:
            tents[str(territory.id)] = row
    return {
        "tents": tents,
        "totems": {
            str(t.id): {names[i]: n for i, n in enumerate(state.totems[t.id]) if n}
            for t in game_map.territories
            if any(state.totems[t.id])
        },
        "hands": {
            name: hand_text(state.hands[i]) if sees_hand(state, viewer, i) else sum(state.hands[i])
            for i, name in enumerate(seats)
        },
        "display": [c.letter if c else None for c in state.display],
        "deck": len(state.deck),
        "discard": "".join(c.letter for c in state.discard),
        "deck_outs": state.deck_outs,
        "half_journey_scored": state.deck_outs >= 1 and not state.half_due,
        "covered": list(state.covered),
        "supply": {
            name: {"tents": state.tent_supply[i], "totems": state.totem_supply[i]}
            for i, name in enumerate(names)
        },
        "start": seats[state.start],
        "ending": state.ending,
        "feats": {
            "left": dict(zip(FEAT_KINDS, state.feats_left, strict=True)),
            "territories": {str(i): f for i, f in enumerate(state.factors) if i and f > 1},
            "connections": {str(i): f for i, f in enumerate(state.link_factors) if i and f > 1},
            "earned": {name: list(state.earned[i]) for i, name in enumerate(seats)},
        }
        if state.feats_on
        else None,
        "expeditions": [
            {"card": c.id, "claimed": [seats[s] for s in c.claimed]} for c in state.expeditions
        ],
        "variants": list(state.variants),
    }


def phrase(path: tuple[str | int, ...], old: Any, new: Any) -> str | None:
    """One change between two documents in Iwari's terms ("territory 6: totems of ann 1 → 2")."""
    head, n = path[0], len(path)
    if head == "tents" and n == 3:
        return f"territory {path[1]}: tents of {path[2]} on {_spaces(old)} → {_spaces(new)}"
    if head == "tents" and n == 2:
        return f"territory {path[1]}: " + "; ".join(
            f"tents of {tribe} on {_spaces((old or {}).get(tribe))} → {_spaces((new or {}).get(tribe))}"
            for tribe in sorted(set(old or {}) | set(new or {}))
        )
    if head == "totems" and n == 3:
        return f"territory {path[1]}: totems of {path[2]} {old or 0} → {new or 0}"
    if head == "totems" and n == 2:
        return f"territory {path[1]}: " + "; ".join(
            f"totems of {tribe} {(old or {}).get(tribe, 0)} → {(new or {}).get(tribe, 0)}"
            for tribe in sorted(set(old or {}) | set(new or {}))
        )
    if head == "hands" and n == 2:
        return f"hand of {path[1]}: {_hand(old)} → {_hand(new)}"
    if head == "display":
        return f"display: {_cards(old)} → {_cards(new)}"
    if head == "deck":
        return f"deck: {old} → {count(new, 'card')}"
    if head == "discard":
        added = f" (+{new[len(old) :]})" if new and old is not None and new.startswith(old) else ""
        return f"discard: {len(old or '')} → {count(len(new or ''), 'card')}{added}"
    if head == "scores" and n == 2:
        return f"score {path[1]}: {old} → {new}"
    if head == "supply" and n == 3:
        return f"supply of {path[1]}: {path[2]} {old} → {new}"
    if head == "deck_outs":
        return f"the deck has run out {new} time{'' if new == 1 else 's'}"
    if head == "ending":
        return "the end is near: the round is played out" if new else "the end is off"
    if head == "feats" and n == 3 and path[1] == "left":
        return f"{path[2]} feats left {old} → {new}"
    if head == "feats" and n == 3:
        where = "territory" if path[1] == "territories" else "connection"
        return f"feat factor of {where} {path[2]}: {old or 1} → {new or 1}"
    if head == "expeditions" and n == 3 and path[2] == "claimed":
        return f"expedition {path[1]} claimed by {', '.join(new or []) or 'nobody'}"
    if head == "pending" and n == 1:
        return f"pending: {_pending(old)} → {_pending(new)}"
    return None


def _spaces(spaces: Any) -> str:
    return ", ".join(map(str, spaces)) if spaces else "none"


def _hand(hand: Any) -> str:
    if isinstance(hand, int):
        return f"{hand} card{'' if hand == 1 else 's'}"
    return hand or "empty"


def _cards(cards: Any) -> str:
    return " ".join(c or "-" for c in cards) if cards else "none"


def _pending(pending: Any) -> str:
    if pending is None:
        return "none"
    what = {
        "feat": f"place the {pending.get('feat', '')} feat",
        "third": "play for the third tribe",
        "refill": "draw",
    }
    return f"{pending['seat']} to {what.get(pending['decision'], pending['decision'])}"
