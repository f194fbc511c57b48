"""The page in a real browser (the system's Chromium, as test_pictures_browser.py) where a reader
meets it: a ``#N`` typed into the address bar of the open page jumps there, and a narrow window (a
phone) opens on the board, as wide as the window, with only the move list scrolled to the current
move. Sizes are read from the rendered page, never assumed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pictures_testing import load
from test_pictures_browser import TIMEOUT_MS, Opened, open_page

from tribes.core.game import SPECTATOR
from tribes.replay import html

RECT = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return {x: r.x, y: r.y, w: r.width, h: r.height}; }"""


def rect(page: Any, selector: str) -> dict[str, float]:
    return page.evaluate(RECT, selector)


def within(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["y"] >= outer["y"] - 1
        and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + 1
        and inner["x"] >= outer["x"] - 1
        and inner["x"] + inner["w"] <= outer["x"] + outer["w"] + 1
    )


def slider_reaches(page: Any, target: int) -> int:
    """The slider's value once it is ``target``, or whatever it is after the timeout (polled from
    here: the page's Content-Security-Policy refuses wait_for_function's evaluated strings)."""
    value = -1
    for _ in range(TIMEOUT_MS // 20):
        value = page.evaluate("Number(document.getElementById('slider').value)")
        if value == target:
            break
        page.wait_for_timeout(20)
    return value


def page_file(tmp_path: Path, game_name: str, name: str) -> tuple[Path, int]:
    game, log, steps = load(game_name, name)
    path = tmp_path / "page.html"
    path.write_text(html.page(game, log, steps, SPECTATOR), encoding="utf-8")
    return path, len(steps) - 1


def test_a_hash_typed_into_the_open_page_jumps_to_that_event(browser, tmp_path):
    game, log, steps = load("clans", "full-game-3p")
    opened = open_page(browser, tmp_path, html.page(game, log, steps))
    assert opened.state()["current"] == [0]
    for target in (12, 3, len(steps) - 1, 0):
        opened.page.evaluate(f"location.hash = '#{target}'")  # what editing the URL does
        assert slider_reaches(opened.page, target) == target
        read = opened.state()
        assert read["current"] == [target] and read["slider"] == target
    opened.page.evaluate("location.hash = '#9999'")  # past the end: the last event
    assert slider_reaches(opened.page, len(steps) - 1) == len(steps) - 1
    assert not opened.errors


@pytest.mark.parametrize(
    ("game_name", "name"), [("hunters", "full-game-2p"), ("clans", "full-game-3p")]
)
def test_a_narrow_window_opens_on_the_board_as_wide_as_the_window(
    browser, tmp_path, game_name, name
):
    path, last = page_file(tmp_path, game_name, name)
    page = browser.new_page(viewport={"width": 420, "height": 800})
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{path.as_uri()}#{last * 2 // 3}")
        assert slider_reaches(page, last * 2 // 3) == last * 2 // 3
        assert page.evaluate("window.scrollY") == 0, "the page opens on the board, not the list"
        width = page.evaluate("window.innerWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, "no sideways scroll"
        for selector in ("#viewport", "#zoom-in", "#zoom-fit", "#next", "#where"):
            box = rect(page, selector)
            assert box["x"] >= 0 and box["x"] + box["w"] <= width + 1, f"{selector} is cut off"
        if game_name == "hunters":
            panel = rect(page, "#aside")
            assert panel["x"] + panel["w"] <= width + 1, "the drawn tile's panel is cut off"
        current = rect(page, "#moves li.current")
        assert within(current, rect(page, "#moves")), "the list shows the current move"
    finally:
        page.close()


def test_a_wide_window_keeps_the_current_move_in_view_in_its_list(browser, tmp_path):
    path, last = page_file(tmp_path, "hunters", "full-game-2p")
    opened = Opened(browser, path)
    moves = rect(opened.page, "#moves")
    for key in ("End", "Home", "End"):
        opened.press(key)
        assert within(rect(opened.page, "#moves li.current"), moves), key
        assert opened.page.evaluate("window.scrollY") == 0
    for _ in range(5):
        opened.press("ArrowLeft")
    assert within(rect(opened.page, "#moves li.current"), moves)
    opened.page.locator(f'#moves li[data-i="{last // 2}"]').scroll_into_view_if_needed()
    opened.page.locator(f'#moves li[data-i="{last // 2}"] .mv').click()
    assert opened.state()["current"] == [last // 2]
    assert not opened.errors
