"""Iwari's legal plays through their memos and the state's situation cache give what the plain
computation gives (I8), in the same order: every play of every territory with every payment.

The plain computation here is written from the rules (I8, with the ruling on a tent before a
totem) and ``placement.payments``, without ``moves``' memo keys, pay codes or situation codes."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tribes.core.events import Event
from tribes.games.iwari import moves, situations
from tribes.games.iwari.board import TERRAINS
from tribes.games.iwari.events import (
    FROM_DECK,
    TOTEM_PIECE,
    CardDrawn,
    CardExchanged,
    CardsPlayed,
    ThirdTribePlayed,
)
from tribes.games.iwari.placement import payments
from tribes.games.iwari.state import IwariState, Phase, evolve
from tribes.replay import simulate
from tribes.testing.iwari import GAME

ALL_VARIANTS = "floating-lands,glacial-mass,long-road"


def plain_plays(
    state: IwariState, tribe: int, kind: type[CardsPlayed | ThirdTribePlayed]
) -> list[Event]:
    """Territory by territory: the placements (a tent on a free space; in an explored
    territory a totem or two while no tribe's tents there are fewer than the totems, two tents,
    a tent then a totem), each with every way the active hand pays for its pieces."""
    hand = state.hands[state.to_move]
    tents_left = min(state.tent_supply[tribe], 2)
    totems_left = min(state.totem_supply[tribe], 2)
    out: list[Event] = []
    for territory in state.map.territories:
        spaces = territory.spaces
        free = [s for s in spaces if not state.tents[s]]
        options: list[tuple[int, ...]] = [(s,) for s in free] if tents_left else []
        if len(free) < len(spaces):
            held = state.tents_in(territory.id)
            most, totems = max(held), sum(state.totems[territory.id])
            if totems_left and totems + 1 <= most:
                options.append((TOTEM_PIECE,))
                if totems_left >= 2 and totems + 2 <= most:
                    options.append((TOTEM_PIECE, TOTEM_PIECE))
            if tents_left >= 2:
                options.extend(itertools.combinations(free, 2))
            if tents_left and totems_left and free and totems + 1 <= max(most, held[tribe] + 1):
                options.extend((s, TOTEM_PIECE) for s in free)
        for pieces in options:
            for cards in payments(hand, len(pieces), territory.terrain):
                out.append(kind(territory=territory.id, pieces=pieces, cards=cards))
    return out


def states(seats: int, options: dict[str, str], games: int) -> Iterator[IwariState]:
    """Every state of some random games."""
    how = simulate.match(GAME, ("random",), seats=seats, options=options)
    for index in range(games):
        played = simulate.play_game(GAME, simulate.seed_of(seats, index), how)
        state = GAME.setup(played.log.header)
        for event in played.log.events:
            yield state
            state, _ = GAME.apply(state, event)
        yield state


CASES: list[Any] = [
    pytest.param(2, {}, id="2p"),
    pytest.param(3, {}, id="3p"),
    pytest.param(5, {"variant": ALL_VARIANTS}, id="5p-variants"),
]


@pytest.mark.parametrize(("seats", "options"), CASES)
def test_i8_plays_are_the_plain_computation(seats: int, options: dict[str, str]) -> None:
    checked = 0
    for state in states(seats, options, 12):
        if state.over or state.phase not in (Phase.ACTION, Phase.THIRD):
            continue
        if state.phase is Phase.ACTION:
            tribe, kind = state.to_move, CardsPlayed
        else:
            tribe, kind = moves.THIRD, ThirdTribePlayed
        expected = plain_plays(state, tribe, kind) if any(state.hands[state.to_move]) else []
        assert moves.plays(state, tribe, kind) == expected
        assert moves.can_play(state, tribe) == bool(expected)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize(("seats", "options"), CASES)
def test_the_situation_cache_is_the_situations_read_again(
    seats: int, options: dict[str, str]
) -> None:
    """Kept up to date by every play, for the very tents and totems of its state."""
    for state in states(seats, options, 4):
        tents, totems, codes = state.situations
        assert tents is state.tents and totems is state.totems
        assert codes == situations.situations(state.map, state.tents, state.totems)[2]


def test_a_state_made_with_other_tents_reads_its_situations_again() -> None:
    """``attrs.evolve`` carries the cache over with new tents: it is not used for them."""
    state = next(
        s for s in states(3, {}, 1) if s.phase is Phase.ACTION and sum(map(bool, s.tents)) > 6
    )
    emptied = attrs.evolve(state, tents=(0,) * len(state.tents))
    assert emptied.situations is state.situations
    assert moves.plays(emptied, emptied.to_move, CardsPlayed) == plain_plays(
        emptied, emptied.to_move, CardsPlayed
    )
    assert moves.plays(emptied, emptied.to_move, CardsPlayed) != moves.plays(
        state, state.to_move, CardsPlayed
    )


def test_situation_parts_are_what_the_code_was_made_of() -> None:
    for state in states(4, {"variant": ALL_VARIANTS}, 2):
        for index, code in enumerate(state.situations[2]):
            found, free, room, tent_totem = situations.parts(
                code, len(state.map.territories), state.tribes
            )
            spaces = state.map.territories[index].spaces
            assert found == index
            assert free == sum(
                1 << (len(spaces) - 1 - bit) for bit, s in enumerate(spaces) if not state.tents[s]
            )
            assert 0 <= room <= 2 and 0 <= tent_totem < 1 << state.tribes


def test_i8_a_pay_code_pays_as_the_hand_does() -> None:
    """Every hand of up to 6 cards: its pay code for a terrain pays in the same ways, and is 0
    exactly when nothing pays for one piece there."""
    for hand in itertools.product(range(7), repeat=5):
        if sum(hand) > 6:
            continue
        for number, terrain in enumerate(TERRAINS):
            one, two = payments(hand, 1, terrain), payments(hand, 2, terrain)
            code = moves.pay_code(hand, number)
            assert code < 1 << situations.PAY_BITS
            assert (code == 0) == (not one)
            if code:
                assert moves.payments_of(code) == (tuple(one), tuple(two))


def test_a_state_with_changes_is_the_state_evolved() -> None:
    """``state.evolve`` (``core.builders``) is ``attrs.evolve``: the same state, every field
    (caches too) the same object; a name that is no field is refused."""
    for state in itertools.islice(states(3, {}, 1), 0, None, 7):
        changes = {"phase": Phase.REFILL, "played": 2, "scores": (1, 2, 3)}
        made = evolve(state, **changes)
        evolved = attrs.evolve(state, **changes)
        assert made == evolved
        for field in attrs.fields(IwariState):
            assert getattr(made, field.name) is getattr(evolved, field.name)
    with pytest.raises(TypeError, match="scroes"):
        evolve(state, scroes=(1, 2, 3))


@pytest.mark.parametrize(("seats", "options"), CASES)
def test_i9_i10_exchanges_and_draws_are_the_plain_computation(
    seats: int, options: dict[str, str]
) -> None:
    """The sources (the deck while it has cards, then the display's filled slots), an exchange
    of each card in hand with each source, a draw from each."""
    for state in states(seats, options, 3):
        where = [FROM_DECK] if state.deck else []
        where += [slot for slot, card in enumerate(state.display, 1) if card is not None]
        assert list(moves.sources(state)) == where
        hand = state.hands[state.to_move]
        assert list(moves.exchanges(state)) == [
            CardExchanged(card=t, source=s)
            for t, n in zip(TERRAINS, hand, strict=True)
            if n
            for s in where
        ]
        if state.phase is Phase.REFILL and not state.over:
            assert moves.legal_moves(state) == [CardDrawn(source=s) for s in where]


@given(
    st.integers(1, 40).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n - 1))),
    st.integers(2, 5).flatmap(lambda t: st.tuples(st.just(t), st.integers(0, (1 << t) - 1))),
    st.integers(0, (1 << 7) - 1),
    st.integers(0, situations.ROOMS - 1),
    st.integers(0, situations.PAY_MASK),
)
def test_a_play_key_gives_back_its_situation_and_pay_code(
    territory: tuple[int, int],
    tribe: tuple[int, int],
    free: int,
    room: int,
    pay: int,
) -> None:
    (territories, index), (tribes, tent_totem) = territory, tribe
    code = situations.pack(index, free, room, tent_totem, territories, tribes)
    assert code & situations.PAY_MASK == 0
    assert situations.parts(code, territories, tribes) == (index, free, room, tent_totem)
    key = situations.play_key(code, pay)
    assert situations.pay_of(key) == pay
    assert situations.parts(key, territories, tribes) == (index, free, room, tent_totem)


def test_a_pay_code_gives_back_its_parts() -> None:
    for terrain in range(len(TERRAINS)):
        for own in range(moves.MAX_CARDS + 1):
            for pairs in range(1 << len(TERRAINS)):
                code = moves.pack_pay(terrain, own, pairs)
                assert moves.pay_parts(code) == (terrain, own, pairs)
                assert code <= situations.PAY_MASK
