"""Iwari rules I8–I11: a turn — play, exchange, refill, the third tribe (from games/iwari/rules.md)."""

from __future__ import annotations

import pytest

from tribes.core.errors import IllegalMove
from tribes.games.iwari.board import Terrain, load
from tribes.games.iwari.events import (
    TOTEM_PIECE,
    CardExchanged,
    CardsPlayed,
    PiecesPlaced,
    ThirdTribePassed,
    TurnPassed,
)
from tribes.games.iwari.state import Phase
from tribes.testing.iwari import (
    GAME,
    SEATS2,
    effects_of,
    from_seed,
    hand,
    letters,
    play,
    refill,
    refused,
    start,
    tribe_tents,
)

F, C, G, T = Terrain.FOREST, Terrain.COAST, Terrain.GLACIER, Terrain.TUNDRA


def plays(state):
    """The legal plays as (territory, pieces, sorted card letters)."""
    return {
        (e.territory, e.pieces, "".join(sorted(c.letter for c in e.cards)))
        for e in GAME.legal_moves(state)
        if isinstance(e, CardsPlayed)
    }


# --- I8: play ------------------------------------------------------------------------------------


def test_i8_unexplored_takes_one_tent():
    """I8: an unexplored territory (no tent yet) takes exactly one piece, a tent."""
    state = start(hands={"ann": "fff"})
    after, effects = play(state, "6 tent22 f")
    assert tribe_tents(after, 0) == [22]
    assert after.tent_supply == (20, 21, 21)
    assert hand(after, 0) == "ff"
    assert effects_of(effects, PiecesPlaced) == [
        PiecesPlaced(tribe=0, territory=6, tents=(22,), totems=0)
    ]
    assert refused(state, "6 tent22 tent23 ff").rule == "I8"
    assert refused(state, "6 tent22 totem ff").rule == "I8"
    assert refused(state, "6 totem f").rule == "I8"


def test_i8_unexplored_legal_moves_are_single_tents():
    """I8: an unexplored territory (no tent yet) takes exactly one piece, a tent."""
    state = start(hands={"ann": "fff"})
    in_six = {p for p in plays(state) if p[0] == 6}
    assert {p[1] for p in in_six} == {(22,), (23,), (24,), (25,), (26,)}


def test_i8_explored_takes_two_tents():
    """I8: an explored territory takes up to 2 pieces: tents, totems, or one of each."""
    state = start(hands={"ann": "fff"}, tents={"bob": [22]})
    after, _ = play(state, "6 tent23 tent24 ff")
    assert tribe_tents(after, 0) == [23, 24]
    assert hand(after, 0) == "f"
    assert after.discard[-2:] == (F, F)


def test_i8_explored_takes_tent_and_totem():
    """I8: an explored territory takes up to 2 pieces: tents, totems, or one of each."""
    state = start(hands={"ann": "fff"}, tents={"ann": [22], "bob": [23]})
    after, effects = play(state, "6 tent24 totem ff")
    assert tribe_tents(after, 0) == [22, 24]
    assert after.totems[6] == (1, 0, 0)
    assert after.totem_supply == (7, 8, 8)
    assert effects_of(effects, PiecesPlaced) == [
        PiecesPlaced(tribe=0, territory=6, tents=(24,), totems=1)
    ]


def test_i8_explored_takes_two_totems():
    """I8: an explored territory takes up to 2 pieces: tents, totems, or one of each."""
    state = start(hands={"ann": "fff"}, tents={"ann": [22, 23]})
    after, _ = play(state, "6 totem totem ff")
    assert after.totems[6] == (2, 0, 0)


def test_i8_at_most_two_pieces():
    """I8: place at most 2 pieces ("3-2-1": 3 cards, 2 pieces, 1 territory)."""
    state = start(hands={"ann": "fff"}, tents={"bob": [22]})
    three = CardsPlayed(territory=6, pieces=(23, 24, 25), cards=(F, F, F))
    assert refused(state, three).rule == "I8"


def test_i8_at_most_three_cards():
    """I8: play 1 to 3 cards from hand ... So at most 3 cards."""
    state = start(hands={"ann": "fcc"}, tents={"bob": [22]})
    four = CardsPlayed(territory=6, pieces=(23, 24), cards=(F, C, C, F))
    assert refused(state, four).rule == "I8"
    none = CardsPlayed(territory=6, pieces=(), cards=())
    assert refused(state, none).rule == "I8"


def test_i8_three_cards_two_pieces_one_territory():
    """I8: each piece costs one card of the territory's terrain, or two cards of one terrain used
    as a wild. So at most 3 cards and 2 pieces ("3-2-1")."""
    state = start(hands={"ann": "fcc"}, tents={"bob": [22]})
    after, _ = play(state, "6 tent23 tent24 fcc")
    assert tribe_tents(after, 0) == [23, 24]
    assert hand(after, 0) == ""
    assert sorted(letters(after.discard[-3:])) == ["c", "c", "f"]
    assert (6, (23, 24), "ccf") in plays(state)


def test_i8_legal_moves_obey_3_2_1():
    """I8: at most 3 cards and 2 pieces, 1 territory ("3-2-1"); every listed play is accepted."""
    for seed in range(4):
        state = from_seed(seed)
        for _ in range(12):
            moves = GAME.legal_moves(state)
            for e in moves:
                if isinstance(e, CardsPlayed):
                    assert 1 <= len(e.cards) <= 3 and 1 <= len(e.pieces) <= 2
                    assert all(
                        p == TOTEM_PIECE or load().space_territory[p] == e.territory
                        for p in e.pieces
                    )
            for e in moves[:: max(1, len(moves) // 7)]:
                GAME.check(state, e)
            state, _ = GAME.apply(state, moves[(seed * 7 + len(moves)) % len(moves)])
            if state.over:
                break


def test_i8_pair_as_wild_in_another_terrain():
    """I8: a piece costs ... two cards of one terrain (any terrain) used as a wild."""
    state = start(hands={"ann": "ccg"})
    after, _ = play(state, "6 tent22 cc")
    assert tribe_tents(after, 0) == [22]
    assert hand(after, 0) == "g"
    assert (6, (22,), "cc") in plays(state)
    tundra, _ = play(state, "3 tent8 cc")
    assert tribe_tents(tundra, 0) == [8]


def test_i8_wild_pair_must_be_of_one_terrain():
    """I8: ... or two cards of one terrain (any terrain) used as a wild."""
    state = start(hands={"ann": "cgt"})
    assert refused(state, "6 tent22 cg").rule == "I8"


def test_i8_cards_must_pay_exactly_for_the_pieces():
    """I8: each piece costs one card of the territory's terrain, or two cards of one terrain."""
    state = start(hands={"ann": "fcg"}, tents={"bob": [22]})
    assert refused(state, "6 tent23 c").rule == "I8"  # a single card of another terrain
    assert refused(state, "6 tent23 tent24 f").rule == "I8"  # too few cards
    assert refused(state, "6 tent23 fc").rule == "I8"  # a card that pays for nothing
    two = start(hands={"ann": "ccg"}, tents={"bob": [22]})
    assert refused(two, "6 tent23 tent24 cc").rule == "I8"  # one pair pays one piece
    assert refused(two, "6 tent23 tent24 ccg").rule == "I8"  # a glacier pays nothing in forest
    three = start(hands={"ann": "fcc"}, tents={"bob": [22]})
    assert refused(three, "6 tent23 fcc").rule == "I8"  # three cards for one piece


def test_i8_one_territory():
    """I8: ... and place at most 2 pieces, all in one territory."""
    state = start(hands={"ann": "ftt"}, tents={"bob": [22], "cy": [8]})
    assert refused(state, "6 tent23 tent9 ft").rule == "I8"
    assert refused(state, "6 tent9 t").rule == "I8"


def test_i8_tent_on_an_empty_space():
    """I8: a tent goes on an empty tent space of that territory."""
    state = start(hands={"ann": "fff"}, tents={"bob": [22]})
    assert refused(state, "6 tent22 f").rule == "I8"
    assert refused(state, "6 tent23 tent23 ff").rule == "I8"


def test_i8_full_territory_takes_no_tent():
    """I8: a full territory takes no more tents (totems still fit)."""
    state = start(hands={"ann": "ggg"}, tents={"bob": [1, 2, 3]})
    in_one = {p for p in plays(state) if p[0] == 1}
    assert in_one and all(TOTEM_PIECE in p[1] and set(p[1]) == {TOTEM_PIECE} for p in in_one)
    after, _ = play(state, "1 totem g")
    assert after.totems[1] == (1, 0, 0)


def test_i8_totem_limit_most_tents_of_a_single_tribe():
    """I8: after each placement the territory's totems may not outnumber the most tents any
    single tribe has there."""
    state = start(
        hands={"ann": "fff"},
        tents={"ann": [22, 23], "bob": [24]},
        totems={"bob": {6: 1}},
    )
    after, _ = play(state, "6 totem f")
    assert after.totems[6] == (1, 1, 0)
    assert refused(state, "6 totem totem ff").rule == "I8"


def test_i8_totem_limit_counts_every_tribe_but_not_their_sum():
    """I8: totems of all tribes stack on the totem circle; ... the most tents any single tribe
    has there (not all tents together)."""
    state = start(
        hands={"ann": "fff"},
        tents={"ann": [22], "bob": [23], "cy": [24]},
        totems={"cy": {6: 1}},
    )
    assert refused(state, "6 totem f").rule == "I8"


def test_i8_totem_needs_no_own_tent():
    """I8: totems of all tribes stack on the totem circle; no totem where there is no tent (a
    tent of any tribe opens the circle)."""
    state = start(hands={"ann": "fff"}, tents={"bob": [22, 23]})
    after, _ = play(state, "6 totem totem ff")
    assert after.totems[6] == (2, 0, 0)


def test_i8_no_totem_without_tent():
    """I8: no totem where there is no tent."""
    state = start(hands={"ann": "fff"}, tents={"bob": [27]})
    assert refused(state, "6 totem f").rule == "I8"
    assert not any(TOTEM_PIECE in p[1] for p in plays(state) if p[0] == 6)


def test_i8_ruling_tent_then_totem_opens_room():
    """I8 Ruling: pieces are placed one at a time in the order the player gives, and each is
    checked against the state after the one before (a tent then a totem can open room for the
    totem)."""
    state = start(hands={"ann": "fff"}, tents={"ann": [22]}, totems={"bob": {6: 1}})
    assert refused(state, "6 totem f").rule == "I8"
    assert refused(state, "6 totem tent23 ff").rule == "I8"
    after, _ = play(state, "6 tent23 totem ff")
    assert tribe_tents(after, 0) == [22, 23]
    assert after.totems[6] == (1, 1, 0)
    assert (6, (23, TOTEM_PIECE), "ff") in plays(state)


def test_i8_another_tribes_tent_opens_no_room():
    """I8: ... may not outnumber the most tents any single tribe has there."""
    state = start(hands={"ann": "fff"}, tents={"bob": [22, 23]}, totems={"bob": {6: 2}})
    assert refused(state, "6 tent24 totem ff").rule == "I8"


def test_i8_played_cards_go_to_discard():
    """I8: the played cards go to the discard pile."""
    state = start(hands={"ann": "fcc"}, tents={"bob": [22]}, discard="dd")
    after, _ = play(state, "6 tent23 tent24 fcc")
    assert len(after.discard) == len(state.discard) + 3
    assert after.discard[: len(state.discard)] == state.discard
    assert sorted(letters(after.discard[len(state.discard) :])) == ["c", "c", "f"]
    assert after.deck == state.deck


def test_i8_cards_not_in_hand():
    """I8: a player cannot pay with cards they do not hold."""
    state = start(hands={"ann": "ftt"}, tents={"bob": [22]})
    assert refused(state, "6 tent23 tent24 ff").rule == "I8"
    assert refused(state, "12 tent50 d").rule == "I8"
    assert refused(state, "6 tent23 cc").rule == "I8"


def test_i8_empty_tent_supply():
    """I8: a player cannot ... place a piece from an empty supply (tents)."""
    placed = [*range(16, 22), *range(8, 13), *range(27, 32), *range(44, 49)]
    assert len(placed) == 21
    state = start(hands={"ann": "fff"}, tents={"ann": placed, "bob": [22]})
    assert state.tent_supply[0] == 0
    error = refused(state, "6 tent23 f")
    after, _ = play(state, "6 totem f")  # a totem still comes from a full supply
    assert after.totems[6] == (1, 0, 0)
    assert error.rule == "I8"


def test_i8_empty_totem_supply():
    """I8: a player cannot ... place a piece from an empty supply (totems)."""
    state = start(
        hands={"ann": "fff"},
        tents={"ann": [16, 17, 18, 19, 20, 21, 8, 9, 22]},
        totems={"ann": {5: 6, 3: 2}},
    )
    assert state.totem_supply[0] == 0
    error = refused(state, "6 totem f")
    after, _ = play(state, "6 tent23 f")
    assert tribe_tents(after, 0)[-2:] == [22, 23]
    assert error.rule == "I8"


def test_i8_one_action_per_turn():
    """I8/I9: a turn is exactly one of Play or Exchange; after a play the player refills."""
    state = start(hands={"ann": "fff"})
    after, _ = play(state, "6 tent22 f")
    assert after.phase is Phase.REFILL and after.to_move == 0
    with pytest.raises(IllegalMove):
        GAME.check(after, GAME.parse_move(after, "6 tent23 f"))
    with pytest.raises(IllegalMove):
        GAME.check(after, GAME.parse_move(after, "swap f deck"))


# --- I9: exchange --------------------------------------------------------------------------------


def test_i9_exchange_with_the_deck():
    """I9: Exchange: discard 1 card from hand and draw 1 (from the deck)."""
    state = start(hands={"ann": "tfg"}, deck="cdt")
    after, _ = play(state, "swap t deck")
    assert hand(after, 0) == "fgc"
    assert after.discard[-1] is T
    assert letters(after.deck) == "dt"
    assert letters(after.display) == letters(state.display)
    assert after.to_move == 1 and after.phase is Phase.ACTION


def test_i9_exchange_with_the_display():
    """I9: discard 1 card from hand and draw 1 from the display (refilled from the deck at
    once, I10)."""
    state = start(hands={"ann": "tfg"}, display="tfdc", deck="gct")
    after, _ = play(state, "swap t d3")
    assert hand(after, 0) == "fgd"
    assert letters(after.display) == "tfgc"
    assert letters(after.deck) == "ct"
    assert after.discard[-1] is T
    assert after.to_move == 1


def test_i9_exchange_needs_the_card():
    """I9: discard 1 card from hand (one the player holds)."""
    state = start(hands={"ann": "tfg"})
    assert refused(state, "swap d deck").rule == "I9"


def test_i9_pass_only_when_no_play_and_no_exchange():
    """I9 (with the pass ruling): a player who can exchange does not pass."""
    state = start(hands={"ann": "tfg"})
    with pytest.raises(IllegalMove):
        GAME.check(state, TurnPassed())
    assert CardExchanged(card=T, source=0) in GAME.legal_moves(state)


def test_i9_pass_when_nothing_is_possible():
    """I9 with the pass ruling (events: TurnPassed only when neither a play nor an exchange is
    possible): a player without cards, with no deck nor display to draw from, passes."""
    state = start(hands={"ann": "ddd", "bob": "", "cy": "fff"}, deck="t", display="", deck_outs=1)
    state, _ = play(state, "15 tent61 d", "draw deck")
    assert state.to_move == 1
    assert GAME.legal_moves(state) == [TurnPassed()]
    state, _ = play(state, "pass")
    assert state.to_move == 2 and not state.over


# --- I10: refill ---------------------------------------------------------------------------------


def test_i10_refill_up_to_three_from_display_and_deck():
    """I10: at the end of a turn the player draws back up to 3 cards, each one either a display
    card (the display is refilled from the deck at once) or the top card of the deck."""
    state = start(hands={"ann": "fff"}, tents={"bob": [22]}, display="tgcd", deck="cgt")
    state, _ = play(state, "6 tent23 tent24 ff")
    assert state.phase is Phase.REFILL
    state, _ = play(state, "draw d2")
    assert hand(state, 0) == "fg"
    assert letters(state.display) == "tccd"
    assert letters(state.deck) == "gt"
    assert state.to_move == 0 and state.phase is Phase.REFILL
    state, _ = play(state, "draw deck")
    assert hand(state, 0) == "fgg"
    assert letters(state.deck) == "t"
    assert state.to_move == 1 and state.phase is Phase.ACTION


def test_i10_refill_is_owed():
    """I10: at the end of a turn the player draws back up to 3 cards (no other move meanwhile)."""
    state = start(hands={"ann": "fff"})
    state, _ = play(state, "6 tent22 f")
    with pytest.raises(IllegalMove):
        GAME.check(state, TurnPassed())
    moves = {GAME.format_move(e) for e in GAME.legal_moves(state)}
    assert moves == {"draw deck", "draw d1", "draw d2", "draw d3", "draw d4"}


def test_i10_empty_display_slot_cannot_be_drawn():
    """I10: each [card] either a display card ... or the top card of the deck (an empty slot
    holds no card)."""
    state = start(hands={"ann": "fff"}, display="tfg", deck="c")
    state, _ = play(state, "6 tent22 f")
    with pytest.raises(IllegalMove):
        GAME.check(state, GAME.parse_move(state, "draw d4"))


def test_i10_no_refill_beyond_three():
    """I10: draws back up to 3 cards."""
    state = start(hands={"ann": "fff"}, tents={"bob": [22]})
    state, _ = play(state, "6 tent23 f")
    state, _ = play(state, "draw deck")
    assert sum(state.hands[0]) == 3
    assert state.to_move == 1


# --- I11: the third tribe ------------------------------------------------------------------------


def two(**kwargs):
    return start(seats=SEATS2, **kwargs)


def test_i11_third_tribe_after_one_card_with_two_cards():
    """I11: after a Play in which the active player used 1 or 2 cards, the player may use cards
    still in hand for one regular Play for the third tribe (same rules, its own supply), before
    refilling."""
    state = two(hands={"ann": "fff"}, tents={"bob": [22]})
    state, _ = play(state, "6 tent23 f")
    assert state.phase is Phase.THIRD and state.to_move == 0
    state, effects = play(state, "third 6 tent24 tent25 ff")
    assert tribe_tents(state, 2) == [24, 25]
    assert state.tent_supply == (20, 20, 19)
    assert effects_of(effects, PiecesPlaced) == [
        PiecesPlaced(tribe=2, territory=6, tents=(24, 25), totems=0)
    ]
    assert hand(state, 0) == ""
    assert state.phase is Phase.REFILL
    state, _ = refill(state)
    assert sum(state.hands[0]) == 3
    assert state.to_move == 1


def test_i11_third_tribe_with_a_wild_pair():
    """I11: the player may use cards still in hand for one regular Play for the third tribe
    (a pair of one terrain is a wild, I8)."""
    state = two(hands={"ann": "fcc"})
    state, _ = play(state, "6 tent22 f")
    state, _ = play(state, "third 3 tent8 cc")
    assert tribe_tents(state, 2) == [8]
    assert hand(state, 0) == ""
    assert state.discard[-2:] == (C, C)


def test_i11_third_tribe_after_two_cards_with_one_card():
    """I11: after a Play in which the active player used 1 or 2 cards, ... one regular Play for
    the third tribe."""
    state = two(hands={"ann": "ffg"}, tents={"bob": [22]})
    state, _ = play(state, "6 tent23 tent24 ff")
    assert state.phase is Phase.THIRD
    state, _ = play(state, "third 1 tent2 g")
    assert tribe_tents(state, 2) == [2]
    assert tribe_tents(state, 0) == [23, 24]
    assert state.tent_supply == (19, 20, 20)


def test_i11_not_after_three_cards():
    """I11: [only] after a Play in which the active player used 1 or 2 cards (the Italian
    sheet: if a player played all 3 cards, the third tribe does not move)."""
    state = two(hands={"ann": "fcc"}, tents={"bob": [22]})
    state, _ = play(state, "6 tent23 tent24 fcc")
    assert state.phase is Phase.REFILL
    with pytest.raises(IllegalMove):
        GAME.check(state, ThirdTribePassed())
    assert tribe_tents(state, 2) == []
    assert refused(state, "third 6 tent25 f").rule == "I11"


def test_i11_not_after_an_exchange():
    """I11: after a Play ... (an Exchange gives the third tribe no move)."""
    state = two(hands={"ann": "fcc"})
    state, _ = play(state, "swap f deck")
    assert state.to_move == 1 and state.phase is Phase.ACTION
    passed = refused(state, ThirdTribePassed())
    played = refused(state, "third 6 tent22 c")
    assert (passed.rule, played.rule) == ("I11", "I11")


def test_i11_optional():
    """I11 Ruling: optional, as the Chinese sheet says ("可以", may)."""
    state = two(hands={"ann": "fcc"})
    state, _ = play(state, "6 tent22 f")
    state, _ = play(state, "third pass")
    assert state.phase is Phase.REFILL
    assert tribe_tents(state, 2) == []
    assert hand(state, 0) == "cc"


def test_i11_same_rules_for_the_third_tribe():
    """I11: one regular Play for the third tribe (same rules ...)."""
    state = two(hands={"ann": "fcc"}, tents={"bob": [27]})
    state, _ = play(state, "6 tent22 f")
    assert refused(state, "third 7 tent28 tent29 cc").rule == "I8"  # one pair, one piece
    assert refused(state, "third 3 tent8 tent9 cc").rule == "I8"  # unexplored: one tent
    assert refused(state, "third 3 totem cc").rule == "I8"  # no totem without a tent
    assert refused(state, "third 7 tent28 d").rule == "I8"  # a card ann does not hold


def test_i11_third_tribe_own_supply():
    """I11: ... (same rules, its own supply)."""
    placed = [*range(16, 22), *range(8, 13), *range(27, 32), *range(44, 49)]
    state = two(hands={"ann": "fff"}, tents={"third": placed, "ann": [22]})
    state, _ = play(state, "6 tent23 f")
    error = refused(state, "third 6 tent24 f")
    after, _ = play(state, "third 6 totem f")
    assert after.totems[6] == (0, 0, 1)
    assert after.totem_supply == (8, 8, 7)
    assert after.tent_supply == (19, 21, 0)
    assert error.rule == "I8"


def test_i11_no_third_tribe_with_three_players():
    """I11: 2 players: the third tribe (no third tribe with 3 players)."""
    state = start(hands={"ann": "fcc"})
    state, _ = play(state, "6 tent22 f")
    assert state.phase is Phase.REFILL
    assert len(state.tent_supply) == 3
    with pytest.raises(IllegalMove):
        GAME.check(state, ThirdTribePassed())
