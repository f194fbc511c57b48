"""The ``tribes`` command: thin click commands over ``tribes.replay``, each loaded when it is run.

Every TribesError becomes one line on stderr and its exit status (1, or 2 for usage); a
traceback from here on any input is a bug.

**Adding a command** is one line in ``COMMANDS`` (``tribes/cli/commands.py``): its name, where
its click command is (``module:attribute``), and the short help ``tribes --help`` lists::

    "verify": ("tribes.cli.logfiles:verify", "Replay logs and corpora: every event legal, ..."),

The command itself is an ordinary ``@click.command()`` (or group) in a module of ``tribes.cli``,
written without ``short_help`` (the line is where that text lives); nothing else registers it.
A module is imported only when one of its commands runs or shows its help, so ``tribes`` starts
without loading the others (importing them all was most of what a short command cost), and
``tribes --help`` is answered from ``commands.py`` without click at all.
``tests/cli/test_cli_commands.py`` checks that every command of ``tribes.cli`` has its line, that
``--help`` lists them without importing one, and that its text is click's to the byte.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

import click

from tribes.cli.commands import COMMANDS, description
from tribes.cli.failures import internal_error, interrupted, output_failed
from tribes.core.errors import TribesError


class TribesGroup(click.Group):
    """The commands of :data:`COMMANDS`, each imported when first asked for; turns every
    TribesError into one line and an exit status, never a traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            where, short_help = COMMANDS[cmd_name]
            module, _, name = where.partition(":")
            command: click.Command = getattr(importlib.import_module(module), name)
            command.short_help = short_help
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from :data:`COMMANDS` alone: listing them imports none."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, _short_help(name)) for name in self.list_commands(ctx)])

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except TribesError as exc:
            fail(exc)
        except BrokenPipeError as exc:
            output_failed(exc)
        except KeyboardInterrupt:  # click would say "Aborted!" and exit 1
            interrupted()
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except Exception as exc:  # noqa: BLE001  a bug: one line and exit 70, never a traceback
            internal_error(exc)


def _short_help(name: str) -> str:
    if name in COMMANDS:
        return COMMANDS[name][1]
    return main.commands[name].get_short_help_str(limit=1 << 10)


def fail(exc: TribesError) -> NoReturn:
    from tribes.core.views import printable  # noqa: PLC0415  start-up: the group itself starts without attrs

    click.echo(f"tribes: {printable(exc.message)}", err=True)
    sys.exit(exc.exit_code)


@click.group(cls=TribesGroup, help=description())
@click.version_option(package_name="tribes")
def main() -> None:
    """The program itself: what it is (``description()``) and its commands (``COMMANDS``)."""


if __name__ == "__main__":
    main()
