"""Iwari rules I12–I18: tent, half-journey, end, totem and settlement scoring, the winner
(written from games/iwari/rules.md)."""

from __future__ import annotations

import pytest

from tribes.core.errors import IllegalMove
from tribes.games.iwari.board import TERRAINS, Terrain
from tribes.games.iwari.events import (
    FROM_DECK,
    CardExchanged,
    ConnectionScored,
    DeckRanOut,
    DeckReshuffled,
    EndTriggered,
    GameEnded,
    ScoringBegan,
    SettlementScored,
    TerritoryScored,
)
from tribes.games.iwari.state import Phase
from tribes.testing.iwari import (
    GAME,
    SEATS2,
    SEATS3,
    SEATS4,
    SEATS5,
    connection_points,
    effects_of,
    final,
    half,
    header_for,
    letters,
    play,
    position,
    refill,
    refused,
    settlements,
    start,
    territory_points,
)

# --- I12: tent scoring of a territory ------------------------------------------------------------


def test_i12_single_tribe_scores_every_tent():
    """I12: the tribe(s) with the most tents score 1 point per tent in the territory."""
    state, effects = half(tents={"bob": [16, 17]})
    assert territory_points(effects) == {5: (0, 2, 0), 15: (1, 0, 0)}
    assert state.scores == (1, 2, 0)


def test_i12_three_ranks():
    """I12: the tribe(s) with the most tents score 1 point per tent in the territory, of every
    tribe. Every other tribe scores 1 point per tent of the tribe ranked just above it."""
    state, effects = half(tents={"ann": [16, 17, 18], "bob": [19, 20], "cy": [21]})
    assert territory_points(effects)[5] == (6, 3, 2)
    assert state.scores == (7, 3, 2)


def test_i12_sheet_example_ties(big_map):
    """I12: tribes with equal counts share a rank and each score in full, and the next tribe is
    not pushed down a rank (A 3, B 3, C 1 in a territory of 7 tents: A 7, B 7, C 3)."""
    state, effects = half(
        options={"map": big_map},
        tents={"ann": [64, 65, 66], "bob": [67, 68, 69], "cy": [70]},
    )
    assert territory_points(effects)[5] == (7, 7, 3)
    assert state.scores == (8, 7, 3)


def test_i12_ties_at_first_and_second_place():
    """I12: tribes with equal counts share a rank and each score in full, and the next tribe is
    not pushed down a rank (a tie at first, then a tie at second)."""
    state, effects = half(
        seats=SEATS4,
        tents={"ann": [16, 17], "bob": [18, 19], "cy": [20], "dee": [21]},
    )
    assert territory_points(effects)[5] == (6, 6, 2, 2)
    assert state.scores == (7, 6, 2, 2)


def test_i12_tie_at_second_place():
    """I12: every other tribe scores 1 point per tent of the tribe ranked just above it; tribes
    with equal counts share a rank and each score in full."""
    _, effects = half(tents={"ann": [16, 17, 18], "bob": [19], "cy": [20]})
    assert territory_points(effects)[5] == (5, 3, 3)


def test_i12_four_ranks(big_map):
    """I12: every other tribe scores 1 point per tent of the tribe ranked just above it. A tribe
    with no tent there scores nothing."""
    _, effects = half(
        seats=SEATS5,
        options={"map": big_map},
        tents={"ann": [16, 17, 18, 19], "bob": [64, 65, 66], "cy": [67, 68], "dee": [69]},
    )
    assert territory_points(effects)[5] == (10, 4, 3, 2, 0)


def test_i12_ties_lower_down(big_map):
    """I12: tribes with equal counts share a rank and each score in full, and the next tribe is
    not pushed down a rank (A 3, B 2, C 2, D 1, E 1)."""
    _, effects = half(
        seats=SEATS5,
        options={"map": big_map},
        tents={"ann": [16, 17, 18], "bob": [64, 65], "cy": [66, 67], "dee": [68], "eve": [69]},
    )
    assert territory_points(effects)[5] == (9, 3, 3, 2, 2)


def test_i12_third_tribe_scores_like_a_player():
    """I12 with I11: the third tribe scores like a player and is ranked."""
    state, effects = half(seats=SEATS2, tents={"third": [16, 17], "ann": [18]})
    assert territory_points(effects)[5] == (2, 0, 3)
    assert state.scores == (3, 0, 3)


def test_i12_final_scoring_of_tents():
    """I12 with I15: final scoring scores tents as I12, every territory."""
    state, effects = final(tents={"ann": [16, 17, 18], "bob": [19], "cy": [20, 22]})
    assert territory_points(effects) == {5: (5, 3, 3), 6: (0, 0, 1), 14: (0, 0, 1)}
    assert state.scores == (5, 3, 5)


# --- I13: half-journey ---------------------------------------------------------------------------


def test_i13_reshuffle_then_score():
    """I13: the first time the deck runs out, first finish the refill of the player drawing,
    then shuffle the discard pile into a new deck, then score tents in every territory."""
    before = start(hands={"ann": "ddd"}, deck="t", tents={"bob": [22, 23]})
    state, effects = half(tents={"bob": [22, 23]})
    assert sorted(letters(state.deck)) == sorted(letters(before.discard) + "d")
    assert letters(state.deck) != letters(before.discard) + "d"  # shuffled
    kinds = [type(e) for e in effects]
    assert effects_of(effects, DeckRanOut) == [DeckRanOut(time=1)]
    assert effects_of(effects, DeckReshuffled) == [DeckReshuffled(cards=34)]
    assert effects_of(effects, ScoringBegan) == [ScoringBegan(stage="half-journey")]
    assert kinds.index(DeckReshuffled) < kinds.index(ScoringBegan) < kinds.index(TerritoryScored)
    assert len(state.deck) == 34  # the 33 discarded cards and the one ann played
    assert state.discard == ()
    assert state.deck_outs == 1
    assert state.scores == (1, 2, 0)
    assert not state.over and not state.ending
    assert state.to_move == 1 and state.phase is Phase.ACTION


def test_i13_deck_runs_out_mid_refill():
    """I13: the first time the deck runs out, first finish the refill of the player drawing,
    then shuffle ... then score."""
    pos = position(hands={"ann": "ttd"}, tents={"bob": [16]}, deck="t", display="fgcd", discard="")
    state = GAME.setup(header_for(pos))
    state, _ = play(state, "5 tent17 tent18 tt")
    state, effects = play(state, "draw deck")
    assert not effects_of(effects, ScoringBegan)
    assert not effects_of(effects, DeckReshuffled)
    assert state.phase is Phase.REFILL and state.to_move == 0
    assert state.scores == (0, 0, 0)
    with pytest.raises(IllegalMove):
        GAME.check(state, GAME.parse_move(state, "draw deck"))
    state, effects = play(state, "draw d1")
    assert effects_of(effects, ScoringBegan) == [ScoringBegan(stage="half-journey")]
    assert territory_points(effects) == {5: (3, 2, 0)}
    assert state.scores == (3, 2, 0)
    assert sum(state.hands[0]) == 3
    assert state.discard == ()
    assert len(state.deck) + sum(c is not None for c in state.display) == 47 - 9
    assert state.to_move == 1


def test_i13_only_tents_score():
    """I13: totems and settlements do not score now."""
    state, effects = half(
        tents={"ann": [16, 17, 18, 19, 22]},
        totems={"ann": {5: 2, 6: 1}},
    )
    assert territory_points(effects) == {5: (4, 0, 0), 6: (1, 0, 0), 15: (1, 0, 0)}
    assert not effects_of(effects, ConnectionScored)
    assert not effects_of(effects, SettlementScored)
    assert state.scores == (6, 0, 0)


def test_i13_deck_emptied_by_a_display_refill():
    """I13 with I10: the display is refilled from the deck at once — when that takes the last
    card of the deck, the deck has run out."""
    state = start(hands={"ann": "ddd"}, tents={"bob": [22]}, deck="t", display="fgcd")
    state, effects = play(state, "15 tent61 d", "draw d1")
    assert state.display[0] is Terrain.TUNDRA
    assert effects_of(effects, DeckRanOut) == [DeckRanOut(time=1)]
    assert effects_of(effects, ScoringBegan) == [ScoringBegan(stage="half-journey")]
    assert state.scores == (1, 1, 0)


def test_i13_deck_emptied_by_an_exchange():
    """I13: the first time the deck runs out (an exchange draws too, I9) ... shuffle the discard
    pile into a new deck, then score tents in every territory."""
    state = start(hands={"ann": "ddd"}, tents={"bob": [22]}, deck="t")
    state, effects = play(state, "swap d deck")
    assert effects_of(effects, DeckRanOut) == [DeckRanOut(time=1)]
    assert effects_of(effects, ScoringBegan) == [ScoringBegan(stage="half-journey")]
    assert len(state.deck) == 47 - 9 - 4
    assert state.scores == (0, 1, 0)
    assert state.to_move == 1


# --- I14: end of the journey ---------------------------------------------------------------------


def test_i14_second_run_out_round_played_out():
    """I14: when the deck runs out the second time ... the current round is played out so that
    every player has had the same number of turns (the round ends before the start player's
    next turn). Ruling: once the deck is gone, players refill from the display while it lasts."""
    state = start(
        hands={"ann": "ddd", "bob": "ttt", "cy": "fff"},
        deck="t",
        display="gcgc",
        deck_outs=1,
    )
    state, effects = play(state, "15 tent61 d", "draw deck")
    assert effects_of(effects, DeckRanOut) == [DeckRanOut(time=2)]
    assert len(effects_of(effects, EndTriggered)) == 1
    assert state.ending and not state.over
    assert state.to_move == 1
    state, _ = play(state, "3 tent8 t")
    refused(state, "draw deck")
    state, _ = play(state, "draw d1")
    assert state.display[0] is None
    assert not state.over and state.to_move == 2
    state, effects = play(state, "6 tent22 f", "draw d2")
    assert state.over
    assert GAME.is_over(state) and GAME.to_move(state) is None
    assert effects_of(effects, ScoringBegan) == [ScoringBegan(stage="final")]
    assert state.scores == (1, 1, 1)
    assert effects_of(effects, GameEnded) == [GameEnded(scores=(1, 1, 1), winners=(0, 1, 2))]


def test_i14_ruling_play_on_with_fewer_cards():
    """I14 Ruling: once the deck is gone, players refill from the display while it lasts, then
    play on with fewer cards."""
    state = start(
        hands={"ann": "ddd", "bob": "ttt", "cy": "fff"}, deck="t", display="", deck_outs=1
    )
    state, _ = play(state, "15 tent61 d", "draw deck")
    state, _ = play(state, "3 tent8 t")
    assert state.to_move == 2 and state.phase is Phase.ACTION
    assert sum(state.hands[1]) == 2
    state, _ = play(state, "6 tent22 f")
    assert state.over
    assert state.scores == (1, 1, 1)


def test_i14_whole_journey():
    """I13/I14: the deck runs out a first time (half-journey, a new deck from the discard pile),
    then a second time: the round is played out, then final scoring."""
    state = start(hands={"ann": "ttt", "bob": "ttt", "cy": "ttt"}, tents={"bob": [22]}, deck="t")
    state, effects = play(state, "swap t deck")
    assert state.deck_outs == 1 and len(state.deck) == 34
    swaps = 0
    while not state.ending:
        seat = state.to_move
        card = next(t for t, n in zip(TERRAINS, state.hands[seat], strict=True) if n)
        state, effects = play(state, CardExchanged(card=card, source=FROM_DECK))
        swaps += 1
    assert swaps == 34
    assert effects_of(effects, DeckRanOut) == [DeckRanOut(time=2)]
    assert state.deck == () and not state.over
    # the 35th turn of the game (bob's) took the last card: the round ends with cy
    assert state.to_move == 2
    card = next(t for t, n in zip(TERRAINS, state.hands[2], strict=True) if n)
    state, effects = play(state, CardExchanged(card=card, source=1))
    assert state.over
    assert state.scores == (0, 2, 0)  # bob's tent, at half-journey and at the end


def test_i14_last_tent_mid_round():
    """I14: when a tribe has placed its last tent, the current round is played out so that
    every player has had the same number of turns."""
    twenty = [*range(16, 22), *range(8, 13), *range(27, 32), *range(44, 48)]
    state = start(hands={"ann": "fff", "bob": "ggg", "cy": "ccc"}, tents={"ann": twenty})
    state, effects = play(state, "6 tent22 f")
    state, more = refill(state)
    assert state.tent_supply[0] == 0
    assert len(effects_of(effects + more, EndTriggered)) == 1
    assert state.ending and not state.over and state.to_move == 1
    state, _ = play(state, "1 tent1 g")
    state, _ = refill(state)
    assert not state.over and state.to_move == 2
    state, effects = play(state, "4 tent13 c")
    state, more = refill(state)
    assert state.over
    assert effects_of(effects + more, ScoringBegan) == [ScoringBegan(stage="final")]


def test_i14_second_run_out_mid_refill():
    """I14 Ruling: once the deck is gone, players refill from the display while it lasts."""
    state = start(
        hands={"ann": "ttd", "bob": "ttt", "cy": "fff"},
        tents={"bob": [16]},
        deck="t",
        display="fgcd",
        deck_outs=1,
    )
    state, _ = play(state, "5 tent17 tent18 tt", "draw deck")
    assert state.phase is Phase.REFILL and state.to_move == 0
    refused(state, "draw deck")
    state, _ = play(state, "draw d3")
    assert letters(state.display) == "fg-d"
    assert state.ending and state.to_move == 1 and not state.over


def test_i14_round_ends_before_the_start_player():
    """I14: the round ends before the start player's next turn (start player: bob)."""
    state = start(
        hands={"ann": "ggg", "bob": "ttt", "cy": "fff"},
        to_move="cy",
        start="bob",
        deck="t",
        deck_outs=1,
    )
    state, _ = play(state, "6 tent22 f", "draw deck")
    assert state.ending and not state.over and state.to_move == 0
    state, _ = play(state, "1 tent1 g")
    state, _ = refill(state, "d1")
    assert state.over


def test_i14_last_of_the_round_ends_at_once():
    """I14: the round ends before the start player's next turn — when the last player of the
    round ends it, nobody plays again."""
    state, effects = final()
    assert state.over
    assert effects_of(effects, DeckRanOut) == [DeckRanOut(time=2)]
    assert effects_of(effects, ScoringBegan) == [ScoringBegan(stage="final")]


def test_i14_third_tribe_last_tent():
    """I14: when a tribe has placed its last tent (the third tribe is a tribe, I11)."""
    twenty = [*range(16, 22), *range(8, 13), *range(27, 32), *range(44, 48)]
    state = start(seats=SEATS2, hands={"ann": "fgg", "bob": "ccc"}, tents={"third": twenty})
    state, effects = play(state, "6 tent22 f", "third 1 tent1 g")
    state, more = refill(state)
    assert state.tent_supply[2] == 0
    assert len(effects_of(effects + more, EndTriggered)) == 1
    assert not state.over and state.to_move == 1
    state, _ = play(state, "4 tent13 c", "third pass")
    state, _ = refill(state)
    assert state.over


# --- I15: final scoring order --------------------------------------------------------------------


def test_i15_tents_then_totems_then_settlements():
    """I15: final scoring: tents (as I12, every territory), then totems, then settlements."""
    state, effects = final(
        tents={"ann": [16, 17, 18, 19, 22]},
        totems={"ann": {5: 1, 6: 1}},
    )
    order = [
        type(e)
        for e in effects
        if isinstance(e, TerritoryScored | ConnectionScored | SettlementScored) and _gives(e)
    ]
    assert order == [TerritoryScored] * 3 + [ConnectionScored, SettlementScored]
    kinds = [type(e) for e in effects]
    assert kinds.index(ScoringBegan) < kinds.index(TerritoryScored)
    assert kinds[-1] is GameEnded
    assert territory_points(effects) == {5: (4, 0, 0), 6: (1, 0, 0), 14: (0, 0, 1)}
    assert connection_points(effects) == {6: (2, 0, 0)}
    assert settlements(effects) == [(0, (16, 17, 18, 19))]
    assert state.scores == (11, 0, 1)


def _gives(effect) -> bool:
    return isinstance(effect, SettlementScored) or any(effect.points)


# --- I16: totems ---------------------------------------------------------------------------------


def test_i16_majority_in_both_territories():
    """I16: for a connection between territories A and B, every tribe that has the most totems
    (ties included) in A and in B scores 1 point per totem, of every tribe, in A and B
    together."""
    _, effects = final(
        tents={"ann": [16, 17, 22], "bob": [18, 23, 24]},
        totems={"ann": {5: 2, 6: 1}, "bob": {6: 1}},
    )
    assert connection_points(effects) == {6: (4, 0, 0)}


def test_i16_ties_included():
    """I16: every tribe that has the most totems (ties included) in A and in B scores."""
    _, effects = final(
        tents={"ann": [16, 18, 22, 24], "bob": [17, 19, 23, 25]},
        totems={"ann": {5: 1, 6: 1}, "bob": {5: 1, 6: 1}},
    )
    assert connection_points(effects) == {6: (4, 4, 0)}


def test_i16_every_tribes_totems_count():
    """I16: ... scores 1 point per totem, of every tribe, in A and B together."""
    _, effects = final(
        tents={"ann": [16, 17, 18, 22, 23, 24], "bob": [25], "cy": [19]},
        totems={"ann": {5: 2, 6: 2}, "bob": {6: 1}, "cy": {5: 1}},
    )
    assert connection_points(effects) == {6: (6, 0, 0)}


def test_i16_majority_on_one_side_only_scores_nothing():
    """I16: a tribe must have the most totems in A and in B: most in A alone is not enough."""
    _, effects = final(
        tents={"ann": [16, 17, 22], "bob": [23, 24]},
        totems={"ann": {5: 2}, "bob": {6: 2}},
    )
    assert connection_points(effects) == {}


def test_i16_no_totem_on_one_side_scores_nothing():
    """I16: the tribe that has the most totems in A and in B — a territory without totems has
    no such tribe, so its connections score nothing."""
    _, effects = final(tents={"ann": [16], "bob": [22]}, totems={"ann": {5: 1}})
    assert connection_points(effects) == {}


def test_i16_connection_order():
    """I16: connections are scored in number order."""
    state, effects = final(
        tents={"ann": [1, 16, 22, 40]},
        totems={"ann": {1: 1, 5: 1, 6: 1, 10: 1}},
    )
    scored = [e.connection for e in effects_of(effects, ConnectionScored) if any(e.points)]
    assert scored == [2, 6, 10, 11]
    all_scored = [e.connection for e in effects_of(effects, ConnectionScored)]
    assert all_scored == sorted(all_scored)
    assert state.scores == (12, 0, 1)


def test_i16_covered_skipped():
    """I16: connections are scored in number order, covered ones skipped."""
    state, effects = final(
        tents={"ann": [1, 16, 22, 40]},
        totems={"ann": {1: 1, 5: 1, 6: 1, 10: 1}},
        covered=[6, 10],
    )
    assert list(connection_points(effects)) == [2, 11]
    assert not {e.connection for e in effects_of(effects, ConnectionScored)} & {6, 10}
    assert state.scores == (8, 0, 1)


# --- I17: settlements ----------------------------------------------------------------------------


def test_i17_four_tents_in_a_row():
    """I17: 4 or more tents of one tribe joined without a break by paths form a settlement; it
    scores 1 point per tent in it."""
    state, effects = final(tents={"ann": [16, 17, 18, 19]})
    assert settlements(effects) == [(0, (16, 17, 18, 19))]
    assert state.scores == (4 + 4, 0, 1)


def test_i17_three_tents_are_no_settlement():
    """I17: 4 or more tents ... form a settlement."""
    state, effects = final(tents={"ann": [16, 17, 18]})
    assert settlements(effects) == []
    assert state.scores == (3, 0, 1)


def test_i17_settlement_crosses_a_border():
    """I17: ... joined without a break by paths (through one or several territories)."""
    state, effects = final(tents={"ann": [1, 2, 18, 19]})
    assert settlements(effects) == [(0, (1, 2, 18, 19))]
    assert state.scores == (2 + 2 + 4, 0, 1)


def test_i17_break_in_the_path():
    """I17: joined without a break by paths (a gap, or another tribe's tent, breaks it)."""
    _, gap = final(tents={"ann": [16, 17, 19, 20]})
    assert settlements(gap) == []
    _, blocked = final(tents={"ann": [16, 17, 19, 20], "bob": [18]})
    assert settlements(blocked) == []


def test_i17_connection_is_no_path():
    """I17: tents joined by paths — a connection between two territories is not a path
    (without the floating-lands variant)."""
    _, effects = final(tents={"ann": [20, 21, 23, 24]})
    assert settlements(effects) == []


def test_i17_branching_settlement():
    """I17: tents of one tribe joined without a break by paths form a settlement; it scores 1
    point per tent in it."""
    state, effects = final(tents={"ann": [5, 6, 7, 9, 26], "bob": [27, 28, 29, 30]})
    assert settlements(effects) == [(0, (5, 6, 7, 9, 26)), (1, (27, 28, 29, 30))]
    # ann: 3 in territory 2, 1 in 3, 1 in 6, settlement 5; bob: 4 in 7, settlement 4
    assert state.scores == (3 + 1 + 1 + 5, 4 + 4, 1)


def test_i17_third_tribe_settlement():
    """I17 with I11: the third tribe scores like a player (its settlements too)."""
    state, effects = final(seats=SEATS2, tents={"third": [16, 17, 18, 19]})
    assert settlements(effects) == [(2, (16, 17, 18, 19))]
    assert state.scores == (0, 1, 8)


# --- I18: the winner -----------------------------------------------------------------------------


def test_i18_highest_score_wins():
    """I18: highest score wins."""
    state, effects = final(scores={"bob": 9}, tents={"ann": [16]})
    assert state.scores == (1, 9, 1)
    assert effects_of(effects, GameEnded) == [GameEnded(scores=(1, 9, 1), winners=(1,))]


def test_i18_tie_goes_to_more_unused_pieces():
    """I18: ties go to the player with more unused pieces (tents plus totems)."""
    state, effects = final(
        scores={"ann": 10, "bob": 10},
        tents={"ann": [16], "bob": [22]},
        totems={"ann": {5: 1}},
        covered=[2, 6, 10],
    )
    assert state.scores == (11, 11, 1)
    assert state.tent_supply[:2] == (20, 20) and state.totem_supply[:2] == (7, 8)
    assert effects_of(effects, GameEnded)[0].winners == (1,)


def test_i18_unused_pieces_are_tents_plus_totems():
    """I18: ties go to the player with more unused pieces (tents plus totems)."""
    state, effects = final(
        scores={"ann": 10, "bob": 11},
        tents={"ann": [16, 17], "bob": [22]},
        totems={"bob": {5: 2}},
    )
    assert state.scores == (12, 12, 1)
    # ann: 19 tents + 8 totems = 27; bob: 20 tents + 6 totems = 26
    assert effects_of(effects, GameEnded)[0].winners == (0,)


def test_i18_ruling_still_tied_shared():
    """I18 Ruling: still tied, they share the win."""
    state, effects = final(scores={"ann": 10, "bob": 10}, tents={"ann": [16], "bob": [22]})
    assert state.scores == (11, 11, 1)
    assert effects_of(effects, GameEnded)[0].winners == (0, 1)


def test_i18_third_tribe_cannot_win():
    """I11/I18: the third tribe scores like a player and is ranked, but cannot win."""
    state, effects = final(seats=SEATS2, scores={"ann": 5, "bob": 3, "third": 20})
    assert state.scores == (5, 4, 20)
    assert effects_of(effects, GameEnded) == [GameEnded(scores=(5, 4, 20), winners=(0,))]


def test_i18_no_move_after_the_end():
    """I18: the game is over after final scoring."""
    state, _ = final(seats=SEATS3)
    assert GAME.legal_moves(state) == []
    with pytest.raises(IllegalMove):
        GAME.check(state, GAME.parse_move(state, "swap t deck"))
