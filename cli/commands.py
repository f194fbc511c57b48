"""The commands of ``tribes``, one line each, and ``tribes --help`` written from them.

This module imports nothing but the registry of games (its list of names, which loads no game):
the ``tribes`` script (``tribes.cli.run``) reads it first, and ``tribes --help`` is answered
from it alone. Loading click costs more instructions than the
whole of that answer (~130 M of ~170 M on this project's machine: its import pulls in
``inspect``, ``typing``, ``enum``, ``uuid``, ``datetime``), so the list of commands is written
here, where it is read without click, and click's own rendering is used whenever the text would
need more than filling words into lines (a narrow terminal, a hyphen to break at); a test pins the
two renderings to the same bytes at every width.
"""

from __future__ import annotations

from tribes import games

COMMANDS: dict[str, tuple[str, str]] = {
    "act": ("tribes.cli.play:act", "Check moves and append them to the log (all of them, or none)."),
    "baseline": ("tribes.cli.forensics:baseline", "Record many games' outcomes and state digests, for regress."),
    "bisect": ("tribes.cli.questions:bisect", "The first event after which an expression holds."),
    "corpus": ("tribes.cli.corpus:corpus", "Many games in one file: list, get, add, split, repair."),
    "coverage": ("tribes.cli.forensics:coverage", "Which rule ids many games applied, and which never happened."),
    "demo": ("tribes.cli.simulation:demo", "A seeded Clans game, played and replayed with the tooling."),
    "diff": ("tribes.cli.questions:diff", "What changed: at event N, from N to M, or between two logs."),
    "find": ("tribes.cli.forensics:find", "Every game and event of many games where an expression holds."),
    "export": ("tribes.cli.logfiles:export", "Write a log in its JSON form: stable, diffable, lossless."),
    "fork": ("tribes.cli.questions:fork", "A new log with the events before N, to try another line of play."),
    "html": ("tribes.cli.pages:html_page", "One HTML file that steps through a game in any browser, offline."),
    "hunt": ("tribes.cli.hunt:hunt_command", "Steer play toward an event where an expression holds."),
    "import": ("tribes.cli.logfiles:import_", "Write a JSON log (or a hand-written scenario) as .tribes."),
    "log": ("tribes.cli.reading:log_", "One line per event: index, seat, notation, effects."),
    "moves": ("tribes.cli.play:moves", "The legal moves now (or after event N), in notation."),
    "new": ("tribes.cli.play:new", "Start a new game log."),
    "note": ("tribes.cli.annotations:note", "Comment on an event (0: the start), or remove the comment."),
    "position": ("tribes.cli.positions:position", "The position file of a state: new --position gives it back."),
    "repair": ("tribes.cli.logfiles:repair", "Cut an interrupted append back to the last commit."),
    "replay": ("tribes.cli.tui:replay", "Step through a log in the terminal."),
    "regress": ("tribes.cli.forensics:regress", "Which games a change to the code altered, where first, how."),
    "rules": ("tribes.cli.rules:rules", "The rules of the games, whole or one rule by its id."),
    "show": ("tribes.cli.reading:show", "The state of a game: as text, as SVG (--svg) or as JSON."),
    "shrink": ("tribes.cli.positions:shrink_command", "The smallest position and fewest events where something happens."),
    "simulate": ("tribes.cli.simulation:simulate", "Play seeded games between bots: a summary and statistics."),
    "stats": ("tribes.cli.corpus:stats", "Win rates (with intervals), scores and lengths of many games."),
    "tag": ("tribes.cli.annotations:tag", "List a log's tags, or set and remove them."),
    "undo": ("tribes.cli.undo:undo", "Take back the last append(s) of your own log, keeping a backup."),
    "upgrade": ("tribes.cli.logfiles:upgrade", "Logs and corpora in the current format, or carried to new rules."),
    "verify": ("tribes.cli.logfiles:verify", "Replay logs and corpora: every event legal, every state matching."),
    "whatif": ("tribes.cli.questions:whatif", "Replace event N by MOVE and re-check every later event."),
}  # fmt: skip
"""Command name -> (``module:attribute`` of its click command, the short help --help lists)."""


def description() -> str:
    """What ``tribes --help`` says the program is, naming the registered games (their names
    alone: the registry's list, read without loading any game)."""
    return (
        "tribes: board games as event logs you can replay, check, step through and share. "
        f"Games: {', '.join(games.names())}."
    )


OPTIONS = (("--version", "Show the version and exit."), ("--help", "Show this message and exit."))
"""The options of ``tribes`` itself, as click lists them."""


def help_text(width: int) -> str | None:
    """``tribes --help`` as click renders it at ``width`` (its formatter's width: the terminal's
    columns, at most 80, less 2), or None where filling words into lines could differ from it."""
    out = ["Usage: tribes [OPTIONS] COMMAND [ARGS]...\n\n"]
    about = _filled(description(), width, "  ")
    if about is None:
        return None
    out.append(about + "\n")
    for title, rows in (
        ("Options", OPTIONS),
        ("Commands", [(n, c[1]) for n, c in COMMANDS.items()]),
    ):
        rows = sorted(rows) if title == "Commands" else list(rows)
        first = max(len(name) for name, _ in rows) + 2
        if first > 32:
            return None  # click would cap the column and wrap the names
        out.append(f"\n{title}:\n")
        for name, text in rows:
            filled = _filled(text, max(width - first - 2, 10), "")
            if filled is None or "\n" in filled:
                return None
            out.append(f"  {name}{' ' * (first - len(name))}{filled}\n")
    return "".join(out)


def _filled(text: str, width: int, indent: str) -> str | None:
    """``text`` filled into lines of at most ``width`` characters after ``indent``, as
    ``textwrap`` does it, or None where it might do more: break a word too long for a line, or
    split a hyphenated word that does not fit where it stands."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if len(indent) + len(word) > width:
            return None
        if line and len(indent) + len(line) + 1 + len(word) > width:
            if "-" in word:
                return None
            lines.append(indent + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(indent + line)
    return "\n".join(lines)
