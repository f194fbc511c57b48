"""What ``show`` and ``log`` print, without click; and their plainest forms answered without
loading click: ``tribes show LOG [--at N] [--as SEAT] [--json | --svg]`` and ``tribes log LOG
[--as SEAT] [--json [--states]]``.

Loading click and the command modules built with it costs ~46 M instructions of the ~500 M
that ``show`` of a short log takes here (its import brings ``uuid``, ``platform``,
``datetime``, ``gettext`` and ``locale``). So ``tribes.cli.run`` asks :func:`answered` first,
and the plainest forms of these two commands are answered here: one log, each option at most
once, its value in the next argument. Anything else (another option, ``--opt=VALUE``,
``--help``, a value click might refuse, any error at all, output click would change) is left
to click, which parses the same arguments again and answers as always, nothing having been
written: output, messages and exit statuses are click's, to the byte
(``tests/cli/test_quick.py`` and ``test_quick_differential.py`` run both ways over many
inputs and environments)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from tribes.core import views
from tribes.core.errors import UsageError
from tribes.events import codec
from tribes.replay import logs, records
from tribes.replay.cursor import check_point

if TYPE_CHECKING:
    from tribes.core.game import Viewer


def at(count: int, index: int | None) -> int:
    """The event index ``--at`` names (default: the last of ``count``), checked."""
    return count if index is None else check_point(index, count)


SEAT_VARIABLE = "TRIBES_SEAT"
"""The seat of a player's shell: every command that shows a game shows that seat's view, and
``act`` makes only that seat's moves, unless ``--as`` says otherwise."""


def viewer_of(seats: Sequence[str], who: str | None, default: str = "all") -> Viewer:
    """The view a command shows: the one ``--as`` names (a seat, ``spectator`` or ``all``);
    without it, the seat ``TRIBES_SEAT`` names (a player's shell sees as that player, so that
    what only others may see is never shown by accident); else ``default``."""
    if who is not None:
        return views.viewer_named(seats, who)
    seat = os.environ.get(SEAT_VARIABLE) or None
    if seat is None:
        return views.viewer_named(seats, default)
    if seat in seats or seat in ("all", "spectator"):
        return views.viewer_named(seats, seat)
    raise UsageError(
        f"{SEAT_VARIABLE} '{views.printable(seat)}' is no seat of this log; its seats: "
        f"{', '.join(seats)} (--as SEAT, spectator or all chooses another view)"
    )


def tag_line(key: str, value: str) -> str:
    """A tag as a PGN writes one: ``[event "Club night"]``."""
    return views.printable(f"[{key} {codec.to_json(value, indent=None)}]")


def state_text(
    log: Path,
    index: int | None,
    who: str | None,
    *,
    as_json: bool,
    as_svg: bool,
    warn: Callable[[str], None] | None = None,
) -> str:
    """What ``show`` prints: the state after event ``index`` (default: the last the running
    rules give) as ``who`` may see it, as the board in text (tags above it, the event's note
    below), SVG or JSON; ``warn`` is given the line of an intact log that the running rules
    replay otherwise."""
    if as_json and as_svg:
        raise UsageError("show prints --json or --svg, not both")
    opened = logs.open_log(log)
    head = opened.log.header
    asked = None if index is None else at(len(opened.log.events), index)
    steps = logs.shown(opened.game, opened.log, str(log), warn, index=asked)
    index = len(steps) - 1 if asked is None else asked
    step = steps[index]
    state = step.state
    viewer = viewer_of(head.seats, who)
    tags, noted = opened.log.tags, opened.log.notes.get(index)
    if as_json:
        doc = views.step_document(opened.game, head, index, state, viewer)
        rules = {} if steps.rules is None else {"rules": steps.rules.record()}
        return codec.to_json({**doc, "tags": tags, "note": noted, **rules}) + "\n"
    if as_svg:
        return opened.game.svg(state, head.seats, viewer, step.event, step.effects)
    board = opened.game.render(state, head.seats, viewer) + "\n"
    top = "".join(tag_line(k, v) + "\n" for k, v in tags.items())
    what = "the start" if index == 0 else f"event {index}"
    below = "".join(
        views.printable(line) + "\n"
        for line in (f"note on {what}: {noted}" if noted else "").splitlines()
    )
    return top + (top and "\n") + board + below


def log_lines(
    log: Path,
    who: str | None,
    *,
    as_json: bool,
    states: bool,
    warn: Callable[[str], None] | None = None,
) -> Iterator[str]:
    """What ``log`` prints, a line at a time: one line per event (the log's tags above, each
    event's note below it), or one JSON record per event (``states``: with the state after it
    and the legal moves), the effects as ``who`` may see them; up to an event the running
    rules refuse, ``warn`` given the line of an intact log that they replay otherwise (in
    ``--json``, a field ``rules`` of the record of the event it names, or of the last)."""
    opened = logs.open_log(log)
    head = opened.log.header
    if states and not as_json:
        raise UsageError("--states goes with --json")
    steps = logs.shown(opened.game, opened.log, str(log), warn)
    viewer = viewer_of(head.seats, who)
    notes = opened.log.notes
    if as_json:
        from tribes.events.jsonlines import JsonLines  # noqa: PLC0415  start-up: only for --json

        encode = JsonLines()
        named = getattr(steps.rules, "event", -1)
        for record in records.step_records(
            opened.game, head, steps, viewer, states=states, notes=notes
        ):
            if steps.rules is not None and record.get("index") in (named, len(steps) - 1):
                record = {**record, "rules": steps.rules.record()}
                named = -2
            yield encode(record)
        return
    width = max(
        [14, *(len(opened.game.format_move(s.event)) for s in steps if s.event is not None)]
    )
    for key, value in opened.log.tags.items():
        yield tag_line(key, value)
    for step in steps if 0 in notes or steps[0].effects else steps[1:]:  # what the start did
        yield views.step_line(opened.game, head.seats, step, width, viewer)
        for line in notes.get(step.index, "").splitlines():
            yield views.printable(f"      # {line}".rstrip())


def _show_writes(**chosen: Any) -> list[str]:
    return [state_text(**chosen, warn=_Warned.said)]  # click.echo(out, nl=False): one write


def _log_writes(log: Path, who: str | None, *, as_json: bool, states: bool) -> list[str]:
    lines = log_lines(log, who, as_json=as_json, states=states, warn=_Warned.said)
    return [line + "\n" for line in lines]


class _Warned(Exception):
    """A warning to say on stderr: the quick path leaves such a log to click."""

    @staticmethod
    def said(line: str) -> None:
        raise _Warned(line)


def _whole(text: str) -> int:
    """``int(text)`` of ASCII text only, as ``cli/common.py``'s ``WHOLE`` (a ValueError leaves
    the command to click, which says what is wrong)."""
    if not text.isascii():
        raise ValueError(text)
    return int(text)


_FORMS: dict[
    str,
    tuple[Callable[..., list[str]], dict[str, str], dict[str, tuple[str, Callable[[str], Any]]]],
] = {
    "show": (
        _show_writes,
        {"--json": "as_json", "--svg": "as_svg"},
        {"--at": ("index", _whole), "--as": ("who", str)},
    ),
    "log": (_log_writes, {"--json": "as_json", "--states": "states"}, {"--as": ("who", str)}),
}
"""Command -> what it prints (as the writes click makes of it: ``log`` a line each), its flags
(option -> argument) and its options with a value (option -> argument, and click's type of it:
``_whole`` is what ``WHOLE`` of ``cli/common.py`` does with a text)."""


def answered(command: str, args: list[str]) -> bool:
    """Whether ``tribes COMMAND ARGS`` was answered here, its output written (exit status 0);
    False leaves it to click, nothing having been written."""
    chosen = _parsed(command, args)
    if chosen is None or any(k[:1] == "_" and k.endswith("_COMPLETE") for k in os.environ):
        return False  # (click's shell completion is asked through such a variable)
    try:
        try:
            writes = _FORMS[command][0](**chosen)
        except Exception:  # noqa: BLE001  click reads it again and says what is wrong, as it always does
            return False
        if any("\x1b" in out for out in writes) or not _writes_as_click(sys.stdout):
            return False
        _write(writes)
    except (EOFError, KeyboardInterrupt):
        _aborted()
    return True


def _write(writes: list[str]) -> None:
    """``writes`` on standard output as ``click.echo`` writes each (then flushes), a failure
    answered as the group of :mod:`tribes.cli.main` answers it. A write at a time, as click
    makes them: where output fails part way (a character the encoding refuses, a file size
    limit, a full disk, a closed pipe), the same lines are out before it and the same error
    said (``tests/cli/test_quick_differential.py``)."""
    try:
        for out in writes:
            sys.stdout.write(out)
            sys.stdout.flush()
    except Exception as exc:  # noqa: BLE001  as the commands answer a failed write
        from tribes.cli.failures import output_failed  # noqa: PLC0415  start-up: only when a write fails

        output_failed(exc)


def _parsed(command: str, args: list[str]) -> dict[str, Any] | None:
    """The arguments of what ``command`` prints, from ``args``; None for any command or form
    not taken here."""
    if command not in _FORMS:
        return None
    _, flags, valued = _FORMS[command]
    chosen: dict[str, Any] = dict.fromkeys(flags.values(), False)
    chosen.update({name: None for name, _ in valued.values()})
    seen: set[str] = set()
    log: str | None = None
    rest = iter(args)
    for arg in rest:
        if arg in seen:
            return None
        seen.add(arg)
        if arg in flags:
            chosen[flags[arg]] = True
        elif arg in valued:
            value = next(rest, None)
            if value is None or value[:1] == "-":
                return None
            name, kind = valued[arg]
            try:
                chosen[name] = kind(value)
            except ValueError:
                return None
        elif arg[:1] == "-" or log is not None or not arg or not _readable_or_absent(arg):
            return None
        else:
            log = arg
    if log is None:
        return None
    return {"log": Path(log), **chosen}


def _readable_or_absent(path: str) -> bool:
    """What click's ``Path()`` type takes without a word: a path that does not exist, or one
    that can be read."""
    try:
        os.stat(path)
    except OSError:
        return True
    return os.access(path, os.R_OK)


def _writes_as_click(stream: Any) -> bool:
    """Whether ``click.echo`` would write to ``stream`` as it is: a text stream with an
    encoding and an error handler, the encoding not ASCII (click would wrap it in UTF-8)."""
    import codecs  # noqa: PLC0415  start-up: only when the output is not a terminal's

    encoding = getattr(stream, "encoding", None)
    if sys.platform == "win32" or not isinstance(encoding, str):
        return False  # (click has its own console streams on Windows)
    if getattr(stream, "errors", None) is None:
        return False
    try:
        return codecs.lookup(encoding).name != "ascii"
    except LookupError:
        return True


def _aborted() -> NoReturn:
    """Interrupted (^C): what every command says then (:func:`tribes.cli.failures.interrupted`)."""
    from tribes.cli.failures import interrupted  # noqa: PLC0415  start-up: only on ^C

    interrupted()
