"""The play area and its joined features, kept incrementally as tiles join (H5, H8, H10, H16, H17).

A *node* is one feature of one placed tile, ``(x, y, feature id)``. Forests, rivers and meadows
join across sides into *groups*; rivers and lakes join (rivers across sides, lakes with the rivers
of their tile that run into them) into *river systems* (H16). Both unions are flat maps from node
to root with one record per root, so a lookup is one dict access, and a merge relabels the nodes
of the smaller group only: placing a tile never rescans the board.

A :class:`Board` is never changed once a state holds it: :func:`place` and :func:`add_piece`
return a new one whose dicts are copies (copy-on-write), sharing the records that did not change.
"""

from __future__ import annotations

from typing import NamedTuple

from tribes.games.hunters.board import STEP, TileSet, Turned

Node = tuple[int, int, int]
Cell = tuple[int, int]


class Group(NamedTuple):
    """A joined forest, river or meadow: its nodes, its open side parts and members by seat."""

    type: str
    nodes: tuple[Node, ...]
    open: int
    members: tuple[int, ...]


class System(NamedTuple):
    """A river system: its river and lake nodes and huts by seat."""

    nodes: tuple[Node, ...]
    huts: tuple[int, ...]


class Board:
    """The placed tiles, the empty cells next to them and both unions of features."""

    __slots__ = ("cells", "frontier", "groups", "root", "sroot", "systems")

    def __init__(
        self,
        cells: dict[Cell, tuple[int, int, Turned]],
        frontier: dict[Cell, str],
        root: dict[Node, Node],
        groups: dict[Node, Group],
        sroot: dict[Node, Node],
        systems: dict[Node, System],
    ) -> None:
        self.cells = cells
        """Cell -> (tile id, rotation, its table)."""
        self.frontier = frontier
        """Empty cell next to a tile -> the edges it needs, N E S W ('.' where nothing is)."""
        self.root = root
        self.groups = groups
        self.sroot = sroot
        self.systems = systems

    def __deepcopy__(self, memo: object) -> Board:
        return self  # never changed once built

    def group(self, node: Node) -> Group:
        return self.groups[self.root[node]]

    def system(self, node: Node) -> System:
        return self.systems[self.sroot[node]]

    def neighbour_nodes(self, turned: Turned, x: int, y: int, feature: int) -> list[Node]:
        """The nodes of placed tiles that ``feature`` of a tile at (x, y) would join across
        its sides."""
        out = []
        cells = self.cells
        for d, k in turned.touches[feature]:
            dx, dy = STEP[d]
            there = cells.get((x + dx, y + dy))
            if there is not None:
                theirs = there[2].parts[(d + 2) & 3]
                out.append((x + dx, y + dy, theirs[len(theirs) - 1 - k]))
        return out


EMPTY = Board({}, {}, {}, {}, {}, {})


def place(
    board: Board, tiles: TileSet, x: int, y: int, tile_id: int, rotation: int, players: int
) -> tuple[Board, list[Node]]:
    """A new board with the tile placed (its fit already checked), and the roots of the groups
    its features now belong to (each once)."""
    tile = tiles.tiles[tile_id]
    turned = tile.turned[rotation]
    cells = dict(board.cells)
    cells[(x, y)] = (tile_id, rotation, turned)
    frontier = dict(board.frontier)
    frontier.pop((x, y), None)
    edges = turned.edges
    for d in range(4):
        dx, dy = STEP[d]
        cell = (x + dx, y + dy)
        if cell in cells:
            continue
        need = frontier.get(cell, "....")
        back = (d + 2) & 3
        frontier[cell] = need[:back] + edges[d] + need[back + 1 :]
    root = dict(board.root)
    groups = dict(board.groups)
    zero = (0,) * players
    has_water = False
    for fid, feature in tile.features.items():
        node = (x, y, fid)
        if feature.type == "lake":
            has_water = True
            continue
        if feature.type == "river":
            has_water = True
        root[node] = node
        groups[node] = Group(feature.type, (node,), len(turned.touches[fid]), zero)
    for d in range(4):
        dx, dy = STEP[d]
        there = board.cells.get((x + dx, y + dy))
        if there is None:
            continue
        mine = turned.parts[d]
        theirs = there[2].parts[(d + 2) & 3]
        last = len(mine) - 1
        for k, fid in enumerate(mine):
            _join(root, groups, (x, y, fid), (x + dx, y + dy, theirs[last - k]))
    touched = list(dict.fromkeys(root[(x, y, fid)] for fid in turned.touches))
    sroot, systems = board.sroot, board.systems
    if has_water:
        sroot, systems = _join_systems(board, tile.system, turned, x, y, zero)
    return Board(cells, frontier, root, groups, sroot, systems), touched


def _join(root: dict[Node, Node], groups: dict[Node, Group], a: Node, b: Node) -> None:
    """Join two nodes across a side part: one open part fewer on each side."""
    ra, rb = root[a], root[b]
    if ra == rb:
        g = groups[ra]
        groups[ra] = Group(g.type, g.nodes, g.open - 2, g.members)
        return
    ga, gb = groups[ra], groups[rb]
    if len(ga.nodes) > len(gb.nodes):
        ra, rb, ga, gb = rb, ra, gb, ga
    for node in ga.nodes:  # the smaller one joins the larger one's root
        root[node] = rb
    del groups[ra]
    members = tuple(p + q for p, q in zip(ga.members, gb.members, strict=True))
    groups[rb] = Group(gb.type, gb.nodes + ga.nodes, ga.open + gb.open - 2, members)


def _join_systems(
    board: Board,
    system: dict[int, tuple[int, ...]],
    turned: Turned,
    x: int,
    y: int,
    zero: tuple[int, ...],
) -> tuple[dict[Node, Node], dict[Node, System]]:
    sroot = dict(board.sroot)
    systems = dict(board.systems)
    done: set[int] = set()
    for fid, members in system.items():
        if fid in done:
            continue
        done.update(members)
        nodes = tuple((x, y, f) for f in members)
        for node in nodes:
            sroot[node] = nodes[0]
        systems[nodes[0]] = System(nodes, zero)
    for fid in system:
        if fid in turned.touches:  # a river: joins the rivers it touches
            for other in board.neighbour_nodes(turned, x, y, fid):
                _join_system(sroot, systems, (x, y, fid), other)
    return sroot, systems


def _join_system(sroot: dict[Node, Node], systems: dict[Node, System], a: Node, b: Node) -> None:
    ra, rb = sroot[a], sroot[b]
    if ra == rb:
        return
    sa, sb = systems[ra], systems[rb]
    if len(sa.nodes) > len(sb.nodes):
        ra, rb, sa, sb = rb, ra, sb, sa
    for node in sa.nodes:
        sroot[node] = rb
    del systems[ra]
    huts = tuple(p + q for p, q in zip(sa.huts, sb.huts, strict=True))
    systems[rb] = System(sb.nodes + sa.nodes, huts)


def add_piece(board: Board, node: Node, kind: str, seat: int, count: int = 1) -> Board:
    """A new board with a piece counted in its group (a member) or its river system (a hut);
    ``count`` -1 takes one away."""
    if kind == "hut":
        systems = dict(board.systems)
        r = board.sroot[node]
        s = systems[r]
        systems[r] = System(s.nodes, _bump(s.huts, seat, count))
        return Board(board.cells, board.frontier, board.root, board.groups, board.sroot, systems)
    groups = dict(board.groups)
    r = board.root[node]
    g = groups[r]
    groups[r] = Group(g.type, g.nodes, g.open, _bump(g.members, seat, count))
    return Board(board.cells, board.frontier, board.root, groups, board.sroot, board.systems)


def clear_members(board: Board, roots: list[Node]) -> Board:
    """A new board whose groups ``roots`` hold no members (they went home, H12, H15)."""
    groups = dict(board.groups)
    for r in roots:
        g = groups[r]
        groups[r] = Group(g.type, g.nodes, g.open, (0,) * len(g.members))
    return Board(board.cells, board.frontier, board.root, groups, board.sroot, board.systems)


def _bump(counts: tuple[int, ...], seat: int, by: int) -> tuple[int, ...]:
    return counts[:seat] + (counts[seat] + by,) + counts[seat + 1 :]


def cells_of(nodes: tuple[Node, ...]) -> tuple[Cell, ...]:
    """The distinct cells of some nodes, sorted (a tile counts once, H9)."""
    return tuple(sorted({(x, y) for x, y, _ in nodes}, key=lambda c: (c[1], c[0])))
