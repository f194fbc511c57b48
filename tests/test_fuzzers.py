"""The fuzzers of issue 31 (``bench/query_fuzz.py``, ``bench/positions_fuzz.py``,
``bench/baseline_fuzz.py``, which run 10,000 inputs and more), a few hundred inputs each: no crash, no hang, no silent accept; and
what they found, each pinned."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tribes.testing.cli import Cli

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))

import baseline_fuzz
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


def test_mutated_baselines_against_regress() -> None:
    """Every kind of mutant a few times (bytes, every field of a record, words, order, the end):
    each refused in one line, shown as changes, or passed only when it says nothing else."""
    results, bad = baseline_fuzz.run(3 * len(baseline_fuzz.mutants.KINDS), seed=7)
    assert bad == []
    outcomes = {outcome for _, outcome in results}
    assert "refused" in outcomes and outcomes & {"changes shown", "passed with a note"}
    assert {kind for kind, _ in results} == set(baseline_fuzz.mutants.KINDS)


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


@pytest.mark.parametrize(
    "edit",
    [
        lambda doc: doc["tents"]["p1"].append(True),
        lambda doc: doc["covered"].append(True),
        lambda doc: doc["totems"]["p1"].update({"9": True}),
    ],
    ids=["tent", "covered", "totem-count"],
)
def test_true_is_no_number_in_an_iwari_position(cli: Cli, edit: Any) -> None:
    """Found by positions_fuzz: ``true`` in a list of spaces was read as space 1."""
    cli.ok("simulate", "iwari", "--games", 1, "--seed", 3, "--save", "iw.corpus")
    cli.ok("position", "iw.corpus#1", "--at", 30, "-o", "iw.json")
    doc = json.loads(cli.path("iw.json").read_text())
    edit(doc)
    cli.path("bad.json").write_text(json.dumps(doc))
    line = cli.fails("new", "iwari", "--position", "bad.json", "-o", "x.tribes")
    assert "True" in line or "true" in line or "connection numbers" in line
    assert not cli.path("x.tribes").exists()
