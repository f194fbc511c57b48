"""How many villages one Clans move can found, bounded by an exhaustive argument over the board:
at most 3 on the standard board (so ``hunt clans --until 'len(VillageFounded) >= 4'`` rightly finds
nothing there), 4 on ``examples/boards/clans-one-more-lake.json`` (where the hunt finds it).

The argument (C8, C11). A move empties its source S onto an adjacent occupied target T. A
territory V that becomes a village is occupied and has every neighbour empty after the move, and
had an occupied neighbour before (else it was a village already): that neighbour can only be S,
the one territory the move emptied. So every village of the move is a neighbour of S; no two of
them border each other (each has only empty neighbours); and none borders T, which is occupied
after the move, unless it is T itself. The villages of one move are therefore an independent set
of the graph of S's neighbours that are T or do not border T, and the most villages one move can
found on a board is the largest such set over every adjacent pair (S, T) — computed below by
trying every subset. The premises are checked on the engine's own states too: in random games,
the territories each move isolates are exactly such a set.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from tribes import games
from tribes.games.clans import board as boards
from tribes.replay.simulate import match, play_game, seed_of

LAKE = Path(__file__).resolve().parents[2] / "examples" / "boards" / "clans-one-more-lake.json"


def most_villages(board: boards.Board) -> tuple[int, tuple[int, int, tuple[int, ...]]]:
    """The most villages one move can found on ``board`` (the bound of the module's argument),
    and a source, target and villages that reach it."""
    best: tuple[int, tuple[int, int, tuple[int, ...]]] = (0, (0, 0, ()))
    near = board.neighbours
    for source in range(1, len(near)):
        for target in near[source]:
            candidates = [v for v in near[source] if v == target or v not in near[target]]
            for size in range(len(candidates), best[0], -1):
                apart = next(
                    (
                        chosen
                        for chosen in itertools.combinations(candidates, size)
                        if all(b not in near[a] for a, b in itertools.combinations(chosen, 2))
                    ),
                    None,
                )
                if apart is not None:
                    best = (size, (source, target, apart))
                    break
    return best


def test_the_standard_board_founds_at_most_three_villages_in_one_move() -> None:
    most, (source, _, villages) = most_villages(boards.load())
    assert most == 3
    assert source == 7 and len(villages) == 3


def test_the_one_more_lake_board_founds_four() -> None:
    most, (source, _, villages) = most_villages(boards.load(str(LAKE), LAKE.read_text()))
    assert most == 4
    assert source == 7 and set(villages) == {1, 6, 8, 14}


def isolated(board: boards.Board, totals: tuple[int, ...]) -> set[int]:
    return {
        t
        for t in range(1, len(board.neighbours))
        if totals[t] and not any(totals[n] for n in board.neighbours[t])
    }


def test_the_premises_hold_in_the_engines_games() -> None:
    """Every territory a move isolates borders its source, none borders another or the target
    (unless it is the target): the argument's premises, on real states of random games."""
    game = games.get("clans")
    how = match(game, seats=3)
    like = None
    checked = 0
    for i in range(30):
        log = play_game(game, seed_of(5, i), how, like=like).log
        like = log.header
        state = game.setup(like)
        for event in log.events:
            before = isolated(state.board, state.totals)
            state, _ = game.apply(state, event)
            new = isolated(state.board, state.totals) - before
            if not hasattr(event, "source"):
                assert not new  # only a move of huts changes which territories are occupied
                continue
            near = state.board.neighbours
            assert all(v in near[event.source] for v in new)
            assert all(v == event.target or v not in near[event.target] for v in new)
            assert all(b not in near[a] for a, b in itertools.combinations(new, 2))
            assert len(new) <= 3
            checked += bool(new)
    assert checked > 30  # the games did found villages
