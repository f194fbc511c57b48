"""The layout of ``tribes replay`` (``Stepper.screen``) at several sizes: the move list beside
the board, the diff and every effect beside or below it when there is room, panning what does not
fit, searches that wrap and repeat, and effects as the point of view may see them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribes.core.game import EVERYTHING, SPECTATOR
from tribes.replay import panes, stepper
from tribes.replay.cursor import Cursor
from tribes.replay.stepper import Stepper

ROOT = Path(__file__).resolve().parents[2]
IWARI_FEATS = ROOT / "fixtures" / "iwari" / "full-game-3p-feats.json"
IWARI_2P = ROOT / "fixtures" / "iwari" / "full-game-2p.json"
DEMO_STRIFE = 31
DEMO_EVENTS = 36
FINAL = 118  # the last event of IWARI_FEATS: a draw, then the whole final scoring (19 effects)
DECK_DRAW = 7  # IWARI_2P: "ann draw deck", a glacier
ANN = 0


@pytest.fixture
def model(demo_log: Path) -> Stepper:
    return Stepper(Cursor.open(demo_log), name="demo.tribes")


def iwari(path: Path = IWARI_FEATS) -> Stepper:
    return Stepper(Cursor.open(path), name=path.name)


def text(model: Stepper, width: int, height: int) -> str:
    lines = model.screen(width, height)
    assert len(lines) <= height, lines
    assert all(len(line) <= width for line in lines), [len(line) for line in lines]
    return "\n".join(lines)


def press(model: Stepper, *keys: str, width: int = 80, height: int = 24) -> None:
    """Keys as a terminal sends them: the screen is painted after each."""
    for key in keys:
        assert model.press(key), key
        model.screen(width, height)


# --- the move list ------------------------------------------------------------------------------


def test_the_move_list_stands_beside_the_board_when_there_is_room(model: Stepper) -> None:
    model.cursor.seek(DEMO_STRIFE)
    wide = text(model, 120, 30)
    assert f"▶ {DEMO_STRIFE} cy  14-15" in wide  # the current move, marked
    assert "  30 bob 22-15" in wide and "  32 ann 29-28" in wide  # and those around it
    assert "track  red" in wide  # beside the board, not instead of it
    assert next(line for line in wide.splitlines() if "▶" in line).index("▶") > 74
    assert "▶" not in text(model, 80, 24)  # no room at 80 columns: the board alone


def test_the_current_move_is_styled_for_colour(model: Stepper) -> None:
    model.cursor.seek(4)
    rows = model.rows(120, 30)
    current = [seg for row in rows for seg in row if seg[1] == "current"]
    assert len(current) == 1 and "▶ " in current[0][0] and "2-1" in current[0][0]
    assert rows[0][0][1] == "title"


def test_the_move_list_follows_the_current_event(model: Stepper) -> None:
    model.cursor.last()
    shown = text(model, 120, 20)
    assert f"▶ {DEMO_EVENTS} ann order 19 35" in shown
    model.cursor.first()
    assert "▶  0" in text(model, 120, 20)


# --- the diff and the effects beside or below the board -----------------------------------------


def test_d_shows_the_board_and_the_diff_when_there_is_room(model: Stepper) -> None:
    model.cursor.seek(4)
    press(model, "d", width=200, height=50)
    both = text(model, 200, 50)
    assert "track red: 0 → 5" in both and "chips cy: 0 → 1" in both  # the diff
    assert "track  red 5" in both and "1f V1" in both  # and the board
    assert "▶  4 cy  2-1" in both  # and still the move list
    small = text(model, 80, 24)
    assert "track red: 0 → 5" in small and "1f V1" not in small  # no room: the diff instead


def test_the_diff_goes_below_the_board_when_it_is_tall_enough(model: Stepper) -> None:
    model.cursor.seek(4)
    press(model, "d", width=80, height=60)
    shown = text(model, 80, 60)
    assert "1f V1" in shown and "track red: 0 → 5" in shown
    assert shown.index("1f V1") < shown.index("track red: 0 → 5")


def test_e_expands_every_effect_of_a_final_scoring() -> None:
    model = iwari()
    model.cursor.seek(FINAL)
    effects = model.cursor.step.effects
    assert len(effects) > 10
    cut = text(model, 80, 24)
    assert "e: all" in cut  # it says that there is more, and how to see it
    assert "settlement of ann" not in cut and "game over: ann 78" not in cut
    press(model, "e")
    every = text(model, 80, 24)
    for effect in effects:
        assert effect.describe(model.cursor.seats) in every
    press(model, "e")
    assert text(model, 80, 24) == cut


def test_the_effects_pane_scrolls_when_it_is_longer_than_the_screen() -> None:
    model = iwari()
    model.cursor.seek(FINAL)
    press(model, "e", width=60, height=12)
    top = text(model, 60, 12)
    assert "final scoring" in top and "game over: ann 78" not in top
    assert "⋮ J more" in top
    press(model, *["J"] * 30, width=60, height=12)
    bottom = text(model, 60, 12)
    assert "game over: ann 78" in bottom and "⋮ J more" not in bottom
    press(model, *["K"] * 30, width=60, height=12)
    assert text(model, 60, 12) == top


# --- panning ------------------------------------------------------------------------------------


def test_the_board_pans_right_and_back_at_60x20(model: Stepper) -> None:
    model.cursor.seek(DEMO_STRIFE)
    first = text(model, 60, 20)
    assert "HJKL pan" in first.splitlines()[0]  # the title says the board is cut, and the keys
    assert "26f" not in first and "34g" not in first  # the right of the board is cut
    press(model, "L", "L", width=60, height=20)
    panned = text(model, 60, 20)
    assert "26f" in panned and "34g" in panned
    press(model, stepper.PAN_LEFT, stepper.PAN_LEFT, width=60, height=20)
    assert text(model, 60, 20) == first


def test_the_board_pans_down_to_the_rows_that_were_cut(model: Stepper) -> None:
    model.cursor.seek(DEMO_STRIFE)
    first = text(model, 60, 20)
    assert "57f V3" not in first and "⋮" in first
    press(model, *["J"] * 20, width=60, height=20)
    down = text(model, 60, 20)
    assert "57f V3" in down
    assert "ann to move" in down  # the status lines stay
    rows = down.splitlines()  # at the last row the ⋮ moves above the rows shown: they are cut
    marks = [i for i, line in enumerate(rows) if line.strip() == "⋮"]
    assert len(marks) == 1 and marks[0] < next(i for i, line in enumerate(rows) if "57f V3" in line)
    press(model, stepper.PAN_UP, width=60, height=20)
    press(model, *[stepper.PAN_UP] * 20, width=60, height=20)
    assert text(model, 60, 20) == first


def test_nothing_to_pan_when_everything_fits(model: Stepper) -> None:
    first = text(model, 200, 50)
    assert "pan" not in first.splitlines()[0]
    press(model, "L", "J", width=200, height=50)
    assert text(model, 200, 50) == first


# --- search -------------------------------------------------------------------------------------


def test_a_search_wraps_around_and_says_so(model: Stepper) -> None:
    model.cursor.seek(DEMO_STRIFE + 1)
    press(model, "/", *"strife", stepper.ENTER)
    assert model.cursor.index == DEMO_STRIFE
    assert "went on from the first" in model.screen()[-1]


def test_enter_repeats_the_last_search(model: Stepper) -> None:
    press(model, "/", *"village", stepper.ENTER)
    found = [model.cursor.index]
    for _ in range(3):
        press(model, stepper.ENTER)
        found.append(model.cursor.index)
    assert found == sorted(found) and len(set(found)) == 4
    for index in found:
        assert "village" in model.cursor.describe(index)
    press(model, "/", stepper.ENTER)  # an empty search is the last one again
    assert model.cursor.index > found[-1]


def test_enter_without_a_search_says_how(model: Stepper) -> None:
    press(model, stepper.ENTER)
    assert model.cursor.index == 0
    assert "/text" in model.screen()[-1]


# --- what a viewer may see ----------------------------------------------------------------------


def test_a_draw_from_the_deck_names_the_card_to_its_drawer_only() -> None:
    model = iwari(IWARI_2P)
    model.cursor.seek(DECK_DRAW)
    seen = {}
    for viewer in (EVERYTHING, SPECTATOR, ANN, 1):
        model.viewer = viewer
        seen[viewer] = model.screen(80, 24)[1]
    assert "ann draws a glacier from the deck" in seen[EVERYTHING]
    assert "ann draws a glacier from the deck" in seen[ANN]
    assert "ann draws a card from the deck" in seen[SPECTATOR]
    assert "ann draws a card from the deck" in seen[1]
    assert "glacier" not in seen[SPECTATOR] + seen[1]


def test_a_draw_from_the_display_is_public() -> None:
    model = iwari(IWARI_2P)
    model.cursor.seek(3)
    for viewer in model.viewers():
        model.viewer = viewer
        line = model.screen(100, 24)[1]
        assert "bob takes a glacier from display slot 2; a tundra from the deck fills it" in line


def test_a_search_finds_only_what_the_viewer_may_see() -> None:
    model = iwari(IWARI_2P)
    model.viewer = SPECTATOR
    press(model, "/", *"ann draws a glacier from the deck", stepper.ENTER)
    assert model.cursor.index == 0 and "no event matches" in model.screen()[-1]
    model.viewer = ANN
    press(model, "/", *"ann draws a glacier from the deck", stepper.ENTER)
    assert model.cursor.index == DECK_DRAW


# --- every size fits ----------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), [(40, 10), (60, 20), (80, 24), (120, 30), (200, 50)])
@pytest.mark.parametrize("keys", [(), ("d",), ("e",), ("d", "e"), ("?",), ("L", "J")])
def test_every_mode_fits_every_size(
    demo_log: Path, width: int, height: int, keys: tuple[str, ...]
) -> None:
    for model in (Stepper(Cursor.open(demo_log)), iwari()):
        for index in (0, 1, len(model.cursor) // 2, len(model.cursor)):
            model.cursor.seek(index)
            press(model, *keys, width=width, height=height)
            lines = text(model, width, height).splitlines()
            assert f"event {index}/" in lines[0]
            for key in keys:  # back to the plain screen
                if key in "de?":
                    press(model, "x" if key == "?" else key, width=width, height=height)


# --- the last move on the board -----------------------------------------------------------------


def changed(model: Stepper, width: int = 80, height: int = 24) -> list[str]:
    return [text for row in model.rows(width, height) for text, style in row if style == "changed"]


def test_the_board_marks_what_the_last_event_changed(model: Stepper) -> None:
    model.cursor.seek(4)  # cy 2-1: territory 2's huts onto 1, which becomes village 1
    marked = changed(model)
    assert "V1" in marked and "r2y1b1" in marked  # territory 1: village 1 now, the huts on it
    assert "·" in marked  # territory 2, emptied
    assert "3g" not in marked and "60g" not in marked  # territories the move did not touch
    assert "".join(model.screen()) == "".join("".join(t for t, _ in row) for row in model.rows())


def test_the_start_marks_nothing_and_panning_keeps_the_marks_in_place(model: Stepper) -> None:
    assert changed(model) == []
    model.cursor.seek(DEMO_STRIFE)  # cy 14-15: village 9 at 15, strife removes yellow and blue
    assert "V9" in changed(model, 60, 20)
    press(model, "L", "L", width=60, height=20)
    assert "V9" in changed(model, 60, 20)
    press(model, "L", "L", "L", "L", "L", "L", width=60, height=20)
    for text in changed(model, 60, 20):
        assert len(text) <= 60


def test_changed_spans_mark_the_words_that_differ() -> None:
    spans = panes.changed_spans(["  1f   r2", "same", "ab cd"], ["  1f*  r2", "same", "ab ce"])
    assert spans == [((2, 5),), (), ((3, 5),)]
    assert panes.changed_spans(["one"], ["one", "two"]) == [(), ()]  # nothing to line up


def test_effects_beside_the_board_scroll_with_j() -> None:
    model = iwari()
    model.cursor.seek(FINAL)
    press(model, "e", width=200, height=16)
    top = text(model, 200, 16)
    assert "1 glacier" in top  # the board is still there, beside the effects
    assert "⋮ J more" in top and "game over: ann 78" not in top
    press(model, *["J"] * 20, width=200, height=16)
    assert "game over: ann 78" in text(model, 200, 16)
