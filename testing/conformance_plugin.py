"""The conformance kit as a pytest plugin (entry point ``pytest11``): ``pytest
--tribes-game=NAME`` adds the kit's tests (:mod:`tribes.testing.conformance`) for the game
registered as NAME to whatever else the run collects; ``--tribes-game=all`` for every registered
game. The option may be given more than once. The tests are named
``tribes-conformance/NAME::test_conformance_<check>[<case>]``, so ``-k`` selects among them."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest

OPTION = "--tribes-game"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("tribes").addoption(
        OPTION,
        action="append",
        default=[],
        metavar="NAME",
        help="run the tribes conformance kit on the registered game NAME ('all': every one)",
    )


class KitModule(pytest.Module):
    """The kit's tests for one game, collected from a module made for it (not from a file)."""

    kit: types.ModuleType

    def _getobj(self) -> Any:
        return self.kit


def _chosen(config: pytest.Config) -> list[str]:
    from tribes import games  # noqa: PLC0415  start-up: pytest loads this plugin in every run
    from tribes.core.errors import TribesError  # noqa: PLC0415  start-up: pytest loads this plugin in every run

    wanted: list[str] = config.getoption("tribes_game") or []
    chosen: list[str] = []
    for name in wanted:
        for one in games.names() if name == "all" else [name]:
            try:
                games.get(one)
            except TribesError as exc:
                raise pytest.UsageError(f"{OPTION}: {exc}") from None
            if one not in chosen:
                chosen.append(one)
    return chosen


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """The kit's items join the collected ones before ``-k`` and ``-m`` select among them."""
    chosen = _chosen(config)
    if not chosen:
        return
    from tribes.testing import conformance  # noqa: PLC0415  start-up: pytest loads this plugin in every run

    for name in chosen:
        kit = types.ModuleType(f"tribes_conformance_{name}", f"The conformance kit on {name}.")
        vars(kit).update(conformance.conformance_tests(name))
        node = KitModule.from_parent(
            session,
            path=Path(conformance.__file__),
            name=f"tribes-conformance/{name}",
            nodeid=f"tribes-conformance/{name}",
        )
        node.kit = kit
        items.extend(session.genitems(node))
