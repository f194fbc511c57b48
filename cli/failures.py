"""A bug in a command, output that cannot be written, and Ctrl-C, as the CLI answers them: one line,
never a traceback (unless ``TRIBES_DEBUG`` asks for it): exit status 70 for a bug, 1 for a full
disk or a file size limit, 130 for Ctrl-C. Its own module, since the ``tribes`` script, the click group
(:mod:`tribes.cli.main`) and the commands answered without click (:mod:`tribes.cli.quick`)
answer so, and none of them imports another."""

from __future__ import annotations

import errno
import os
import sys
from typing import NoReturn

NO_ROOM = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT})
"""The errors of a write the machine had no room for: a full disk, a quota, a file size limit."""
BAD_NAME = frozenset({errno.ENAMETOOLONG})
"""The errors of a path the system cannot take as it is written: a name of more than 255 bytes
(or a path of more than 4,096), wherever a command opens, makes or looks for a file."""


def bad_name(exc: OSError) -> NoReturn:
    """A path too long for the system (``tribes verify <300 characters>.tribes``): one line
    naming it (cut, escaped) and exit status 1, as for a file that cannot be read."""
    from tribes.core.views import printable  # noqa: PLC0415  start-up: a command answered without attrs needs none

    name = str(exc.filename) if exc.filename is not None else ""
    shown = name if len(name) <= 60 else f"{name[:40]}...{name[-12:]}"
    sys.stderr.write(
        f"tribes: '{printable(shown)}' ({len(os.fsencode(name))} bytes): "
        f"{(exc.strerror or 'file name too long').lower()}; a file name is at most 255 bytes\n"
    )
    sys.stderr.flush()
    sys.exit(1)


def cannot_write(exc: OSError) -> NoReturn:
    """Output refused for lack of room (``tribes show LOG > /dev/full``): one line and exit
    status 1, as for a file that cannot be read, since nothing is wrong with tribes."""
    sys.stderr.write(f"tribes: cannot write the output: {exc.strerror or exc}\n")
    sys.stderr.flush()
    sys.exit(1)


def output_failed(exc: Exception) -> NoReturn:
    """Writing the output failed: a closed pipe (``tribes log LOG | head``) ends quietly with
    exit status 1, as the reader has all it wanted; no room says so; anything else is a bug."""
    if isinstance(exc, BrokenPipeError):
        sys.stderr.close()
        sys.exit(1)
    internal_error(exc)


def internal_error(exc: Exception) -> NoReturn:
    """A bug: said in one line, exit status 70; ``TRIBES_DEBUG=1`` shows the traceback. Called
    within the handling of ``exc``. A write refused for lack of room is no bug:
    :func:`cannot_write` answers it."""
    import click  # noqa: PLC0415  start-up: the commands answered without click import this module

    if isinstance(exc, OSError) and exc.errno in NO_ROOM:
        cannot_write(exc)
    if isinstance(exc, OSError) and exc.errno in BAD_NAME:
        bad_name(exc)
    if os.environ.get("TRIBES_DEBUG"):
        raise exc
    click.echo(f"tribes: internal error: {type(exc).__name__}: {exc} (please report it)", err=True)
    sys.exit(70)


def interrupted() -> NoReturn:
    """The end of a command stopped by Ctrl-C, whenever it came: one line, exit 130
    (128 + SIGINT), as shells count a death by the signal."""
    try:
        sys.stderr.write("\ntribes: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # no stderr left to tell
        pass
    raise SystemExit(130)
