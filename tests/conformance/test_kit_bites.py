"""The conformance kit fails a game that breaks the contract, and says how in the game's terms:
variants of the built-in games that show a hidden thing (in the document, the picture, an
effect), that re-deal nothing, or whose SVG is broken."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest

from tribes.core.events import Effect, EventTable
from tribes.core.game import Viewer
from tribes.core.pictures import Picture
from tribes.games.clans import ClansGame
from tribes.games.hunters import HuntersGame
from tribes.games.iwari import IwariGame
from tribes.games.iwari.events import CardTaken
from tribes.testing import conformance
from tribes.testing.conformance import Nonconformance, playout, svg_problem


class ClansShowingColours(ClansGame):
    """Shows every seat's clan colour to every viewer in ``show --json``."""

    def fields(self, state: Any, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
        shown = super().fields(state, seats, viewer)
        return {**shown, "clans": {s: c.value for s, c in zip(seats, state.clans, strict=True)}}


class HuntersDrawingTheStack(HuntersGame):
    """Draws the top of the land stack in its picture."""

    def picture(
        self, state: Any, seats: Sequence[str], viewer: Viewer, last: Any = None
    ) -> Picture:
        drawn = super().picture(state, seats, viewer, last)
        top = state.stack[0] if state.stack else "-"
        return attrs.evolve(drawn, parts=(*drawn.parts, ("next", f"<text>next {top}</text>")))


class _TellingCard(CardTaken):
    def describe_for(self, seats: Sequence[str], viewer: Viewer) -> str:
        return super().describe_for(seats, "all")  # the card drawn from the deck, to everyone


class IwariTellingDraws(IwariGame):
    """Tells every viewer which card a seat drew from the deck."""

    def apply(self, state: Any, event: Any) -> tuple[Any, tuple[Effect, ...]]:
        after, effects = super().apply(state, event)
        told = tuple(
            _TellingCard(**attrs.asdict(e, recurse=False)) if isinstance(e, CardTaken) else e
            for e in effects
        )
        return after, told


class ClansDealingNothing(ClansGame):
    """Hides clan colours but its re-deal gives the state back."""

    def redeal(self, state: Any, viewer: Viewer, seed: int) -> Any:
        return state


class ClansWithoutRedeal(ClansGame):
    hiding = None


class ClansWithADoubledAttribute(ClansGame):
    def picture(
        self, state: Any, seats: Sequence[str], viewer: Viewer, last: Any = None
    ) -> Picture:
        drawn = super().picture(state, seats, viewer, last)
        doubled = ("track-mark", '<circle cx="1" cy="2" r="3" fill="#000" r="4"/>')
        return attrs.evolve(drawn, parts=(*drawn.parts, doubled))


class ClansCitingAnUnknownRule(ClansGame):
    __module__ = ClansGame.__module__  # its rules.md is the one beside Clans

    events = EventTable(
        [*ClansGame.events.by_tag.values()],
        effects=[*ClansGame.events.effects.values()],
        uncounted={**ClansGame.events.uncounted, "C99": "no such rule"},
    )


def test_a_rule_id_the_rules_lack_fails() -> None:
    with pytest.raises(Nonconformance) as failed:
        conformance.check_rules(ClansCitingAnUnknownRule())
    assert str(failed.value) == "clans: uncounted names rule C99, which its rules.md lacks"


def _failure(check: Any, game: Any, seed: int = 1) -> str:
    with pytest.raises(Nonconformance) as failed:
        check(playout(game, seed))
    return str(failed.value)


def test_a_colour_shown_to_everyone_fails_naming_the_field() -> None:
    said = _failure(conformance.check_hidden_information, ClansShowingColours())
    assert said.startswith("clans seed 1, 3 seats, step 0, viewer spectator: ")
    assert "what the viewer cannot see shows: after a re-deal, show --json --as at clans.s0" in said


def test_a_stack_drawn_in_the_picture_fails_naming_the_svg() -> None:
    said = _failure(conformance.check_hidden_information, HuntersDrawingTheStack())
    assert "viewer spectator" in said
    assert "after a re-deal, the SVG at line " in said
    assert ": '<text>next " in said


def test_a_drawn_card_told_to_everyone_fails_naming_the_effect() -> None:
    said = _failure(conformance.check_hidden_information, IwariTellingDraws())
    assert "the step tells what the viewer cannot see: after a re-deal, the effects at [" in said
    assert "from the deck" in said


def test_the_unchanged_games_pass() -> None:
    for game in ("clans", "hunters", "iwari"):
        counts = conformance.check_hidden_information(playout(game, 1))
        assert counts["redealt"] > 0
        assert counts["told"] > 0


def test_a_redeal_that_deals_nothing_fails() -> None:
    with pytest.raises(Nonconformance, match="a re-deal never changes a state"):
        conformance.check_game_hides(ClansDealingNothing())


def test_a_game_that_hides_without_a_redeal_fails() -> None:
    said = _failure(conformance.check_hidden_information, ClansWithoutRedeal())
    assert 'hides "each player\'s clan colour, until the end (C23)" but cannot re-deal' in said


def test_a_doubled_svg_attribute_is_named_with_its_part_and_element() -> None:
    said = _failure(conformance.check_pictures, ClansWithADoubledAttribute())
    assert said == (
        "clans seed 1, 3 seats, step 1 (25-24), viewer all: the SVG part 'track-mark' is not "
        "well-formed: the <circle> element has attribute 'r' twice: "
        '<circle cx="1" cy="2" r="3" fill="#000" r="4"/>'
    )


def test_svg_problems_in_words() -> None:
    assert svg_problem('<g><rect x="1"/></g>') is None
    assert svg_problem('<g id="a" id="b"></g>') == (
        'the <g> element has attribute \'id\' twice: <g id="a" id="b">'
    )
    assert svg_problem('<g><rect x="1"></g>') == "the <rect> element is not closed before </g>"
    assert svg_problem("<g>a & b</g>").startswith("not well-formed (invalid token) at ")
