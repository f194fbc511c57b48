"""A bug in a command, as the CLI answers it: one line and exit status 70, never a traceback
(unless ``TRIBES_DEBUG`` asks for it). Its own module, since both the click group
(:mod:`tribes.cli.main`) and the commands answered without click (:mod:`tribes.cli.quick`)
answer so, and neither imports the other."""

from __future__ import annotations

import os
import sys
from typing import NoReturn


def internal_error(exc: Exception) -> NoReturn:
    """A bug: said in one line, exit status 70; ``TRIBES_DEBUG=1`` shows the traceback. Called
    within the handling of ``exc``."""
    import click  # here: the commands answered without click import this module

    if os.environ.get("TRIBES_DEBUG"):
        raise exc
    click.echo(f"tribes: internal error: {type(exc).__name__}: {exc} (please report it)", err=True)
    sys.exit(70)
