"""Iwari scoring: tents (I12), totems (I16), settlements (I17), the long road (I21), and the
half-journey and final scorings that use them (I13, I15). Pure functions of a state."""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.events import Effect
from tribes.core.game import highest
from tribes.games.iwari.events import (
    LONG_ROAD,
    ConnectionScored,
    ScoringBegan,
    SettlementScored,
    TerritoryScored,
)
from tribes.games.iwari.state import IwariState


def tent_points(counts: Sequence[int]) -> list[int]:
    """I12: the tribe(s) with most tents score every tent there; each other tribe scores the
    tents of the tribe ranked just above it; equal counts share a rank and push nobody down."""
    total = sum(counts)
    ranks = sorted({c for c in counts if c}, reverse=True)
    points = []
    for c in counts:
        if not c:
            points.append(0)
        elif c == ranks[0]:
            points.append(total)
        else:
            points.append(ranks[ranks.index(c) - 1])
    return points


def totem_majority(totems: Sequence[int], tribe: int) -> bool:
    """The tribe has the most totems there, ties included (and at least one)."""
    return totems[tribe] > 0 and totems[tribe] == max(totems)


def settlements(state: IwariState, tribe: int) -> list[tuple[int, ...]]:
    """I17: groups of 4 or more of the tribe's tents joined by paths, each sorted."""
    game_map = state.map
    owner = tribe + 1
    seen: set[int] = set()
    groups = []
    for space in range(1, len(state.tents)):
        if state.tents[space] != owner or space in seen:
            continue
        group = [space]
        seen.add(space)
        todo = [space]
        while todo:
            for nxt in game_map.links[todo.pop()]:
                if state.tents[nxt] == owner and nxt not in seen:
                    seen.add(nxt)
                    group.append(nxt)
                    todo.append(nxt)
        if len(group) >= 4:
            groups.append(tuple(sorted(group)))
    return groups


def score_tents(state: IwariState) -> tuple[list[int], list[Effect]]:
    """Every territory's tents, times its feat factor: points per tribe and the effects."""
    gains = [0] * state.tribes
    effects: list[Effect] = []
    for territory in state.map.territories:
        counts = state.tents_in(territory.id)
        if not any(counts):
            continue
        factor = state.factors[territory.id]
        points = tuple(p * factor for p in tent_points(counts))
        effects.append(TerritoryScored(territory=territory.id, points=points))
        gains = [g + p for g, p in zip(gains, points, strict=True)]
    return gains, effects


def score_road(state: IwariState) -> tuple[list[int], list[Effect]]:
    """I21 long-road: the tents on the road's spaces score as if they were a territory."""
    counts = [0] * state.tribes
    for space in state.map.road:
        if state.tents[space]:
            counts[state.tents[space] - 1] += 1
    if not any(counts):
        return [0] * state.tribes, []
    points = tuple(tent_points(counts))
    return list(points), [TerritoryScored(territory=LONG_ROAD, points=points)]


def score_totems(state: IwariState) -> tuple[list[int], list[Effect]]:
    """I16: connections in number order, covered ones skipped."""
    gains = [0] * state.tribes
    effects: list[Effect] = []
    for link in state.map.connections:
        if link.id in state.covered:
            continue
        a, b = state.totems[link.a], state.totems[link.b]
        total = (sum(a) + sum(b)) * state.link_factors[link.id]
        points = tuple(
            total if totem_majority(a, t) and totem_majority(b, t) else 0
            for t in range(state.tribes)
        )
        if any(points):
            effects.append(ConnectionScored(connection=link.id, points=points))
            gains = [g + p for g, p in zip(gains, points, strict=True)]
    return gains, effects


def score_settlements(state: IwariState) -> tuple[list[int], list[Effect]]:
    gains = [0] * state.tribes
    effects: list[Effect] = []
    for tribe in range(state.tribes):
        for group in settlements(state, tribe):
            gains[tribe] += len(group)
            effects.append(SettlementScored(tribe=tribe, spaces=group))
    return gains, effects


def half_journey(state: IwariState) -> tuple[tuple[int, ...], list[Effect]]:
    """I13: tents only."""
    gains, effects = score_tents(state)
    return _add(state.scores, gains), [ScoringBegan(stage="half-journey"), *effects]


def final(state: IwariState) -> tuple[tuple[int, ...], list[Effect]]:
    """I15: tents, (the long road), totems, settlements."""
    scores = state.scores
    effects: list[Effect] = [ScoringBegan(stage="final")]
    for part in (score_tents, score_road, score_totems, score_settlements):
        gains, more = part(state)
        scores = _add(scores, gains)
        effects.extend(more)
    return scores, effects


def _add(scores: Sequence[int], gains: Sequence[int]) -> tuple[int, ...]:
    return tuple(s + g for s, g in zip(scores, gains, strict=True))


def winners(state: IwariState) -> tuple[int, ...]:
    """I18: the highest score among the players (the third tribe cannot win); ties go to more
    unused pieces; still tied, they share."""
    if not state.over:
        return ()
    spare = [state.tent_supply[p] + state.totem_supply[p] for p in range(state.players)]
    return highest(state.scores[: state.players], spare)
