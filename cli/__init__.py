"""The ``tribes`` command line. :func:`run` is the ``tribes`` script: ``tribes --help`` is
answered from :mod:`tribes.cli.commands` without click, the plainest forms of ``tribes show``
and ``log`` by :mod:`tribes.cli.quick` (click's answer to the byte; anything else it leaves to
click), anything else by the click group of :mod:`tribes.cli.main`, imported only then. The
script lives here, not in ``commands.py``, since ``main`` reads the table of commands: the table
imports neither, and no import goes round.
The modules a command needs are loaded with the garbage collector off, then frozen
(:class:`_Loading`)."""

from __future__ import annotations

import gc
import os
import sys


def run() -> None:
    """The ``tribes`` script: ``tribes --help`` and a plain ``show`` or ``log`` answered
    without click, anything else by click. Ctrl-C at any moment, loading included, ends it with
    one line and exit 130 (128 + SIGINT), never a traceback; a command that holds Ctrl-C
    itself (``hunt``) says more."""
    try:
        _run()
    except KeyboardInterrupt:
        from tribes.cli.failures import interrupted  # noqa: PLC0415  start-up: only on ^C

        interrupted()


def _run() -> None:
    from tribes.cli.commands import COMMANDS, help_text  # noqa: PLC0415  start-up: under run's Ctrl-C

    if sys.argv[1:] == ["--help"]:
        text = help_text(_width())
        if text is not None:
            try:
                sys.stdout.write(text)
                sys.stdout.flush()
            except OSError as exc:  # a closed pipe, a full disk: as the commands answer them
                from tribes.cli.failures import output_failed  # noqa: PLC0415  start-up: only when a write fails

                output_failed(exc)
            return
    if sys.argv[1:2] == ["show"] or sys.argv[1:2] == ["log"]:
        with _LOADING:
            from tribes.cli.quick import answered  # noqa: PLC0415  start-up: the quick answers, for show and log alone
        if answered(sys.argv[1], sys.argv[2:]):
            return
    with _LOADING:
        from tribes.cli.main import main  # noqa: PLC0415  start-up: click and the group, for the commands quick does not answer

        if sys.argv[1:2] and sys.argv[1] in COMMANDS:  # its module, which the group would load
            import importlib  # noqa: PLC0415  start-up: only to load the command's module

            importlib.import_module(COMMANDS[sys.argv[1]][0].partition(":")[0])
    main()


class _Loading:
    """Around the loading of a command's modules: the cyclic garbage collector off meanwhile,
    and then every object alive frozen (``gc.freeze``: left out of every later collection).

    Loading modules makes objects that live as long as the process (modules, classes,
    functions, tables) and next to no garbage. The collector would look them all over again
    at each full collection, and once more as the process exits, to find nothing: ~34 M
    instructions of ``tribes show`` of a short log (8%). Objects made later, by the command
    itself, are collected as ever. Only the ``tribes`` script does this, not the library."""

    def __enter__(self) -> None:
        gc.disable()

    def __exit__(self, *_: object) -> None:
        gc.freeze()
        gc.enable()


_LOADING = _Loading()


def _width() -> int:
    """The width click's help formatter takes: the terminal's columns (``COLUMNS`` first, as
    ``shutil.get_terminal_size`` reads them; 80 without a terminal), at most 80, less 2."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]  # None: caught
        except (AttributeError, ValueError, OSError):  # AttributeError: no stdout at all
            columns = 80
    return max(min(columns, 80) - 2, 50)
