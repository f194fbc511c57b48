"""``tribes html``: one self-contained page that steps through a log in any browser, offline.

The page holds the board of every step as the game draws it (``Game.picture``), as one viewer may
see it, and nothing that viewer may not: hidden parts are never drawn, the seed and the starting
position are left out (either would tell hidden cards), a pending decision's options appear only
for the seat that decides, effects are told as the viewer may read them (``describe_for``: a card
another seat draws from the deck is "a card"). To stay small, step 0 carries every part of its picture and each later
step only the parts that changed (``s``: set, ``d``: dropped, ``o``: the new order when it
changed); the page's script rebuilds each board from those. The move list is plain HTML; every
string that comes from the log is escaped (``html.escape`` for the page and the drawings; inside
the JSON of the script, ``</`` and ``<!--`` cannot close or open anything).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tribes.core import views
from tribes.core.engine import Step
from tribes.core.game import EVERYTHING, Game, Viewer, proper_name
from tribes.core.pictures import Part, esc
from tribes.events.logfile import GameLog
from tribes.replay.diff import diff
from tribes.replay.html_assets import CSS, SCRIPT, TEMPLATE


def viewer_name(seats: Sequence[str], viewer: Viewer) -> str:
    if viewer == EVERYTHING:
        return "everything (all hidden information shown)"
    if viewer is None:
        return "a spectator"
    return str(seats[viewer])


def page(game: Game[Any], log: GameLog, steps: Sequence[Step[Any]], viewer: Viewer = None) -> str:
    """The page of a log whose ``steps`` (from ``logs.steps_of``) are given, as ``viewer`` sees
    it (default: a spectator, so that a shared page spoils nothing)."""
    seats = log.header.seats
    frames = _frames(game, seats, steps, viewer)
    documents = [_document(game, log, s, viewer) for s in steps]
    records = []
    marks = [game.marks(s.state, s.effects) for s in steps]
    for i in range(len(steps)):
        changes = [] if i == 0 else [c.text for c in diff(game, documents[i - 1], documents[i])]
        records.append(
            {**_status(documents[i]), "c": changes, "mv": _options(game, steps[i], viewer)}
        )
        if any(marks[i]):  # what each effect was about, drawn over the board when chosen
            records[-1]["k"] = list(marks[i])
    first = frames[0]
    notes = log.notes
    moves = "".join(
        _move(game, seats, s, viewer, notes.get(s.index), m)
        for s, m in zip(steps, marks, strict=True)
    )
    title = f"{proper_name(game)}: {', '.join(seats)}"
    header_meta = log.header.meta
    meta = "".join(
        f"<span><b>{esc(views.printable(k))}</b> {esc(views.printable(_plain(v)))}</span>"
        for k, v in sorted(header_meta.items())
    ) + "".join(
        f'<span class="tag"><b>{esc(k)}</b> {esc(v)}</span>'
        for k, v in log.tags.items()
        if not _repeats(header_meta.get(k), v)
    )
    return TEMPLATE.format(
        title=esc(title),
        game=esc(proper_name(game)),
        seats=esc(", ".join(seats)),
        viewer=esc(viewer_name(seats, viewer)),
        events=len(steps) - 1,
        meta=meta,
        moves=moves,
        last=len(steps) - 1,
        width=first["w"],
        height=first["h"],
        panel=_panel_element(frames),
        data=script_json({"n": len(steps) - 1, "steps": records}),
        frames=drawing_json(frames),
        css=CSS,
        script=SCRIPT,
    )


def _repeats(meta: Any, tag: str) -> bool:
    """Whether a tag says again what the header's metadata of the same key says: ``simulate``
    writes both the meta ``bots`` (``p1 greedy, p2 greedy``) and the tag ``bots``
    (``greedy,greedy``, the bots in seat order); the page's header shows them once."""
    if meta is None:
        return False
    said = list(meta.values()) if isinstance(meta, dict) else meta
    if not isinstance(said, list | tuple):
        said = [said]
    return [str(v) for v in said] == [v.strip() for v in tag.split(",")]


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element whatever its strings hold: no ``<``,
    ``>`` or ``&`` is left as itself (they become JSON escapes of the same characters)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def drawing_json(value: Any) -> str:
    """JSON of the drawings for a ``<script>`` element. Their markup is our own, every string
    of the log in it already escaped by the game's pictures (``core.pictures.esc``), so only
    ``</`` (which could close the element) and ``<!--`` need escaping: that keeps the many
    tags of a drawing one byte each."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "\\u003c!--")


PANEL = "panel/"
"""The key prefix of a panel's parts among a frame's (a board's keys never start so)."""


def _frames(
    game: Game[Any], seats: Sequence[str], steps: Sequence[Step[Any]], viewer: Viewer
) -> list[dict[str, Any]]:
    """Each step's picture: the first whole, the others as the parts that changed. A frame
    holds the board's geometry (``w``, ``h``, its origin ``x``, ``y``, ``l`` its legible
    scale), its parts (``s`` set, ``d`` dropped, ``o`` the board's order and ``po`` the
    panel's when they changed) and the panel's size (``pw``, ``ph``)."""
    frames: list[dict[str, Any]] = []
    before: list[Part] | None = None
    order: tuple[list[str], list[str]] = ([], [])
    for step in steps:
        picture = game.picture(step.state, seats, viewer, step.event)
        panel = picture.panel
        parts = [*picture.parts, *((PANEL + k, v) for k, v in (panel.parts if panel else ()))]
        frame: dict[str, Any] = {"w": picture.width, "h": picture.height}
        if picture.left or picture.top:
            frame.update(x=picture.left, y=picture.top)
        if picture.legible:
            frame["l"] = picture.legible
        if panel is not None:
            frame.update(pw=panel.width, ph=panel.height)
        old = dict(before or ())
        new = dict(parts)
        frame["s"] = {k: v for k, v in parts if old.get(k) != v}
        dropped = [k for k in old if k not in new]
        if dropped:
            frame["d"] = dropped
        now = ([k for k, _ in picture.parts], [k for k, _ in panel.parts] if panel else [])
        if before is None or now[0] != order[0]:
            frame["o"] = now[0]
        if now[1] != order[1]:
            frame["po"] = [PANEL + k for k in now[1]]
        frames.append(frame)
        before, order = parts, now
    return frames


def _panel_element(frames: Sequence[dict[str, Any]]) -> str:
    """The panel's own SVG element beside the board (empty for a game whose picture has no
    panel), sized in pixels at one pixel a unit: it never zooms."""
    sizes = [(f["pw"], f["ph"]) for f in frames if "pw" in f]
    if not sizes:
        return ""
    width, height = max(w for w, _ in sizes), max(h for _, h in sizes)
    return (
        f'<div id="aside"><svg id="panel" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" fill="#222" '
        'role="img" aria-label="beside the board: the seats, the scores and the legend"></svg></div>'
    )


def _document(game: Game[Any], log: GameLog, step: Step[Any], viewer: Viewer) -> dict[str, Any]:
    """The step's show --json document as the viewer may see it (options that would tell a
    secret are null there: Facts.private_moves)."""
    return views.step_document(game, log.header, step.index, step.state, viewer)


def _status(document: dict[str, Any]) -> dict[str, Any]:
    pending = document.get("pending")
    if pending:
        words = f"{pending['seat']} must decide: {pending['decision']}"
        details = [
            f"{k} {_plain(v)}"
            for k, v in pending.items()
            if k not in ("seat", "decision", "options")
        ]
        if details:
            words += f" ({'; '.join(details)})"
        if pending.get("options"):
            words += f"; options: {' | '.join(pending['options'])}"
    else:
        words = ""
    return {
        "sc": [[k, v] for k, v in document["scores"].items()],
        "tm": document["to_move"],
        "p": words,
        "ov": document["over"],
        "wn": document["winners"],
    }


def _options(game: Game[Any], step: Step[Any], viewer: Viewer) -> list[list[str]] | None:
    """The legal moves at a step as the page lists them (None when the viewer may not see
    them): grouped by what comes before a ``+`` (Hunters and Gatherers: a placement, then the
    pieces it may take, ``0,-1N`` ``+g0`` ``+h1``), one group a row."""
    legal = views.legal_notation(game, step.state, viewer)
    if legal is None:
        return None
    groups: dict[str, list[str]] = {}
    for move in legal:
        head, plus, piece = move.partition("+")
        groups.setdefault(head, []).extend([f"+{piece}"] if plus else [])
    return [[head, *pieces] for head, pieces in groups.items()]


FOLD = 4, 280
"""A move with more effects than the first, or whose effects say more characters than the
second (a final scoring), shows them folded: the first, a count, and the rest on a click."""


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(map(_plain, value))
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    return str(value)


def _move(
    game: Game[Any],
    seats: Sequence[str],
    step: Step[Any],
    viewer: Viewer,
    note: str | None = None,
    marks: Sequence[str] = (),
) -> str:
    """A move's line: index, seat, notation, its effects (each its own ``span.e``; ``.m`` when
    the board can mark what it was about: a click shows it), its note."""
    said = [e.describe_for(seats, viewer) for e in step.effects]  # another's card: "a card"
    noted = f'<span class="note">{esc(note)}</span>' if note else ""
    lines = [
        f'<span class="e{" m" if k < len(marks) and marks[k] else ""}" data-e="{k}">'
        f"{esc(words)}</span>"
        for k, words in enumerate(said)
    ]
    if len(said) > 1 and (len(said) > FOLD[0] or sum(map(len, said)) > FOLD[1]):
        effects = (
            f'<details class="eff"><summary>{lines[0]}; … {len(said) - 1} more</summary>'
            f'<span class="all">{"".join(lines[1:])}</span></details>'
        )
    else:
        effects = f'<span class="eff">{"; ".join(lines)}</span>'
    return (
        f'<li data-i="{step.index}" tabindex="-1"><span class="i">{step.index}</span>'
        f'<span class="seat">{esc(views.seat_name(seats, step) if step.index else "")}</span>'
        f'<span class="mv">{esc(views.notation(game, step))}</span>'
        f"{effects}{noted}</li>"
    )
