"""Iwari rule I22: what a player sees (written from games/iwari/rules.md)."""

from __future__ import annotations

from tribes.core.game import EVERYTHING, SPECTATOR
from tribes.testing.iwari import GAME, SEATS3, letters, play, start


def scene(ann: str = "tcc", bob: str = "dd", deck: str = "ffgct", **kwargs):
    """ann to move; cy holds "g"; a 5-card deck; the rest of the cards in the discard."""
    return start(
        hands={"ann": ann, "bob": bob, "cy": "g"}, deck=deck, tents={"ann": [16]}, **kwargs
    )


def test_i22_own_hand_and_hand_sizes():
    """I22: a player sees their own hand, everyone's hand sizes ... not other hands."""
    state = scene()
    ann = GAME.document(state, SEATS3, 0)["hands"]
    assert sorted(ann["ann"]) == ["c", "c", "t"]
    assert (ann["bob"], ann["cy"]) == (2, 1)
    bob = GAME.document(state, SEATS3, 1)["hands"]
    assert bob["ann"] == 3 and sorted(bob["bob"]) == ["d", "d"] and bob["cy"] == 1


def test_i22_spectator_sees_hand_sizes_only():
    """I22: everyone's hand sizes (a spectator holds no hand)."""
    hands = GAME.document(scene(), SEATS3, SPECTATOR)["hands"]
    assert hands == {"ann": 3, "bob": 2, "cy": 1}


def test_i22_display_deck_size_and_discard():
    """I22: a player sees ... the display, the deck size and the discard pile; not the order of
    the deck."""
    state = scene(display="tfgc")
    doc = GAME.document(state, SEATS3, 0)
    assert doc["display"] == ["t", "f", "g", "c"]
    assert doc["deck"] == 5
    assert sorted(doc["discard"]) == sorted(letters(state.discard))
    assert len(doc["discard"]) == 47 - 6 - 4 - 5


def test_i22_deck_order_and_other_hands_hidden():
    """I22: not the order of the deck nor other hands (two states that differ only there look
    the same to ann and to a spectator)."""
    one = scene(bob="dd", deck="ffgct")
    two = scene(bob="ff", deck="tcgdd")
    for viewer in (0, SPECTATOR):
        assert GAME.document(one, SEATS3, viewer) == GAME.document(two, SEATS3, viewer)
        assert GAME.render(one, SEATS3, viewer) == GAME.render(two, SEATS3, viewer)
    assert GAME.document(one, SEATS3, EVERYTHING) != GAME.document(two, SEATS3, EVERYTHING)
    assert GAME.document(one, SEATS3, 1) != GAME.document(two, SEATS3, 1)


def test_i22_active_players_hand_hidden_from_others():
    """I22: [a player sees] not ... other hands — not even through the moves open to the active
    player."""
    one = scene(ann="tcc", deck="dgfft")
    two = scene(ann="tff", deck="dgcct")
    for viewer in (1, 2, SPECTATOR):
        assert GAME.document(one, SEATS3, viewer) == GAME.document(two, SEATS3, viewer)
        assert GAME.render(one, SEATS3, viewer) == GAME.render(two, SEATS3, viewer)
    assert GAME.render(one, SEATS3, 0) != GAME.render(two, SEATS3, 0)


def test_i22_view_after_a_refill_draw_from_the_deck():
    """I22: the drawn card joins the drawer's hand, seen by them only; others see one more
    card."""
    state, _ = play(scene(deck="ffgct"), "5 tent17 t", "draw deck")
    assert sorted(GAME.document(state, SEATS3, 0)["hands"]["ann"]) == ["c", "c", "f"]
    assert GAME.document(state, SEATS3, 1)["hands"]["ann"] == 3
    assert GAME.document(state, SEATS3, 1)["deck"] == 4
