"""A Hunters and Gatherers game in the real browser (the system's Chromium, as
test_pictures_browser.py), tile by tile at every step: nothing drawn on a tile covers anything
else there — the marks of what it holds, its id, the pieces, the ticks of what is complete. The
walk-through saw a completed river's tick over a mammoth, "bonus" over an aurochs and pieces
over tile ids. Boxes are read from the rendered page, never assumed."""

from __future__ import annotations

from collections import defaultdict

import pytest
from pictures_testing import load
from test_pictures_browser import open_page

from tribes.core.game import SPECTATOR
from tribes.replay import html

READ = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.right, r.bottom]; };
  const out = [];
  document.querySelectorAll("#board g.tile").forEach((g) => {
    const at = g.dataset.x + "," + g.dataset.y;
    g.querySelectorAll('rect[rx="6"]').forEach((r) => out.push([at, "mark", box(r)]));
    g.querySelectorAll('rect[rx="2"]').forEach((r) => out.push([at, "id", box(r)]));
  });
  document.querySelectorAll("#board g.piece").forEach((g) =>
    out.push([g.dataset.x + "," + g.dataset.y, "piece", box(g.firstElementChild)]));
  document.querySelectorAll("#board g.complete").forEach((g) =>
    out.push([g.dataset.x + "," + g.dataset.y, "tick", box(g.firstElementChild)]));
  return out;
}"""


def _apart(a: list[float], b: list[float], margin: float) -> bool:
    return (
        a[2] <= b[0] + margin
        or b[2] <= a[0] + margin
        or a[3] <= b[1] + margin
        or b[3] <= a[1] + margin
    )


def _round(a: list[float], b: list[float], margin: float) -> bool:
    """A disc (a tick) apart from a box: its centre farther than its radius from the box."""
    cx, cy, r = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2, (a[2] - a[0]) / 2
    nx, ny = min(max(cx, b[0]), b[2]), min(max(cy, b[1]), b[3])
    return (nx - cx) ** 2 + (ny - cy) ** 2 >= (r - margin) ** 2


@pytest.mark.parametrize("name", ["full-game-2p", "full-game-4p"])
def test_nothing_on_a_tile_covers_anything_else_there_at_any_step(browser, tmp_path, name):
    game, log, steps = load("hunters", name)
    opened = open_page(browser, tmp_path, html.page(game, log, steps, SPECTATOR))
    opened.press("0")  # the whole board: every tile drawn in the view
    checked = 0
    for step in range(len(steps)):
        if step:
            opened.press("ArrowRight")
        drawn: dict[str, list[tuple[str, list[float]]]] = defaultdict(list)
        for cell, what, box in opened.page.evaluate(READ):
            drawn[cell].append((what, box))
        scale = float(opened.page.locator("#board").get_attribute("data-scale") or 1)
        margin = 0.5 * scale
        for cell, things in drawn.items():
            for i, (what, box) in enumerate(things):
                for other, there in things[i + 1 :]:
                    pair = {what, other}
                    if "tick" in pair:
                        tick, rest = (box, there) if what == "tick" else (there, box)
                        if pair == {"tick"}:
                            ok = _apart(tick, rest, margin) or _round(tick, rest, margin)
                        else:
                            ok = _round(tick, rest, margin)
                    else:
                        ok = _apart(box, there, margin)
                    assert ok, (step, cell, what, box, other, there)
                    checked += 1
    assert checked > len(steps) * 4, "the page drew marks, ids, pieces and ticks to compare"
    assert not opened.errors


PANEL = """() => {
  const aside = document.getElementById("aside").getBoundingClientRect();
  const texts = Array.from(document.querySelectorAll("#panel text")).map((t) => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, right: r.right, bottom: r.bottom};
  });
  const drawn = document.querySelector("#panel g.drawn-tile");
  return {right: aside.right, bottom: aside.bottom, texts: texts,
          idChips: drawn ? drawn.querySelectorAll('rect[rx="2"]').length : 0};
}"""


def test_the_panel_s_lines_fit_it_and_its_end_names_the_winner(browser, tmp_path):
    """The walk-through saw "0 meadow N E S W, 1 deer" cut at the panel's edge, the drawn tile's
    id under its feature ids, and "game over" without a winner."""
    game, log, steps = load("hunters", "full-game-4p")
    opened = open_page(browser, tmp_path, html.page(game, log, steps, SPECTATOR))
    longest = ""
    for step in range(len(steps)):
        if step:
            opened.press("ArrowRight")
        panel = opened.page.evaluate(PANEL)
        assert panel["idChips"] == 0, "the drawn tile's heading names it: no chip under its ids"
        for line in panel["texts"]:
            assert line["right"] <= panel["right"] + 0.5, (step, line)
            assert line["bottom"] <= panel["bottom"] + 0.5, (step, line)
            longest = max(longest, line["text"], key=len)
    assert len(longest) > 20
    won = game.outcome(steps[-1].state).winners
    names = " and ".join(log.header.seats[i] for i in won)
    texts = [t["text"] for t in opened.page.evaluate(PANEL)["texts"]]
    assert f"game over: {names} {'win' if len(won) > 1 else 'wins'}" in texts
    assert not opened.errors
