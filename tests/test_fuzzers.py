"""The fuzzers of issue 31 (``bench/query_fuzz.py``, ``bench/positions_fuzz.py``, which run
10,000 inputs and more), a few hundred inputs each: no crash, no hang, no silent accept; and
what they found, each pinned."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tribes.testing.cli import Cli

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))

import positions_fuzz
import query_fuzz


def test_generated_and_mutated_expressions_of_every_game() -> None:
    results, bad = query_fuzz.run(400, seed=7, every=50)
    assert bad == []
    assert {verdict for _, _, verdict in results} >= {"refused", "ran"}


def test_mutated_positions_of_every_game() -> None:
    results, bad = positions_fuzz.run(240, seed=7, every=0)
    assert bad == []
    assert {verdict for _, _, verdict in results} >= {"refused", "accepted"}


@pytest.mark.parametrize("space", ["\u00a0", "\u2028", "\u3000"])
def test_an_expression_is_spaced_with_ascii_white_space_only(cli: Cli, space: str) -> None:
    """Found by query_fuzz: a no-break space was read as a space."""
    cli.ok("simulate", "clans", "--games", 1, "--save", "runs.corpus")
    line = cli.fails("find", "runs.corpus", "--where", f"over{space}and over", code=2)
    assert "unexpected character" in line
    assert cli.ok("find", "runs.corpus", "--where", "over \t and\nover")


def test_the_positions_fuzzer_reads_two_spellings_of_a_number_as_one() -> None:
    assert positions_fuzz.normal({"012": [3, 1], "x": [{"7": 1}]}) == {
        "12": [1, 3],
        "x": [{"7": 1}],
    }
