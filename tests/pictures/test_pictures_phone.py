"""A phone (390 × 844, issue 29): Clans' and Iwari's pages kept board and panel side by side,
shrunk to 47% and 33%, their labels 4–5 pixels high, with empty bands above and below the board.
Now the panel stacks under the board (a CSS media query: the panel is a picture of its own,
``Picture.panel``), the board opens at a scale where its labels read, and its view is as tall as
the board, with no empty band. Measured in the browser, as laid out on the screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from pictures_testing import load
from playwright.sync_api import Browser

from tribes.core.game import SPECTATOR
from tribes.replay import html

PHONE = {"width": 390, "height": 844}

MEASURE = r"""() => {
  const box = (e) => e.getBoundingClientRect();
  const viewport = box(document.getElementById("viewport"));
  const aside = box(document.getElementById("aside"));
  const labels = Array.from(document.querySelectorAll("#board text"))
    .filter((t) => /^\d+ [a-z]+$/.test(t.textContent)).map((t) => box(t).height);
  const lands = Array.from(document.querySelectorAll("#board [data-territory][data-terrain]")).map(box);
  return {
    viewport: [viewport.left, viewport.top, viewport.right, viewport.bottom],
    aside: [aside.left, aside.top, aside.right, aside.bottom],
    labels: labels,
    top: Math.min(...lands.map((b) => b.top)),
    bottom: Math.max(...lands.map((b) => b.bottom)),
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""


@pytest.mark.parametrize(
    ("game_name", "name"), [("clans", "full-game-3p"), ("iwari", "full-game-2p")]
)
def test_on_a_phone_the_panel_stacks_and_the_board_reads_without_empty_bands(
    browser: Browser, tmp_path: Path, game_name: str, name: str
) -> None:
    game, log, steps = load(game_name, name)
    path = tmp_path / "page.html"
    path.write_text(html.page(game, log, steps, SPECTATOR), encoding="utf-8")
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{path.as_uri()}#{len(steps) // 2}")
        found = page.evaluate(MEASURE)
    finally:
        page.close()
    _, top, _, bottom = found["viewport"]
    aside = found["aside"]
    assert aside[1] >= bottom - 1, f"the panel is beside the board, not under it: {found}"
    assert aside[0] >= 0 and aside[2] <= PHONE["width"], found
    assert found["scrollWidth"] <= PHONE["width"], "no sideways scroll"
    assert found["labels"] and min(found["labels"]) >= 8, f"labels too small: {found['labels']}"
    assert found["top"] - top <= 24, f"an empty band above the board: {found}"
    assert bottom - found["bottom"] <= 24, f"an empty band under the board: {found}"
