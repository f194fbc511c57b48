"""The Clans board and epoch chart: loaded from JSON data files, validated, then pure lookups.

The published map is not public; the package ships the stand-in of ``data/board.json``. Any file
that passes :func:`validate` can replace it (``--option board=PATH``), so a user with the real map
can load it (C1).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from tribes.core import datafiles
from tribes.core.datafiles import packaged
from tribes.core.errors import BadData
from tribes.core.reprs import fields_repr

STANDARD = "standard"
TERRITORIES = 60
REGIONS = 12
REGION_SIZE = 5
VILLAGES = 12
HUTS_PER_COLOUR = 12


class Colour(enum.Enum):
    """The five hut colours, in the order of the rules (C2); a colour's index is its hut slot."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    BLACK = "black"


COLOURS: tuple[Colour, ...] = tuple(Colour)
COLOUR_NAMES: tuple[str, ...] = tuple(c.value for c in Colour)


@attrs.frozen(kw_only=True)
class Territory:
    id: int
    terrain: str
    region: int
    q: int
    r: int

    __repr__ = fields_repr


@attrs.frozen(kw_only=True)
class Epoch:
    number: int
    chips: int
    bonus: int
    favourable: frozenset[str]
    unfavourable: frozenset[str]

    __repr__ = fields_repr


@attrs.frozen(kw_only=True, eq=False)
class Board:
    """A validated board. Territory ids are 1..60; per-id tuples have an unused slot 0.

    Compared and hashed by ``source`` (``"standard"`` or the path it was loaded from), which is
    also how a state refers to its board.
    """

    source: str
    name: str
    terrains: frozenset[str]
    territories: tuple[Territory, ...]
    neighbours: tuple[tuple[int, ...], ...]
    neighbour_mask: tuple[int, ...]
    rivers: frozenset[frozenset[int]]
    lakes: frozenset[frozenset[int]]
    epochs: tuple[Epoch, ...]
    slot_epochs: tuple[int, ...]
    """The epoch of the chip taken by the 1st..12th village."""
    regions: tuple[tuple[int, ...], ...]
    """The territories of each region, regions in number order."""
    pairs: tuple[tuple[int, int], ...]
    """Every directed pair of adjacent territories (source, target), sorted; pair ``i`` is bit
    ``i`` of a pair mask, which is how the rules track which moves the occupied map allows."""
    touch_mask: tuple[int, ...]
    """By territory: the pair bits it is the source or target of."""
    out_mask: tuple[int, ...]
    """By territory: the pair bits it is the source of."""
    pair_bit: Mapping[tuple[int, int], int]
    """By pair (source, target): its bit; the rules check a move with one lookup."""

    __repr__ = fields_repr

    def territory(self, tid: int) -> Territory:
        return self.territories[tid - 1]

    def adjacent(self, a: int, b: int) -> bool:
        return bool(self.neighbour_mask[a] >> b & 1)

    def epoch(self, number: int) -> Epoch:
        return self.epochs[number - 1]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.source == self.source

    def __hash__(self) -> int:
        return hash(self.source)


def load(source: str = STANDARD, text: str | None = None) -> Board:
    """The board of ``source``: ``"standard"`` (the packaged files), or the board file of
    ``text`` carried in a log (``header.files``; ``source`` is then the path given at ``new``,
    for errors); never a path read. Built once per text (a bounded memo)."""
    text = datafiles.carried_text(source, text, "board file")
    return _standard() if text is None else _from_text(text, source)


def forget_built() -> None:
    """Forget the boards built so far (their memos): for a test that swaps the data the next
    ones are built from (``tribes.testing.rulechange``), never needed in play."""
    _standard.cache_clear()
    _from_text.cache_clear()


@functools.cache
def _standard() -> Board:
    chart = packaged("tribes.games.clans", "epochs.json")
    return validate(packaged("tribes.games.clans", "board.json"), chart, STANDARD)


@functools.lru_cache(maxsize=8)
def _from_text(text: str, label: str) -> Board:
    chart = packaged("tribes.games.clans", "epochs.json")
    data = datafiles.parse(text, label, "board file")
    return attrs.evolve(validate(data, chart, label), source=datafiles.key(text))


def validate(board: Any, chart: Any, source: str) -> Board:
    """A Board from board and chart data, or BadData saying what is wrong (C1, C3)."""
    where = f"board '{source}'"
    try:
        territories = tuple(
            sorted((_territory(t) for t in board["territories"]), key=lambda t: t.id)
        )
        adjacent = [_pair(p) for p in board["adjacent"]]
        rivers = frozenset(frozenset(_pair(p)) for p in board.get("rivers", []))
        lakes = frozenset(frozenset(_pair(p)) for p in board.get("lakes", []))
        terrains = set(board["terrains"])
        name = str(board.get("name", source))
    except (KeyError, TypeError, ValueError) as exc:
        raise BadData(f"{where} is malformed: {exc}") from None
    ids = [t.id for t in territories]
    if ids != list(range(1, TERRITORIES + 1)):
        raise BadData(f"{where}: territories must be numbered 1 to {TERRITORIES}, once each")
    for t in territories:
        if t.terrain not in terrains:
            raise BadData(f"{where}: territory {t.id} has unknown terrain '{t.terrain}'")
    regions: dict[int, int] = {}
    for t in territories:
        regions[t.region] = regions.get(t.region, 0) + 1
    if len(regions) != REGIONS or set(regions.values()) != {REGION_SIZE}:
        raise BadData(f"{where}: needs {REGIONS} regions of {REGION_SIZE} territories each")
    neighbours: list[set[int]] = [set() for _ in range(TERRITORIES + 1)]
    for a, b in adjacent:
        if a == b or not (1 <= a <= TERRITORIES and 1 <= b <= TERRITORIES):
            raise BadData(f"{where}: adjacency {a}-{b} names no pair of territories")
        neighbours[a].add(b)
        neighbours[b].add(a)
    lonely = [tid for tid in ids if not neighbours[tid]]
    if lonely:
        raise BadData(f"{where}: territory {lonely[0]} has no neighbour")
    if not _connected(neighbours, ids):
        raise BadData(f"{where}: the map is not connected")
    adjacent_pairs = {frozenset(p) for p in adjacent}
    if not rivers <= adjacent_pairs:
        raise BadData(f"{where}: a river border joins territories that are not adjacent")
    if lakes & adjacent_pairs:
        raise BadData(f"{where}: a lake border cannot also be an adjacency")
    epochs = _epochs(chart, terrains)
    return Board(
        source=source,
        name=name,
        terrains=frozenset(terrains),
        territories=territories,
        neighbours=((), *(tuple(sorted(n)) for n in neighbours[1:])),
        neighbour_mask=(0, *(_mask(n) for n in neighbours[1:])),
        rivers=rivers,
        lakes=lakes,
        epochs=epochs,
        slot_epochs=tuple(e.number for e in epochs for _ in range(e.chips)),
        regions=tuple(
            tuple(t.id for t in territories if t.region == region) for region in sorted(regions)
        ),
        **_pair_geometry(neighbours),
    )


def _pair_geometry(neighbours: list[set[int]]) -> dict[str, Any]:
    pairs = tuple((a, b) for a in range(1, TERRITORIES + 1) for b in sorted(neighbours[a]))
    touch = [0] * (TERRITORIES + 1)
    out = [0] * (TERRITORIES + 1)
    for bit, (a, b) in enumerate(pairs):
        touch[a] |= 1 << bit
        touch[b] |= 1 << bit
        out[a] |= 1 << bit
    return {
        "pairs": pairs,
        "touch_mask": tuple(touch),
        "out_mask": tuple(out),
        "pair_bit": {pair: bit for bit, pair in enumerate(pairs)},
    }


def _territory(data: Any) -> Territory:
    return Territory(
        id=int(data["id"]),
        terrain=str(data["terrain"]),
        region=int(data["region"]),
        q=int(data["q"]),
        r=int(data["r"]),
    )


def _pair(data: Any) -> tuple[int, int]:
    a, b = data
    return int(a), int(b)


def _mask(ids: Iterable[int]) -> int:
    mask = 0
    for i in ids:
        mask |= 1 << i
    return mask


def _connected(neighbours: list[set[int]], ids: list[int]) -> bool:
    seen = {ids[0]}
    todo = [ids[0]]
    while todo:
        for n in neighbours[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(ids)


def _epochs(chart: Any, terrains: set[str]) -> tuple[Epoch, ...]:
    try:
        epochs = tuple(
            Epoch(
                number=int(e["epoch"]),
                chips=int(e["chips"]),
                bonus=int(e["bonus"]),
                favourable=frozenset(e["favourable"]),
                unfavourable=frozenset(e["unfavourable"]),
            )
            for e in chart["epochs"]
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BadData(f"epoch chart is malformed: {exc}") from None
    if [e.number for e in epochs] != [1, 2, 3, 4, 5] or sum(e.chips for e in epochs) != VILLAGES:
        raise BadData(f"epoch chart needs epochs 1 to 5 with {VILLAGES} chips in all")
    for e in epochs:
        unknown = (e.favourable | e.unfavourable) - terrains
        if unknown:
            raise BadData(f"epoch chart: epoch {e.number} names unknown terrain '{min(unknown)}'")
    return epochs
