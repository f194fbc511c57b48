"""What Iwari tells a player names only legal moves, in the notation that plays them: no 'pass'
while a play or an exchange is possible, 'third pass' in the third tribe's step, 'feat KIND none'
to decline a feat; and a draw says which card was taken, as the viewer may see it (I22)."""

from __future__ import annotations

import html
from pathlib import Path

import attrs
import pytest

from tribes.core.errors import IllegalMove
from tribes.core.game import EVERYTHING, SPECTATOR
from tribes.games.iwari import GAME
from tribes.games.iwari.board import Terrain
from tribes.games.iwari.events import (
    FROM_DECK,
    CardDrawn,
    CardTaken,
    FeatPlaced,
    ThirdTribePassed,
    TurnPassed,
)
from tribes.games.iwari.state import Phase
from tribes.replay.cursor import Cursor

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "iwari"
SEATS = ("ann", "bob")


def cursor(name: str) -> Cursor:
    return Cursor.open(FIXTURES / f"{name}.json")


def status(state: object, seats: tuple[str, ...]) -> str:
    return GAME.render(state, seats, EVERYTHING, 80).splitlines()[-1]


def test_the_turn_does_not_offer_a_pass_while_a_play_or_exchange_is_legal() -> None:
    c = cursor("full-game-2p")
    for index in range(len(c)):
        state = c.at(index).state
        if state.phase is Phase.ACTION and not state.over:
            assert TurnPassed() not in GAME.legal_moves(state)
            line = status(state, c.seats)
            assert line.endswith("to play or exchange"), line
            assert "pass" not in line


def test_the_picture_says_what_the_board_says_without_the_notation_hints() -> None:
    """The SVG panel's last line is the text board's, but for the notation of declining, which
    its narrow panel has no room for: never 'pass' while a play or an exchange is legal."""
    for name in ("full-game-2p", "full-game-3p-feats"):
        c = cursor(name)
        for index in range(len(c)):
            state = c.at(index).state
            svg = GAME.svg(state, c.seats, EVERYTHING)
            said = status(state, c.seats)
            short = said.split(" (third pass)")[0].split(": feat ")[0]
            short += ")" if ": feat " in said else ""
            assert f">{html.escape(short)}<" in svg, (index, said)


def test_the_turn_says_pass_when_only_a_pass_is_legal() -> None:
    c = cursor("full-game-2p")
    state = c.at(0).state
    empty = attrs.evolve(state, hands=tuple((0,) * 5 for _ in state.hands))
    assert list(GAME.legal_moves(empty)) == [TurnPassed()]
    assert status(empty, c.seats) == "bob to pass: no play or exchange is possible"


def test_the_third_tribes_step_refuses_pass_with_the_move_that_passes_it() -> None:
    c = cursor("full-game-2p")
    state = c.at(1).state
    assert state.phase is Phase.THIRD
    with pytest.raises(IllegalMove) as refused:
        GAME.check(state, TurnPassed())
    assert "'third pass'" in str(refused.value)
    assert "or pass" not in str(refused.value)
    GAME.check(state, ThirdTribePassed())  # the move it names is legal
    assert "(third pass)" in status(state, c.seats)


def test_a_feat_on_the_wrong_place_names_the_notation_that_declines_it() -> None:
    c = cursor("feat-union-first-and-second")
    state = c.at(1).state
    assert state.phase is Phase.FEAT
    kind = state.pending_feats[0].kind
    wrong = next(t for t in range(1, 99) if t not in state.pending_feats[0].options)
    with pytest.raises(IllegalMove) as refused:
        GAME.check(state, FeatPlaced(kind=kind, target=wrong))
    assert f"'feat {kind} none'" in str(refused.value)
    assert "0 to decline" not in str(refused.value)
    assert f"feat {kind} none" in status(state, c.seats)
    assert GAME.parse_move(state, f"feat {kind} none") in GAME.legal_moves(state)
    with pytest.raises(IllegalMove) as first:
        GAME.check(state, CardDrawn(source=FROM_DECK))
    assert f"'feat {kind} none'" in str(first.value)


def test_a_draw_from_the_deck_is_named_to_its_drawer_and_everything_only() -> None:
    taken = CardTaken(seat=0, source=FROM_DECK, card=Terrain.DESERT)
    assert taken.describe(SEATS) == "ann draws a desert from the deck"
    assert taken.describe_for(SEATS, EVERYTHING) == "ann draws a desert from the deck"
    assert taken.describe_for(SEATS, 0) == "ann draws a desert from the deck"
    assert taken.describe_for(SEATS, 1) == "ann draws a card from the deck"
    assert taken.describe_for(SEATS, SPECTATOR) == "ann draws a card from the deck"


def test_a_draw_from_the_display_is_public_and_names_the_refill() -> None:
    taken = CardTaken(seat=1, source=3, card=Terrain.FOREST, refill=Terrain.GLACIER)
    for viewer in (EVERYTHING, SPECTATOR, 0, 1):
        assert taken.describe_for(SEATS, viewer) == (
            "bob takes a forest from display slot 3; a glacier from the deck fills it"
        )
    last = CardTaken(seat=1, source=2, card=Terrain.TUNDRA)
    assert "the slot stays empty" in last.describe(SEATS)


def test_every_draw_has_its_card_effect() -> None:
    c = cursor("full-game-2p")
    for index in range(1, len(c) + 1):
        step = c.at(index)
        if GAME.format_move(step.event).startswith(("draw", "swap")):
            taken = [e for e in step.effects if isinstance(e, CardTaken)]
            assert len(taken) == 1, index
            before = c.at(index - 1).state
            source = taken[0].source
            expected = before.deck[0] if source == FROM_DECK else before.display[source - 1]
            assert taken[0].card is expected
