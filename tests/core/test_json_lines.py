"""``log --json --states`` built cheaply (issue 31 §4): the records of a stream written by
``JsonLines`` (``tribes.events.jsonlines``), which takes again the text of what a record shares
with the one before, are the very text ``codec.to_json`` writes of each; Hunters' documents,
whose rows of tiles, pieces and features are kept by the identity of what they show, equal
those made afresh."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tribes import games
from tribes.core import engine, views
from tribes.events import codec, jsonlines
from tribes.events.jsonlines import JsonLines
from tribes.games.hunters import views as hunters_views
from tribes.replay import records, simulate


def steps_of(name: str, seed: int) -> tuple[Any, Any, list[Any]]:
    game = games.get(name)
    log = simulate.play_game(game, seed, game.facts.min_seats + seed % 2).log
    return game, log.header, list(engine.steps(game, log.header, log.events))


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("viewer", ["all", None, 0])
def test_a_stream_of_records_is_written_as_to_json_writes_each(name: str, viewer: Any) -> None:
    game, header, steps = steps_of(name, 2)
    line = JsonLines()
    for record in records.step_records(game, header, steps, viewer, states=True):
        assert line(record) == codec.to_json(record, indent=None)


def test_shared_parts_keys_of_every_kind_and_odd_text_are_written_as_to_json_writes_them() -> None:
    shared = {"b": [1, 2], "a": {"z": 1, "y": None}}
    other = {"tiles": [[0, 1]], "note": "\u202e turned"}
    documents = [
        {"rows": [shared, other], "by_number": {10: "ten", 9: "nine"}, "t": (1, 2)},
        {"rows": [dict(other), shared], "mixed": [{"k": {2: [shared]}}], "n": None},
        {"rows": [shared], "deep": {"a": {"b": {"c": [shared, {1: 2}]}}}},
        {"rows": [], "text": "\x9b\n"},
    ]
    line = JsonLines()
    for document in documents:
        assert line(document) == codec.to_json(document, indent=None)


def test_a_text_that_holds_the_mark_of_a_list_of_rows_is_written_as_to_json_writes_it() -> None:
    """A list of rows is swapped for a mark while json writes the rest; a note that holds the
    mark (it cannot guess it: the mark's number is random) leaves the document written part
    by part, the same text."""
    line = JsonLines()
    rows = [{"x": 1}, {"x": 2}]
    first = {"rows": rows, "note": None}
    assert line(first) == codec.to_json(first, indent=None)
    for note in (line._mark + "0", f'"{line._mark}0"', line._written_mark, "\x00"):
        document = {"rows": rows, "state": {"rows": [*rows, {"x": 3}]}, "note": note}
        assert line(document) == codec.to_json(document, indent=None)


def test_a_row_left_out_of_a_document_is_found_again_in_the_next() -> None:
    """A row kept by a document, left out of the next and back in the one after (a piece on
    the board, a list the document took again whole) is written once; the text stays
    to_json's."""
    line = JsonLines()
    piece, other = {"kind": "hunter", "x": 0}, {"kind": "hut", "x": 1}
    documents = [
        {"pieces": [piece], "tiles": [other]},
        {"pieces": [other], "tiles": [other]},
        {"pieces": [piece, other], "tiles": [other]},
    ]
    written = []
    original = jsonlines.dumps

    def dumps(value: Any) -> str:
        written.append(value)
        return original(value)

    jsonlines.dumps = dumps
    try:
        for document in documents:
            assert line(document) == codec.to_json(document, indent=None)
    finally:
        jsonlines.dumps = original
    assert written.count(piece) == 1


def test_hunters_documents_made_from_the_rows_kept_equal_those_made_afresh() -> None:
    game, header, steps = steps_of("hunters", 1)
    kept = [views.step_document(game, header, s.index, s.state, "all") for s in steps]
    assert hunters_views._ROWS
    shared = sum(
        1
        for before, after in itertools.pairwise(kept)
        for row in after["features"]
        if any(row is old for old in before["features"])
    )
    assert shared > len(kept)  # most features are the same rows from one step to the next
    fresh = []
    for step in steps:
        hunters_views._ROWS.clear()
        hunters_views._LISTS.clear()
        hunters_views._FEATURES.clear()
        fresh.append(views.step_document(game, header, step.index, step.state, "all"))
    assert kept == fresh


@pytest.mark.parametrize("name", games.names())
def test_the_legal_moves_in_notation_are_each_moves_format(name: str) -> None:
    """``MoveList.notation`` (Hunters: the text of a move listed before taken again) gives
    ``format_move`` of every legal move, in order, at every step of two games (the second
    with the memo holding the first's)."""
    for seed in (1, 2):
        game, _, steps = steps_of(name, seed)
        for step in steps:
            written = [game.format_move(m) for m in game.legal_moves(step.state)]
            assert views.legal_notation(game, step.state) == written
