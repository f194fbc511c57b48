"""Each Hunters and Gatherers fixture shows the case of games/hunters/rules.md ("Edge cases that want a
fixture log each") it is named for: exact points, winners, returned members and removed tiles,
read from the replayed effects and states.

The golden transcripts of the edge-case logs are pinned by tests/test_playthroughs.py; the two
full games are replayed here with their checkpoints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tribes.core.engine import Step
from tribes.core.errors import IllegalMove
from tribes.games.hunters.events import (
    BonusEarned,
    FeatureScored,
    GameEnded,
    PlacedTile,
    TileRemoved,
)
from tribes.replay import logs
from tribes.replay.logs import Opened

ROOT = Path(__file__).resolve().parents[3]
HUNTERS = ROOT / "fixtures" / "hunters"
ANN, BOB = 0, 1

EDGE_CASES = [
    "tile-fits-nowhere",
    "river-loop",
    "river-both-ends-one-lake",
    "forests-joined-tie",
    "forests-joined-majority",
    "member-placed-scored-returned",
    "gold-two-forests-one-bonus",
    "bonus-completes-gold-forest",
    "bonus-tile-fits-nowhere",
    "last-land-tile-earns-bonus",
    "huts-joined-through-lake",
    "tigers-and-fire",
    "shrine-beats-majority",
]


def _replay(name: str) -> tuple[Opened, list[Step]]:
    opened = logs.open_log(HUNTERS / f"{name}.json")
    return opened, logs.steps_of(opened.game, opened.log)


def _of(effects: Any, kind: type) -> list[Any]:
    return [e for e in effects if isinstance(e, kind)]


def _members(state: Any, seat: int) -> int:
    return state.supply[seat][0]


@pytest.mark.parametrize("name", EDGE_CASES)
def test_every_edge_case_has_a_fixture_started_from_a_position(name: str) -> None:
    opened, steps = _replay(name)
    assert opened.log.header.game == "hunters"
    assert opened.log.header.position is not None
    assert opened.log.header.meta["case"].startswith("H")
    assert len(steps) == len(opened.log.events) + 1


@pytest.mark.parametrize(("name", "seats"), [("full-game-2p", 2), ("full-game-4p", 4)])
def test_full_games_replay_to_the_end(name: str, seats: int) -> None:
    opened, steps = _replay(name)  # checks every checkpoint
    assert len(opened.log.header.seats) == seats
    assert opened.log.header.position is None
    end = steps[-1].state
    assert end.over
    (ended,) = _of(steps[-1].effects, GameEnded)
    assert ended.scores == end.scores
    top = max(end.scores)
    assert ended.winners == tuple(i for i, s in enumerate(end.scores) if s == top)
    placed = sum(len(_of(s.effects, PlacedTile)) for s in steps)
    removed = sum(len(_of(s.effects, TileRemoved)) for s in steps)
    assert placed == len(end.placed) - 1  # all but the start tile
    assert removed + len(steps[0].state.removed) == len(end.removed)
    assert not end.stack


# --- H5: a tile that fits nowhere ------------------------------------------------------------------


def test_tile_fits_nowhere() -> None:
    _, steps = _replay("tile-fits-nowhere")
    assert steps[0].state.drawn == 62
    after = steps[1]
    assert _of(after.effects, TileRemoved) == [TileRemoved(tile=13), TileRemoved(tile=17)]
    assert after.state.removed == (13, 17)
    assert after.state.drawn == 30
    assert after.state.to_move == BOB
    assert after.state.stack == ()
    assert not after.state.over


# --- H8, H9: rivers ---------------------------------------------------------------------------------


def test_river_loop() -> None:
    _, steps = _replay("river-loop")
    (scored,) = _of(steps[1].effects, FeatureScored)
    assert scored.type == "river"
    assert scored.tiles == ((0, 0), (1, 0), (0, 1), (1, 1))
    assert scored.points == 4
    assert scored.winners == (ANN,)
    assert scored.returned == (ANN,)
    assert steps[1].state.scores == (4, 0)
    assert _members(steps[0].state, ANN) == 4
    assert _members(steps[1].state, ANN) == 5
    assert not steps[1].state.pieces


def test_river_with_both_ends_in_one_lake() -> None:
    _, steps = _replay("river-both-ends-one-lake")
    (scored,) = _of(steps[1].effects, FeatureScored)
    assert scored.type == "river"
    assert len(scored.tiles) == 6  # tile 1 holds both ends and counts once
    assert scored.points == 6 + 3  # the lake's 3 fish once
    assert scored.winners == (BOB,)
    assert scored.returned == (BOB,)
    assert steps[1].state.scores == (0, 9)


# --- H10, H11: forests and majority ----------------------------------------------------------------


def test_forests_joined_tie_both_score_in_full() -> None:
    _, steps = _replay("forests-joined-tie")
    (scored,) = _of(steps[1].effects, FeatureScored)
    assert (scored.type, scored.points, scored.winners) == ("forest", 6, (ANN, BOB))
    assert sorted(scored.returned) == [ANN, BOB]
    assert steps[1].state.scores == (6, 6)
    assert not _of(steps[1].effects, BonusEarned)  # gold, but the bonus stack is empty
    assert steps[1].state.to_move == BOB


def test_forests_joined_majority_scores_alone() -> None:
    _, steps = _replay("forests-joined-majority")
    (scored,) = _of(steps[1].effects, FeatureScored)
    assert (scored.type, scored.points, scored.winners) == ("forest", 8, (ANN,))
    assert sorted(scored.returned) == [ANN, ANN, BOB]
    assert steps[1].state.scores == (8, 0)
    assert [m for m, _ in steps[1].state.supply] == [5, 5]


# --- H12: placed, scored and returned in one turn ----------------------------------------------------


def test_member_placed_scored_and_returned_in_one_turn() -> None:
    _, steps = _replay("member-placed-scored-returned")
    event = steps[1].event
    assert event is not None
    assert (event.piece, event.feature) == ("fisher", 1)
    (scored,) = _of(steps[1].effects, FeatureScored)
    assert (scored.type, scored.points, scored.winners, scored.returned) == (
        "river",
        2 + 1 + 2,
        (ANN,),
        (ANN,),
    )
    assert _members(steps[0].state, ANN) == _members(steps[1].state, ANN) == 5
    assert not steps[1].state.pieces


# --- H13: gold and bonus tiles ----------------------------------------------------------------------


def test_gold_completing_two_forests_earns_one_bonus_tile() -> None:
    _, steps = _replay("gold-two-forests-one-bonus")
    scored = _of(steps[1].effects, FeatureScored)
    assert [(s.type, s.points, s.winners) for s in scored] == [
        ("forest", 6, (ANN,)),
        ("forest", 6, (BOB,)),
    ]
    assert _of(steps[1].effects, BonusEarned) == [BonusEarned(seat=ANN, tile=81)]
    pending = steps[1].state
    assert (pending.drawn, pending.bonus, pending.to_move) == (81, True, ANN)
    assert pending.bonus_stack == (82,)
    assert pending.stack == (30,)  # the land stack waits
    after = steps[2].state
    assert steps[2].seat == ANN
    assert not _of(steps[2].effects, BonusEarned)
    assert (after.drawn, after.bonus, after.to_move) == (30, False, BOB)


def test_bonus_tile_completing_a_gold_forest_earns_no_other() -> None:
    _, steps = _replay("bonus-completes-gold-forest")
    assert _of(steps[1].effects, BonusEarned) == [BonusEarned(seat=ANN, tile=81)]
    (first,) = _of(steps[1].effects, FeatureScored)
    assert (first.points, first.winners) == (8, (ANN,))
    (second,) = _of(steps[2].effects, FeatureScored)
    assert second.type == "forest"
    assert second.points == 4 * 2 + 2  # 4 pieces and 81's mushroom patch (H20)
    assert second.winners == (BOB,)
    assert not _of(steps[2].effects, BonusEarned)
    after = steps[2].state
    assert after.bonus_stack == (80,)
    assert (after.drawn, after.bonus, after.to_move) == (40, False, BOB)
    assert after.scores == (8, 10)


def test_bonus_tile_that_fits_nowhere_is_removed() -> None:
    _, steps = _replay("bonus-tile-fits-nowhere")
    effects = steps[1].effects
    assert _of(effects, TileRemoved) == [TileRemoved(tile=86, bonus=True)]
    assert _of(effects, BonusEarned) == [BonusEarned(seat=ANN, tile=81)]
    assert effects.index(_of(effects, TileRemoved)[0]) < effects.index(_of(effects, BonusEarned)[0])
    assert steps[1].state.removed == (86,)
    assert steps[1].state.bonus_stack == ()
    assert steps[2].state.drawn == 30


def test_last_land_tile_still_earns_its_bonus_tile() -> None:
    _, steps = _replay("last-land-tile-earns-bonus")
    first = steps[1].state
    assert first.stack == ()
    assert not first.over
    assert (first.drawn, first.bonus) == (81, True)
    end = steps[2]
    assert end.state.over
    assert end.state.bonus_stack == (82,)  # unused bonus tiles stay unused
    (meadow,) = [e for e in _of(end.effects, FeatureScored) if e.final]
    assert (meadow.type, meadow.winners) == ("meadow", (BOB,))
    (ended,) = _of(end.effects, GameEnded)
    assert ended.scores == end.state.scores == (8, meadow.points)


# --- H16: huts ---------------------------------------------------------------------------------------


def test_hut_systems_joined_through_a_lake() -> None:
    _, steps = _replay("huts-joined-through-lake")
    start = steps[0].state
    assert len({start.board.sroot[(p.x, p.y, p.feature)] for p in start.pieces}) == 2
    end = steps[1]
    rivers = [e for e in _of(end.effects, FeatureScored) if not e.final]
    assert [(r.type, r.points, r.winners) for r in rivers] == [
        ("river", 2 + 1 + 3, ()),
        ("river", 2 + 3 + 2, ()),
    ]
    (system,) = [e for e in _of(end.effects, FeatureScored) if e.final]
    assert system.type == "system"
    assert system.tiles == ((-1, 0), (0, 0), (1, 0))
    assert (system.points, system.winners) == (6, (ANN, BOB))
    assert end.state.scores == (6, 6)
    assert _of(end.effects, GameEnded)[0].winners == (ANN, BOB)


# --- H17, H19, H22: meadows --------------------------------------------------------------------------


def test_tigers_against_deer_with_and_without_fire() -> None:
    _, steps = _replay("tigers-and-fire")
    meadows = [e for e in _of(steps[1].effects, FeatureScored) if e.type == "meadow"]
    north, south = meadows
    assert (north.tiles, north.points, north.winners) == (((0, 0), (1, 0), (2, 0)), 2, (ANN,))
    assert (south.points, south.winners) == (2, (BOB,))
    assert (1, 1) in south.tiles  # the fire tile
    assert steps[1].state.scores == (2, 2)


def test_shrine_beats_a_majority() -> None:
    opened, steps = _replay("shrine-beats-majority")
    assert steps[1].seat == BOB
    document = opened.game.document(steps[1].state, opened.log.header.seats, "all")
    (meadow,) = [f for f in document["features"] if f["type"] == "meadow" and f["pieces"]]
    assert meadow["pieces"] == {"ann": 1, "bob": 2}
    assert meadow["shrine"] is True
    on_tiles = {"deer": 2, "mammoth": 1, "aurochs": 1, "tiger": 1}  # what the tiles show
    # what scores: the tiger eats a deer (H19)
    assert meadow["animals"] == {
        "deer": 1,
        "mammoth": 1,
        "aurochs": 1,
        "tiger": 1,
        "on_tiles": on_tiles,
    }
    (scored,) = [e for e in _of(steps[1].effects, FeatureScored) if e.type == "meadow"]
    assert (scored.points, scored.winners) == (6, (ANN,))
    assert steps[1].state.scores == (6, 0)


def test_a_move_after_the_end_is_refused() -> None:
    opened, steps = _replay("shrine-beats-majority")
    with pytest.raises(IllegalMove) as error:
        opened.game.apply(steps[-1].state, opened.log.events[0])
    assert error.value.rule == "H14"
