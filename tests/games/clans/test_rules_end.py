"""Clans rules C20–C23: the end of the game, final scores and views (from games/clans/rules.md)."""

from __future__ import annotations

import random

import pytest

from tribes.core.errors import GameOver, IllegalMove
from tribes.core.game import EVERYTHING, SPECTATOR
from tribes.games.clans.events import (
    EpochBegan,
    GameEnded,
    HutsMoved,
    VillageDoomed,
    VillageFounded,
    VillageUnscored,
)
from tribes.testing.clans import (
    GAME,
    NAMES,
    SEATS2,
    SEATS3,
    effects_of,
    from_seed,
    move,
    moves,
    neighbours,
    order,
    refused,
    start,
    track,
)

FILLER = {59: {"green": 1}, 60: {"green": 1}}


def _twelfth_village(**kwargs):
    """Eleven chips taken (Ann 6, Bob 5); Ann founds the 12th village at 1 (1 red + 1 blue)
    while 59 and 60 could still move."""
    state = start({1: {"red": 1}, 2: {"blue": 1}, **FILLER}, chips={"ann": 6, "bob": 5}, **kwargs)
    return move(state, 2, 1)


def _no_move_left(points=None):
    """Two chips taken; Ann founds village 3 at 1 (forest, epoch 1: 2 huts + 1) from the last
    two huts on the board, leaving Bob without a move."""
    state = start(
        {1: {"blue": 1}, 2: {"yellow": 1}}, chips={"ann": 1, "bob": 1}, track=points or {}
    )
    return move(state, 2, 1)


# --- C20: the 12th village ends the game -----------------------------------------------------


def test_c20_game_ends_after_the_twelfth_village():
    """C20: The game ends as soon as the 12th village is founded and scored."""
    state, effects = _twelfth_village()
    (village,) = effects_of(effects, VillageFounded)
    assert village.number == 12
    assert state.track == track(red=7, blue=7)  # founded and scored first
    assert len(effects_of(effects, GameEnded)) == 1
    assert GAME.is_over(state)
    assert state.over
    assert GAME.to_move(state) is None
    assert list(GAME.legal_moves(state)) == []
    assert state.huts[59] and state.huts[60]  # moves were left on the board


def test_c20_no_move_after_the_end():
    """C20: The game ends — nothing can be played afterwards."""
    state, _ = _twelfth_village()
    exc = refused(state, HutsMoved(source=59, target=60))
    assert isinstance(exc, GameOver)
    with pytest.raises(GameOver):
        GAME.apply(state, HutsMoved(source=60, target=59))


def test_c20_game_ends_after_an_order_choice_founding_the_twelfth():
    """C19/C20: the 12th and 13th from one move: the game ends once the order is chosen."""
    # Moving 2 onto 3 founds villages at 1 (1 red) and 3 (blue + yellow).
    board = {1: {"red": 1}, 2: {"blue": 1}, 3: {"yellow": 1}, **FILLER}
    state, _ = move(start(board, chips={"ann": 6, "bob": 5}), 2, 3)
    assert state.pending is not None
    assert not GAME.is_over(state)
    state, effects = order(state, 3, 1)
    assert len(effects_of(effects, GameEnded)) == 1
    assert GAME.is_over(state)
    assert GAME.to_move(state) is None
    assert state.track == track(blue=2 + 5, yellow=2 + 5)
    assert tuple(state.chips) == (7, 5)


def test_c20_no_epoch_after_the_fifth():
    """C3/C12/C20: there are 5 epochs; the 12th chip ends the game, it opens no sixth epoch."""
    state, effects = _twelfth_village()
    assert not effects_of(effects, EpochBegan)
    assert GAME.document(state, SEATS2, EVERYTHING)["epoch"] == 5
    assert GAME.document(state, SEATS2, EVERYTHING)["chips_left"] == 0


def test_c20_not_over_before_the_twelfth():
    """C20: only the 12th village ends the game (the 11th does not)."""
    state = start({1: {"red": 1}, 2: {"blue": 1}, **FILLER}, chips={"ann": 5, "bob": 5})
    state, effects = move(state, 2, 1)
    assert not effects_of(effects, GameEnded)
    assert not GAME.is_over(state)
    assert GAME.to_move(state) == 1


# --- C21: no legal move ----------------------------------------------------------------------


def test_c21_game_ends_when_the_active_player_has_no_legal_move():
    """C21: It also ends when the active player has no legal move (only villages, or nothing,
    remain) before the 12th village; nothing more is scored."""
    state, effects = _no_move_left()
    assert [v.number for v in effects_of(effects, VillageFounded)] == [3]
    assert len(effects_of(effects, GameEnded)) == 1
    assert GAME.is_over(state)
    assert GAME.to_move(state) is None
    assert list(GAME.legal_moves(state)) == []
    assert state.track == track(blue=3, yellow=3)
    assert tuple(state.chips) == (2, 1)
    with pytest.raises(IllegalMove):
        GAME.apply(state, HutsMoved(source=1, target=2))


def test_c21_position_without_a_legal_move_is_over_at_once():
    """C21: only villages remain: the game is over before any move."""
    state = start({1: {"red": 2}, 30: {"blue": 1}}, chips={"ann": 1, "bob": 1})
    assert GAME.is_over(state)
    assert GAME.to_move(state) is None
    assert list(GAME.legal_moves(state)) == []
    assert state.track == (0, 0, 0, 0, 0)


def test_c21_legal_moves_are_empty_exactly_when_over():
    """C21: the active player has no legal move ⇔ the game is over."""
    state = start({1: {"red": 1}, 2: {"blue": 1}, **FILLER})
    state, _ = move(state, 2, 1)  # village at 1; 59-60 still movable
    assert not GAME.is_over(state)
    assert moves(state) == {(59, 60), (60, 59)}
    state, effects = move(state, 60, 59)  # village at 59: nothing left
    assert GAME.is_over(state)
    assert [e.reason for e in effects_of(effects, GameEnded)] == ["no legal move is left"]
    assert moves(state) == set()


# --- C22: final scores -----------------------------------------------------------------------


def test_c22_score_is_track_plus_chips():
    """C22: Each player's score is their colour's track score plus 1 per chip they took. The
    highest score wins. Colours that nobody holds are ignored."""
    state, effects = _no_move_left(points={"red": 10, "blue": 9, "green": 40})
    # Ann (red): 10 + 2 chips; Bob (blue): 9 + 3 + 1 chip. Green (40, nobody's) is ignored.
    (ended,) = effects_of(effects, GameEnded)
    assert ended.clans == ("red", "blue")
    assert ended.scores == (12, 13)
    assert ended.winners == (1,)
    doc = GAME.document(state, SEATS2, SPECTATOR)
    assert doc["scores"] == {"ann": 12, "bob": 13}
    assert doc["winners"] == ["bob"]
    assert doc["over"] is True


def test_c22_tied_players_share_the_victory():
    """C22: Ruling: tied players share the victory."""
    state, effects = _no_move_left(points={"red": 10, "blue": 8, "yellow": 30})
    (ended,) = effects_of(effects, GameEnded)
    assert ended.scores == (12, 12)
    assert ended.winners == (0, 1)
    assert sorted(GAME.document(state, SEATS2, 0)["winners"]) == ["ann", "bob"]


def test_c22_after_the_twelfth_village():
    """C22: the track score of the colour plus 1 per chip (a game ended by the 12th village)."""
    _, effects = _twelfth_village(track={"blue": 3, "black": 50})
    (ended,) = effects_of(effects, GameEnded)
    # Ann (red): 7 + 7 chips = 14; Bob (blue): 3 + 7 + 5 chips = 15; black is nobody's.
    assert ended.scores == (14, 15)
    assert ended.winners == (1,)


def test_c22_three_players_clans_revealed():
    """C22: Clan cards are revealed."""
    state = start(
        {1: {"blue": 1}, 2: {"yellow": 1}},
        seats=SEATS3,
        clans={"ann": "black", "bob": "yellow", "cy": "blue"},
        chips={"ann": 1, "bob": 1},
        to_move="cy",
    )
    state, effects = move(state, 2, 1)
    (ended,) = effects_of(effects, GameEnded)
    assert ended.clans == ("black", "yellow", "blue")
    assert ended.scores == (0 + 1, 3 + 1, 3 + 1)
    assert ended.winners == (1, 2)
    for viewer in (0, 1, 2, SPECTATOR):
        doc = GAME.document(state, SEATS3, viewer)
        assert doc["clans"] == {"ann": "black", "bob": "yellow", "cy": "blue"}


# --- C23: views ------------------------------------------------------------------------------

BOARD3 = {1: {"red": 2}, 2: {"blue": 1}, 40: {"green": 1}, 41: {"black": 1}}


def _three(clans, **kwargs):
    return start(BOARD3, seats=SEATS3, clans=clans, chips={"ann": 1, "bob": 2}, **kwargs)


A = {"ann": "red", "bob": "blue", "cy": "green"}
B = {"ann": "red", "bob": "green", "cy": "blue"}


def test_c23_player_sees_own_colour_only():
    """C23: During the game a player sees their own colour only; other seats' colours are hidden
    until the end."""
    state = _three(A, track={"red": 5, "blue": 4, "green": 9})
    doc = GAME.document(state, SEATS3, 0)
    assert doc["clans"] == {"ann": "red"}
    assert doc["scores"] == {"ann": 5 + 1, "bob": None, "cy": None}
    doc = GAME.document(state, SEATS3, 1)
    assert doc["clans"] == {"bob": "blue"}
    assert doc["scores"] == {"ann": None, "bob": 4 + 2, "cy": None}
    assert doc["over"] is False
    assert doc["winners"] == []


def test_c23_spectator_sees_no_colours():
    """C23: A spectator sees no colours."""
    state = _three(A)
    doc = GAME.document(state, SEATS3, SPECTATOR)
    assert doc["clans"] == {}
    assert doc["scores"] == {"ann": None, "bob": None, "cy": None}
    # Public information stays public.
    assert doc["chips"] == {"ann": 1, "bob": 2, "cy": 0}
    assert doc["track"] == {"red": 0, "yellow": 0, "green": 0, "blue": 0, "black": 0}
    assert doc["huts"]["1"] == {"red": 2}
    assert doc["to_move"] == "ann"


def test_c23_everything_viewer_sees_all():
    """C23: the debugging viewer sees everything."""
    doc = GAME.document(_three(A), SEATS3, EVERYTHING)
    assert doc["clans"] == A
    assert doc["scores"] == {"ann": 1, "bob": 2, "cy": 0}


def test_c23_hidden_colours_do_not_leak():
    """C23: other seats' colours are hidden until the end (nothing in the document or the
    rendering depends on them)."""
    a, b = _three(A), _three(B)
    for viewer in (0, SPECTATOR):
        assert GAME.document(a, SEATS3, viewer) == GAME.document(b, SEATS3, viewer)
        assert GAME.render(a, SEATS3, viewer) == GAME.render(b, SEATS3, viewer)
    # ... while those who may see them do.
    assert GAME.document(a, SEATS3, 1) != GAME.document(b, SEATS3, 1)
    assert GAME.render(a, SEATS3, 1) != GAME.render(b, SEATS3, 1)
    assert GAME.render(a, SEATS3, EVERYTHING) != GAME.render(b, SEATS3, EVERYTHING)


def test_c23_seed_game_hides_colours_from_spectator():
    """C23 / C5: clan cards are kept secret until the end."""
    state = from_seed(3)
    assert GAME.document(state, SEATS3, SPECTATOR)["clans"] == {}
    for seat in range(3):
        doc = GAME.document(state, SEATS3, seat)
        assert doc["clans"] == {SEATS3[seat]: state.clans[seat].value}


def test_c23_everything_visible_after_the_end():
    """C23: After the end everything is visible."""

    def ended(clans):
        state = start(
            {1: {"blue": 1}, 2: {"yellow": 1}},
            seats=SEATS3,
            clans=clans,
            chips={"ann": 1, "bob": 1},
        )
        return move(state, 2, 1)[0]

    a, b = ended(A), ended(B)
    assert GAME.is_over(a)
    for viewer in (0, 1, 2, SPECTATOR, EVERYTHING):
        doc = GAME.document(a, SEATS3, viewer)
        assert doc["clans"] == A
        assert doc["scores"] == {"ann": 0 + 2, "bob": 3 + 1, "cy": 0}
        assert doc["winners"] == ["bob"]
        assert doc["over"] is True
        assert doc["to_move"] is None
    assert GAME.render(a, SEATS3, SPECTATOR) != GAME.render(b, SEATS3, SPECTATOR)
    assert GAME.render(a, SEATS3, 0) != GAME.render(b, SEATS3, 0)


# --- whole games -----------------------------------------------------------------------------


def _isolated(state) -> set[int]:
    return {
        t
        for t in range(1, 61)
        if sum(state.huts[t]) and not any(sum(state.huts[n]) for n in neighbours(t))
    }


@pytest.mark.parametrize("seed", range(8))
def test_c8_c11_c12_c20_c21_random_games(seed):
    """C8 (sources stay empty), C11 (every newly isolated territory is a village), C12 (one chip
    per village to the active player), C14 (the track grows by each village's value), C20/C21
    (the game ends at the 12th village or when no move is left), over whole random games."""
    rng = random.Random(seed)
    state = from_seed(seed, SEATS3)
    emptied: set[int] = set()
    villages: set[int] = set()
    while not GAME.is_over(state):
        seat = GAME.to_move(state)
        event = rng.choice(list(GAME.legal_moves(state)))
        before = state
        state, effects = GAME.apply(state, event)
        if isinstance(event, HutsMoved):
            emptied.add(event.source)
        assert all(sum(state.huts[t]) == 0 for t in emptied), "an empty territory filled up"
        founded = effects_of(effects, VillageFounded)
        unscored = {e.territory for e in effects_of(effects, VillageUnscored)}
        if state.pending is None:
            new = _isolated(state) - villages
            doomed = {e.territory for e in effects_of(effects, VillageDoomed)}
            assert {v.territory for v in founded} | unscored == new | doomed
        villages |= {v.territory for v in founded} | unscored
        assert sum(state.chips) == sum(before.chips) + len(founded)
        assert state.chips[seat] == before.chips[seat] + len(founded)
        gained = [0] * 5
        for v in founded:
            for name in v.scored:
                gained[NAMES.index(name)] += v.value
        assert [a - b for a, b in zip(state.track, before.track, strict=True)] == gained
        if not GAME.is_over(state) and state.pending is None:
            assert GAME.to_move(state) == (seat + 1) % 3
    assert list(GAME.legal_moves(state)) == []
    assert sum(state.chips) == 12 or all(
        not sum(state.huts[n]) for t in range(1, 61) if sum(state.huts[t]) for n in neighbours(t)
    )
