"""Bonus Dice: its rules by id (rules.md beside the game), and the conformance kit that every
tribes game passes — the same tests ``pytest --tribes-game=dice`` runs."""

from __future__ import annotations

import attrs
import pytest
from tribes_dice.events import Banked, DieRolled, GameEnded, TurnLost
from tribes_dice.state import CARDS, ROUNDS, TARGET, roll

from tribes.core.errors import BadNotation, IllegalMove
from tribes.testing import Harness, effects_of
from tribes.testing.conformance import conformance_tests

globals().update(conformance_tests("dice"))

DICE = Harness("dice")


def test_d1_one_six_sided_die_and_six_bonus_cards_1_to_6() -> None:
    faces = {roll(DICE.from_seed(seed)) for seed in range(300)}
    assert faces == {1, 2, 3, 4, 5, 6}
    for seats in (2, 3, 4):
        state = DICE.from_seed(5, ("ann", "bob", "cy", "dee")[:seats])
        assert sorted(state.bonus + state.aside) == [1, 2, 3, 4, 5, 6]


def test_d2_each_seat_holds_one_secret_card_the_rest_aside() -> None:
    state = DICE.from_seed(3, ("ann", "bob", "cy"))
    assert sorted(state.bonus + state.aside) == list(CARDS)
    assert len(state.bonus) == 3
    spectator = DICE.document(state, ("ann", "bob", "cy"), None)
    assert spectator["bonus"] == {}
    assert DICE.document(state, ("ann", "bob", "cy"), 1)["bonus"] == {"bob": state.bonus[1]}


def _rolling(face: int) -> object:
    """A state of seed whose next roll shows ``face``."""
    for seed in range(200):
        state = DICE.from_seed(seed)
        if roll(state) == face:
            return state
    raise AssertionError(face)


def test_d3_a_roll_adds_its_face_a_one_loses_the_turn() -> None:
    state = _rolling(5)
    after, effects = DICE.play(state, "roll")
    assert effects == (DieRolled(seat=state.to_move, face=5),)
    assert after.turn_points == 5 and after.to_move == state.to_move
    state = attrs.evolve(_rolling(1), turn_points=9)
    after, effects = DICE.play(state, "roll")
    assert effects_of(effects, TurnLost) == [TurnLost(seat=state.to_move, points=9)]
    assert after.turn_points == 0 and after.to_move != state.to_move


def test_d4_stop_banks_the_turn_and_needs_points() -> None:
    state = DICE.from_seed(1)
    DICE.refused(state, "stop", rule="D4")
    state = attrs.evolve(state, turn_points=7)
    after, effects = DICE.play(state, "stop")
    assert effects == (Banked(seat=state.to_move, points=7, score=7),)
    assert after.scores[state.to_move] == 7


def test_d5_the_game_ends_at_the_target_or_after_the_last_round() -> None:
    state = DICE.from_seed(1)
    seat = state.to_move
    scores = tuple(TARGET - 3 if s == seat else 0 for s in range(2))
    after, effects = DICE.play(attrs.evolve(state, scores=scores, turn_points=3), "stop")
    assert after.over and effects_of(effects, GameEnded)[0].reason == "20 points are banked"
    state = attrs.evolve(_rolling(1), round=ROUNDS)  # the last seat of the last round rolls a 1
    state = attrs.evolve(state, to_move=(state.start - 1) % 2)
    after, effects = DICE.play(state, "roll")
    assert after.over and effects_of(effects, GameEnded)[0].reason == "round 10 is over"
    DICE.refused(after, "roll", rule="D5")


def test_d6_the_bonus_cards_count_at_the_end_only() -> None:
    played = DICE.random_game(4, 3)
    last = played.steps[-1].state
    banked_before = played.steps[-2].state.scores
    assert DICE.game.outcome(played.steps[-2].state).scores == banked_before
    final = DICE.game.outcome(last)
    assert final.scores == tuple(s + b for s, b in zip(last.scores, last.bonus, strict=True))
    assert set(final.winners) == {i for i, s in enumerate(final.scores) if s == max(final.scores)}


def test_moves_are_roll_and_stop() -> None:
    state = DICE.from_seed(2)
    assert DICE.moves(state) == ["roll"]
    with pytest.raises(BadNotation, match="a Bonus Dice move is 'roll' or 'stop'"):
        DICE.game.parse_move(state, "fly")
    with pytest.raises(IllegalMove):
        DICE.game.apply(DICE.random_game(2, 2).steps[-1].state, DICE.event(state, "roll"))
