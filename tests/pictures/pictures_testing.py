"""Helpers of the picture and page tests: fixture logs and their steps, the drawn parts of a page
rebuilt as the page's script rebuilds them, and the pieces a drawing shows."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from tribes.core.engine import Step
from tribes.events.logfile import GameLog
from tribes.replay import logs

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


def load(game: str, name: str) -> tuple[Any, GameLog, list[Step]]:
    """A fixture log: its game, the log and every step."""
    opened = logs.open_log(FIXTURES / game / f"{name}.json")
    return opened.game, opened.log, logs.steps_of(opened.game, opened.log)


def script_data(page: str, element: str) -> Any:
    """The JSON of one ``<script type="application/json">`` of a page."""
    found = re.search(
        rf'<script type="application/json" id="{element}">(.*?)</script>', page, re.DOTALL
    )
    assert found, f"no script {element}"
    return json.loads(found.group(1))


def frames(page: str) -> list[dict[str, str]]:
    """Every step's parts (key -> markup), rebuilt from the page's deltas as its script does:
    the board's, then the panel's (``Picture.panel``: its keys without their ``panel/``)."""
    parts: dict[str, str] = {}
    order: list[str] = []
    beside: list[str] = []
    out = []
    for step in script_data(page, "tribes-frames"):
        parts = {**parts, **step.get("s", {})}
        for key in step.get("d", []):
            del parts[key]
        order = step.get("o", order)
        beside = step.get("po", beside)
        board = {k: parts[k] for k in order}
        out.append({**board, **{k.removeprefix("panel/"): parts[k] for k in beside}})
    return out


def parse(markup: str) -> ET.Element:
    """SVG markup (a whole drawing or its parts' body) as XML: it must be well-formed."""
    if not markup.startswith("<svg"):
        markup = f'<svg xmlns="http://www.w3.org/2000/svg">{markup}</svg>'
    return ET.fromstring(markup)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def pieces(markup: str, cls: str) -> list[dict[str, str]]:
    """The ``data-*`` attributes of every group of class ``cls``, each with the territory of
    the group it lies in (``in-territory``)."""
    found = []

    def walk(node: ET.Element, territory: str | None) -> None:
        if node.get("class") == "territory":
            territory = node.get("data-territory")
        if _local(node.tag) == "g" and node.get("class") == cls:
            row = {k[5:]: v for k, v in node.attrib.items() if k.startswith("data-")}
            found.append({**row, "in-territory": territory or ""})
        for child in node:
            walk(child, territory)

    walk(parse(markup), None)
    return found


def clans_huts(markup: str) -> dict[str, dict[str, int]]:
    """Huts drawn: territory -> colour -> count, as ``show --json`` gives them."""
    huts: dict[str, dict[str, int]] = {}
    for a in pieces(markup, "huts"):
        huts.setdefault(a["territory"], {})[a["colour"]] = int(a["count"])
    return huts


def tribe_names(seats: tuple[str, ...]) -> dict[str, str]:
    return dict(zip("abcde", seats, strict=False)) | {"n": "third"}


def iwari_pieces(markup: str, seats: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Tents (territory -> tribe -> spaces) and totems (territory -> tribe -> count) drawn, as
    ``show --json`` gives them; tribes are drawn as letters a, b, ... and n (the third)."""
    names = tribe_names(seats)
    tents: dict[str, dict[str, list[int]]] = {}
    for a in pieces(markup, "tent"):
        row = tents.setdefault(a["in-territory"], {})
        row.setdefault(names[a["tribe"]], []).append(int(a["space"]))
    totems: dict[str, dict[str, int]] = {}
    for a in pieces(markup, "totem"):
        totems.setdefault(a["territory"], {})[names[a["tribe"]]] = int(a["count"])
    tents = {t: {k: sorted(v) for k, v in row.items()} for t, row in tents.items()}
    return tents, totems
