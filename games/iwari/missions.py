"""Feats (I19) and expeditions (I20): who has earned or completed what."""

from __future__ import annotations

from collections.abc import Callable

from tribes.games.iwari.board import TERRAINS, Connection
from tribes.games.iwari.scoring import settlements, totem_majority
from tribes.games.iwari.state import FEAT_KINDS, IwariState, PendingFeat


def earned_feats(
    before: IwariState, after: IwariState, seat: int, new_tents: tuple[int, ...]
) -> list[PendingFeat]:
    """The feats ``seat`` earns with the play that led from ``before`` to ``after``: each kind
    once per seat, while the kind has feats left."""
    if not after.feats_on or seat >= after.players:
        return []
    game_map = after.map
    found: list[PendingFeat] = []

    def open_kind(kind: str) -> bool:
        return kind not in after.earned[seat] and after.feats_left[FEAT_KINDS.index(kind)] > 0

    if open_kind("union") and new_tents:
        # A settlement is completed when the play makes one that was not there: a group of 4+
        # with a new tent, none of whose old tents already stood in a settlement.
        old = [set(g) for g in settlements(before, seat)]
        completed = [
            g
            for g in settlements(after, seat)
            if set(g) & set(new_tents) and not any(o <= set(g) for o in old)
        ]
        if completed:
            where = sorted({game_map.space_territory[s] for g in completed for s in g})
            found.append(PendingFeat(kind="union", options=tuple(where)))
    if open_kind("discovery"):
        for space in new_tents:
            territory = game_map.space_territory[space]
            if all(after.tents[s] for s in game_map.territory(territory).spaces):
                others = tuple(t.id for t in game_map.territories if t.id != territory)
                found.append(PendingFeat(kind="discovery", options=others))
                break
    for kind, water in (("honour", False), ("respect", True)):
        if open_kind(kind):
            held = tuple(c.id for c in majority_links(after, seat) if c.water == water)
            if held:
                found.append(PendingFeat(kind=kind, options=held))
    return found


def majority_links(state: IwariState, tribe: int) -> list[Connection]:
    """Uncovered connections whose both territories the tribe holds the totem majority in."""
    return [
        c
        for c in state.map.connections
        if c.id not in state.covered
        and totem_majority(state.totems[c.a], tribe)
        and totem_majority(state.totems[c.b], tribe)
    ]


# --- expeditions ----------------------------------------------------------------------------------


def _territories_with_tents(state: IwariState, tribe: int) -> set[int]:
    return {
        state.map.space_territory[s]
        for s in range(1, len(state.tents))
        if state.tents[s] == tribe + 1
    }


def _five_terrains(state: IwariState, seat: int) -> bool:
    kinds = {state.map.territory(t).terrain for t in _territories_with_tents(state, seat)}
    return len(kinds) == len(TERRAINS)


def _long_settlement(state: IwariState, seat: int) -> bool:
    return any(len(g) >= 6 for g in settlements(state, seat))


def _two_settlements(state: IwariState, seat: int) -> bool:
    return len(settlements(state, seat)) >= 2


def _totem_chain(state: IwariState, seat: int) -> bool:
    return len(majority_links(state, seat)) >= 2


def _water_reach(state: IwariState, seat: int) -> bool:
    mine = _territories_with_tents(state, seat)
    return any(c.water and c.a in mine and c.b in mine for c in state.map.connections)


def _six_territories(state: IwariState, seat: int) -> bool:
    return len(_territories_with_tents(state, seat)) >= 6


def _majority_three(state: IwariState, seat: int) -> bool:
    held = 0
    for t in state.map.territories:
        counts = state.tents_in(t.id)
        if counts[seat] and counts[seat] == max(counts):
            held += 1
    return held >= 3


STATE_MISSIONS: dict[str, Callable[[IwariState, int], bool]] = {
    "five-terrains": _five_terrains,
    "long-settlement": _long_settlement,
    "two-settlements": _two_settlements,
    "totem-chain": _totem_chain,
    "water-reach": _water_reach,
    "six-territories": _six_territories,
    "majority-three": _majority_three,
}
"""Missions checked after every turn."""


def fills_desert(state: IwariState, new_tents: tuple[int, ...]) -> bool:
    """The placement filled the last tent space of a desert territory."""
    game_map = state.map
    for space in new_tents:
        territory = game_map.territory(game_map.space_territory[space])
        if territory.terrain.value == "desert" and all(state.tents[s] for s in territory.spaces):
            return True
    return False
