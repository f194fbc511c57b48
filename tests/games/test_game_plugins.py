"""Games as plugins: a distribution registers a game in the entry-point group ``tribes.games``;
the registry lists it beside the built-in games, every tool takes it, and a plugin that is
missing or broken is one line naming its entry point, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

from tribes import games
from tribes.core.errors import UsageError
from tribes.testing.cli import Cli

PLUGINS = {
    "nothing": "tribes_no_such_module:GAME",
    "clans": "tribes_no_such_module:GAME",  # a built-in name: never taken from a plugin
    "notagame": "tribes.core.game:Facts",
    "misnamed": "tribes.games.iwari:GAME",
}


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The entry points of PLUGINS (and no installed ones) while the test runs."""
    points = [EntryPoint(name, value, games.GROUP) for name, value in PLUGINS.items()]
    monkeypatch.setattr(games, "entry_points", lambda group: points)
    monkeypatch.setattr(games, "installed_names", lambda: tuple(sorted(set(PLUGINS) - {"clans"})))
    games._plugins.cache_clear()
    yield
    games._plugins.cache_clear()


def test_the_example_game_is_a_plugin() -> None:
    """``make test`` installs examples/dice: it comes through its entry point, not the list;
    the names read from the metadata files are those importlib.metadata gives."""
    assert list(games.installed_names()) == sorted(games._plugins())
    assert "dice" in games.plugins()
    assert "dice" in games.names()
    assert "dice" not in games.BUILT_IN
    assert games.BUILT_IN == ("clans", "hunters", "iwari")
    game = games.get("dice")
    assert type(game).__module__ == "tribes_dice"
    assert games.get("dice") is game


@pytest.mark.usefixtures("plugins")
def test_plugins_are_listed_beside_the_built_in_games() -> None:
    assert games.names() == ["clans", "hunters", "iwari", "misnamed", "notagame", "nothing"]
    assert games.get("clans") is games.get_for_log("clans")  # the built-in one


@pytest.mark.usefixtures("plugins")
@pytest.mark.parametrize(
    ("name", "said"),
    [
        (
            "nothing",
            (
                "game plugin 'nothing' (tribes_no_such_module:GAME) cannot be loaded: "
                "ModuleNotFoundError: No module named 'tribes_no_such_module'"
            ),
        ),
        (
            "notagame",
            (
                "game plugin 'notagame' (tribes.core.game:Facts) is no Game: it has no apply, "
                "bots, check (and 29 more)"
            ),
        ),
        (
            "misnamed",
            (
                "game plugin 'misnamed' (tribes.games.iwari:GAME) is a game called 'iwari', "
                "not 'misnamed'"
            ),
        ),
    ],
)
def test_a_broken_plugin_is_one_line(name: str, said: str) -> None:
    with pytest.raises(UsageError) as refused:
        games.get(name)
    assert str(refused.value) == said


@pytest.mark.usefixtures("plugins")
def test_commands_over_every_game_leave_a_broken_plugin_out(cli: Cli) -> None:
    assert [g.name for g in games.loadable()] == ["clans", "hunters", "iwari"]
    assert cli.ok("rules", "C3").startswith("Clans — ")


@pytest.mark.usefixtures("plugins")
def test_a_broken_plugin_through_the_cli_is_one_line(cli: Cli) -> None:
    line = cli.fails("new", "nothing", "--names", "ann,bob", "-o", cli.path("x.tribes"), code=2)
    assert line == (
        "tribes: game plugin 'nothing' (tribes_no_such_module:GAME) cannot be loaded: "
        "ModuleNotFoundError: No module named 'tribes_no_such_module'"
    )


def test_every_tool_takes_the_plugin_game(cli: Cli) -> None:
    log = cli.new("dice.tribes", game="dice", names="ann,bob")
    cli.ok("act", log, "roll")
    assert '"game": "dice"' in cli.ok("show", log, "--json", "--as", "ann")
    assert "rolls a" in cli.ok("log", log, "--as", "spectator")
    cli.ok("html", log, "-o", cli.path("dice.html"))
    assert cli.ok("verify", log).startswith("ok ")
    assert "D3." in cli.ok("rules", "D3")
    assert "games/s" in cli.ok("simulate", "dice", "--games", "3")
