"""The model of ``tribes replay``: keys in, screens out. No terminal here, so it is tested
directly; ``tribes.cli.tui`` only reads keys and paints the rows this returns.

A screen is a title row, the event just applied with its effects, its note (``# text``, up to
three lines) if it has one, then the body: the board and,
where there is room beside it, the move list, the diff (``d``) and every effect (``e``); where
there is no room beside the board, below it, and in a small terminal in its place. The body pans
(``H J K L`` or Shift+arrows) when it does not fit. What the last event changed on the board
(the words that differ from the board before it) is marked for colour, as is the current move in
the move list (also marked ▶ without colour). Rows are segments of text with a style name
(``Row``) so that the terminal layer can colour them; ``screen`` gives the plain lines.
"""

from __future__ import annotations

import attrs

from tribes.core import digits, views
from tribes.core.game import EVERYTHING, SPECTATOR, Viewer
from tribes.replay.cursor import Cursor
from tribes.replay.diff import diff
from tribes.replay.panes import (
    Pane,
    Row,
    Segment,
    Spans,
    changed_spans,
    fit,
    note_lines,
    wrap,
)

HELP = (
    "→ l n  next event        ← h p  previous event",
    "Home g  first            End G  last",
    "123 Enter  jump to event 123",
    "d  the diff against the previous step (beside the board when there is room)",
    "e  every effect of the event (a final scoring has many)",
    "v  change the point of view (everything, spectator, each seat)",
    "/text Enter  next event whose move or effects match (wraps around)",
    "Enter  the same search again",
    "H J K L or Shift+arrows  pan the board left, down, up, right",
    "?  this help             q  quit",
)

RIGHT, LEFT, HOME, END, ENTER, ESCAPE, BACKSPACE = (
    "RIGHT",
    "LEFT",
    "HOME",
    "END",
    "ENTER",
    "ESC",
    "BACKSPACE",
)
PAN_LEFT, PAN_RIGHT, PAN_UP, PAN_DOWN = "PAN-LEFT", "PAN-RIGHT", "PAN-UP", "PAN-DOWN"
"""Shift (or another modifier) with an arrow: pan the body."""

_PANS = {
    PAN_LEFT: (-1, 0),
    "H": (-1, 0),
    PAN_RIGHT: (1, 0),
    "L": (1, 0),
    PAN_UP: (0, -1),
    "K": (0, -1),
    PAN_DOWN: (0, 1),
    "J": (0, 1),
}
PAN_COLUMNS = 8
DIGITS = frozenset("0123456789")
"""The keys that start or go on typing an event number (ASCII digits only)."""
"""How far one key pans sideways (one row up or down)."""

EVENT_LINES = 5
"""The event and its effects may take this many lines (``e`` shows them all)."""
MOVES_WIDTH = 30
"""The move list beside the board is at most this wide."""
PANE_WIDTH = 34
"""A diff or effects pane needs this many columns to stand beside the board."""
GAP = " │ "


def views_from(viewer: Viewer) -> tuple[Viewer, ...] | None:
    """The views ``v`` may go through for a replay opened as ``viewer``: a seat's own and a
    spectator's for a seat (a player never sees another's hidden parts by a key), a
    spectator's alone for a spectator, every one for everything."""
    if viewer == EVERYTHING:
        return None
    return (SPECTATOR,) if viewer is SPECTATOR else (viewer, SPECTATOR)


@attrs.define
class Stepper:
    """What the screen shows and how keys change it."""

    cursor: Cursor
    name: str = "log"
    show_diff: bool = False
    show_help: bool = False
    show_effects: bool = False
    viewer: Viewer = EVERYTHING
    typing: str | None = None
    """Text being typed: digits for a jump, or '/...' for a search."""
    message: str = ""
    last_search: str | None = None
    pan: tuple[int, int] = (0, 0)
    """How far the body is panned: columns right, rows down (clamped when painted)."""
    views: tuple[Viewer, ...] | None = None
    """The views ``v`` goes through; None: every one (everything, a spectator, each seat)."""

    def viewers(self) -> list[Viewer]:
        if self.views is not None:
            return list(self.views)
        return [EVERYTHING, SPECTATOR, *range(len(self.cursor.seats))]

    def press(self, key: str) -> bool:
        """Handle one key; False means quit."""
        self.message = ""
        if self.typing is not None:
            self._type(key)
            return True
        if self.show_help and key != "q":
            self.show_help = False
            return True
        r = self.cursor
        if key in (RIGHT, "l", "n", " "):
            r.forward()
        elif key in (LEFT, "h", "p"):
            r.back()
        elif key in (HOME, "g"):
            r.first()
        elif key in (END, "G"):
            r.last()
        elif key == "d":
            self.show_diff = not self.show_diff
        elif key == "e":
            self.show_effects = not self.show_effects
        elif key in _PANS:
            dx, dy = _PANS[key]
            self.pan = (max(0, self.pan[0] + dx * PAN_COLUMNS), max(0, self.pan[1] + dy))
        elif key == "v":
            options = self.viewers()
            self.viewer = options[(options.index(self.viewer) + 1) % len(options)]
        elif key == "?":
            self.show_help = True
        elif key == "q":
            return False
        elif key == ENTER:
            self._search(None)
        elif key in DIGITS:
            self.typing = key
        elif key == "/":
            self.typing = "/"
        else:
            self.message = f"unknown key {key!r}; ? for help"
        return True

    def _type(self, key: str) -> None:
        assert self.typing is not None
        if key == ESCAPE:
            self.typing = None
        elif key == BACKSPACE:
            self.typing = self.typing[:-1] or None
        elif key == ENTER:
            text, self.typing = self.typing, None
            self._submit(text)
        elif len(key) == 1 and (self.typing.startswith("/") or key in DIGITS):
            self.typing += key

    def _submit(self, text: str) -> None:
        r = self.cursor
        if text.startswith("/"):
            self._search(text[1:].strip() or None)
            return
        target = digits.natural(text)
        if target is None or target > len(r):
            self.message = f"event {text} is beyond the last ({len(r)})"
        else:
            r.seek(target)

    def _search(self, needle: str | None) -> None:
        """The next event after the current one whose line (as the viewer sees it) contains
        ``needle`` (None: the last search again), wrapping around past the last event."""
        needle = needle or self.last_search
        if not needle:
            self.message = "no search yet: /text Enter searches"
            return
        self.last_search = needle
        r = self.cursor
        here = r.index
        lowered = needle.lower()
        for offset in range(1, len(r) + 1):
            index = (here + offset) % (len(r) + 1)
            if index and lowered in self._line(index).lower():
                r.seek(index)
                if index == here:
                    self.message = f"'{needle}': only this event matches"
                elif index < here:
                    self.message = f"'{needle}': passed the last event, went on from the first"
                return
        self.message = f"no event matches '{needle}'"

    def _line(self, index: int) -> str:
        r = self.cursor
        return views.describe(r.game, r.seats, r.at(index), self.viewer)

    def viewer_name(self) -> str:
        if self.viewer == EVERYTHING:
            return "everything"
        if self.viewer is SPECTATOR:
            return "spectator"
        return self.cursor.seats[self.viewer]

    # --- the screen -------------------------------------------------------------------------------

    def screen(self, width: int = 80, height: int = 24) -> list[str]:
        """The lines to paint, at most ``height`` of at most ``width`` characters."""
        return ["".join(text for text, _ in row) for row in self.rows(width, height)]

    def rows(self, width: int = 80, height: int = 24) -> list[Row]:
        """The screen as styled rows (``screen`` without the styles)."""
        width, height = max(1, width), max(1, height)
        r = self.cursor
        bottom = self._bottom()
        events = self._event_lines(width, height)
        notes = note_lines(r.log.notes.get(r.index), width, max(1, min(3, (height - 8) // 3)))
        room = max(0, height - 1 - len(events) - len(notes) - len(bottom))
        body, cut = self._body(width, room)
        title = self._title(width, cut)
        out: list[Row] = [((title, "title"),)]
        style = "event" if r.index else "effects"
        out += [((line, style),) for line in events]
        out += [((line, "effects"),) for line in notes]
        out += body
        out += [((fit(line, width), "message"),) for line in bottom]
        return out[:height]

    def _title(self, width: int, cut: bool) -> str:
        r = self.cursor
        where = f"event {r.index}/{len(r)}  view: {self.viewer_name()}"
        hint = ("HJKL pan  " if cut else "") + "? help  q quit"
        full = f"{r.game.name} {views.printable(self.name)}  {where}"  # a path: escaped
        for left in (full, where):
            if len(left) + 2 + len(hint) <= width:
                return f"{left}{' ' * (width - len(left) - len(hint))}{hint}"
        return fit(where if len(where) + 2 > width else f"{where}  {hint}", width)

    def _event_lines(self, width: int, height: int) -> list[str]:
        r = self.cursor
        if r.index == 0:
            return ["the start"]
        most = max(1, min(EVENT_LINES, (height - 6) // 2))
        if self.show_effects:  # the effects have their own pane: the move alone here
            step = r.step
            move = f"{r.index}: {views.seat_name(r.seats, step)} {views.notation(r.game, step)}"
            return [fit(move, width)]
        lines = wrap(self._line(r.index), width)
        if len(lines) > most:
            lines = lines[:most]
            more = " … e: all"
            lines[-1] = fit(lines[-1], width - len(more)).removesuffix("…") + more
        return lines

    def _bottom(self) -> list[str]:
        """The line being typed, or the last message: what was typed in it (a search) with its
        control and bidirectional characters escaped, as every text a user typed is shown."""
        if self.typing is not None:
            typed = self.typing
            line = f"jump to: {typed}" if not typed.startswith("/") else f"search: {typed[1:]}"
            return [views.printable(line)]
        return [views.printable(self.message)] if self.message else []

    # --- the body: board, move list, diff, effects ------------------------------------------------

    def _body(self, width: int, room: int) -> tuple[list[Row], bool]:
        """The body in ``room`` rows, and whether the board (or what stands in its place) is cut
        so that panning shows more."""
        if room == 0:
            return [], False
        if self.show_help:
            return self._single(Pane([*HELP], "help"), width, room)
        extras = []
        if self.show_diff:
            extras.append(Pane(self._diff_lines(), "diff"))
        if self.show_effects:
            extras.append(Pane(self._effect_lines(), "effects"))
        board, columns = self._beside(extras, width)
        if columns is not None:
            return self._columns(columns, room)
        # No room beside the board: the extras below it if the board leaves room, else instead.
        kept = [i for i, line in enumerate(board.lines) if line.strip()]
        below = sum(len(p.wrapped(width)) + 1 for p in extras)
        parts = extras
        if len(kept) + below <= room:
            marks = board.marks or [()] * len(board.lines)
            plain = Pane([board.lines[i] for i in kept], marks=[marks[i] for i in kept])
            parts = [plain, *extras]
        lines: list[str] = []
        styles: list[str] = []
        spans: list[Spans] = []
        for i, part in enumerate(parts):
            if i:
                lines.append("─" * width)
                styles.append("rule")
                spans.append(())
            lines += part.lines
            styles += part.styles or [part.style] * len(part.lines)
            spans += part.marks or [()] * len(part.lines)
        return self._single(Pane(lines, styles=styles, marks=spans), width, room)

    def _single(self, pane: Pane, width: int, room: int) -> tuple[list[Row], bool]:
        return self._columns([(pane, width)], room)

    def _board(self, width: int) -> Pane:
        """The board as the viewer sees it, with what the last event changed on it marked (the
        words that differ from the board before it)."""
        r = self.cursor
        lines = r.game.render(r.state, r.seats, self.viewer, width).splitlines()
        marks: list[Spans] = []
        if r.index:
            before = r.game.render(r.at(r.index - 1).state, r.seats, self.viewer, width)
            marks = changed_spans(before.splitlines(), lines)
        return Pane(lines, "board", keep_end=True, marks=marks)

    def _beside(self, extras: list[Pane], width: int) -> tuple[Pane, list[tuple[Pane, int]] | None]:
        """The board, and the columns with the board first when every extra fits beside it (with
        the move list if there is room for it too); None when the extras do not fit. A game
        draws a narrower board under 100 columns: that one is taken if more fits beside it."""
        moves = min(MOVES_WIDTH, self._moves_width())
        boards = [self._board(width)]
        if width >= 100:
            boards.append(self._board(99))
        best: tuple[int, Pane, list[tuple[Pane, int]] | None] | None = None
        for board in boards:
            left = board.width()
            spare = width - left
            need = len(extras) * (PANE_WIDTH + len(GAP))
            if extras and spare < need:
                fits, columns = -1, None
            else:
                with_moves = spare >= need + moves + len(GAP)
                share = spare - (moves + len(GAP) if with_moves else 0)
                columns = [(board, left if extras or with_moves else width)]
                for i, pane in enumerate(extras):
                    each = share // len(extras) + (1 if i < share % len(extras) else 0)
                    columns.append((pane, each - len(GAP)))
                if with_moves:
                    columns.append((self._moves(moves), moves))
                fits = len(columns)
            if best is None or fits > best[0]:
                best = (fits, board, columns)
        assert best is not None
        return best[1], best[2]

    def _columns(self, columns: list[tuple[Pane, int]], room: int) -> tuple[list[Row], bool]:
        """The panes side by side, each ``room`` rows of its width, joined by a rule; and
        whether any of them is cut (panning shows more)."""
        limits = [pane.limits(w, room) for pane, w in columns]
        most = (max(x for x, _ in limits), max(y for _, y in limits))
        self.pan = (min(self.pan[0], most[0]), min(self.pan[1], most[1]))  # no panning past it
        cut = any(pane.cut(w, room, self.pan) for pane, w in columns)
        painted = [pane.window(w, room, self.pan) for pane, w in columns]
        rows: list[Row] = []
        for y in range(room):
            row: list[Segment] = []
            for i, ((_, w), lines) in enumerate(zip(columns, painted, strict=True)):
                if i:
                    row.append((GAP, "rule"))
                parts = lines[y] if y < len(lines) else (("", "board"),)
                row.extend(parts)
                used = sum(len(t) for t, _ in parts)
                if i < len(columns) - 1 and used < w:
                    row.append((" " * (w - used), "board"))
            rows.append(tuple(row))
        while rows and not "".join(t for t, _ in rows[-1]).strip():
            rows.pop()  # no blank rows at the bottom
        return rows, cut

    def _moves_width(self) -> int:
        r = self.cursor
        seat = max((len(s) for s in r.seats), default=1)
        widest = max((len(r.notation(i)) for i in range(1, len(r) + 1)), default=5)
        return 2 + len(str(len(r))) + 1 + seat + 1 + widest

    def _moves(self, width: int) -> Pane:
        """The move list, every event; the current one is marked ▶ (and styled current) and
        kept in view (``Pane.around``)."""
        r = self.cursor
        digits = len(str(len(r)))
        seat = max((len(s) for s in r.seats), default=1)
        lines, styles = [], []
        for i in range(len(r) + 1):
            who = views.seat_name(r.seats, r.at(i)) if i else ""
            mark = "▶" if i == r.index else " "
            lines.append(fit(f"{mark} {i:>{digits}} {who:<{seat}} {r.notation(i)}", width))
            styles.append("current" if i == r.index else "moves")
        return Pane(lines, "moves", styles=styles, around=r.index)

    def _diff_lines(self) -> list[str]:
        r = self.cursor
        if r.index == 0:
            return ["(the start: nothing before it to compare with)"]
        changes = diff(
            r.game, r.document(self.viewer, r.index - 1), r.document(self.viewer, r.index)
        )
        return (
            [f"changes made by event {r.index}:", *(f"  {c.text}" for c in changes or ())]
            if changes
            else [f"event {r.index} changed nothing this view shows"]
        )

    def _effect_lines(self) -> list[str]:
        r = self.cursor
        effects = r.step.effects
        if r.index == 0:
            return ["(the start: no event, no effects)"]
        if not effects:
            return [f"event {r.index} had no effects"]
        said = [e.describe_for(r.seats, self.viewer) for e in effects]
        return [f"the {len(said)} effects of event {r.index}:", *(f"  {s}" for s in said)]
