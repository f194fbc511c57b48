"""Clans rules C12–C19: founding and scoring villages (written from games/clans/rules.md)."""

from __future__ import annotations

import pytest

from tribes.core.game import EVERYTHING
from tribes.games.clans.events import (
    EpochBegan,
    GameEnded,
    HutsMoved,
    OrderAwaited,
    OrderChosen,
    StrifeRemoved,
    VillageDoomed,
    VillageFounded,
    VillageUnscored,
)
from tribes.testing.clans import (
    EMPTY,
    GAME,
    SEATS2,
    effects_of,
    header_for,
    huts,
    move,
    moves,
    order,
    refused,
    start,
    terrain,
    total_huts,
    track,
)

FILLER = {59: {"green": 1}, 60: {"green": 1}}


def _founded(effects) -> list[tuple[int, int, int]]:
    """(territory, number, epoch) of each VillageFounded, in effect order."""
    return [(v.territory, v.number, v.epoch) for v in effects_of(effects, VillageFounded)]


# --- C12: chips and epochs -------------------------------------------------------------------


def test_c12_active_player_takes_the_chip():
    """C12: The active player takes the top chip of the current epoch."""
    state = start({1: {"red": 1}, 2: {"blue": 1}, **FILLER}, to_move="bob")
    state, effects = move(state, 2, 1)
    assert tuple(state.chips) == (0, 1)
    assert [v.founder for v in effects_of(effects, VillageFounded)] == [1]
    assert GAME.document(state, SEATS2, EVERYTHING)["chips"] == {"ann": 0, "bob": 1}
    assert GAME.document(state, SEATS2, EVERYTHING)["chips_left"] == 11


def test_c12_epoch_turns_when_its_last_chip_is_taken():
    """C12: When an epoch's last chip is taken, the next epoch begins at once."""
    board = {1: {"red": 1}, 2: {"blue": 1}, 4: {"green": 1}, 5: {"yellow": 1}, **FILLER}
    state = start(board, chips={"ann": 2, "bob": 1})
    assert state.epoch == 1
    state, effects = move(state, 2, 1)  # the 4th village: the last chip of epoch 1
    assert _founded(effects) == [(1, 4, 1)]
    assert effects_of(effects, EpochBegan) == [EpochBegan(epoch=2)]
    assert state.epoch == 2
    assert state.track == track(red=3, blue=3)  # forest in epoch 1: 2 huts + bonus 1
    assert GAME.document(state, SEATS2, EVERYTHING)["epoch"] == 2


def test_c12_village_is_founded_in_the_epoch_of_its_chip():
    """C12: The active player takes the top chip of the current epoch (the village is founded
    in that epoch)."""
    board = {1: {"red": 1}, 2: {"blue": 1}, 4: {"green": 1}, 5: {"yellow": 1}, **FILLER}
    state = start(board, chips={"ann": 2, "bob": 1})
    state, _ = move(state, 2, 1)  # 4th village, epoch 1
    assert terrain(5) == "mountain"
    state, effects = move(state, 4, 5)  # 5th village: epoch 2, mountain is favourable (+2)
    assert _founded(effects) == [(5, 5, 2)]
    assert not effects_of(effects, VillageDoomed)
    assert state.track == track(red=3, blue=3, green=4, yellow=4)
    assert tuple(state.chips) == (2 + 1, 1 + 1)
    assert [(v.territory, v.number, v.epoch, v.value) for v in state.villages] == [
        (1, 4, 1, 3),
        (5, 5, 2, 4),
    ]


def test_c12_no_epoch_change_before_the_last_chip():
    """C12: the next epoch begins when an epoch's *last* chip is taken."""
    state = start({1: {"red": 1}, 2: {"blue": 1}, **FILLER}, chips={"ann": 2})
    state, effects = move(state, 2, 1)  # 3rd village
    assert not effects_of(effects, EpochBegan)
    assert state.epoch == 1


# --- C13: strife -----------------------------------------------------------------------------


def test_c13_strife_sheet_example():
    """C13: Strife: if all 5 colours are present, every colour with exactly one hut there loses
    that hut (removed from the game) before scoring. Example (sheet): 4 black, 2 red, 1 blue,
    1 yellow, 1 green → blue, yellow and green are removed; the village holds 6 huts; only black
    and red score."""
    # 11 is steppe (neutral in epoch 1); its neighbours are 5, 17 and 18.
    assert terrain(11) == "steppe"
    board = {5: {"red": 2, "yellow": 1, "green": 1}, 11: {"black": 4, "blue": 1}, **FILLER}
    state = start(board)
    state, effects = move(state, 5, 11)
    strife = effects_of(effects, StrifeRemoved)
    assert len(strife) == 1
    assert strife[0].territory == 11
    assert sorted(strife[0].colours) == ["blue", "green", "yellow"]
    (village,) = effects_of(effects, VillageFounded)
    assert village.huts == huts(black=4, red=2)
    assert sum(village.huts) == 6
    assert village.value == 6
    assert sorted(village.scored) == ["black", "red"]
    assert state.track == track(black=6, red=6)
    assert state.huts[11] == huts(black=4, red=2)
    assert total_huts(state) == 6 + 2  # the three lone huts left the game


def test_c13_no_strife_with_four_colours():
    """C13: strife only if all 5 colours are present."""
    state = start({5: {"red": 1, "yellow": 1}, 11: {"green": 1, "blue": 1}, **FILLER})
    state, effects = move(state, 5, 11)
    assert not effects_of(effects, StrifeRemoved)
    assert state.huts[11] == huts(red=1, yellow=1, green=1, blue=1)
    assert state.track == track(red=4, yellow=4, green=4, blue=4)


def test_c13_strife_without_lone_huts_removes_nothing():
    """C13: every colour with *exactly one* hut there loses that hut (two of each: none)."""
    one_each = {"red": 1, "yellow": 1, "green": 1, "blue": 1, "black": 1}
    state, effects = move(start({5: one_each, 11: one_each, **FILLER}), 5, 11)
    assert all(not e.colours for e in effects_of(effects, StrifeRemoved))
    assert state.huts[11] == (2, 2, 2, 2, 2)
    assert state.track == (10, 10, 10, 10, 10)


def test_c13_strife_leaving_a_single_colour():
    """C13: every colour with exactly one hut there loses that hut (here all but black)."""
    board = {5: {"red": 1, "yellow": 1, "green": 1}, 11: {"black": 2, "blue": 1}, **FILLER}
    state = start(board)
    state, effects = move(state, 5, 11)
    assert sorted(effects_of(effects, StrifeRemoved)[0].colours) == [
        "blue",
        "green",
        "red",
        "yellow",
    ]
    assert state.huts[11] == huts(black=2)
    assert state.track == track(black=2)


def test_c13_strife_is_applied_before_the_bonus():
    """C13/C14: strife comes before scoring; the value counts the huts left, plus the bonus."""
    # 1 is forest: favourable in epoch 1.
    board = {1: {"black": 4, "blue": 1}, 2: {"red": 2, "yellow": 1, "green": 1}, **FILLER}
    state, effects = move(start(board), 2, 1)
    assert effects_of(effects, VillageFounded)[0].value == 6 + 1
    assert state.track == track(black=7, red=7)


# --- C14: value ------------------------------------------------------------------------------


def test_c14_scoring_sheet_example():
    """C14: Example (sheet): epoch 1, forest, 3 blue + 1 yellow + 1 red → 5 + 1 = 6 points each
    to blue, yellow and red."""
    assert terrain(1) == "forest"
    state = start({1: {"blue": 2, "yellow": 1}, 2: {"blue": 1, "red": 1}, **FILLER})
    state, effects = move(state, 2, 1)
    (village,) = effects_of(effects, VillageFounded)
    assert village.value == 6
    assert village.huts == huts(blue=3, yellow=1, red=1)
    assert sorted(village.scored) == ["blue", "red", "yellow"]
    assert state.track == track(blue=6, yellow=6, red=6)
    assert tuple(state.chips) == (1, 0)


def test_c14_neutral_terrain_scores_the_huts_only():
    """C14: the number of huts in the village, plus the epoch's bonus only when the terrain is
    favourable in that epoch."""
    assert terrain(3) == "grassland"  # neither favourable nor unfavourable in epoch 1
    state = start({3: {"red": 2}, 2: {"blue": 1}, **FILLER})
    state, _ = move(state, 2, 3)
    assert state.track == track(red=3, blue=3)


@pytest.mark.parametrize(
    ("chips", "target", "source", "bonus"),
    [
        (4, 2, 1, 2),  # epoch 2: mountain favourable, bonus 2
        (7, 8, 2, 3),  # epoch 3: steppe favourable, bonus 3
        (9, 3, 2, 4),  # epoch 4: grassland favourable, bonus 4
        (11, 4, 3, 5),  # epoch 5: everything favourable, bonus 5
    ],
)
def test_c14_bonus_of_the_epoch(chips, target, source, bonus):
    """C14: plus the epoch's bonus when the territory's terrain is favourable in that epoch."""
    state = start(
        {target: {"red": 2}, source: {"black": 1}},
        chips={"ann": chips - chips // 2, "bob": chips // 2},
    )
    state, effects = move(state, source, target)
    assert effects_of(effects, VillageFounded)[0].value == 3 + bonus
    assert state.track == track(red=3 + bonus, black=3 + bonus)


def test_c14_every_colour_scores_the_full_value():
    """C14: Every colour present scores the full value on the track, however many huts it has
    there."""
    board = {3: {"red": 5}, 2: {"blue": 1}, **FILLER}
    state = start(board, track={"red": 10, "blue": 1, "black": 4})
    state, _ = move(state, 2, 3)
    assert state.track == track(red=16, blue=7, black=4)


# --- C15: unfavourable terrain ---------------------------------------------------------------


def test_c15_doomed_village():
    """C15: Unfavourable terrain: the village is doomed. It scores nothing for anyone, and its
    huts are removed from the board. The founder still takes the chip."""
    assert terrain(5) == "mountain"  # unfavourable in epoch 1
    state = start({5: {"red": 2}, 4: {"blue": 1}, **FILLER}, to_move="bob")
    state, effects = move(state, 4, 5)
    (doomed,) = effects_of(effects, VillageDoomed)
    assert (doomed.territory, doomed.terrain, doomed.huts) == (5, "mountain", 3)
    assert all(not v.scored for v in effects_of(effects, VillageFounded))
    assert state.track == (0, 0, 0, 0, 0)
    assert state.huts[5] == EMPTY
    assert total_huts(state) == 2
    assert tuple(state.chips) == (0, 1)
    assert GAME.document(state, SEATS2, EVERYTHING)["chips_left"] == 11


def test_c15_doomed_in_epoch_two_on_grassland():
    """C15 / C3: in epoch 2 grassland is unfavourable."""
    state = start({3: {"red": 2}, 2: {"blue": 1}, **FILLER}, chips={"ann": 2, "bob": 2})
    state, effects = move(state, 2, 3)
    assert len(effects_of(effects, VillageDoomed)) == 1
    assert state.track == (0, 0, 0, 0, 0)
    assert state.huts[3] == EMPTY
    assert tuple(state.chips) == (3, 2)


def test_c15_doomed_village_with_strife():
    """C13/C15: a doomed village scores nothing even after strife; all its huts leave."""
    board = {5: {"red": 2, "yellow": 1, "green": 1}, 4: {"black": 1, "blue": 1}, **FILLER}
    state, effects = move(start(board), 4, 5)
    # strife leaves the 2 red, then the village is doomed on mountain in epoch 1
    assert effects_of(effects, VillageDoomed) == [
        VillageDoomed(territory=5, terrain="mountain", huts=2)
    ]
    assert state.track == (0, 0, 0, 0, 0)
    assert state.huts[5] == EMPTY
    assert total_huts(state) == 2
    assert tuple(state.chips) == (1, 0)


def test_c15_doomed_village_still_counts_for_the_epoch():
    """C15 / C12: the founder takes the chip, so a doomed village uses up a chip of its epoch."""
    state = start({5: {"red": 2}, 4: {"blue": 1}, **FILLER}, chips={"ann": 3})
    state, effects = move(state, 4, 5)
    assert effects_of(effects, VillageDoomed) == [
        VillageDoomed(territory=5, terrain="mountain", huts=3)
    ]
    assert [(v.number, v.epoch) for v in effects_of(effects, VillageFounded)] == [(4, 1)]
    assert effects_of(effects, EpochBegan) == [EpochBegan(epoch=2)]
    assert state.epoch == 2


# --- C16: the 12th village -------------------------------------------------------------------


@pytest.mark.parametrize(("target", "source"), [(1, 2), (2, 1), (8, 2), (3, 2)], ids=terrain)
def test_c16_twelfth_village_scores_bonus_five(target, source):
    """C16: The 12th village always scores the bonus of 5, whatever its terrain."""
    state = start({target: {"red": 1}, source: {"blue": 1}}, chips={"ann": 6, "bob": 5})
    state, effects = move(state, source, target)
    (village,) = effects_of(effects, VillageFounded)
    assert (village.number, village.value) == (12, 2 + 5)
    assert not effects_of(effects, VillageDoomed)
    assert state.track == track(red=7, blue=7)
    assert tuple(state.chips) == (7, 5)


def test_c16_twelfth_bonus_is_the_epoch_chart_s(monkeypatch):
    """C16: the 12th village's bonus is its epoch's on the chart (``data/epochs.json``), the
    bonus the board shows: a chart with another bonus for epoch 5 scores that one, in the
    reducer and in a position's check alike (one source, not a constant beside the chart)."""
    import copy

    from tribes.games.clans import board as board_module

    chart = copy.deepcopy(board_module.packaged("tribes.games.clans", "epochs.json"))
    chart["epochs"][4]["bonus"] = 9
    real = board_module.packaged
    monkeypatch.setattr(
        board_module,
        "packaged",
        lambda package, name: chart if name == "epochs.json" else real(package, name),
    )
    board_module._standard.cache_clear()
    try:
        state = start({1: {"red": 1}, 2: {"blue": 1}}, chips={"ann": 6, "bob": 5})
        assert board_module.load().epoch(5).bonus == 9
        state, effects = move(state, 2, 1)
        (village,) = effects_of(effects, VillageFounded)
        assert (village.number, village.value) == (12, 2 + 9)
        assert state.track == track(red=11, blue=11)
        again = GAME.setup(header_for(GAME.position(state, SEATS2)))  # its value checked
        assert again.villages == state.villages
    finally:
        monkeypatch.undo()
        board_module._standard.cache_clear()


# --- C17: several villages in one epoch ------------------------------------------------------


def test_c17_several_villages_same_epoch_in_territory_order():
    """C17: A single move can found several villages. When they all fall in the same epoch their
    order does not matter: the engine founds them in territory order."""
    # Moving 2 onto 3 leaves 1 (forest) and 3 (grassland) with only empty neighbours.
    board = {1: {"red": 1}, 2: {"blue": 1}, 3: {"yellow": 1}, **FILLER}
    state, effects = move(start(board), 2, 3)
    assert _founded(effects) == [(1, 1, 1), (3, 2, 1)]
    assert not effects_of(effects, OrderAwaited)
    assert state.pending is None
    assert state.track == track(red=2, blue=2, yellow=2)
    assert tuple(state.chips) == (2, 0)
    assert GAME.to_move(state) == 1


def test_c17_last_chips_exactly_enough_is_no_boundary():
    """C17/C18: two villages with exactly two chips left in the epoch both fall in it (no
    choice); then the next epoch begins."""
    board = {1: {"red": 1}, 2: {"blue": 1}, 3: {"yellow": 1}, **FILLER}
    state, effects = move(start(board, chips={"ann": 1, "bob": 1}), 2, 3)
    assert _founded(effects) == [(1, 3, 1), (3, 4, 1)]
    assert state.pending is None
    assert not effects_of(effects, VillageDoomed)  # grassland is only doomed in epoch 2
    assert state.track == track(red=2, blue=2, yellow=2)
    assert effects_of(effects, EpochBegan) == [EpochBegan(epoch=2)]
    assert state.epoch == 2


# Moving 8 onto 2 leaves 2 (mountain), 7 (grassland, across a lake from 2) and 9 (steppe) with
# only empty neighbours: three villages from one move.
THREE = {2: {"red": 1}, 7: {"yellow": 1}, 8: {"blue": 1}, 9: {"green": 1}, **FILLER}


def test_c17_three_villages_same_epoch():
    """C17: When they all fall in the same epoch ... the engine founds them in territory
    order."""
    state, effects = move(start(THREE), 8, 2)
    assert _founded(effects) == [(2, 1, 1), (7, 2, 1), (9, 3, 1)]
    assert [d.territory for d in effects_of(effects, VillageDoomed)] == [2]  # mountain, epoch 1
    assert state.track == track(yellow=1, green=1)
    assert tuple(state.chips) == (3, 0)
    assert state.pending is None


# --- C18: villages across an epoch boundary --------------------------------------------------

# One chip left in epoch 1. Moving 2 onto 3 founds villages at 1 (forest: +1 in epoch 1,
# neutral in epoch 2) and 3 (grassland: neutral in epoch 1, doomed in epoch 2).
STRADDLE = {1: {"red": 1}, 2: {"blue": 1}, 3: {"yellow": 1}, **FILLER}


def _straddle():
    return start(STRADDLE, chips={"ann": 2, "bob": 1})


def test_c18_straddling_villages_wait_for_the_active_player():
    """C18: When they straddle an epoch boundary, the active player chooses the order ... The
    game waits for that choice (a pending decision of the active player)."""
    state, effects = move(_straddle(), 2, 3)
    (awaited,) = effects_of(effects, OrderAwaited)
    assert awaited.seat == 0
    assert sorted(awaited.villages) == [1, 3]
    assert not effects_of(effects, VillageFounded)
    assert state.pending is not None
    assert sorted(state.pending.villages) == [1, 3]
    assert GAME.to_move(state) == 0
    assert state.track == (0, 0, 0, 0, 0)
    assert tuple(state.chips) == (2, 1)


def test_c18_pending_choice_is_the_only_legal_event():
    """C18: the next event must be it."""
    state, _ = move(_straddle(), 2, 3)
    legal = GAME.legal_moves(state)
    assert all(isinstance(e, OrderChosen) for e in legal)
    assert {e.villages for e in legal} == {(1, 3), (3, 1)}
    assert refused(state, HutsMoved(source=59, target=60)).rule == "C18"
    doc = GAME.document(state, SEATS2, EVERYTHING)
    assert doc["pending"]["decision"] == "order"
    assert sorted(doc["pending"]["villages"]) == [1, 3]
    assert sorted(doc["pending"]["options"]) == ["order 1 3", "order 3 1"]


def test_c18_choice_must_name_the_founded_villages():
    """C18: the choice names the villages in the order they are founded."""
    state, _ = move(_straddle(), 2, 3)
    for bad in [(1,), (3,), (1, 1), (1, 2), (1, 3, 59), (59, 60)]:
        refused(state, OrderChosen(villages=bad))


def test_c18_order_without_a_pending_choice_is_refused():
    """C18: an order is only chosen when the game waits for it."""
    refused(_straddle(), OrderChosen(villages=(1, 3)))


def test_c18_choice_changes_who_scores():
    """C18: the active player chooses the order: which villages take the last chips of this
    epoch and which open the next."""
    state, _ = move(_straddle(), 2, 3)

    first_forest, effects = order(state, 1, 3)
    assert _founded(effects) == [(1, 4, 1), (3, 5, 2)]
    assert [d.territory for d in effects_of(effects, VillageDoomed)] == [3]
    assert first_forest.track == track(red=1 + 1)
    assert first_forest.huts[3] == EMPTY
    assert first_forest.huts[1] == huts(red=1)

    first_grass, effects = order(state, 3, 1)
    assert _founded(effects) == [(3, 4, 1), (1, 5, 2)]
    assert not effects_of(effects, VillageDoomed)
    assert first_grass.track == track(blue=2, yellow=2, red=1)

    for after in (first_forest, first_grass):
        assert tuple(after.chips) == (4, 1)
        assert after.epoch == 2
        assert after.pending is None
        assert GAME.to_move(after) == 1


def test_c18_epoch_begins_between_the_two_villages():
    """C12/C18: when an epoch's last chip is taken, the next epoch begins at once."""
    state, _ = move(_straddle(), 2, 3)
    _, effects = order(state, 3, 1)
    kinds = [type(e) for e in effects if isinstance(e, VillageFounded | EpochBegan)]
    assert kinds == [VillageFounded, EpochBegan, VillageFounded]
    assert effects_of(effects, EpochBegan) == [EpochBegan(epoch=2)]


def test_c18_no_choice_when_every_order_gives_the_same_outcome():
    """C18: Only orders that differ in outcome need choosing."""
    # Moving 7 onto 8 leaves 8 and 13 (both steppe: neutral in epochs 1 and 2) isolated.
    assert terrain(8) == terrain(13) == "steppe"
    board = {7: {"red": 1}, 8: {"blue": 1}, 13: {"yellow": 2}, **FILLER}
    state, effects = move(start(board, chips={"ann": 2, "bob": 1}), 7, 8)
    assert not effects_of(effects, OrderAwaited)
    assert state.pending is None
    assert sorted(v.territory for v in effects_of(effects, VillageFounded)) == [8, 13]
    assert state.track == track(red=2, blue=2, yellow=2)
    assert tuple(state.chips) == (4, 1)
    assert state.epoch == 2
    assert GAME.to_move(state) == 1


@pytest.mark.parametrize(
    ("first", "expected"),
    [
        (2, track(green=1)),  # 2 doomed in epoch 1, then 7 doomed in epoch 2
        (7, track(yellow=1, red=4, blue=4, green=1)),  # 2 on mountain in epoch 2: 2 + 2
        (9, track(green=1, red=4, blue=4)),  # 7 on grassland in epoch 2 is doomed
    ],
)
def test_c18_three_villages_one_chip_left(first, expected):
    """C18: the active player chooses ... which villages take the last chips of this epoch and
    which open the next."""
    state, effects = move(start(THREE, chips={"ann": 2, "bob": 1}), 8, 2)
    assert sorted(effects_of(effects, OrderAwaited)[0].villages) == [2, 7, 9]
    legal = GAME.legal_moves(state)
    assert all(sorted(e.villages) == [2, 7, 9] for e in legal)
    assert {e.villages[0] for e in legal} == {2, 7, 9}
    choice = next(e for e in legal if e.villages[0] == first)
    state, effects = GAME.apply(state, choice)
    founded = _founded(effects)
    assert founded[0] == (first, 4, 1)
    assert [epoch for _, _, epoch in founded] == [1, 2, 2]
    assert state.track == expected
    assert tuple(state.chips) == (5, 1)
    assert state.epoch == 2


def test_c18_options_are_readable_moves():
    """C18: the pending decision lists its options as moves the player can type."""
    state, _ = move(_straddle(), 2, 3)
    options = GAME.document(state, SEATS2, 0)["pending"]["options"]
    assert {GAME.parse_move(state, o) for o in options} == set(GAME.legal_moves(state))
    assert {GAME.format_move(e) for e in GAME.legal_moves(state)} == set(options)


# --- C19: the 12th and the 13th --------------------------------------------------------------

# Eleven chips taken. Moving 2 onto 3 founds villages at 1 (2 red) and 3 (2 black and one
# hut of each other colour: strife would leave 2 black).
TWELFTH = {
    1: {"red": 2},
    2: {"blue": 1, "black": 1},
    3: {"red": 1, "yellow": 1, "green": 1, "black": 1},
    **FILLER,
}


def _twelfth():
    state = start(TWELFTH, chips={"ann": 6, "bob": 5})
    return move(state, 2, 3)


def test_c19_player_chooses_which_is_the_twelfth():
    """C19: When the move founds the 12th village together with others, the active player
    chooses which one is the 12th."""
    state, effects = _twelfth()
    assert effects_of(effects, OrderAwaited) == [OrderAwaited(seat=0, villages=(1, 3))]
    assert GAME.to_move(state) == 0
    assert not GAME.is_over(state)
    assert {e.villages for e in GAME.legal_moves(state)} == {(1, 3), (3, 1)}


def test_c19_thirteenth_village_scores_nothing():
    """C19: Villages beyond the 12th score nothing: no chip, no points, no strife, and their
    huts stay where they are."""
    state, _ = _twelfth()
    state, effects = order(state, 1, 3)
    assert _founded(effects) == [(1, 12, 5)]
    assert effects_of(effects, VillageUnscored) == [VillageUnscored(territory=3, number=13)]
    assert not effects_of(effects, StrifeRemoved)
    assert state.track == track(red=2 + 5)
    assert tuple(state.chips) == (7, 5)
    assert state.huts[3] == huts(red=1, yellow=1, green=1, blue=1, black=2)
    assert state.huts[1] == huts(red=2)


def test_c19_other_choice_other_scores():
    """C19: the choice of the 12th decides who scores (here strife, then black alone)."""
    state, _ = _twelfth()
    state, effects = order(state, 3, 1)
    assert _founded(effects) == [(3, 12, 5)]
    assert sorted(effects_of(effects, StrifeRemoved)[0].colours) == [
        "blue",
        "green",
        "red",
        "yellow",
    ]
    assert effects_of(effects, VillageUnscored) == [VillageUnscored(territory=1, number=13)]
    assert state.track == track(black=2 + 5)
    assert tuple(state.chips) == (7, 5)
    assert state.huts[3] == huts(black=2)
    assert state.huts[1] == huts(red=2)


def test_c19_thirteenth_village_is_still_a_village():
    """C19: Ruling: they are still villages."""
    state, _ = _twelfth()
    state, effects = order(state, 1, 3)
    assert [e.reason for e in effects_of(effects, GameEnded)] == ["the 12th village is founded"]
    assert moves(state) == set()
    assert all(3 not in (e.source, e.target) for e in GAME.legal_moves(state))
