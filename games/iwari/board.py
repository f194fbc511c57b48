"""The Iwari map and expedition cards: loaded from JSON data files, validated, then lookups.

The published maps are not public; the package ships the stand-in of ``data/map.json``. Any file
that passes :func:`validate` can replace it (``--option map=PATH``), I1. Variants (I21) change the
map's connections and paths, so a :class:`Map` is the file with its variants applied.
"""

from __future__ import annotations

import enum
import functools
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from tribes.core import datafiles
from tribes.core.datafiles import packaged
from tribes.core.errors import BadData
from tribes.core.reprs import fields_repr

STANDARD = "standard"
VARIANTS = ("floating-lands", "glacial-mass", "long-road")


class Terrain(enum.Enum):
    """The five terrains, in the order of the rules (I1, I2); a card is a terrain."""

    TUNDRA = "tundra"
    FOREST = "forest"
    GLACIER = "glacier"
    COAST = "coast"
    DESERT = "desert"

    __hash__ = object.__hash__  # members are singletons: identity hashing, in C (enum's is slow)

    @property
    def letter(self) -> str:
        return self.value[0]


TERRAINS: tuple[Terrain, ...] = tuple(Terrain)
BY_LETTER = {t.letter: t for t in TERRAINS}


@attrs.frozen(kw_only=True)
class Territory:
    id: int
    terrain: Terrain
    col: int
    row: int
    spaces: tuple[int, ...]

    __repr__ = fields_repr


@attrs.frozen(kw_only=True)
class Connection:
    id: int
    a: int
    b: int
    water: bool
    peaks: int
    spaces: tuple[int, int] | None
    """The tent spaces at its two ends (None once a variant re-routes it)."""

    __repr__ = fields_repr


@attrs.frozen(kw_only=True, eq=False)
class Map:
    """A validated map with its variants applied. Compared and hashed by (source, variants)."""

    source: str
    variants: tuple[str, ...]
    name: str
    territories: tuple[Territory, ...]
    """Sorted by id; ids are 1..n."""
    space_territory: tuple[int, ...]
    """By space id (slot 0 unused): its territory."""
    links: tuple[tuple[int, ...], ...]
    """By space id: the spaces a path joins it to (with floating-lands, connections too)."""
    connections: tuple[Connection, ...]
    """Sorted by number: the order totems are scored in (I16)."""
    mountains: dict[int, tuple[int, ...]]
    """Player count -> the peak symbols to cover (I5)."""
    road: tuple[int, ...]
    """The long-road spaces (empty without that variant)."""
    space_xy: tuple[tuple[int, int], ...] = ()
    """By space id (slot 0 unused): where the map file draws it, in tenths of a cell (pictures)."""
    owners_of: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...] = ()
    """By territory index (id - 1): reads the owners of its spaces out of a tents-by-space
    tuple, in C (``operator.itemgetter``); legal moves look at every territory every turn."""
    terrain_numbers: tuple[int, ...] = ()
    """By territory index (id - 1): its terrain's number in ``TERRAINS`` (a hand's payments
    by territory are read with it)."""

    __repr__ = fields_repr

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        return (self.source, self.variants)

    def territory(self, tid: int) -> Territory:
        return self.territories[tid - 1]

    def connection(self, cid: int) -> Connection:
        return self.connections[cid - 1]

    @property
    def spaces(self) -> int:
        return len(self.space_territory) - 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Map) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)


@attrs.frozen(kw_only=True)
class Expedition:
    id: str
    mission: str
    points: tuple[int, int]

    __repr__ = fields_repr


def load(source: str = STANDARD, variants: Iterable[str] = (), text: str | None = None) -> Map:
    """The map of ``source`` with ``variants`` applied: ``"standard"``, or the map file of
    ``text`` carried in a log (``header.files``; ``source`` is then the path given at ``new``,
    for errors); never a path read. Built once per text and variants (a bounded memo)."""
    chosen = tuple(sorted(set(variants)))
    text = datafiles.carried_text(source, text, "map file")
    return _standard(chosen) if text is None else _from_text(text, source, chosen)


@functools.lru_cache(maxsize=64)
def _standard(variants: tuple[str, ...]) -> Map:
    return validate(packaged("tribes.games.iwari", "map.json"), STANDARD, variants)


@functools.lru_cache(maxsize=8)
def _from_text(text: str, label: str, variants: tuple[str, ...]) -> Map:
    data = datafiles.parse(text, label, "map file")
    return attrs.evolve(validate(data, label, variants), source=datafiles.key(text))


def expeditions() -> tuple[Expedition, ...]:
    data = packaged("tribes.games.iwari", "expeditions.json")
    return tuple(
        Expedition(
            id=c["id"],
            mission=c["mission"],
            points=(int(c["points"][0]), int(c["points"][1])),
        )
        for c in data["cards"]
    )


def validate(data: Any, source: str, variants: tuple[str, ...] = ()) -> Map:
    """A Map from map data, or BadData saying what is wrong (I1, I21)."""
    where = f"map '{source}'"
    unknown = set(variants) - set(VARIANTS)
    if unknown:
        raise BadData(f"unknown variant '{min(unknown)}'; variants: {', '.join(VARIANTS)}")
    try:
        territories = tuple(
            sorted((_territory(t) for t in data["territories"]), key=lambda t: t.id)
        )
        spaces = {int(s["id"]): int(s["territory"]) for s in data["tent_spaces"]}
        where_drawn = {
            int(s["id"]): (int(s.get("x", 0)), int(s.get("y", 0))) for s in data["tent_spaces"]
        }
        paths = [_pair(p) for p in data["paths"]]
        connections = tuple(
            sorted((_connection(c) for c in data["connections"]), key=lambda c: c.id)
        )
        mountains = {
            int(k): tuple(int(p) for p in v) for k, v in data["mountains_by_players"].items()
        }
        variant_data = data.get("variants", {})
        name = str(data.get("name", source))
    except (KeyError, TypeError, ValueError) as exc:
        raise BadData(f"{where} is malformed: {exc!r}") from None
    ids = [t.id for t in territories]
    if ids != list(range(1, len(ids) + 1)) or not ids:
        raise BadData(f"{where}: territories must be numbered 1 to n, once each")
    if sorted(spaces) != list(range(1, len(spaces) + 1)):
        raise BadData(f"{where}: tent spaces must be numbered 1 to n, once each")
    for t in territories:
        if not t.spaces:
            raise BadData(f"{where}: territory {t.id} has no tent space")
        for s in t.spaces:
            if spaces.get(s) != t.id:
                raise BadData(f"{where}: tent space {s} of territory {t.id} is not listed as its")
    if sum(len(t.spaces) for t in territories) != len(spaces):
        raise BadData(f"{where}: every tent space must belong to exactly one territory")
    for a, b in paths:
        if a not in spaces or b not in spaces or a == b:
            raise BadData(f"{where}: path {a}-{b} does not join two tent spaces")
    if [c.id for c in connections] != list(range(1, len(connections) + 1)):
        raise BadData(f"{where}: connections must be numbered 1 to n, once each")
    for c in connections:
        if not (c.a in ids and c.b in ids and c.a != c.b):
            raise BadData(f"{where}: connection {c.id} does not join two territories")
        if not 0 <= c.peaks <= 4:
            raise BadData(f"{where}: connection {c.id} has {c.peaks} peaks; symbols have 1 to 4")
        if c.spaces is not None and (
            spaces.get(c.spaces[0]) != c.a or spaces.get(c.spaces[1]) != c.b
        ):
            raise BadData(
                f"{where}: connection {c.id}'s spaces are not in territories {c.a} and {c.b}"
            )
    for players, peaks in mountains.items():
        for peak in peaks:
            if not [c for c in connections if c.peaks == peak]:
                raise BadData(
                    f"{where}: {players} players cover a {peak}-peak symbol no connection has"
                )
    connections, links, road = _apply_variants(
        where, variants, variant_data, connections, paths, spaces
    )
    adjacency: list[set[int]] = [set() for _ in range(len(spaces) + 1)]
    for a, b in links:
        adjacency[a].add(b)
        adjacency[b].add(a)
    return Map(
        source=source,
        variants=variants,
        name=name,
        owners_of=tuple(_owners_getter(t.spaces) for t in territories),
        terrain_numbers=tuple(TERRAINS.index(t.terrain) for t in territories),
        territories=territories,
        space_territory=(0, *(spaces[s] for s in range(1, len(spaces) + 1))),
        space_xy=((0, 0), *(where_drawn[s] for s in range(1, len(spaces) + 1))),
        links=tuple(tuple(sorted(n)) for n in adjacency),
        connections=connections,
        mountains=mountains,
        road=road,
    )


def _apply_variants(
    where: str,
    variants: tuple[str, ...],
    data: Any,
    connections: tuple[Connection, ...],
    paths: list[tuple[int, int]],
    spaces: dict[int, int],
) -> tuple[tuple[Connection, ...], list[tuple[int, int]], tuple[int, ...]]:
    for variant in variants:
        if variant not in data:
            raise BadData(f"{where} has no variant '{variant}'")
    links = list(paths)
    road: tuple[int, ...] = ()
    if "glacial-mass" in variants:
        rejoin = data["glacial-mass"].get("rejoin", {})
        changed = list(connections)
        for cid, (a, b) in rejoin.items():
            index = int(cid) - 1
            if not 0 <= index < len(changed):
                raise BadData(f"{where}: glacial-mass re-routes unknown connection {cid}")
            changed[index] = attrs.evolve(changed[index], a=int(a), b=int(b), spaces=None)
        connections = tuple(changed)
    if "floating-lands" in variants:
        links += [c.spaces for c in connections if c.spaces is not None]
    if "long-road" in variants:
        road = tuple(int(s) for s in data["long-road"].get("road", ()))
        if not road or any(s not in spaces for s in road):
            raise BadData(f"{where}: the long road must list tent spaces")
    return connections, links, road


def _owners_getter(spaces: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    if len(spaces) == 1:
        only = spaces[0]
        return lambda tents: (tents[only],)
    return operator.itemgetter(*spaces)


def _territory(data: Any) -> Territory:
    return Territory(
        id=int(data["id"]),
        terrain=Terrain(data["terrain"]),
        col=int(data["col"]),
        row=int(data["row"]),
        spaces=tuple(int(s) for s in data["tent_spaces"]),
    )


def _connection(data: Any) -> Connection:
    if data["kind"] not in ("land", "water"):
        raise ValueError(f"connection {data['id']} is of unknown kind {data['kind']!r}")
    ends = data.get("spaces")
    return Connection(
        id=int(data["id"]),
        a=int(data["a"]),
        b=int(data["b"]),
        water=data["kind"] == "water",
        peaks=int(data["peaks"]),
        spaces=(int(ends[0]), int(ends[1])) if ends else None,
    )


def _pair(data: Any) -> tuple[int, int]:
    a, b = data
    return int(a), int(b)
