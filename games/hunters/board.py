"""The Hunters and Gatherers tiles: loaded from a JSON tile file, validated, then turned into
tables that every rule reads.

The 2002 tile list is not public; the package ships the approximation of ``data/tiles.json``
(see its ``note``). Any file that passes :func:`validate` can replace it (``--option tiles=PATH``).

Why tables: a placement is checked and scored many thousand times per second in simulations, so
everything that depends only on a tile and its rotation (the edge facing each direction, the
feature on each part of each side, the features a piece may go on) is computed once per tile
set, and placement checks are lookups.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import attrs

from tribes.core import datafiles
from tribes.core.errors import BadData
from tribes.core.reprs import fields_repr
from tribes.games.hunters.keys import step

STANDARD = "standard"
DIRECTIONS = ("north", "east", "south", "west")
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The neighbour across direction N, E, S, W: x grows east, y grows south."""
EDGE_NAMES = {"F": "forest", "M": "meadow", "R": "river"}
TYPES = ("forest", "meadow", "river", "lake")
ANIMALS = ("deer", "mammoth", "aurochs", "tiger")
KINDS = ("start", "land", "bonus")
PIECE_TYPES = {
    "gatherer": ("forest",),
    "fisher": ("river",),
    "hunter": ("meadow",),
    "hut": ("river", "lake"),
}
"""H6: the feature types each piece may stand on."""


@attrs.frozen(kw_only=True)
class Feature:
    """One feature of a tile: its id in the data, type and contents."""

    id: int
    type: str
    gold: bool = False
    mushrooms: int = 0
    fish: int = 0
    lake: int | None = None
    """For a river: the lake of this tile it runs into (None: a spring, or it runs through)."""
    animals: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Deer, mammoth, aurochs, tiger (ANIMALS order)."""
    fire: bool = False
    shrine: bool = False

    __repr__ = fields_repr


@attrs.frozen(kw_only=True, eq=False)
class Turned:
    """One tile in one rotation, as the rules read it."""

    edges: str
    """The edge letter facing N, E, S, W."""
    parts: tuple[tuple[int, ...], ...]
    """By direction: the feature ids on that side, clockwise (a river side has 3)."""
    touches: dict[int, tuple[tuple[int, int], ...]]
    """By feature id: the (direction, part) places it holds on the sides."""
    masks: dict[int, int]
    """By feature id: its places as bits ``1 << (3 * direction + part)``. A member is blocked
    when its feature's mask meets the places whose neighbouring feature holds a member (H6)."""
    around: tuple[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]], ...]
    """By direction d: (what the cell across adds to a placement, ``keys.step(dx, dy)``, dx, dy, the
    side facing back, the feature ids on side d, and what an empty cell's need code becomes
    across side d, from ``NEEDS``): what a placement walks round."""
    hut_masks: dict[int, int]
    """By river or lake id: the places of every river of its system on the tile, which a hut
    there would share a river system with (H6)."""
    across: dict[int, tuple[tuple[int, int, int, int], ...]] = attrs.field(factory=dict)
    """By feature id (a lake: none): for each place it holds on a side, (dx, dy) to the cell
    across, what that cell adds to a placement (``keys.step``), and the place's bit as the cell
    across counts its own sides' parts (``1 << (3 * direction + part)``): where a member or a
    hut on the feature blocks a piece across (H6)."""
    blockers: tuple[int, ...] = ()
    """By option of the tile (``Tile.options``), the bits of an :func:`allow_key` made with
    ``SUPPLY_LEFT`` turned over that rule it out: the places its piece would share a feature
    (a member) or a river system (a hut) with, and the bit of its kind of piece's supply."""

    __repr__ = fields_repr


@attrs.frozen(kw_only=True, eq=False)
class Tile:
    id: int
    kind: str
    edges: str
    sides: tuple[tuple[int, ...], ...]
    features: dict[int, Feature]
    name: str = ""
    turned: tuple[Turned, ...] = ()
    """By rotation 0-3."""
    system: dict[int, tuple[int, ...]] = attrs.field(factory=dict)
    """By river or lake id: the rivers and lakes of this tile joined through its lakes (H16)."""
    options: tuple[tuple[str, int], ...] = ()
    """Every (piece, feature) a piece may take on this tile by feature type alone (H6)."""
    nodes: tuple[tuple[int, str, int], ...] = ()
    """(feature id, type, sides parts held) of its forests, rivers and meadows: what a placed
    tile adds to the unions."""
    systems: tuple[tuple[int, ...], ...] = ()
    """Its rivers and lakes, grouped by the lake they run into (H16)."""
    water: bool = False
    slots: int = 0
    """One more than its highest feature id: the length of a placed cell's roots by feature id."""
    fresh: dict[int, int] = attrs.field(factory=dict)
    """Forest, river and meadow id -> the side parts it holds: what a placed tile's features
    bring to the unions."""
    scorable: tuple[int, ...] = ()
    """Its forests and rivers: the features a placement can complete (meadows never do)."""
    by_need: tuple[tuple[int, ...], ...] = ()
    """By the need code of an empty cell (:func:`need_code`: the edges it needs, N E S W, '.'
    where no tile is), the rotations that fit; 256 entries, () where none does, so that finding
    the placements is one index per empty cell. Each rotation fits the 15 needs made of its own
    edges and dots."""
    fitting: frozenset[int] = frozenset()
    """The need codes some rotation fits: whether a drawn tile fits anywhere is one C loop."""
    fit_counts: bytes = b""
    """By need code, how many rotations fit (``len`` of ``by_need``'s entry): what
    ``bytes.translate`` makes of a board's needs to count a tile's moves without pieces."""
    allowed: dict[int, tuple[tuple[str, int], ...]] = attrs.field(
        factory=dict, metadata={datafiles.MEMO: True}
    )
    """A cache: :func:`allow_key` -> the (piece, feature) options left (H6)."""
    counted: dict[int, bytes | tuple[int, ...]] = attrs.field(
        factory=dict, metadata={datafiles.MEMO: True}
    )
    """A cache of :meth:`moves_by_need`, by its key."""

    __repr__ = fields_repr

    def cell_moves(self, key: int, need: int) -> int:
        """How many moves the tile makes on an empty cell of need code ``need``: each fitting
        rotation without a piece and with each option :meth:`allow` gives for ``key`` (an
        :func:`allow_key` of rotation 0) and that rotation."""
        allowed = self.allowed
        count = 0
        for r in self.by_need[need]:
            found = allowed.get(key | r)
            count += 1 + len(self.allow(key | r) if found is None else found)
        return count

    def moves_by_need(self, key: int) -> bytes | tuple[int, ...]:
        """:meth:`cell_moves` of ``key`` (its supply bits alone) for every need code (a cell with
        no occupied place around it): bytes, for ``bytes.translate``, unless a count passes
        255. With no place occupied, every rotation allows the same options (:meth:`allow`)."""
        found = self.counted.get(key)
        if found is None:
            moves = 1 + len(self.allow(key))  # by rotation; by need, times the rotations that fit
            if 4 * moves < 256:
                found = self.fit_counts.translate(
                    bytes([n * moves for n in range(5)]).ljust(256, b"\0")
                )
            else:
                found = tuple([n * moves for n in self.fit_counts])
            self.counted[key] = found
        return found

    def allow(self, key: int) -> tuple[tuple[str, int], ...]:
        """The options of :func:`allow_key` ``key``: the pieces the supply has whose places do
        not meet an occupied neighbour."""
        found = self.allowed.get(key)
        if found is None:
            against = key ^ SUPPLY_LEFT  # an empty supply's bit set, as the blockers hold it
            blockers = self.turned[key & ROTATION].blockers
            found = tuple(
                [  # a list first: a generator resumed once per option costs more
                    option
                    for option, blocked_by in zip(self.options, blockers, strict=True)
                    if not blocked_by & against
                ]
            )
            if key >> HUTTED:
                self.allowed[key] = found
            else:  # no place occupied: the supply alone rules, the same in every rotation
                for r in range(4):
                    self.allowed[key & ~ROTATION | r] = found
        return found


ROTATION = 0b11
"""The bits of an allow key that hold the rotation (the lowest: a placement's own)."""
MEMBERS_LEFT, HUTS_LEFT = 1 << 2, 1 << 3
"""The bits of an allow key set when the mover has a tribe member, a hut left."""
SUPPLY_LEFT = MEMBERS_LEFT | HUTS_LEFT
HUTTED, MANNED, PLACES = 4, 16, 0xFFF
"""Where an allow key holds the places (12 bits, ``1 << (3 * direction + part)``) whose river
system holds a hut and those whose feature holds a member."""


def allow_key(
    members: bool, huts: bool, rotation: int = 0, manned: int = 0, hutted: int = 0
) -> int:
    """One int for what decides the pieces a placement allows (:meth:`Tile.allow`): whether
    members and huts are left, the rotation and the occupied places. Its parts are bits of their
    own, so a key made without a rotation or places takes them by ``|`` (the legal moves make one
    a turn and add each placement's)."""
    return (
        manned << MANNED
        | hutted << HUTTED
        | (HUTS_LEFT if huts else 0)
        | (MEMBERS_LEFT if members else 0)
        | rotation
    )


SUPPLY_BITS: dict[tuple[bool, bool], int] = {
    (members, huts): allow_key(members, huts) for members in (False, True) for huts in (False, True)
}
"""``allow_key(members, huts)`` by (members left, huts left): the legal moves and the check, on
the hot path, look the supply's part of a key up rather than call for it."""


@attrs.frozen(kw_only=True, eq=False)
class TileSet:
    """A validated tile file with its tables. One per source, shared by every game of it."""

    source: str
    name: str
    tiles: dict[int, Tile]
    start: int
    land: tuple[int, ...]
    bonus: tuple[int, ...]

    __repr__ = fields_repr

    def __deepcopy__(self, memo: object) -> TileSet:
        return self  # one per source, never changed but for its caches

    def rotations(self, tile: int, need: str) -> tuple[int, ...]:
        """The rotations of ``tile`` whose edges match ``need`` (one letter or '.' per side)."""
        return self.tiles[tile].by_need[need_code(need)]


NEED_LETTERS = ".FMR"
"""What a side of an empty cell needs: nothing ('.': no tile across), forest, meadow, river."""


def need_code(need: str) -> int:
    """The need of an empty cell (a letter of NEED_LETTERS for N, E, S, W) as one int from 0 to
    255, two bits a side: what the board keeps and the tiles' tables are indexed by."""
    return _CODES[need]


def need_text(code: int) -> str:
    """The letters of a need code, N E S W ("F.M." : forest to the north, meadow south)."""
    return _TEXTS[code]


_TEXTS = tuple("".join(NEED_LETTERS[code >> (2 * d) & 3] for d in range(4)) for code in range(256))
_CODES = {text: code for code, text in enumerate(_TEXTS)}


NEEDS: tuple[dict[str, tuple[int, ...]], ...] = tuple(
    {
        edge: tuple(
            code & ~(3 << 2 * ((d + 2) & 3)) | NEED_LETTERS.index(edge) << 2 * ((d + 2) & 3)
            for code in range(256)
        )
        for edge in "FMR"
    }
    for d in range(4)
)
"""By direction d from a placed tile and the edge it shows there: by the need code of the empty
cell across, that cell's new need (its side facing back, (d + 2) mod 4, set to the edge)."""


def load(source: str = STANDARD, text: str | None = None) -> TileSet:
    """The tile set of ``source``: ``"standard"``, or the tile file of ``text`` carried in a log
    (``header.files``; ``source`` is then the path given at ``new``, for errors); never a path
    read. Built once per text (a bounded memo: a tile set's tables are a pure function of it)."""
    text = datafiles.carried_text(source, text, "tile file")
    return _standard() if text is None else _from_text(text, source)


@functools.cache
def _standard() -> TileSet:
    return validate(datafiles.packaged("tribes.games.hunters", "tiles.json"), STANDARD)


@functools.lru_cache(maxsize=8)
def _from_text(text: str, label: str) -> TileSet:
    return validate(datafiles.parse(text, label, "tile file"), datafiles.key(text))


def validate(data: Any, source: str = STANDARD) -> TileSet:
    """A TileSet, or BadData naming the first problem's tile and field."""
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise BadData("a tile file is a JSON object with a list 'tiles'")
    tiles: dict[int, Tile] = {}
    for index, raw in enumerate(data["tiles"]):
        tile = _tile(raw, index)
        if tile.id in tiles:
            raise BadData(f"tile {tile.id}: id: used twice")
        tiles[tile.id] = tile
    starts = [t.id for t in tiles.values() if t.kind == "start"]
    if len(starts) != 1:
        raise BadData(f"tiles: a tile file needs exactly 1 start tile, found {len(starts)}")
    land = tuple(sorted(t.id for t in tiles.values() if t.kind == "land"))
    if not land:
        raise BadData("tiles: a tile file needs at least one land tile")
    bonus = tuple(sorted(t.id for t in tiles.values() if t.kind == "bonus"))
    return TileSet(
        source=source,
        name=str(data.get("name", "")),
        tiles=tiles,
        start=starts[0],
        land=land,
        bonus=bonus,
    )


def _tile(raw: Any, index: int) -> Tile:
    if not isinstance(raw, dict):
        raise BadData(f"tiles[{index}]: a tile is an object")
    tid = raw.get("id")
    if not isinstance(tid, int) or isinstance(tid, bool) or tid < 0:
        raise BadData(f"tiles[{index}]: id: a tile needs an id, a whole number 0 or more")
    where = f"tile {tid}"
    unknown = set(raw) - {"id", "kind", "edges", "sides", "features", "name"}
    if unknown:
        raise BadData(f"{where}: {min(unknown)}: not a tile field")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise BadData(f"{where}: kind: one of start, land, bonus, not {kind!r}")
    edges = raw.get("edges")
    if not isinstance(edges, str) or len(edges) != 4 or set(edges) - set(EDGE_NAMES):
        raise BadData(f"{where}: edges: 4 letters of F, M, R (N, E, S, W), not {edges!r}")
    features = _features(raw.get("features"), where)
    sides = raw.get("sides")
    if not isinstance(sides, list) or len(sides) != 4:
        raise BadData(f"{where}: sides: 4 lists of feature ids (N, E, S, W)")
    parsed: list[tuple[int, ...]] = []
    for d, (side, edge) in enumerate(zip(sides, edges, strict=True)):
        field = f"{where}: sides[{d}]"
        if not isinstance(side, list) or not all(
            isinstance(f, int) and not isinstance(f, bool) for f in side
        ):
            raise BadData(f"{field}: a list of feature ids")
        missing = [f for f in side if f not in features]
        if missing:
            raise BadData(f"{field}: feature {missing[0]} is not a feature of the tile")
        types = [features[f].type for f in side]
        if edge == "R":
            if types != ["meadow", "river", "meadow"]:
                raise BadData(
                    f"{field}: a river side is 3 parts: meadow, river, meadow; got {', '.join(types)}"
                )
        elif types != [EDGE_NAMES[edge]]:
            raise BadData(
                f"{field}: a {EDGE_NAMES[edge]} side is one {EDGE_NAMES[edge]} feature; got {', '.join(types) or 'none'}"
            )
        parsed.append(tuple(side))
    _check_rivers(features, parsed, where)
    name = raw.get("name", "")
    if not isinstance(name, str):
        raise BadData(f"{where}: name: a text")
    tile = Tile(id=tid, kind=kind, edges=edges, sides=tuple(parsed), features=features, name=name)
    return _with_tables(tile)


def _features(raw: Any, where: str) -> dict[int, Feature]:
    if not isinstance(raw, list) or not raw:
        raise BadData(f"{where}: features: a non-empty list")
    out: dict[int, Feature] = {}
    for i, f in enumerate(raw):
        field = f"{where}: features[{i}]"
        if not isinstance(f, dict):
            raise BadData(f"{field}: a feature is an object")
        fid = f.get("id")
        if not isinstance(fid, int) or isinstance(fid, bool) or fid < 0:
            raise BadData(f"{field}: id: a whole number 0 or more")
        if fid in out:
            raise BadData(f"{where}: feature {fid}: id: used twice on the tile")
        ftype = f.get("type")
        if ftype not in TYPES:
            raise BadData(f"{field}: type: one of {', '.join(TYPES)}, not {ftype!r}")
        allowed = {
            "forest": {"gold", "mushrooms"},
            "meadow": {"animals", "fire", "shrine"},
            "river": {"lake"},
            "lake": {"fish"},
        }[ftype] | {"id", "type"}
        extra = set(f) - allowed
        if extra:
            raise BadData(f"{field}: {min(extra)}: not a field of a {ftype}")
        animals = f.get("animals", {})
        if not isinstance(animals, dict) or set(animals) - set(ANIMALS):
            raise BadData(f"{field}: animals: an object of counts of {', '.join(ANIMALS)}")
        counts = tuple(animals.get(a, 0) for a in ANIMALS)
        for key, value in [*zip(ANIMALS, counts, strict=True), *_counts(f, "mushrooms", "fish")]:
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise BadData(f"{field}: {key}: a whole number 0 or more, not {value!r}")
        for flag in ("gold", "fire", "shrine"):
            if not isinstance(f.get(flag, False), bool):
                raise BadData(f"{field}: {flag}: true or false")
        lake = f.get("lake")
        if lake is not None and (not isinstance(lake, int) or isinstance(lake, bool)):
            raise BadData(f"{field}: lake: the id of a lake of the tile")
        out[fid] = Feature(
            id=fid,
            type=ftype,
            gold=f.get("gold", False),
            mushrooms=f.get("mushrooms", 0),
            fish=f.get("fish", 0),
            lake=lake,
            animals=counts,
            fire=f.get("fire", False),
            shrine=f.get("shrine", False),
        )
    return out


def _counts(f: dict[str, Any], *keys: str) -> Iterable[tuple[str, Any]]:
    return [(k, f[k]) for k in keys if k in f]


def _check_rivers(features: dict[int, Feature], sides: list[tuple[int, ...]], where: str) -> None:
    """A river touches one side (ending at a lake or a spring) or two (running through); a lake
    it names is a lake of the tile; a feature that is not a lake is on some side."""
    held = {f: sum(1 for side in sides if len(side) == 3 and side[1] == f) for f in features}
    on_sides = {f for side in sides for f in side}
    for fid, feature in features.items():
        field = f"{where}: feature {fid}"
        if feature.type == "lake":
            continue
        if fid not in on_sides:
            raise BadData(f"{field}: sides: a {feature.type} must be on at least one side")
        if feature.type != "river":
            continue
        if feature.lake is not None:
            target = features.get(feature.lake)
            if target is None or target.type != "lake":
                raise BadData(f"{field}: lake: {feature.lake} is not a lake of the tile")
            if held[fid] != 1:
                raise BadData(f"{field}: lake: a river running into a lake touches one side")
        elif held[fid] not in (1, 2):
            raise BadData(f"{field}: sides: a river touches one side (a spring) or two")


def _with_tables(tile: Tile) -> Tile:
    turned = []
    for r in range(4):
        parts = tuple(tile.sides[(d - r) % 4] for d in range(4))
        touches: dict[int, list[tuple[int, int]]] = {}
        for d, side in enumerate(parts):
            for k, f in enumerate(side):
                touches.setdefault(f, []).append((d, k))
        turned.append((parts, touches))
    system: dict[int, tuple[int, ...]] = {}
    for fid, feature in tile.features.items():
        if feature.type == "lake":
            system[fid] = (
                fid,
                *(g.id for g in tile.features.values() if g.type == "river" and g.lake == fid),
            )
    for fid, feature in tile.features.items():
        if feature.type == "river":
            system[fid] = system[feature.lake] if feature.lake is not None else (fid,)
    options = tuple(
        (piece, fid)
        for fid, f in sorted(tile.features.items())
        for piece, types in PIECE_TYPES.items()
        if f.type in types
    )
    tables = []
    for r, (parts, touches) in enumerate(turned):
        masks = dict.fromkeys(tile.features, 0)
        for f, places in touches.items():
            masks[f] = sum(1 << (3 * d + k) for d, k in places)
        hut_masks = {fid: sum(masks[g] for g in group) for fid, group in system.items()}
        edges = "".join(tile.edges[(d - r) % 4] for d in range(4))
        tables.append(
            Turned(
                edges=edges,
                around=tuple(
                    (step(dx, dy), dx, dy, (d + 2) % 4, parts[d], NEEDS[d][edges[d]])
                    for d, (dx, dy) in enumerate(STEP)
                ),
                parts=parts,
                touches={f: tuple(t) for f, t in touches.items()},
                across={
                    f: tuple(
                        (
                            *STEP[d],
                            step(*STEP[d]),
                            1 << 3 * ((d + 2) % 4) + len(parts[d]) - 1 - k,
                        )
                        for d, k in touches.get(f, ())
                    )
                    for f in tile.features
                },
                masks=masks,
                hut_masks=hut_masks,
                blockers=tuple(
                    hut_masks[fid] << HUTTED | HUTS_LEFT
                    if piece == "hut"
                    else masks[fid] << MANNED | MEMBERS_LEFT
                    for piece, fid in options
                ),
            )
        )
    nodes = tuple(
        (fid, f.type, len(turned[0][1][fid]))
        for fid, f in tile.features.items()
        if f.type != "lake"
    )
    systems = tuple(dict.fromkeys(system.values()))
    by_need: list[tuple[int, ...]] = [()] * 256
    for r, t in enumerate(tables):
        for mask in range(1, 16):
            code = need_code("".join(e if mask >> d & 1 else "." for d, e in enumerate(t.edges)))
            by_need[code] = (*by_need[code], r)
    return attrs.evolve(
        tile,
        turned=tuple(tables),
        system=system,
        options=options,
        nodes=nodes,
        systems=systems,
        water=bool(system),
        slots=max(tile.features) + 1,
        by_need=tuple(by_need),
        fit_counts=bytes(map(len, by_need)),
        fitting=frozenset(code for code, rotations in enumerate(by_need) if rotations),
        fresh={fid: held for fid, _, held in nodes},
        scorable=tuple(fid for fid, kind, _ in nodes if kind != "meadow"),
    )
