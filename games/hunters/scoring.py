"""Scoring: forests and rivers as they are completed (H7–H12), river systems and meadows at the
end (H14–H22), and the winners (H18). Reads a group's nodes only when it scores."""

from __future__ import annotations

import operator
from collections.abc import Sequence

from tribes.games.hunters import features as feats
from tribes.games.hunters.board import TileSet
from tribes.games.hunters.events import FeatureScored, GameEnded
from tribes.games.hunters.features import Board, Group, Node, System
from tribes.games.hunters.state import HuntersState, Piece, evolve


def majority(counts: Sequence[int]) -> tuple[int, ...]:
    """H11, H16, H17: the seats with the most pieces (all tied ones); none without pieces."""
    top = max(counts)
    return tuple([i for i, n in enumerate(counts) if n == top]) if top else ()


def forest_points(tiles: TileSet, board: Board, group: Group) -> tuple[int, bool]:
    """H10, H20: 2 per forest piece and 2 per mushroom patch; and whether it holds gold (H13)."""
    points, gold = 0, False
    for x, y, fid in group.nodes:
        feature = tiles.tiles[board.cells[(x, y)].tile].features[fid]
        points += 2 + 2 * feature.mushrooms
        gold = gold or feature.gold
    return points, gold


def river_points(tiles: TileSet, board: Board, group: Group) -> int:
    """H9: 1 per tile the river runs through (once per tile) and 1 per fish in the lakes at
    its ends (a lake at both ends once)."""
    lakes: set[Node] = set()
    for x, y, fid in group.nodes:
        lake = tiles.tiles[board.cells[(x, y)].tile].features[fid].lake
        if lake is not None:
            lakes.add((x, y, lake))
    fish = sum(tiles.tiles[board.cells[(x, y)].tile].features[f].fish for x, y, f in lakes)
    return len({(x, y) for x, y, _ in group.nodes}) + fish  # its tiles, each once


def complete(
    tiles: TileSet, board: Board, roots: list[Node], pieces: tuple[Piece, ...], players: int
) -> tuple[Board, tuple[Piece, ...], list[FeatureScored], bool, list[int]]:
    """H7–H12: score the completed forests and rivers among ``roots``. Returns the board and
    pieces with their members gone home, the effects, whether gold was in a completed forest,
    and the points by seat."""
    groups = board.groups
    for r in roots:
        if not groups[r][2]:  # its open count: most placements complete nothing
            break
    else:
        return board, pieces, [], False, []
    gains = [0] * players
    effects: list[FeatureScored] = []
    gold = False
    done: list[Node] = []
    for root in roots:
        group = board.groups[root]
        if group.type == "meadow" or group.open:
            continue
        cells = feats.cells_of(group.nodes)
        if group.type == "forest":  # what it counted, from its points: 2 a piece, 2 a patch
            points, has_gold = forest_points(tiles, board, group)
            gold = gold or has_gold
            wood = len(group.nodes)  # forest pieces
            mushrooms, fish = (points - 2 * wood) // 2, 0
        else:  # 1 a tile, 1 a fish
            points = river_points(tiles, board, group)
            wood = mushrooms = 0
            fish = points - len(cells)
        winners = majority(group.members)
        for seat in winners:
            gains[seat] += points
        returned = tuple([s for s, n in enumerate(group.members) for _ in range(n)])
        effects.append(
            FeatureScored(
                type=group.type,
                tiles=cells,
                points=points,
                winners=winners,
                returned=returned,
                features=group.nodes,
                fish=fish,
                pieces=wood,
                mushrooms=mushrooms,
            )
        )
        if returned:
            done.append(root)
    if done:
        board = feats.clear_members(board, done)
        gone = {n for r in done for n in board.groups[r].nodes}
        pieces = tuple(p for p in pieces if p.kind == "hut" or (p.x, p.y, p.feature) not in gone)
    return board, pieces, effects, gold, gains


def meadow_points(
    tiles: TileSet, board: Board, group: Group
) -> tuple[int, tuple[int, ...], bool, bool]:
    """H17, H19, H21: 2 per deer, mammoth and aurochs, each tiger eating a deer unless the fire
    is in the meadow. Returns the points, the animals that count (the deer left after tigers;
    the tigers that hunt, none with the fire), fire, shrine."""
    deer = mammoth = aurochs = tiger = 0
    fire = shrine = False
    for x, y, fid in group.nodes:
        feature = tiles.tiles[board.cells[(x, y)].tile].features[fid]
        d, m, a, t = feature.animals
        deer, mammoth, aurochs, tiger = deer + d, mammoth + m, aurochs + a, tiger + t
        fire = fire or feature.fire
        shrine = shrine or feature.shrine
    if fire:
        tiger = 0
    left = max(0, deer - tiger)
    return 2 * (left + mammoth + aurochs), (left, mammoth, aurochs, tiger), fire, shrine


def meadow_animals(tiles: TileSet, board: Board, group: Group) -> tuple[int, int, int, int]:
    """The deer, mammoths, aurochs and tigers on a meadow's tiles, before any tiger eats (for
    ``show --json``; :func:`meadow_points` gives what scores)."""
    by_id, cells = tiles.tiles, board.cells
    animals = [by_id[cells[(x, y)].tile].features[fid].animals for x, y, fid in group.nodes]
    deer, mammoths, aurochs, tigers = map(sum, zip(*animals, strict=True))  # a meadow has nodes
    return deer, mammoths, aurochs, tigers


def system_fish(tiles: TileSet, board: Board, system: System) -> int:
    """H16: the fish in the lakes of a river system."""
    return sum(tiles.tiles[board.cells[(x, y)].tile].features[f].fish for x, y, f in system.nodes)


_ROW_FIRST = operator.itemgetter(1, 0, 2)


def _first(nodes: tuple[Node, ...]) -> tuple[int, int, int]:
    """The first node of a feature by row, column and feature id: the order of the end's
    effects."""
    return min(map(_ROW_FIRST, nodes))  # type: ignore[no-any-return]  # itemgetter: Any


Scored = tuple[str, tuple[Node, ...], int, tuple[int, ...], int | None]
"""What the end scores for one feature: kind, nodes, points, winners and the seat whose hunter
on the shrine took it (H22), if one did."""


def final_scores(tiles: TileSet, board: Board, pieces: tuple[Piece, ...]) -> list[Scored]:
    """H16, H17, H19–H22: what the end scores, as (kind, nodes, points, winners, shrine): the
    river systems that hold huts, then the meadows that hold hunters, each by its first node."""
    out: list[Scored] = []
    hutted = [board.systems[r] for r in board.hutted]
    for system in sorted(hutted, key=lambda s: _first(s.nodes)):
        out.append(
            (
                "system",
                system.nodes,
                system_fish(tiles, board, system),
                majority(system.huts),
                None,
            )
        )
    shrines = {
        (p.x, p.y, p.feature): p.seat
        for p in pieces
        if p.kind == "hunter"
        and tiles.tiles[board.cells[(p.x, p.y)].tile].features[p.feature].shrine
    }
    hunted = [(r, board.groups[r]) for r in board.manned if board.groups[r].type == "meadow"]
    for root, group in sorted(hunted, key=lambda kv: _first(kv[1].nodes)):
        points = meadow_points(tiles, board, group)[0]
        on_shrine = [seat for node, seat in shrines.items() if board.root_of(node) == root]
        shrine = on_shrine[0] if on_shrine else None
        winners = (shrine,) if shrine is not None else majority(group.members)
        out.append(("meadow", group.nodes, points, winners, shrine))
    return out


def final_gains(tiles: TileSet, board: Board, pieces: tuple[Piece, ...], players: int) -> list[int]:
    """The points by seat the end would add to a game that ends with this board and these
    pieces (:func:`finish` without its new state and effects: a bot weighing a move that ends
    the game asks this alone)."""
    return _gains(final_scores(tiles, board, pieces), players)


def _gains(scored: list[Scored], players: int) -> list[int]:
    gains = [0] * players
    for _, _, points, winners, _ in scored:
        for seat in winners:
            gains[seat] += points
    return gains


def finish(state: HuntersState) -> tuple[HuntersState, tuple[FeatureScored | GameEnded, ...]]:
    """H14–H18: the end. Members of incomplete forests and rivers go home (H15); huts score
    their river systems (H16), hunters their meadows (H17, H19–H22); the highest score wins."""
    tiles, board = state.tiles, state.board
    scored = final_scores(tiles, board, state.pieces)
    gains = _gains(scored, state.players)
    scores = [s + g for s, g in zip(state.scores, gains, strict=True)]
    effects: list[FeatureScored | GameEnded] = [_final(tiles, board, *one) for one in scored]
    pieces = tuple(
        p for p in state.pieces if p.kind in ("hunter", "hut")
    )  # H15: the others go home
    supply = list(state.supply)
    for p in state.pieces:
        if p.kind in ("gatherer", "fisher"):
            members, huts = supply[p.seat]
            supply[p.seat] = (members + 1, huts)
    done = evolve(
        state,
        scores=tuple(scores),
        pieces=pieces,
        supply=tuple(supply),
        drawn=None,
        bonus=False,
        over=True,
        board=_without_members(board, state.pieces),
        tiles=tiles,
    )
    effects.append(GameEnded(scores=done.scores, winners=winners_of(done)))
    return done, tuple(effects)


def _without_members(board: Board, pieces: tuple[Piece, ...]) -> Board:
    return feats.without_members(
        board, [((p.x, p.y, p.feature), p.seat) for p in pieces if p.kind in ("gatherer", "fisher")]
    )


def _final(
    tiles: TileSet,
    board: Board,
    kind: str,
    nodes: tuple[Node, ...],
    points: int,
    winners: tuple[int, ...],
    shrine: int | None,
) -> FeatureScored:
    """The end's effect of one feature, with what it counted: a system's fish (its points,
    H16), a meadow's animals before any tiger eats and whether the fire is there (H17,
    H19–H22)."""
    cells = feats.cells_of(nodes)
    if kind == "system":
        return FeatureScored(
            type=kind,
            tiles=cells,
            points=points,
            winners=winners,
            final=True,
            fish=points,
            features=nodes,
        )
    group = board.groups[board.root_of(nodes[0])]
    deer, mammoths, aurochs, tigers = meadow_animals(tiles, board, group)
    return FeatureScored(
        type=kind,
        tiles=cells,
        points=points,
        winners=winners,
        final=True,
        deer=deer,
        mammoths=mammoths,
        aurochs=aurochs,
        tigers=tigers,
        fire=meadow_points(tiles, board, group)[2],
        shrine=shrine,
        features=nodes,
    )


def winners_of(state: HuntersState) -> tuple[int, ...]:
    """H18: at the end, every seat tied for the highest score; before it, none."""
    if not state.over:
        return ()
    top = max(state.scores)
    return tuple(i for i, s in enumerate(state.scores) if s == top)
