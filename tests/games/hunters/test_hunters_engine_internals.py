"""Hunters and Gatherers internals: the tile tables, the unions of features, position validation,
the lazy move list, purity and the codec. (Rule tests by id are in tests/games/hunters/; tile
files in test_hunters_tile_files.py, notation in test_hunters_notation.py.)"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tribes.core.errors import BadPosition
from tribes.core.header import Header
from tribes.events import codec
from tribes.games import hunters
from tribes.games.hunters import board, features, keys, placement, rules
from tribes.games.hunters.bots import GreedyBot
from tribes.games.hunters.events import TilePlaced
from tribes.games.hunters.state import HuntersState
from tribes.replay import logs

GAME = hunters.GAME
TILES = board.load()
DATA = json.loads((Path(hunters.__file__).parent / "data" / "tiles.json").read_text())


def start(position: dict[str, Any], seed: int = 1) -> HuntersState:
    head = Header(
        game="hunters",
        rules_version=1,
        seed=seed,
        seats=tuple(position["seats"]),
        position=position,
    )
    return GAME.setup(head)


def seeded(seed: int = 3, seats: int = 2) -> HuntersState:
    names = tuple(f"s{i}" for i in range(seats))
    return GAME.setup(Header(game="hunters", rules_version=1, seed=seed, seats=names))


def tile(x: int, y: int, t: int, r: int = 0) -> dict[str, int]:
    return {"x": x, "y": y, "tile": t, "rotation": r}


# --- rotation and fit tables -----------------------------------------------------------------------


def test_engine_rotation_turns_data_sides_clockwise() -> None:
    start_tile = TILES.tiles[56]  # edges N E S W: M F F R
    assert [t.edges for t in start_tile.turned] == ["MFFR", "RMFF", "FRMF", "FFRM"]
    # Rotation 1: data side i faces (i + 1) mod 4, so the river side (data W) faces north.
    assert start_tile.turned[1].parts[0] == start_tile.sides[3] == (2, 3, 0)


def test_engine_fit_table_agrees_with_comparing_every_side() -> None:
    for t in TILES.tiles.values():
        for need in map("".join, itertools.product(".FMR", repeat=4)):
            if need == "....":
                continue
            slow = tuple(
                r
                for r in range(4)
                if all(n in (".", e) for n, e in zip(need, t.turned[r].edges, strict=True))
            )
            assert TILES.rotations(t.id, need) == slow, (t.id, need)
            assert t.by_need[board.need_code(need)] == slow, (t.id, need)
            assert (board.need_code(need) in t.fitting) == bool(slow)
            assert board.need_text(board.need_code(need)) == need


def test_engine_side_parts_and_masks() -> None:
    t = TILES.tiles[1]  # M R F R: rivers 1 (east) and 5 (west) into lake 8
    turned = t.turned[0]
    assert turned.touches[1] == ((1, 1),)
    assert turned.touches[0] == ((0, 0), (1, 0), (3, 2))  # one meadow on three side parts
    assert turned.masks[1] == 1 << 4
    assert turned.hut_masks[8] == turned.hut_masks[1] == turned.hut_masks[5] == (1 << 4 | 1 << 10)
    assert t.system[8] == (8, 1, 5)


def test_engine_allowed_pieces_are_those_whose_places_meet_no_occupied_one() -> None:
    """H6 as ``Tile.allow`` reads it from each option's blockers: a member's option is left
    when the mover has a member and its feature's places meet no manned place, a hut's when the
    mover has a hut and its river system's places meet no hutted one; and a cell's count of
    moves by need is one per fitting rotation plus its options."""
    places = [0, *(1 << b for b in range(12)), 0b101_000_010_100, 0xFFF]
    for t in TILES.tiles.values():
        for r, turned in enumerate(t.turned):
            for members, huts in itertools.product((False, True), repeat=2):
                for manned, hutted in itertools.product(places, repeat=2):
                    key = board.allow_key(members, huts, r, manned, hutted)
                    plain = tuple(
                        (piece, fid)
                        for piece, fid in t.options
                        if (
                            huts and not turned.hut_masks[fid] & hutted
                            if piece == "hut"
                            else members and not turned.masks[fid] & manned
                        )
                    )
                    assert t.allow(key) == plain, (t.id, key)
        for members, huts in itertools.product((False, True), repeat=2):
            key = board.allow_key(members, huts)
            by_need = t.moves_by_need(key)
            for need in range(256):
                rotations = t.by_need[need]
                want = sum(1 + len(t.allow(key | r)) for r in rotations)
                assert by_need[need] == want == t.cell_moves(key, need), (t.id, key, need)


# --- the unions --------------------------------------------------------------------------------------


def test_engine_union_joins_across_sides_and_counts_open_parts() -> None:
    b, _ = features.place(features.EMPTY, TILES, 0, 0, 35, 0, 2)  # forest 1 on the east only
    forest = b.group((0, 0, 1))
    assert (forest.type, forest.open, forest.nodes) == ("forest", 1, ((0, 0, 1),))
    b2, roots = features.place(b, TILES, 1, 0, 38, 0, 2)  # forest 1 on west and east
    joined = b2.group((1, 0, 1))
    assert b2.root[(0, 0, 1)] == b2.root[(1, 0, 1)]
    assert joined.open == 1 + 2 - 2
    assert set(joined.nodes) == {(0, 0, 1), (1, 0, 1)}
    assert b2.root[(1, 0, 1)] in roots
    # Copy on write: the first board is as it was.
    assert b.group((0, 0, 1)) == forest
    assert (1, 0, 1) not in b.root
    assert (1, 0) not in b.cells


def test_engine_merge_relabels_the_smaller_group_only() -> None:
    state = start(
        {
            "seats": ["ann", "bob"],
            "tiles": [tile(0, 0, 61), tile(1, 0, 62), tile(2, 0, 34, 1)],
            "stack": [30],
            "bonus_stack": [],
        }
    )
    meadow = state.board.group((0, 0, 0))
    assert len(meadow.nodes) == 3
    assert {state.board.root[n] for n in meadow.nodes} == {state.board.root[(0, 0, 0)]}


def test_engine_river_system_joins_through_a_lake() -> None:
    b, _ = features.place(features.EMPTY, TILES, 0, 0, 1, 0, 2)  # rivers 1 and 5 into lake 8
    assert b.sroot[(0, 0, 1)] == b.sroot[(0, 0, 5)] == b.sroot[(0, 0, 8)]
    assert b.root[(0, 0, 1)] != b.root[(0, 0, 5)]  # a lake does not join the rivers (H8)
    b2, _ = features.place(b, TILES, 1, 0, 15, 2, 2)
    assert b2.sroot[(1, 0, 1)] == b2.sroot[(0, 0, 8)]
    assert len(b2.system((1, 0, 1)).nodes) == 4


# --- positions ----------------------------------------------------------------------------------------


BASE = {"seats": ["ann", "bob"], "tiles": [tile(0, 0, 56)], "stack": [30, 31]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": 1}, "unknown position key 'colour'"),
        ({"to_move": "cy"}, "to_move 'cy' is not a seat"),
        ({"tiles": []}, "position tiles: a non-empty list"),
        ({"tiles": [tile(0, 0, 56), tile(2, 0, 30)]}, "tiles[1]: the cell (2, 0) touches no"),
        ({"tiles": [tile(0, 0, 56), tile(0, 0, 30)]}, "tiles[1]: the cell (0, 0) holds a tile"),
        (
            {"tiles": [tile(0, 0, 56), tile(-1, 0, 61)]},
            "tiles[1]: the east side is meadow, the tile at (0, 0) shows river there (H5)",
        ),
        ({"tiles": [tile(0, 0, 56), tile(1, 0, 56)]}, "tile 56 is already in tiles[0]"),
        ({"tiles": [tile(0, 0, 99)]}, "tiles[0]: 99 is not a tile"),
        ({"tiles": [tile(0, 0, 56, 4)]}, "rotation is 0 to 3"),
        ({"stack": [56]}, "stack[0]: tile 56 is already in tiles[0]"),
        ({"stack": [80]}, "stack[0]: tile 80 is not a land tile"),
        ({"bonus_stack": [40]}, "bonus_stack[0]: tile 40 is not a bonus tile"),
        ({"scores": {"ann": -1}}, "scores.ann: points are a whole number"),
        (
            {"pieces": [{"x": 0, "y": 0, "feature": 8, "kind": "hunter", "seat": "ann"}]},
            "a tribe member never stands on a lake",
        ),
        (
            {"pieces": [{"x": 0, "y": 0, "feature": 1, "kind": "fisher", "seat": "ann"}]},
            "a fisher stands on a river; feature 1 of tile 56 is a forest (H6)",
        ),
        (
            {"pieces": [{"x": 5, "y": 0, "feature": 1, "kind": "gatherer", "seat": "ann"}]},
            "no tile at (5, 0)",
        ),
        (
            {
                "pieces": [
                    {"x": 0, "y": 0, "feature": 3, "kind": "hut", "seat": "ann"},
                    {"x": 0, "y": 0, "feature": 8, "kind": "hut", "seat": "bob"},
                ]
            },
            "pieces[1]: that river system holds a hut already (H6)",
        ),
        (
            {
                "pieces": [
                    {"x": 0, "y": 0, "feature": 3, "kind": "hut", "seat": "ann"},
                    {"x": 0, "y": 0, "feature": 3, "kind": "fisher", "seat": "bob"},
                    {"x": 0, "y": 0, "feature": 1, "kind": "gatherer", "seat": "bob"},
                    {"x": 0, "y": 0, "feature": 0, "kind": "hunter", "seat": "bob"},
                    {"x": 0, "y": 0, "feature": 2, "kind": "hunter", "seat": "bob"},
                ]
            },
            None,
        ),
    ],
)
def test_engine_position_problems_are_one_bad_position_line(
    change: dict[str, Any], message: str | None
) -> None:
    position = {**BASE, **change}
    if message is None:  # huts and fishers do not block each other: a valid position
        state = start(position)
        assert state.supply == ((5, 1), (1, 2))
        return
    with pytest.raises(BadPosition) as error:
        start(position)
    assert message in error.value.message
    assert "\n" not in error.value.message


def test_engine_position_with_more_pieces_than_a_supply_is_refused() -> None:
    kinds = [
        (0, "hunter"),
        (2, "hunter"),
        (4, "hunter"),
        (6, "hunter"),
        (1, "fisher"),
        (3, "fisher"),
    ]
    pieces = [{"x": 0, "y": 0, "feature": f, "kind": k, "seat": "ann"} for f, k in kinds]
    position = {"seats": ["ann", "bob"], "tiles": [tile(0, 0, 13)], "stack": [17]}
    assert start({**position, "pieces": pieces[:5]}).supply[0] == (0, 2)
    with pytest.raises(BadPosition) as error:
        start({**position, "pieces": pieces})
    assert error.value.message == (
        "position pieces[5]: ann has 5 tribe members and 2 huts in all (H2)"
    )


def test_engine_position_without_stack_shuffles_the_rest_from_the_seed() -> None:
    state = start({"seats": ["ann", "bob"], "tiles": [tile(0, 0, 56)]}, seed=5)
    again = start({"seats": ["ann", "bob"], "tiles": [tile(0, 0, 56)]}, seed=5)
    assert state == again
    assert len(state.stack) + 1 + len(state.removed) == len(TILES.land)
    assert sorted(state.bonus_stack) == list(TILES.bonus)


def test_engine_empty_stack_position_is_over_at_once() -> None:
    state = start({"seats": ["ann", "bob"], "tiles": [tile(0, 0, 56)], "stack": []})
    assert state.over
    assert rules.legal_moves(state) == []


# --- the move list, purity, the codec ---------------------------------------------------------------


def test_engine_moves_behave_as_a_list_of_events() -> None:
    state = seeded()
    moves = rules.legal_moves(state)
    listed = list(moves)
    assert len(moves) == len(listed) > 1
    assert [moves[i] for i in range(len(moves))] == listed
    assert moves[-1] == listed[-1]
    assert moves[1:3] == listed[1:3]
    assert moves == listed
    assert listed[2] in moves
    with pytest.raises(IndexError):
        moves[len(moves)]
    for move in listed:  # every listed move passes the check
        rules.check(state, move)
    cells = [(m.x, m.y, m.rotation) for m in listed if m.piece is None]
    assert cells == sorted(cells, key=lambda c: (c[1], c[0], c[2]))


def test_engine_apply_leaves_its_input_and_its_board_as_they_were() -> None:
    state = seeded(seed=9)
    board = state.board
    sizes = (len(board.cells), len(board.root), len(board.groups), len(board.open_cells))
    before = codec.unstructure(state)
    for move in list(rules.legal_moves(state))[:20]:
        rules.apply(state, move)
    assert codec.unstructure(state) == before
    assert state.board is board
    assert (len(board.cells), len(board.root), len(board.groups), len(board.open_cells)) == sizes


def test_engine_state_read_back_rebuilds_its_caches() -> None:
    state = seeded(seed=4)
    for _ in range(30):
        state, _ = rules.apply(state, rules.legal_moves(state)[0])
    plain = codec.unstructure(state)
    assert "board" not in plain and "tiles" not in plain and "where" not in plain
    back = codec.structure(codec.from_json(codec.to_json(plain)), HuntersState)
    assert back == state
    assert list(rules.legal_moves(back)) == list(rules.legal_moves(state))
    assert back.board.cells.keys() == state.board.cells.keys()
    assert {n: back.board.group(n).members for n in back.board.root} == {
        n: state.board.group(n).members for n in state.board.root
    }
    assert codec.state_hash(back) == codec.state_hash(state)


def test_engine_greedy_bot_takes_the_best_immediate_gain() -> None:
    position = {
        "seats": ["ann", "bob"],
        "tiles": [tile(0, 0, 0, 0)],
        "stack": [2, 30],
        "bonus_stack": [],
    }
    state = start(position)
    bot = GreedyBot(GAME, 1, 0)
    choice = bot.choose(state, rules.legal_moves(state))
    after, _ = rules.apply(state, choice)
    assert after.scores == (5, 0)  # the fisher that closes the river between two lakes


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_engine_occupied_roots_are_those_of_the_pieces_at_every_step(seats: int) -> None:
    """The board keeps the roots of the manned groups and hutted river systems as pieces come
    and go and groups merge (H6's blocking reads them); recomputed from the pieces they agree,
    after completions (H12), bonus tiles (H13) and the end (H15)."""
    for state in _random_states(seats, range(6), "occupied"):
        b = state.board
        members = {b.root[(p.x, p.y, p.feature)] for p in state.pieces if p.kind != "hut"}
        huts = {b.sroot[(p.x, p.y, p.feature)] for p in state.pieces if p.kind == "hut"}
        assert b.manned == members
        assert b.hutted == huts
        assert b.manned == {r for r, g in b.groups.items() if any(g.members)}
        assert b.hutted == {r for r, s in b.systems.items() if any(s.huts)}


@pytest.mark.parametrize("seats", [2, 4, 5])
def test_engine_occupied_places_are_those_of_the_features_across(seats: int) -> None:
    """The board keeps each open cell's occupied places as members and huts come and groups
    join (``Board.around``); at every step of random games, and on the board rebuilt from a
    state read back, they are those read off the features across each side of every open cell
    (H6): a member in the group of the feature on a side part, a hut in the river system of a
    river's middle part."""
    for state in _random_states(seats, range(5), "around"):
        b = state.board
        plain = {}
        for at in b.open_cells:
            x, y, _ = keys.decode(at)
            places = 0
            for d, (dx, dy) in enumerate(board.STEP):
                there = b.cells.get((x + dx, y + dy))
                if there is None:
                    continue
                theirs = there[2].parts[(d + 2) % 4]
                for part, fid in enumerate(reversed(theirs)):  # as the open cell counts them
                    node = (x + dx, y + dy, fid)
                    if b.root_of(node) in b.manned:
                        places |= 1 << (board.MANNED + 3 * d + part)
                    if len(theirs) == 3 and part == 1 and b.sroot_of(node) in b.hutted:
                        places |= 1 << (board.HUTTED + 3 * d + part)
            if places:
                plain[at] = places
        assert b.around == plain
        assert all(placement.occupied(b, at, 0) == plain.get(at, 0) for at in b.open_cells)
        back = codec.structure(codec.unstructure(state), HuntersState)
        assert back.board.around == plain


def _random_states(seats: int, seeds: Iterable[int], stream: str) -> Iterator[Any]:
    """Every state of the random games of ``seeds`` at ``seats`` seats, the last one over; the
    moves drawn from ``stream``."""
    from tribes.core.prng import Stream

    game = hunters.GAME
    picks = Stream(seats, stream)
    for seed in seeds:
        state = game.setup(logs.header(game, seats=[f"p{i}" for i in range(seats)], seed=seed))
        while True:
            yield state
            moves = game.legal_moves(state)
            if not moves:
                break
            state, _ = game.apply(state, moves[picks.below(len(moves))])


def test_engine_reading_the_legal_moves_writes_nothing_on_the_state() -> None:
    """A state is a value: listing and reading its moves leaves every field (caches included)
    the very same object, and the reducer checks every move, a listed one too."""
    import attrs

    from tribes.core.errors import IllegalMove

    game = hunters.GAME
    state = game.setup(logs.header(game, seats=["ann", "bob"], seed=4))
    before = {f.name: getattr(state, f.name) for f in attrs.fields(type(state))}
    moves = game.legal_moves(state)
    assert list(moves) == [moves[i] for i in range(len(moves))]
    after, _ = game.apply(state, moves[0])
    assert {f.name: getattr(state, f.name) for f in attrs.fields(type(state))} == before
    assert all(getattr(state, f.name) is before[f.name] for f in attrs.fields(type(state)))
    with pytest.raises(IllegalMove, match="holds a tile already"):
        game.apply(after, moves[0])


def test_engine_the_quick_check_accepts_exactly_what_the_detailed_one_does() -> None:
    """The reducer's check looks a move up in the tables the legal moves are built from, and
    falls back to the detailed check (which names the rule) for anything else: over random
    games, every move of every cell, rotation and piece option of the drawn tile is accepted by
    one exactly when the other accepts it, and exactly when the legal moves list it."""
    from tribes.core.prng import Stream
    from tribes.games.hunters.events import PIECES

    game = hunters.GAME
    for seed in (3, 8):
        state = game.setup(logs.header(game, seats=["ann", "bob", "cy"], seed=seed))
        picks = Stream(seed, "quick-check")
        while moves := game.legal_moves(state):
            listed = set(moves)
            tile = state.tiles.tiles[state.drawn]
            for at in state.board.open_cells:
                x, y, _ = keys.decode(at)
                for rotation in range(4):
                    for piece, fid in [
                        (None, None),
                        *((p, f) for p in PIECES for f in tile.features),
                    ]:
                        event = TilePlaced(x=x, y=y, rotation=rotation, piece=piece, feature=fid)
                        quick = rules._listed(state, event)
                        detailed = rules._broken_rule(state, event) is None
                        assert quick == detailed == (event in listed), event
            state, _ = game.apply(state, moves[picks.below(len(moves))])


@pytest.mark.parametrize("seats", [2, 4])
def test_engine_legal_moves_are_the_plain_listing_in_order(seats: int) -> None:
    """The legal moves count each open cell's moves from the tile's tables by its need (in C)
    and build a move only when read: over random games they are, in order, the plain listing
    (every open cell by row and column, every rotation that fits, then each piece option of
    the tile the detailed check accepts), read by index, by iteration and by placement."""
    from tribes.core.prng import Stream

    game = hunters.GAME
    for seed in (5, 11):
        state = game.setup(logs.header(game, seats=[f"s{i}" for i in range(seats)], seed=seed))
        picks = Stream(seed, "plain-listing")
        while moves := game.legal_moves(state):
            tile = state.tiles.tiles[state.drawn]
            plain: list[TilePlaced] = []
            counts = []
            for at in state.board.open_cells:  # in order
                x, y, _ = keys.decode(at)
                for rotation in range(4):
                    if placement.misfit(state.board, tile.turned[rotation], x, y) is not None:
                        continue
                    before = len(plain)
                    plain.append(TilePlaced(x=x, y=y, rotation=rotation))
                    for piece, fid in tile.options:
                        event = TilePlaced(x=x, y=y, rotation=rotation, piece=piece, feature=fid)
                        if rules._broken_rule(state, event) is None:
                            plain.append(event)
                    counts.append((keys.encode(x, y, rotation), len(plain) - before))
            assert len(moves) == len(plain)
            assert [moves[i] for i in range(len(moves))] == plain == list(moves)
            assert list(moves.by_placement()) == counts
            state, _ = game.apply(state, moves[picks.below(len(moves))])


class _PlayEveryMove:
    """The greedy bot as it was first written: every legal move played out with the reducer,
    the best gain for its seat less the best rival's, at random among equals."""

    def __init__(self, seed: int, seat: int) -> None:
        from tribes.core.prng import Stream

        self.stream = Stream(seed, f"bot-greedy-{seat}")
        self.seat = seat

    def choose(self, state: HuntersState, moves: Any) -> Any:
        best: list[Any] = []
        best_value = None
        for move in moves:
            value = self.played_out(state, move)
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[self.stream.below(len(best))]

    def played_out(self, state: HuntersState, move: Any) -> int:
        """The gain of ``move`` for this seat less the best rival's, played out."""
        after, _ = rules.apply(state, move)
        gains = [a - b for a, b in zip(after.scores, state.scores, strict=True)]
        rival = max((g for i, g in enumerate(gains) if i != self.seat), default=0)
        return gains[self.seat] - rival


@pytest.mark.parametrize(("seed", "seats"), [(5, 2), (6, 3), (7, 4)])
def test_engine_the_greedy_bot_chooses_as_playing_out_every_move_would(seed, seats) -> None:
    """The greedy bot weighs placements without playing most moves out; over whole games (the
    end and bonus tiles included) it makes the very choice of the bot that plays out every
    move, turn by turn, from the same streams."""
    names = ["ann", "bob", "cy", "dee"][:seats]
    state = GAME.setup(logs.header(GAME, seats=names, seed=seed))
    quick = [GreedyBot(GAME, seed, s) for s in range(seats)]
    reference = [_PlayEveryMove(seed, s) for s in range(seats)]
    while moves := GAME.legal_moves(state):
        seat = GAME.to_move(state)
        chosen = quick[seat].choose(state, moves)
        assert chosen == reference[seat].choose(state, list(moves))
        state, _ = GAME.apply(state, chosen)
    assert state.over


@pytest.mark.parametrize(("seed", "seats"), [(11, 2), (12, 4), (13, 3), (14, 5)])
def test_engine_the_greedy_bot_weighs_each_move_as_playing_it_out(seed, seats) -> None:
    """Every move's worth as the greedy bot weighs it (runs of moves worth the same, most never
    built) is its gain less the best rival's when played out with the reducer, at every turn
    of random games that mostly place no piece: these keep pieces to the end, so the last
    tile's piece options, which greedy games seldom reach, are weighed too."""
    from tribes.core.prng import Stream

    names = ["ann", "bob", "cy", "dee"][:seats]
    state = GAME.setup(logs.header(GAME, seats=names, seed=seed))
    picks = Stream(seed, "weighed")
    while moves := GAME.legal_moves(state):
        seat = GAME.to_move(state)
        runs = GreedyBot(GAME, seed, seat).weigh(state, moves)
        weighed = [value for _, count, value in runs for _ in range(count)]
        assert [first for first, _, _ in runs] == list(
            itertools.accumulate([count for _, count, _ in runs], initial=0)
        )[:-1]
        reference = _PlayEveryMove(seed, seat)
        assert weighed == [reference.played_out(state, move) for move in moves]
        bare = [move for move in moves if move.piece is None]
        pick = moves if picks.below(8) == 0 else bare
        state, _ = GAME.apply(state, pick[picks.below(len(pick))])


@pytest.mark.parametrize("seats", [2, 4])
def test_engine_final_gains_are_what_finish_adds_at_every_step(seats: int) -> None:
    """``scoring.final_gains`` (the greedy bot's shortcut for a move that ends the game) gives
    the points ``scoring.finish`` adds to the scores, at every step of random games: with huts,
    hunters, shrines and members that go home."""
    from tribes.games.hunters.scoring import final_gains, finish

    for state in _random_states(seats, range(4), "final gains"):
        ended = finish(state)[0]
        gains = [a - b for a, b in zip(ended.scores, state.scores, strict=True)]
        assert final_gains(state.tiles, state.board, state.pieces, seats) == gains
