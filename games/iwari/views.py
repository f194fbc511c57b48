"""What a viewer may see of an Iwari state (I22) and the ``show --json`` document."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tribes.core.game import EVERYTHING, Viewer
from tribes.games.iwari import notation
from tribes.games.iwari.board import TERRAINS
from tribes.games.iwari.rules import legal_moves
from tribes.games.iwari.scoring import winners
from tribes.games.iwari.state import FEAT_KINDS, IwariState, Phase


def tribe_names(state: IwariState, seats: Sequence[str]) -> list[str]:
    return [*seats, "third"][: state.tribes]


def sees_hand(state: IwariState, viewer: Viewer, seat: int) -> bool:
    """I22: a player sees their own hand only; after the end, and for 'everything', all."""
    return state.over or viewer in (EVERYTHING, seat)


def hand_text(hand: Sequence[int]) -> str:
    return "".join(t.letter * n for t, n in zip(TERRAINS, hand, strict=True))


def document(state: IwariState, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
    names = tribe_names(state, seats)
    game_map = state.map
    pending = None
    if not state.over and state.phase is not Phase.ACTION:
        pending = {
            "seat": seats[state.to_move],
            "decision": state.phase.value,
            "options": [notation.format(m) for m in legal_moves(state)][:50],
        }
        if state.phase is Phase.FEAT:
            pending["feat"] = state.pending_feats[0].kind
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
        "over": state.over,
        "to_move": None if state.over else seats[state.to_move],
        "pending": pending,
        "scores": dict(zip(names, state.scores, strict=True)),
        "winners": [seats[i] for i in winners(state)],
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
        }
        if state.feats_on
        else None,
        "expeditions": [
            {"card": c.id, "claimed": [seats[s] for s in c.claimed]} for c in state.expeditions
        ],
        "variants": list(state.variants),
    }
