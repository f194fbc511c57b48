"""What scored, on the board (issue 29): ``show --svg`` marks every feature the event shown
scored; the page marks the one whose line is chosen in the move list, pans to it, and a final
scoring unfolds where it can be read."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pictures_testing import FIXTURES, load, parse
from test_pictures_browser import Opened, open_page

from tribes.core.game import SPECTATOR
from tribes.games.hunters.events import FeatureScored
from tribes.replay import html


def _scorings(name: str) -> tuple[Any, list[Any]]:
    _, _, steps = load("hunters", name)
    return steps, [s for s in steps if any(isinstance(e, FeatureScored) for e in s.effects)]


def test_show_svg_marks_each_feature_the_event_scored(cli):
    steps, scoring = _scorings("full-game-4p")
    log = FIXTURES / "hunters" / "full-game-4p.json"
    for step in (scoring[0], steps[-1]):
        svg = cli.ok("show", log, "--svg", "--at", step.index)
        parse(svg)  # well-formed
        scored = [e for e in step.effects if isinstance(e, FeatureScored)]
        marks = re.findall(r'<g class="scored" data-type="(\w+)" data-points="(\d+)"', svg)
        assert marks == [(e.type, str(e.points)) for e in scored]
    quiet = next(s for s in steps[1:] if s not in scoring)
    assert 'class="scored"' not in cli.ok("show", log, "--svg", "--at", quiet.index)


MARKS = """() => Array.from(document.querySelectorAll("#board #marks g.scored")).map((g) => {
  const r = g.getBoundingClientRect(), v = document.getElementById("viewport").getBoundingClientRect();
  return {type: g.dataset.type, points: Number(g.dataset.points),
          inView: r.x < v.right && r.right > v.x && r.y < v.bottom && r.bottom > v.y};
})"""


def test_a_chosen_scoring_line_marks_its_feature_on_the_page(browser, tmp_path: Path):
    game, log, steps = load("hunters", "full-game-4p")
    opened: Opened = open_page(browser, tmp_path, html.page(game, log, steps, SPECTATOR))
    end = len(steps) - 1
    scored = [e for e in steps[end].effects if isinstance(e, FeatureScored)]
    opened.press("End")
    assert len(opened.page.evaluate(MARKS)) == len(scored)  # the step: all it scored
    item = opened.page.locator(f'#moves li[data-i="{end}"]')
    item.locator("summary").click()
    lines = item.locator(".e.m")
    assert lines.count() == len(scored)
    for k in (len(scored) - 1, 3):
        lines.nth(k).click()
        (mark,) = opened.page.evaluate(MARKS)
        assert (mark["type"], mark["points"]) == (scored[k].type, scored[k].points)
        assert mark["inView"], "the board pans to the chosen feature"
        assert opened.page.locator("#moves .e.chosen").count() == 1
    first = next(s for s in steps if any(isinstance(e, FeatureScored) for e in s.effects))
    opened.page.locator(f'#moves li[data-i="{first.index}"] .e.m').first.click()
    assert opened.state()["current"] == [first.index]
    assert [m["points"] for m in opened.page.evaluate(MARKS)] == [
        next(e for e in first.effects if isinstance(e, FeatureScored)).points
    ]
    assert not opened.errors


def test_the_final_scoring_unfolds_where_it_can_be_read(browser, tmp_path: Path):
    """Unfolded at the bottom of the move list, the final scoring ran on below the list's
    end: it is scrolled up to show from its first line."""
    game, log, steps = load("hunters", "full-game-4p")
    opened = open_page(browser, tmp_path, html.page(game, log, steps, SPECTATOR))
    opened.press("End")
    item = opened.page.locator(f'#moves li[data-i="{len(steps) - 1}"]')
    item.locator("summary").click()
    opened.page.wait_for_timeout(50)
    li, moves = item.bounding_box(), opened.page.locator("#moves").bounding_box()
    assert li and moves
    height = opened.page.evaluate("window.innerHeight")
    assert moves["y"] - 1 <= li["y"] <= moves["y"] + 20, (li, moves)
    assert moves["y"] + moves["height"] <= height + 1, "the list ends above the fold"
    assert "game over" in (item.text_content() or "")
