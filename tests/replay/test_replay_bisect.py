"""Spec 4: ``tribes bisect LOG --until EXPR`` and its small, safe query language over the
``show --json`` document (never Python's eval)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tribes.core.errors import TribesError, UsageError
from tribes.core.game import EVERYTHING
from tribes.replay import questions
from tribes.replay.cursor import Cursor
from tribes.replay.query import parse

DEMO_EVENTS = 36
DEMO_PENDING = 35
DEMO_EPOCH_3 = 25

DOC: dict[str, Any] = {
    "game": "clans",
    "events": 7,
    "over": False,
    "to_move": "ann",
    "pending": None,
    "scores": {"ann": 6, "bob": None},
    "winners": [],
    "track": {"red": 12, "blue": 18, "green": 0},
    "chips": {"ann": 1, "bob": 2},
    "chips_left": 9,
    "epoch": 2,
    "villages": [
        {"territory": 37, "number": 1, "huts": 3, "value": 4, "colours": {"red": 2, "blue": 1}},
        {"territory": 21, "number": 2, "huts": 1, "value": None, "colours": {"blue": 1}},
    ],
    "huts": {"37": {"red": 2, "blue": 1}, "5": {"green": 1}},
    "clans": {"ann": "red"},
}
FIELDS = set(DOC)


def value(text: str, doc: dict[str, Any] | None = None) -> Any:
    return parse(text, FIELDS)(DOC if doc is None else doc)


def holds(text: str) -> bool:
    return parse(text, FIELDS).holds(DOC)


# --- the language --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 + 2", 3),
        ("5 - 2 - 1", 2),  # from the left
        ("-3 + 1", -2),
        ("- -4", 4),
        ("1.5 + 1", 2.5),
        ("track.red + track.blue", 30),
        ("track.blue - track.red", 6),
        ("chips.ann + chips.bob", 3),
        ("(1 + 2) - (3 - 1)", 1),
        ("len(villages)", 2),
        ("len(track)", 3),
        ("len(huts)", 2),
        ("len(to_move)", 3),
        ("len(winners)", 0),
        ("sum(track)", 30),
        ("max(track)", 18),
        ("min(track)", 0),
        ("max(chips) + min(chips)", 3),
        ("count(track)", 2),  # the entries that are not zero
        ("count(chips)", 2),
        ("count(winners)", 0),
        ("sum(villages[0].colours)", 3),
        ("max(winners)", None),
        ("villages[0].territory", 37),
        ("villages[1].territory", 21),
        ("villages[-1].territory", 21),
        ("villages.0.territory", 37),
        ("villages[len(villages) - 1].number", 2),
        ('track["red"]', 12),
        ("track['blue']", 18),
        ("huts.37.red", 2),
        ('huts["37"].blue', 1),
        ("villages[0].colours.red", 2),
        ("to_move", "ann"),
        ('"ann"', "ann"),
        ("'bob'", "bob"),
        ("null", None),
        ("true", True),
        ("false", False),
        ("pending", None),
        ("villages[5].territory", None),  # a path not in the document is null
        ("track.purple", None),
        ("scores.bob", None),
        ("villages[0].nothing.deeper", None),
        ("epoch.field", None),
    ],
)
def test_values(text: str, expected: Any) -> None:
    assert value(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("epoch == 2", True),
        ("epoch != 2", False),
        ("epoch < 3", True),
        ("epoch <= 2", True),
        ("epoch > 2", False),
        ("epoch >= 3", False),
        ("track.red > 10", True),
        ("track.blue - track.red == 6", True),
        ("len(villages) >= 2", True),
        ("len(villages) >= 12", False),
        ("pending == null", True),
        ("pending != null", False),
        ("over == false", True),
        ("over", False),
        ("not over", True),
        ("not not over", False),
        ("over or epoch == 2", True),
        ("over and epoch == 2", False),
        ("epoch == 2 and track.red == 12", True),
        ("not over and epoch == 3", False),  # (not over) and ...
        ("over or epoch == 2 and track.red > 100", False),  # and binds tighter than or
        ("(over or epoch == 2) and track.red > 10", True),
        ("not (epoch == 2)", False),
        ('to_move == "ann"', True),
        ("to_move == 'bob'", False),
        ('to_move != "bob"', True),
        ('"ann" < "bob"', True),
        ('"red" in clans', True),  # a value of an object
        ('"ann" in clans', True),  # a key of an object
        ('"bob" in clans', False),
        ('"37" in huts', True),
        ('"nn" in to_move', True),  # part of a text
        ('"ann" in winners', False),  # an item of a list
        ("true", True),
        ("false", False),
        ("null", False),
        ("epoch", True),
        ("track.green", False),
        ("scores.bob == null", True),
        ("scores.bob > 3", False),  # null compares as nothing
        ('epoch < "3"', False),  # nor does a number with a text
        ("track.purple + 1 > 0", False),  # null arithmetic is null
        ("villages[0].value > villages[0].huts", True),
    ],
)
def test_truth(text: str, expected: bool) -> None:
    assert holds(text) is expected


def test_in_with_a_list_of_records() -> None:
    doc = {**DOC, "winners": ["ann", "cy"]}
    assert parse('"cy" in winners', FIELDS).holds(doc)
    assert not parse('"bob" in winners', FIELDS).holds(doc)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "epoch ==",
        "== 2",
        "epoch = 2",
        "epoch === 2",
        "(epoch == 2",
        "epoch == 2)",
        "len villages",
        "len(villages",
        "1 +",
        "track.",
        "track.[1]",
        "villages[0",
        "over and",
        "or over",
        "not",
        "epoch 2",
        '"unterminated',
        "epoch == 2 &&",
        "epoch ; over",
        "typo_field > 1",  # an unknown top-level field is an error
        "x" * 600,  # too long
    ],
)
def test_bad_expressions_are_usage_errors(text: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse(text, FIELDS)(DOC)
    message = str(caught.value)
    assert "\n" not in message and message


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('touch CANARY')",
        '__import__("os").system("touch CANARY")',
        "().__class__",
        "().__class__.__bases__[0].__subclasses__()",
        "lambda: 1",
        "(lambda x: x)(1)",
        "open('CANARY', 'w')",
        "exec('1')",
        "eval('1')",
        "[c for c in ()]",
        "{}",
        "over.__class__()",
        "len(villages).__class__",
        "os.system('touch CANARY')",
        "globals()",
        "track.red * 2",
        "epoch ** 2",
        "epoch if over else 1",
        "f'{epoch}'",
        "epoch; import os",
        "`epoch`",
        "@over",
    ],
)
def test_code_is_refused(text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for fields in (FIELDS, None):
        with pytest.raises(UsageError):
            parse(text, fields)(DOC)
    assert not (tmp_path / "CANARY").exists()


@pytest.mark.parametrize(
    "text",
    [
        "__class__",
        "villages.__len__",
        "over.__class__",
        "track.__dict__",
        "villages[0].__class__.__name__",
    ],
)
def test_dunder_paths_read_nothing(text: str) -> None:
    # without the fields check a dunder name is just a path that is not in the document
    assert parse(text, None)(DOC) is None
    with pytest.raises(UsageError):
        parse("__class__", FIELDS)


def test_the_query_only_reads_the_document() -> None:
    doc = {"track": {"red": 1}, "villages": [{"territory": 3}], "over": False}
    before = repr(doc)
    for text in (
        "track.red + 1 > 0",
        "len(villages) == 1",
        '"red" in track',
        "villages[0].territory",
    ):
        parse(text, set(doc))(doc)
    assert repr(doc) == before


FUZZ_ALPHABET = "abcdeilnorstuvx_0123456789.[]()\"' +-<>=!,:*/{}@#;\\"


def test_any_text_parses_or_is_a_usage_error() -> None:
    """A seeded loop over random texts: a value, or a one-line UsageError; nothing else."""
    rng = random.Random(20240601)
    words = ["epoch", "track", "red", "len", "not", "and", "or", "in", "null", "true", "villages"]
    for _ in range(3000):
        parts = [
            rng.choice(FUZZ_ALPHABET) if rng.random() < 0.7 else rng.choice(words)
            for _ in range(rng.randint(0, 25))
        ]
        text = "".join(parts)
        try:
            query = parse(text, FIELDS)
        except UsageError as exc:
            assert "\n" not in str(exc)
            continue
        query(DOC)
        query.holds(DOC)


def random_expression(rng: random.Random, depth: int = 0) -> str:
    leaves = [
        "epoch",
        "track.red",
        "len(villages)",
        "1",
        '"ann"',
        "null",
        "true",
        "over",
        "chips.ann",
        "villages[0].huts",
    ]
    if depth > 3 or rng.random() < 0.3:
        return rng.choice(leaves)
    kind = rng.randrange(4)
    if kind == 0:
        op = rng.choice([" + ", " - ", " == ", " != ", " < ", " >= ", " and ", " or ", " in "])
        # comparisons do not chain: bracket each binary form
        return f"({random_expression(rng, depth + 1)}{op}{random_expression(rng, depth + 1)})"
    if kind == 1:
        return f"(not {random_expression(rng, depth + 1)})"
    if kind == 2:
        # count() of a single value is test_count_of_a_single_value_is_not_a_crash's concern
        return f"{rng.choice(['len', 'sum', 'max', 'min'])}({random_expression(rng, depth + 1)})"
    return f"-{random_expression(rng, depth + 1)}"


def test_well_formed_expressions_evaluate() -> None:
    rng = random.Random(7)
    for _ in range(1000):
        text = random_expression(rng)
        if len(text) <= 500:
            assert parse(text, FIELDS).holds(DOC) in (True, False), text


# --- bisect: library and command -----------------------------------------------------------------


def test_bisect_library(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    assert questions.bisect(replay, "over") == DEMO_EVENTS
    assert questions.bisect(replay, "len(villages) >= 12") == DEMO_EVENTS
    assert questions.bisect(replay, "pending != null") == DEMO_PENDING
    assert questions.bisect(replay, "epoch == 3") == DEMO_EPOCH_3
    assert questions.bisect(replay, "epoch >= 1") == 0  # holds at the start
    assert questions.bisect(replay, "track.red > 300") is None
    for n in (1, 17, DEMO_EVENTS):
        assert questions.bisect(replay, f"events >= {n}") == n


def test_bisect_finds_the_first_event_where_it_holds(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    for expression in (
        "len(villages) >= 5",
        "track.green > 10",
        "chips.cy >= 2",
        '"ann" in winners',
        "chips_left < 6",
    ):
        found = questions.bisect(replay, expression)
        assert found is not None, expression
        query = parse(expression, set(replay.document(EVERYTHING, 0)))
        assert query.holds(replay.document(EVERYTHING, found))
        assert not any(query.holds(replay.document(EVERYTHING, n)) for n in range(found))


@pytest.mark.parametrize(
    ("expression", "index"),
    [
        ("over", DEMO_EVENTS),
        ("len(villages) >= 12", DEMO_EVENTS),
        ("pending != null", DEMO_PENDING),
        ("epoch == 3", DEMO_EPOCH_3),
        ("chips.ann + chips.bob >= 5 and not over", None),
    ],
)
def test_bisect_command(cli: Any, demo_log: Path, expression: str, index: int | None) -> None:
    replay = Cursor.open(demo_log)
    if index is None:
        index = questions.bisect(replay, expression)
        assert index is not None
    out = cli.ok("bisect", demo_log, "--until", expression)
    assert out.strip() == replay.describe(index)


def test_bisect_when_it_holds_at_the_start(cli: Any, demo_log: Path) -> None:
    out = cli.ok("bisect", demo_log, "--until", "epoch == 1")
    assert out == "event 0\n"  # the start itself: the first point where it holds
    assert questions.bisect(Cursor.open(demo_log), "epoch == 1") == 0


def test_bisect_when_it_never_holds_exits_1(cli: Any, demo_log: Path) -> None:
    result = cli.run("bisect", demo_log, "--until", "track.red > 30")
    assert result.exit_code == 1
    assert "never" in (result.stdout + result.stderr)
    assert len((result.stdout + result.stderr).strip().splitlines()) == 1


@pytest.mark.parametrize(
    "expression",
    [
        "__import__('os').system('touch CANARY')",
        "().__class__",
        "lambda: 1",
        "(lambda: 1)()",
        "over and",
        "nofield > 1",
        "epoch = 3",
        "",
        "len(",
    ],
)
def test_bisect_a_bad_expression_is_one_line_exit_2(
    cli: Any, demo_log: Path, expression: str
) -> None:
    line = cli.fails("bisect", demo_log, "--until", expression, code=2)
    assert "expression" in line or "field" in line
    assert not (cli.root / "CANARY").exists()


def test_bisect_a_deeply_nested_expression_is_not_a_crash(cli: Any, demo_log: Path) -> None:
    """Under the 500-character limit, but nested 240 deep: the answer, or a one-line usage
    error, never an internal error."""
    expression = "(" * 240 + "over" + ")" * 240
    result = cli.run("bisect", demo_log, "--until", expression)
    assert result.exit_code in (0, 2), result.stderr


@pytest.mark.parametrize("expression", ["count(epoch) > 0", "count(over)", "count(chips.ann) == 0"])
def test_count_of_a_single_value_is_not_a_crash(cli: Any, demo_log: Path, expression: str) -> None:
    """len(epoch) is 0 and sum(epoch) is 0; count(epoch) must give an answer or a one-line
    error, not an internal error."""
    result = cli.run("bisect", demo_log, "--until", expression)
    assert result.exit_code in (0, 1, 2)


def test_arithmetic_without_spaces(demo_log: Path) -> None:
    """`a-b` is a subtraction, as `a - b` is (the grammar's sum := unary ("+"|"-") unary)."""
    replay = Cursor.open(demo_log)
    doc = replay.document(EVERYTHING, DEMO_EVENTS)
    fields = set(doc)
    spaced = parse("track.red - track.blue", fields)(doc)
    assert spaced == doc["track"]["red"] - doc["track"]["blue"]
    assert parse("track.red-track.blue", fields)(doc) == spaced
    assert parse("epoch-1", fields)(doc) == doc["epoch"] - 1


def test_bisect_usage_and_bad_logs(cli: Any, demo_log: Path, damage: Any) -> None:
    cli.usage("bisect", demo_log)  # no --until
    cli.usage("bisect", "--until", "over")
    folder = demo_log.parent
    for broken in (
        damage.flip(demo_log, 70),
        damage.garbage(folder),
        damage.empty(folder),
        damage.other_version(demo_log),
        damage.other_version_json(demo_log),
        damage.bad_checkpoint(demo_log),
        damage.illegal_event(demo_log, 6),
        folder / "missing.tribes",
    ):
        cli.fails("bisect", broken, "--until", "over")


def test_a_bad_expression_raises_a_tribes_error_in_the_library(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    with pytest.raises(TribesError):
        questions.bisect(replay, "epoch ==")
