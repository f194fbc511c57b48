"""The panes of ``tribes replay``'s screen (``tribes.replay.stepper``): lines with a style each,
cut to a width and a height, panned, and marked where the last event changed the board. Pure:
rows of styled segments in, rows out; the terminal layer colours the styles."""

from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

Segment = tuple[str, str]
"""Text and a style name: title, event, board, changed (what the last event changed on the
board), moves, current (the current move in the move list), diff, effects, help, rule, message."""
Row = tuple[Segment, ...]


WRAPPED = frozenset({"diff", "effects", "help"})
"""Lines of these styles wrap at the pane's width; a board's lines are cut (and pan)."""


Spans = tuple[tuple[int, int], ...]
"""Columns ``[start, end)`` of a line to show as changed."""
Line = tuple[str, str, Spans]
"""A line of a pane: its text, its style and the spans of it that the last event changed."""


@attrs.define
class Pane:
    """Lines of one column of the body, with a style per line and, for a board, the spans that
    the last event changed (``marks``); ``keep_end`` keeps the last lines (a board's status) in
    view when the pane is cut; ``around`` keeps that line in view instead of panning (the move
    list)."""

    lines: list[str]
    style: str = "board"
    keep_end: bool = False
    styles: list[str] = attrs.field(factory=list)
    around: int | None = None
    marks: list[Spans] = attrs.field(factory=list)

    def width(self) -> int:
        return max((len(line) for line in self.lines), default=0)

    def plain(self) -> list[str]:
        """The lines without the blank ones (what a short screen shows of a board)."""
        return [line for line in self.lines if line.strip()] if self.keep_end else self.lines

    def wrapped(self, width: int) -> list[Line]:
        styles = self.styles or [self.style] * len(self.lines)
        marks = self.marks or [()] * len(self.lines)
        out: list[Line] = []
        for text, style, spans in zip(self.lines, styles, marks, strict=True):
            if style in WRAPPED and len(text) > width:
                out += [(line, style, ()) for line in wrap(text, width)]
            else:
                out.append((text, style, spans))
        return out

    def cut(self, width: int, room: int, pan: tuple[int, int]) -> bool:
        """Whether some of the pane is out of view at this size and pan."""
        if self.around is not None:
            return False
        lines = self.wrapped(width)
        wide = max((len(line[0]) for line in lines), default=0)
        tall = len(lines) > room and (not self.keep_end or len(self.plain()) > room)
        return wide > width or tall or pan != (0, 0)

    def limits(self, width: int, room: int) -> tuple[int, int]:
        """How far the pane can pan in ``width`` × ``room``: columns right, rows down."""
        if self.around is not None:
            return 0, 0
        lines = self._shown(width, room)
        wide = max(0, max((len(line[0]) for line in lines), default=0) - width)
        if len(lines) <= room:
            return wide, 0
        if self.keep_end and room > 1:
            end = min(4, room // 2)
            return wide, max(0, len(lines) - end - (room - end - 1))
        return wide, max(0, len(lines) - room + 1)

    def _shown(self, width: int, room: int) -> list[Line]:
        lines = self.wrapped(width)
        if len(lines) > room and self.keep_end:
            lines = [line for line in lines if line[0].strip()]
        return lines

    def window(self, width: int, room: int, pan: tuple[int, int]) -> list[Row]:
        """What shows of the pane in ``width`` × ``room``, panned by ``pan`` (clamped); the
        marks of what is cut (style ``rule``) never pan."""
        if self.around is not None:
            lines = self.wrapped(width)
            first = max(0, min(self.around - room // 2, len(lines) - room))
            return [((fit(t, width), s),) for t, s, _ in lines[first : first + room]]
        lines = self._shown(width, room)
        wide = max((len(line[0]) for line in lines), default=0)
        dx = max(0, min(pan[0], wide - width))
        if len(lines) > room:
            lines = _scroll(lines, room, pan[1], self.keep_end)
        return [_segments(t, s, spans, 0 if s == "rule" else dx, width) for t, s, spans in lines]


def _segments(text: str, style: str, spans: Spans, dx: int, width: int) -> Row:
    """``text`` from column ``dx``, fitted to ``width``, cut into segments at ``spans`` (which
    take the style ``changed``)."""
    shown = fit(text[dx:], width)
    if not spans:
        return ((shown, style),)
    limit = len(shown) if shown == text[dx:] else len(shown) - 1  # never the … of a cut line
    out: list[Segment] = []
    at = 0
    for start, end in spans:
        start, end = max(start - dx, at), min(end - dx, limit)
        if start >= end:
            continue
        if start > at:
            out.append((shown[at:start], style))
        out.append((shown[start:end], "changed"))
        at = end
    if at < len(shown):
        out.append((shown[at:], style))
    return tuple(out)


def changed_spans(before: Sequence[str], after: Sequence[str]) -> list[Spans]:
    """For each line of ``after``, the words that differ from ``before`` at the same place (none
    when the two have a different number of lines: nothing to line up)."""
    if len(before) != len(after):
        return [()] * len(after)
    out: list[Spans] = []
    for old, new in zip(before, after, strict=True):
        if old == new:
            out.append(())
            continue
        spans = []
        for word in re.finditer(r"\S+", new):
            start, end = word.span()
            same = (
                old[start:end] == word[0]
                and (start == 0 or old[start - 1 : start] in ("", " "))
                and old[end : end + 1] in ("", " ")
            )
            if not same:
                spans.append((start, end))
        out.append(tuple(spans))
    return out


def _scroll(lines: list[Line], room: int, down: int, keep_end: bool) -> list[Line]:
    """``room`` of ``lines``, ``down`` rows on: a board keeps its last lines (its status) and
    marks where rows are cut with ⋮ (under the rows shown; above them once panned to the last
    row); other panes mark it at their last row."""
    if room <= 1:
        return lines[-room:] if room and keep_end else lines[:room]
    if keep_end:
        end = min(4, room // 2)
        head, tail = lines[:-end], lines[-end:]
        shown = room - end - 1
        start = max(0, min(down, len(head) - shown))
        mark: Line = ("⋮", "rule", ())
        if start > 0 and start + shown >= len(head):  # only rows above are cut
            return [mark, *head[start : start + shown], *tail]
        return [*head[start : start + shown], mark, *tail]
    start = max(0, min(down, len(lines) - room + 1))
    more = start + room - 1 < len(lines)
    window = lines[start : start + room - (1 if more else 0)]
    return [*window, ("⋮ J more", "rule", ())] if more else window


def wrap(text: str, width: int, most: int | None = None) -> list[str]:
    """``text`` in lines of ``width``, broken at spaces, continued two columns further in than
    it starts; at most ``most`` lines, the last ending in … when cut."""
    indent = " " * (len(text) - len(text.lstrip(" ")) + 2)
    words = text.strip(" ").split(" ")
    lines: list[str] = []
    line = indent[:-2]
    for word in words:
        candidate = f"{line} {word}" if line.strip() else line + word
        if len(candidate) <= width or not line.strip():
            line = candidate
        else:
            lines.append(line)
            line = indent + word
    lines.append(line)
    if most is not None and len(lines) > most:
        lines = lines[:most]
        lines[-1] = (
            fit(lines[-1] + " …", width) if len(lines[-1]) + 2 <= width else fit(lines[-1], width)
        )
    return [fit(line, width) for line in lines]


NOTE_LINES = 3
"""A note takes at most this many lines of the replay screen."""


def note_lines(note: str | None, width: int, most: int = NOTE_LINES) -> list[str]:
    """The note on the current event as the screen shows it: ``# text``, its own lines kept,
    wrapped to ``width``, at most ``most`` lines (the last ending in … when cut)."""
    if not note:
        return []
    lines: list[str] = []
    for line in note.split("\n"):
        lines += wrap(f"# {line}", width)
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = (
            fit(lines[-1] + " …", width)
            if len(lines[-1]) + 2 <= width
            else fit(lines[-1][: width - 1], width - 1) + "…"
        )
    return [fit(line, width) for line in lines]


def fit(line: str, width: int) -> str:
    return line if len(line) <= width else line[: max(0, width - 1)] + "…"


def lines_of(rows: Sequence[Row]) -> list[str]:
    """Plain lines of styled rows."""
    return ["".join(text for text, _ in row) for row in rows]
