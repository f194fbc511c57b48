"""Clans' fast paths give what the plain rules give (C8–C10), over seeded random games: the
legal moves read from the pair mask's tables, a move read by its index, and the reducer's check
of a move by one lookup in those tables (the whole check runs only for a move they refuse)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tribes.core.errors import IllegalMove
from tribes.games.clans import rules
from tribes.games.clans.events import HutsMoved
from tribes.replay.simulate import play_game
from tribes.testing.clans import BOARD, GAME

BIG_GROUP = 7
ODD_PAIRS = ((0, 1), (1, 0), (1, 1), (61, 1), (1, 61), (-1, 2), (1, 3))
"""Moves no board lists: off the board, a territory twice, territories not adjacent."""


def _states(seed: int, seats: int) -> Iterator[Any]:
    result = play_game(GAME, seed, seats)
    state = GAME.setup(result.log.header)
    yield state
    for event in result.log.events:
        state, _ = GAME.apply(state, event)
        yield state


STATES = [s for seed, seats in ((1, 2), (2, 3), (3, 4), (4, 3)) for s in _states(seed, seats)]
TURNS = [s for s in STATES if not s.over and s.pending is None]


def _plain_moves(state: Any) -> set[tuple[int, int]]:
    """C8–C10 read off the huts: from a territory with huts onto an adjacent one with huts; a
    group of 7 or more only onto a group at least as large."""
    totals = [sum(h) for h in state.huts]
    return {
        (a, b)
        for a, b in BOARD.pairs
        if totals[a] and totals[b] and (totals[a] < BIG_GROUP or totals[b] >= totals[a])
    }


def test_the_games_reach_what_the_tables_treat_apart():
    """The games cover a start with every pair a move (more than 255: the index read without
    the product of running counts), sources of 7 or more, and few moves."""
    counts = [len(GAME.legal_moves(s)) for s in TURNS]
    assert max(counts) >= 256 and min(counts) < 10
    assert any(s.big for s in TURNS)


@pytest.mark.parametrize("at", range(0, len(TURNS), 7))
def test_legal_moves_are_the_plain_moves_and_read_alike_by_index(at):
    start = TURNS[at]
    for state in TURNS[at : at + 7]:
        moves = GAME.legal_moves(state)
        pairs = [(m.source, m.target) for m in moves]
        assert len(pairs) == len(moves) == len(set(pairs))
        assert set(pairs) == _plain_moves(state)
        assert [moves[i] for i in range(len(moves))] == list(moves), start


@pytest.mark.parametrize("at", range(0, len(TURNS), 11))
def test_the_reducer_refuses_exactly_the_moves_not_listed(at):
    state = TURNS[at]
    listed = {(m.source, m.target) for m in GAME.legal_moves(state)}
    for source, target in (*BOARD.pairs, *ODD_PAIRS):
        move = HutsMoved(source=source, target=target)
        if (source, target) in listed:
            after, _ = GAME.apply(state, move)
            assert after.huts[source] == (0, 0, 0, 0, 0)
        else:
            with pytest.raises(IllegalMove):
                GAME.apply(state, move)


def test_the_byte_tables_list_each_values_moves_in_bit_order():
    """``by_byte[k][v]``: the moves of the pairs ``8k..8k+7`` whose bit is set in ``v``, in pair
    order, for every value (the last byte's unused bits ignored): read bit by bit here."""
    tables = rules.MoveTables(BOARD)
    width = (len(BOARD.pairs) + 7) // 8
    assert len(tables.by_byte) == width
    for k in range(width):
        pairs = BOARD.pairs[8 * k : 8 * k + 8]
        assert len(tables.by_byte[k]) == 256
        for value in range(256):
            listed = [(m.source, m.target) for m in tables.by_byte[k][value]]
            assert listed == [p for i, p in enumerate(pairs) if value >> i & 1]
    three = tables.by_pair[:3]  # a last byte partly used (a board of 8k + 3 pairs)
    assert rules._subsets(three) == tuple(
        tuple(m for i, m in enumerate(three) if value >> i & 1) for value in range(256)
    )


@given(st.binary(max_size=80).map(lambda b: bytes(v % 9 for v in b)))
def test_running_counts_are_the_sums_so_far(counts: bytes) -> None:
    """The packed running sums (one product, valid while no sum passes 255) and the plain ones
    agree wherever they are read: the first ``len(counts)``."""
    total = sum(counts)
    upto = rules.running_counts(counts, total)
    assert list(upto[: len(counts)]) == list(itertools.accumulate(counts))


@given(st.integers(min_value=0, max_value=(1 << 130) - 1))
def test_bits_and_lowest_give_the_mask_back(mask: int) -> None:
    found = rules.bits(mask)
    assert sum(1 << i for i in found) == mask and found == sorted(set(found))
    if mask:
        assert found[0] == rules.lowest(mask) and mask >> rules.lowest(mask) & 1
