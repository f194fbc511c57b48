"""Labels and names on the board and the page, as users meet them: the Clans text board numbers
its villages as the SVG does (``V12``), a simulated game's page names its bots once, and Clans'
village labels stay inside their hex (in the browser: the drawn text's box)."""

from __future__ import annotations

import math
import re
from pathlib import Path

from pictures_testing import FIXTURES
from playwright.sync_api import Browser

from tribes.games.clans import pictures as clans_pictures


def test_the_clans_text_board_numbers_villages_as_the_svg_does(cli):
    """``7:rygb`` (seven huts of four colours) read like "village 7": a village is ``V7`` on
    the text board, the number the SVG labels it with, on the same territory."""
    log = FIXTURES / "clans" / "twelfth-and-thirteenth.json"
    board = cli.ok("show", log)
    svg = cli.ok("show", log, "--svg")
    drawn = dict(
        re.findall(r'data-territory="(\d+)" data-state="(?:village|doomed)">.*?>(V\d+)</text>', svg)
    )
    assert drawn["36"] == "V12" and drawn["38"] == "V13"
    written = {t: f"V{n}" for t, n in re.findall(r"\b(\d+)[fmsg] V(\d+)\b", board)}
    assert written == drawn
    assert "*" not in board


def test_a_simulated_game_s_page_names_its_bots_once(cli):
    """``simulate --save`` records the bots twice (the header's metadata and a tag): the
    page's header said ``bots p1 greedy, …`` and ``bots greedy,greedy,greedy``."""
    cli.ok("simulate", "clans", "--games", "1", "--seed", "3", "--bot", "greedy", "--save", "sim")
    (log,) = cli.path("sim").glob("*.tribes")
    cli.ok("html", log, "-o", "page.html")
    header = re.search(r"<header>(.*?)</header>", cli.path("page.html").read_text(), re.DOTALL)
    assert header is not None
    assert header.group(1).count("<b>bots</b>") == 1, header.group(1)
    assert "p1 greedy, p2 greedy, p3 greedy" in header.group(1)


def test_a_tag_that_says_something_else_than_the_metadata_is_still_shown(cli):
    cli.ok("simulate", "clans", "--games", "1", "--seed", "3", "--bot", "greedy", "--save", "sim")
    (log,) = cli.path("sim").glob("*.tribes")
    cli.ok("tag", log, "bots=retuned greedy")
    cli.ok("html", log, "-o", "page.html")
    header = re.search(r"<header>(.*?)</header>", cli.path("page.html").read_text(), re.DOTALL)
    assert header is not None
    assert header.group(1).count("<b>bots</b>") == 2


LABELS = """() => Array.from(document.querySelectorAll("text.village-label")).map((t) => {
  const b = t.getBBox(), g = t.closest("g.territory");
  return {label: t.textContent, territory: g.dataset.territory,
          box: [b.x, b.y, b.x + b.width, b.y + b.height]};
})"""


def test_clans_village_labels_stay_inside_their_hex(browser: Browser, tmp_path: Path, cli):
    """The walk-through saw ``V12`` cross its hex's lower edges: every village label's box,
    as the browser lays the text out, lies inside its hex."""
    seen = set()
    for name in ("twelfth-and-thirteenth", "full-game-3p"):
        svg = tmp_path / f"{name}.svg"
        svg.write_text(cli.ok("show", FIXTURES / "clans" / f"{name}.json", "--svg"))
        page = browser.new_page(viewport={"width": 800, "height": 470})
        try:
            page.goto(svg.as_uri())
            labels = page.evaluate(LABELS)
        finally:
            page.close()
        assert labels, name
        for found in labels:
            seen.add(found["label"])
            x, y = _centre(svg.read_text(), found["territory"])
            for cx in (found["box"][0], found["box"][2]):
                for cy in (found["box"][1], found["box"][3]):
                    assert _in_hex(cx - x, cy - y, clans_pictures.R), (name, found)
    assert "V12" in seen


def _centre(svg: str, territory: str) -> tuple[float, float]:
    """A territory's centre: the middle of its hex's corners."""
    found = re.search(rf'<polygon points="([^"]*)"[^>]*data-territory="{territory}" ', svg)
    assert found, territory
    xy = [tuple(map(float, p.split(","))) for p in found.group(1).split()]
    return sum(p[0] for p in xy) / len(xy), sum(p[1] for p in xy) / len(xy)


def _in_hex(dx: float, dy: float, r: float) -> bool:
    """Inside a pointy-top hexagon of radius ``r`` centred on the origin."""
    dx, dy = abs(dx), abs(dy)
    return dx <= r * math.sqrt(3) / 2 and dy <= r - dx / math.sqrt(3)
