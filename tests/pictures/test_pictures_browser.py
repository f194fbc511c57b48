"""The page in a real browser: headless Chromium (the system's, ``/usr/bin/chromium``; ``make test``
installs it) driven by Playwright. The keys, the move list and the slider move through the log;
the drawn pieces are those of ``show --json`` at that step; the changes panel says what ``tribes
diff`` says; no console error; the board is not blank. Skipped, saying why, only when Chromium
cannot be started at all — and never in CI (``CI`` set), where a browser that does not start is
a failure, so that a green run has driven the page."""

from __future__ import annotations

import struct
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pictures_testing import FIXTURES, load, tribe_names
from playwright.sync_api import Browser, Page

from tribes import games
from tribes.core.game import EVERYTHING, SPECTATOR
from tribes.core.views import step_document
from tribes.replay import html
from tribes.replay.cursor import Cursor
from tribes.replay.diff import diff

TIMEOUT_MS = 5_000


class Opened:
    """A page opened from disk, with whatever it logged as errors and any dialog it raised."""

    def __init__(self, browser: Browser, path: Path) -> None:
        self.page: Page = browser.new_page(viewport={"width": 1280, "height": 800})
        self.page.set_default_timeout(TIMEOUT_MS)
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.goto(path.as_uri())

    def state(self) -> dict[str, Any]:
        return self.page.evaluate(READ)

    def press(self, *keys: str) -> dict[str, Any]:
        for key in keys:
            self.page.keyboard.press(key)
        return self.state()


READ = """() => {
  const all = (sel) => Array.from(document.querySelectorAll(sel));
  const territory = (g) => g.closest("g.territory").dataset.territory;
  return {
    current: all("#moves li.current").map((li) => Number(li.dataset.i)),
    slider: Number(document.getElementById("slider").value),
    huts: all("#board g.huts").map((g) => [g.dataset.territory, g.dataset.colour, Number(g.dataset.count)]),
    tents: all("#board g.tent").map((g) => [territory(g), g.dataset.tribe, Number(g.dataset.space)]),
    totems: all("#board g.totem").map((g) => [g.dataset.territory, g.dataset.tribe, Number(g.dataset.count)]),
    last: all("#board g.last").map((g) => Object.assign({}, g.dataset)),
    changes: all("#changes li").map((li) => li.textContent),
    turn: document.getElementById("turn").textContent,
    title: document.querySelector("header h1").textContent,
    images: document.querySelectorAll("img").length,
  };
}"""


def open_page(browser: Browser, tmp_path: Path, text: str) -> Opened:
    path = tmp_path / "page.html"
    path.write_text(text, encoding="utf-8")
    return Opened(browser, path)


def huts_of(drawn: dict[str, Any]) -> dict[str, dict[str, int]]:
    huts: dict[str, dict[str, int]] = {}
    for territory, colour, count in drawn["huts"]:
        huts.setdefault(territory, {})[colour] = count
    return huts


def test_clans_page_follows_the_log(browser, tmp_path):
    game, log, steps = load("clans", "full-game-3p")
    opened = open_page(browser, tmp_path, html.page(game, log, steps, SPECTATOR))
    n = len(steps) - 1

    def check(drawn: dict[str, Any], index: int) -> None:
        assert drawn["current"] == [index] and drawn["slider"] == index
        document = step_document(game, log.header, index, steps[index].state, SPECTATOR)
        assert huts_of(drawn) == document["huts"], f"at event {index}"
        event = steps[index].event
        if index and type(event).__name__ == "HutsMoved":
            (last,) = drawn["last"]
            assert (int(last["source"]), int(last["target"])) == (event.source, event.target)

    check(opened.state(), 0)
    check(opened.press("End"), n)
    check(opened.press("Home"), 0)
    check(opened.press("ArrowRight", "ArrowRight", "ArrowRight"), 3)
    check(opened.press("ArrowLeft"), 2)
    check(opened.press("ArrowLeft", "ArrowLeft", "ArrowLeft"), 0)  # stays at the start
    opened.page.click('#moves li[data-i="20"]')
    check(opened.state(), 20)
    opened.page.evaluate(
        "() => { const s = document.getElementById('slider'); s.value = 33;"
        " s.dispatchEvent(new Event('input')); }"
    )
    check(opened.state(), 33)
    check(opened.press("End", "ArrowRight"), n)  # stays at the end
    assert "wins" in opened.state()["turn"]
    assert opened.errors == []
    assert [url for url in opened.requests if not url.startswith("file:")] == []


def test_iwari_page_follows_the_log_and_says_what_diff_says(browser, tmp_path):
    game, log, steps = load("iwari", "full-game-2p")
    opened = open_page(browser, tmp_path, html.page(game, log, steps, EVERYTHING))
    names = tribe_names(log.header.seats)
    cursor = Cursor(game, log)
    for keys, index in (((), 0), (("End",), len(steps) - 1), (("Home",) + ("ArrowRight",) * 7, 7)):
        drawn = opened.press(*keys)
        assert drawn["current"] == [index]
        document = step_document(game, log.header, index, steps[index].state, EVERYTHING)
        tents: dict[str, dict[str, list[int]]] = {}
        for territory, tribe, space in drawn["tents"]:
            tents.setdefault(territory, {}).setdefault(names[tribe], []).append(space)
        want = {t: {k: sorted(v) for k, v in row.items()} for t, row in document["tents"].items()}
        assert {t: {k: sorted(v) for k, v in r.items()} for t, r in tents.items()} == want
        totems: dict[str, dict[str, int]] = {}
        for territory, tribe, count in drawn["totems"]:
            totems.setdefault(territory, {})[names[tribe]] = count
        assert totems == document["totems"]
        if index:
            said = [
                c.text
                for c in diff(
                    game, cursor.document(EVERYTHING, index - 1), cursor.document(EVERYTHING, index)
                )
            ]
            assert drawn["changes"] == (said or ["nothing visible changed"])
    assert opened.errors == []


@pytest.mark.parametrize(
    ("game_name", "name"), [("clans", "full-game-3p"), ("iwari", "full-game-3p-feats")]
)
def test_the_board_is_not_blank(browser, tmp_path, game_name, name):
    game, log, steps = load(game_name, name)
    opened = open_page(browser, tmp_path, html.page(game, log, steps))
    opened.press("End")
    box = opened.page.locator("#board").bounding_box()
    assert box and box["width"] > 400 and box["height"] > 250
    clip = {"x": box["x"], "y": box["y"], "width": 360, "height": 240}  # pixels to decode
    pixels = decode_png(opened.page.screenshot(clip=clip))
    counts = Counter(pixels)
    assert len(counts) > 50, f"{name}: {len(counts)} colours"
    assert counts.most_common(1)[0][1] < 0.8 * len(pixels), f"{name}: one colour nearly everywhere"
    assert opened.errors == []


def test_hostile_strings_stay_text_in_the_browser(browser, tmp_path):
    from test_pictures_page import HOSTILE, hostile_page

    opened = open_page(browser, tmp_path, hostile_page())
    drawn = opened.press("End")
    assert HOSTILE[0] in drawn["title"] and HOSTILE[1] in drawn["title"]
    assert drawn["images"] == 0 and opened.dialogs == [] and opened.errors == []
    drawn_text = "".join(
        opened.page.locator(sel).text_content() or "" for sel in ("#board", "#panel")
    )
    assert HOSTILE[1] in drawn_text  # the seats: in the panel beside the board


def decode_png(data: bytes) -> list[bytes]:
    """The pixels of an 8-bit RGB or RGBA PNG (what Chromium's screenshots are)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, kind = 8, b"", 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        tag, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if tag == b"IHDR":
            width, height, depth, kind = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and kind in (2, 6)
        elif tag == b"IDAT":
            idat += body
        pos += 12 + length
    size = 4 if kind == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * size
    rows: list[bytearray] = []
    previous = bytearray(stride)
    for y in range(height):
        kind_ = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = row[i - size] if i >= size else 0
            up = previous[i]
            corner = previous[i - size] if i >= size else 0
            if kind_ == 1:
                row[i] = (row[i] + left) & 255
            elif kind_ == 2:
                row[i] = (row[i] + up) & 255
            elif kind_ == 3:
                row[i] = (row[i] + (left + up) // 2) & 255
            elif kind_ == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                row[i] = (
                    row[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)
                ) & 255
        rows.append(row)
        previous = row
    return [bytes(row[i : i + size]) for row in rows for i in range(0, stride, size)]


@pytest.mark.parametrize("game_name", games.BUILT_IN)
def test_every_game_steps_through_a_full_game(browser, tmp_path, game_name):
    """For every built-in game (the fixtures of its full games): a full game's page
    opens, steps to its end and back, and logs no error."""
    full = sorted((FIXTURES / game_name).glob("full-game-*.json"))
    assert full, f"{game_name} has no full-game fixture"
    game, log, steps = load(game_name, full[0].stem)
    opened = open_page(browser, tmp_path, html.page(game, log, steps))
    assert opened.page.locator("#moves li").count() == len(steps)
    assert opened.press("End")["current"] == [len(steps) - 1]
    assert opened.press("Home", "ArrowRight")["current"] == [1]
    assert opened.page.locator("#board *").count() > 10
    if game_name == "hunters":  # its tiles and pieces at the end are those of show --json
        opened.press("End")
        document = step_document(game, log.header, len(steps) - 1, steps[-1].state, SPECTATOR)
        drawn = opened.page.evaluate(
            """() => ({
              tiles: Array.from(document.querySelectorAll("#board g.tile")).map((g) =>
                [Number(g.dataset.x), Number(g.dataset.y), Number(g.dataset.tile), Number(g.dataset.rotation)]),
              pieces: Array.from(document.querySelectorAll("#board g.piece")).map((g) =>
                [Number(g.dataset.x), Number(g.dataset.y), Number(g.dataset.feature), g.dataset.kind, g.dataset.seat]),
            })"""
        )
        tiles = sorted([t["x"], t["y"], t["tile"], t["rotation"]] for t in document["tiles"])
        assert sorted(drawn["tiles"]) == tiles
        seats = {name: "abcde"[i] for i, name in enumerate(log.header.seats)}
        pieces = [
            [p["x"], p["y"], p["feature"], p["kind"], seats[p["seat"]]] for p in document["pieces"]
        ]
        assert sorted(drawn["pieces"]) == sorted(pieces)
    assert opened.errors == []
