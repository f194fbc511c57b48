"""Fixtures every test folder shares; the helpers behind them are :mod:`tribes.testing`'s.

For the property tests (hypothesis), wherever their feature's folder is:

- the ``tribes-properties`` settings profile: modest example counts, no deadline, no example
  database (nothing written outside the tests), derandomized so a run is reproducible;
- ``helpers.play``: a legal Clans game from a seed, a seat count and a list of move picks
  (:meth:`tribes.testing.Harness.random_game`), its log with checkpoints;
- ``helpers.mutate``: byte-level damage to a log file (flip, delete, insert, truncate);
- ``scratch``: a folder for the files hypothesis examples write.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, Phase, settings

from tribes.core.engine import Step, steps
from tribes.events.logfile import GameLog
from tribes.replay import logs
from tribes.testing import Harness, Played
from tribes.testing.cli import Cli

SLOWEST_FIRST = (
    "tests/logs/test_rule_changes_doc.py::test_the_walk_through_runs_as_written",
    "tests/parallel/test_no_orphans.py::test_killing_the_main_process_ends_its_workers",
    "tests/games/test_property_positions.py::test_the_position_of_any_state_gives_the_state_back",
    "tests/test_readme.py::test_the_command_line_tour_runs_line_by_line",
    "tests/logs/test_property_random_games.py::test_apply_never_mutates_its_input",
    "tests/pictures/test_pictures_zoom.py::test_an_svg_file_opened_directly_is_screenshot_whole_at_once",
    "tests/forensics/test_docs.py::test_the_walkthrough_runs_step_by_step",
    "tests/logs/test_property_random_games.py::test_every_state_round_trips_through_the_codec",
    "tests/corpus/test_corpus_format.py::test_clans_games_take_under_8_bytes_an_event",
    "tests/test_readme.py::test_the_quick_start_runs_line_by_line",
    "tests/cli/test_cli_annotations.py::test_a_concurrent_act_and_note_lose_nothing",
    "tests/logs/test_property_random_games.py::test_games_played_to_the_end_are_over",
    "tests/replay/test_replay_plugin.py::test_failure_text_honours_the_colour_flags",
    "tests/conformance/test_kit_bites.py::test_the_unchanged_games_pass",
    "tests/test_readme.py::test_writing_a_game_runs_line_by_line",
    "tests/forensics/test_plugin_baseline.py::test_record_pass_and_fail_when_a_rule_changes",
    "tests/corpus/test_corpus_writers.py::test_a_writer_killed_at_any_moment_leaves_every_commit_and_at_most_a_tail",
    "tests/cli/test_cli_contract_processes.py::test_export_and_import_in_processes",
    "tests/corpus/test_corpus_damage.py::test_a_flipped_bit_anywhere_is_found",
    "tests/pictures/test_pictures_hunters_overlaps.py::test_nothing_on_a_tile_covers_anything_else_there_at_any_step",
    "tests/corpus/test_corpus_damage.py::test_a_cut_at_every_offset_keeps_every_committed_game",
    "tests/replay/test_replay_plugin.py::test_record_then_pass_then_fail_when_the_log_changes",
    "tests/games/hunters/test_hunters_engine_internals.py::test_engine_the_quick_check_accepts_exactly_what_the_detailed_one_does",
    "tests/forensics/test_docs.py::test_the_demo_commands_run",
)
"""The longest tests (each several seconds, a real process or a browser among them), longest
first: ``make test`` runs them before all others, so that no worker is left with one of them at
the end while the other has nothing to do. Order only: a name missing here changes nothing."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of :data:`SLOWEST_FIRST` first, in its order (each with all its parameters);
    the others after them, as collected (every worker sorts alike, as pytest-xdist needs)."""
    rank = {name: place for place, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("[")[0], len(rank)))


@pytest.fixture(autouse=True)
def _a_state_folder_of_its_own(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``act --as`` remembers the logs it writes (``replay/mail.py``): each test in a folder of
    its own, never the user's; and no ``TRIBES_SEAT`` of the shell that runs the tests."""
    monkeypatch.setenv("TRIBES_STATE", str(tmp_path_factory.mktemp("state")))
    monkeypatch.delenv("TRIBES_SEAT", raising=False)


@pytest.fixture(autouse=True)
def _pytest_inside_prints_as_on_a_desk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Some tests run pytest on a user's project and compare what it prints with the docs. On a
    CI machine (``CI`` or ``BUILD_NUMBER`` set) pytest prints each failure's whole message in its
    short summary instead of a line cut to the terminal's width, so the inner runs see the
    machine of a user at a desk, whichever machine runs the suite."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("BUILD_NUMBER", raising=False)


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    """``tribes`` in-process, in a scratch folder, its contract checked on every call."""
    return Cli(tmp_path)


# --- the property tests -------------------------------------------------------------------------

settings.register_profile(
    "tribes-properties",
    max_examples=100,
    deadline=None,
    database=None,
    derandomize=True,
    report_multiple_bugs=False,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

CLANS = Harness("clans")
GAME = CLANS.game


def play(seed: int, seats: int, picks: Sequence[int]) -> Played:
    """Play ``GAME`` from ``seed``: at each turn the move ``moves[pick % len(moves)]`` of the
    legal moves, until the game is over or the picks run out; the log has its checkpoints."""
    played = CLANS.random_game(seed, [f"p{i + 1}" for i in range(seats)], picks)
    log = attrs.evolve(played.log, checkpoints=logs.checkpoints(GAME, played.log, (), played.steps))
    return Played(log, played.steps)


def replayed(log: GameLog) -> list[Step]:
    return list(steps(GAME, log.header, log.events))


def mutate(data: bytes, ops: Sequence[tuple[str, int, int, bytes]]) -> bytes:
    """Apply byte-level damage: each op is (kind, position, size or bit, inserted bytes)."""
    out = bytearray(data)
    for kind, pos, n, extra in ops:
        at = pos % (len(out) + 1)
        if kind == "flip" and out:
            out[at % len(out)] ^= 1 << (n % 8)
        elif kind == "delete":
            del out[at : at + 1 + n % 16]
        elif kind == "insert":
            out[at:at] = extra
        elif kind == "truncate":
            del out[at:]
        elif kind == "set" and out:
            out[at % len(out)] = n % 256
    return bytes(out)


class Helpers:
    game = GAME
    play = staticmethod(play)
    replayed = staticmethod(replayed)
    mutate = staticmethod(mutate)


@pytest.fixture(scope="session")
def helpers() -> type[Helpers]:
    return Helpers


@pytest.fixture(scope="session")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A folder for files that hypothesis examples write (session-scoped, so hypothesis may
    reuse it across examples)."""
    return tmp_path_factory.mktemp("properties")
