"""An independent model of the joined features of a layout, written by the test writer from the
rules (H5–H22), the tile data's note and the contract's geometry, never from the engine.

It is a second, small reading of the rules to compare the engine with on many random games:
which placements fit, which pieces may go where, what each move scores, the ``features`` list.
Everything here works on plain data: tiles as (x, y, tile, rotation), pieces as (x, y, feature,
kind, seat).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from hunters_helpers import DX, TILES, feature

Node = tuple[int, int, int]  # x, y, feature id
MEMBER = {"forest": "gatherer", "river": "fisher", "meadow": "hunter"}


class _UF:
    def __init__(self) -> None:
        self.up: dict[Node, Node] = {}

    def find(self, a: Node) -> Node:
        self.up.setdefault(a, a)
        while self.up[a] != a:
            self.up[a] = self.up[self.up[a]]
            a = self.up[a]
        return a

    def union(self, a: Node, b: Node) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.up[ra] = rb


def _side(tile: int, r: int, d: int) -> list[int]:
    return TILES[tile]["sides"][(d - r) % 4]


class Layout:
    """The joined features of a layout."""

    def __init__(self, tiles: Sequence[tuple[int, int, int, int]]) -> None:
        self.cells = {(x, y): (t, r) for x, y, t, r in tiles}
        self.uf = _UF()
        self.open: set[Node] = set()
        for (x, y), (t, r) in self.cells.items():
            for f in TILES[t]["features"]:
                self.uf.find((x, y, f["id"]))
            for d in range(4):
                parts = _side(t, r, d)
                dx, dy = DX[d]
                other = self.cells.get((x + dx, y + dy))
                if other is None:
                    self.open.update((x, y, p) for p in parts)
                    continue
                theirs = _side(other[0], other[1], (d + 2) % 4)
                assert len(parts) == len(theirs)
                for k, p in enumerate(parts):
                    self.uf.union((x, y, p), (x + dx, y + dy, theirs[len(parts) - 1 - k]))
        self.groups: dict[Node, list[Node]] = defaultdict(list)
        for node in list(self.uf.up):
            self.groups[self.uf.find(node)].append(node)
        # river systems: rivers joined to the lakes they name on their own tile
        self.sys = _UF()
        for node in self.uf.up:
            self.sys.union(node, self.uf.find(node))
            kind = self.type(node)
            f = feature(self.cells[node[:2]][0], node[2])
            if kind == "river" and "lake" in f:
                self.sys.union(node, (node[0], node[1], f["lake"]))

    def type(self, node: Node) -> str:
        return feature(self.cells[node[:2]][0], node[2])["type"]

    def info(self, node: Node) -> dict[str, Any]:
        return feature(self.cells[node[:2]][0], node[2])

    def group(self, node: Node) -> list[Node]:
        return self.groups[self.uf.find(node)]

    def system(self, node: Node) -> list[Node]:
        if not hasattr(self, "_systems"):
            self._systems: dict[Node, list[Node]] = defaultdict(list)
            for n in self.uf.up:
                if self.type(n) in ("river", "lake"):
                    self._systems[self.sys.find(n)].append(n)
        return self._systems[self.sys.find(node)]

    def complete(self, node: Node) -> bool:
        return not any(n in self.open for n in self.group(node))

    # --- values ---------------------------------------------------------------------------

    def forest_points(self, node: Node) -> int:
        nodes = self.group(node)
        return 2 * len(nodes) + 2 * sum(1 for n in nodes if self.info(n).get("mushrooms"))

    def has_gold(self, node: Node) -> bool:
        return any(self.info(n).get("gold") for n in self.group(node))

    def river_points(self, node: Node) -> int:
        nodes = self.group(node)
        lakes = {(n[0], n[1], self.info(n)["lake"]) for n in nodes if "lake" in self.info(n)}
        fish = sum(self.info(lake)["fish"] for lake in lakes)
        return len({n[:2] for n in nodes}) + fish

    def system_fish(self, node: Node) -> int:
        return sum(self.info(n).get("fish", 0) for n in self.system(node) if self.type(n) == "lake")

    def meadow_points(self, node: Node) -> int:
        count: Counter[str] = Counter()
        fire = False
        for n in self.group(node):
            count.update(self.info(n).get("animals", {}))
            fire = fire or bool(self.info(n).get("fire"))
        deer = count["deer"] if fire else max(0, count["deer"] - count["tiger"])
        return 2 * (deer + count["mammoth"] + count["aurochs"])

    # --- listings -----------------------------------------------------------------------------

    def roots(self, kind: str) -> list[Node]:
        return [root for root, nodes in self.groups.items() if self.type(nodes[0]) == kind]

    def system_roots(self) -> list[Node]:
        seen: dict[Node, Node] = {}
        for node in self.uf.up:
            if self.type(node) in ("river", "lake"):
                seen.setdefault(self.sys.find(node), node)
        return list(seen.values())

    def cells_of(self, nodes: Iterable[Node]) -> tuple[tuple[int, int], ...]:
        return tuple(sorted({n[:2] for n in nodes}))


def majority(counts: Counter[str]) -> tuple[str, ...]:
    if not counts:
        return ()
    top = max(counts.values())
    return tuple(sorted(s for s, c in counts.items() if c == top))


def members_in(layout: Layout, nodes: Iterable[Node], pieces: Iterable[tuple]) -> Counter[str]:
    nodes = set(nodes)
    return Counter(seat for x, y, f, kind, seat in pieces if kind != "hut" and (x, y, f) in nodes)


def huts_in(layout: Layout, nodes: Iterable[Node], pieces: Iterable[tuple]) -> Counter[str]:
    nodes = set(nodes)
    return Counter(seat for x, y, f, kind, seat in pieces if kind == "hut" and (x, y, f) in nodes)


def piece_options(
    layout: Layout, x: int, y: int, pieces: Sequence[tuple], members: int, huts: int
) -> set[tuple[str, int]]:
    """H6: the (kind, feature) pieces allowed on the tile at (x, y) of ``layout``."""
    tile = layout.cells[(x, y)][0]
    out: set[tuple[str, int]] = set()
    for f in TILES[tile]["features"]:
        node = (x, y, f["id"])
        kind = f["type"]
        if kind in MEMBER and members > 0 and not members_in(layout, layout.group(node), pieces):
            out.add((MEMBER[kind], f["id"]))
        if (
            kind in ("river", "lake")
            and huts > 0
            and not huts_in(layout, layout.system(node), pieces)
        ):
            out.add(("hut", f["id"]))
    return out


def completion(
    layout: Layout, x: int, y: int, pieces: Sequence[tuple]
) -> tuple[dict[str, int], set[tuple], bool]:
    """H7–H12 for the tile just placed at (x, y): points per seat, the members that go home and
    whether a completed forest holds gold."""
    tile = layout.cells[(x, y)][0]
    points: Counter[str] = Counter()
    home: set[tuple] = set()
    gold = False
    seen: set[Node] = set()
    for f in TILES[tile]["features"]:
        node = (x, y, f["id"])
        root = layout.uf.find(node)
        if f["type"] not in ("forest", "river") or root in seen or not layout.complete(node):
            continue
        seen.add(root)
        nodes = set(layout.group(node))
        value = layout.forest_points(node) if f["type"] == "forest" else layout.river_points(node)
        for seat in majority(members_in(layout, nodes, pieces)):
            points[seat] += value
        home |= {p for p in pieces if p[3] != "hut" and p[:3] in nodes}
        gold = gold or (f["type"] == "forest" and layout.has_gold(node))
    return dict(points), home, gold


def final(layout: Layout, pieces: Sequence[tuple]) -> dict[str, int]:
    """H15–H17, H19–H22: hunters and huts at the end."""
    points: Counter[str] = Counter()
    for root in layout.roots("meadow"):
        nodes = set(layout.group(root))
        hunters = Counter(s for x, y, f, k, s in pieces if k == "hunter" and (x, y, f) in nodes)
        if not hunters:
            continue
        shrine = [
            s
            for x, y, f, k, s in pieces
            if k == "hunter" and (x, y, f) in nodes and layout.info((x, y, f)).get("shrine")
        ]
        for seat in shrine[:1] or majority(hunters):
            points[seat] += layout.meadow_points(root)
    for node in layout.system_roots():
        nodes = set(layout.system(node))
        for seat in majority(huts_in(layout, nodes, pieces)):
            points[seat] += layout.system_fish(node)
    return dict(points)
