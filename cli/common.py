"""What several ``tribes`` commands share: argument types, the options of work in shards, and the
reading of option pairs, tags, positions and event indexes, each refusing bad input with one
clear error. The command modules import this one and ``tribes.cli.main`` none of them, so that
no command module imports another (each loads alone, as ``cli/commands.py`` promises)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from tribes.core.errors import BadPosition, LogError, UsageError
from tribes.events import annotation, codec, files, model

LOG = click.Path(path_type=Path)
"""A log to read: whatever is wrong with it (missing, a folder, damaged) the library says."""
OUT = click.Path(path_type=Path, dir_okay=False)


class _AsciiInt(click.types.IntParamType):
    """click's INT, reading only the digits 0-9 (``int`` also reads ``١`` and ``１``)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.isascii():
            self.fail(f"{value!r} is not a number written in the digits 0-9", param, ctx)
        return super().convert(value, param, ctx)


class WholeRange(click.IntRange):
    """click's IntRange, reading only the digits 0-9."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.isascii():
            self.fail(f"{value!r} is not a number written in the digits 0-9", param, ctx)
        return super().convert(value, param, ctx)


WHOLE = _AsciiInt()
"""The type of every option and argument that is a number (``type=WHOLE``, not ``type=int``)."""


def say(line: str, err: bool = False) -> None:
    """``click.echo`` of a line tribes made around text a user typed or a file named (a path, an
    expression, a seat): its control and bidirectional characters escaped (``\\x1b``,
    ``\\u202e``), as tags and notes are, so that no name drives the terminal it is shown in."""
    from tribes.core.views import printable  # noqa: PLC0415  start-up: the group itself starts without attrs

    click.echo(printable(line), err=err)


def work_options(command: Any) -> Any:
    """``--jobs N`` and ``--cluster ADDRESS`` of the commands whose work runs in shards."""
    command = click.option(
        "--cluster",
        metavar="ADDRESS",
        help="Run on a Dask cluster: its scheduler's address, or local:N (N local workers).",
    )(command)
    return click.option(
        "--jobs", type=WHOLE, default=1, show_default=True, help="Worker processes on this machine."
    )(command)


def options(pairs: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` texts (``--option``, ``--file``) as a dict; a bad one is a usage error."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"option '{pair}' must be KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def tag_pairs(pairs: Sequence[str]) -> list[tuple[str, str]]:
    """``KEY=VALUE`` texts as tags, each checked (a bad one is a usage error)."""
    out = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"tag {ascii(pair)[:60]} must be KEY=VALUE (--remove KEY removes one)")
        why = annotation.tag_key_problem(key) or annotation.tag_value_problem(value)
        if why:
            raise UsageError(f"tag {ascii(key)[:40]}: {why}")
        out.append((key, value))
    return out


def read_position(path: Path) -> Any:
    """A position file: a regular file (never a device or a FIFO) of at most 1 MiB of JSON. A
    log or a corpus given instead is told how to write the position of one of its states."""
    try:
        data = files.read_regular(path, 1 << 20, "position file")
    except LogError as exc:
        raise BadPosition(f"cannot read position {path}: {exc.reason}") from None
    if data.startswith((model.MAGIC, model.CORPUS_MAGIC)):
        raise _not_a_position(path, "corpus" if data.startswith(model.CORPUS_MAGIC) else "log")
    try:
        position = codec.from_json(data.decode())
    except (ValueError, RecursionError) as exc:
        raise BadPosition(f"position {path} is not valid JSON: {exc}") from None
    if not isinstance(position, dict):
        raise BadPosition(f"position {path} must be a JSON object, not {type(position).__name__}")
    if position.get("format") == model.FORMAT_NAME:
        raise _not_a_position(path, "log")
    return position


def _not_a_position(path: Path, kind: str) -> BadPosition:
    game = f"{path}#K" if kind == "corpus" else str(path)
    return BadPosition(
        f"position {path} is a tribes {kind}, not a position file: 'tribes position {game} "
        "--at N -o FILE' writes the position after event N"
    )


def warn(line: str) -> None:
    """A warning on stderr, in one printable line: what an intact log written under other rules
    is answered with (:mod:`tribes.replay.consistency`)."""
    from tribes.core.views import printable  # noqa: PLC0415  start-up: the command's machinery, when it runs

    click.echo(printable(line), err=True)


class RulesWarnings:
    """The answers of the games of many logs and corpora that are intact but that the running
    rules replay otherwise (``find``, ``coverage``, ``stats``): one warning line each on stderr
    (unless the output is JSON), the first LIMIT of them, then one line for the rest; all of
    them kept as records for a JSON document (``"rules"``)."""

    LIMIT = 10

    def __init__(self, as_json: bool = False) -> None:
        self.as_json = as_json
        self.records: list[dict[str, Any]] = []

    def __call__(self, name: str, answer: Any) -> None:
        """Game ``name``'s answer (None: consistent, nothing said)."""
        if answer is None:
            return
        from tribes.replay.consistency import warning  # noqa: PLC0415  start-up: loads attrs

        self.records.append({"path": name, **answer.record()})
        if not self.as_json and len(self.records) <= self.LIMIT:
            warn(warning(answer, name) or "")

    def close(self) -> None:
        """The line for the games not said one by one."""
        more = len(self.records) - self.LIMIT
        if not self.as_json and more > 0:
            warn(
                f"warning: {more} more game{'s' if more != 1 else ''} intact, the running rules "
                "replaying them otherwise ('tribes verify' names each)"
            )
