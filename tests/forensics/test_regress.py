"""``tribes baseline`` and ``tribes regress``, from issue 17 §4: a rule changed in a test double
of Clans (never the real game) and the report naming exactly the first event whose state
differs, the outcomes before and after and the first event now illegal."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from baseline_mutants import without_words
from forensics_doubles import NextRulesVersion, SourceForbidden, ThirdVillageScoresMore

from tribes.core.game import Game
from tribes.games.clans.events import VillageFounded
from tribes.replay import corpus, logs
from tribes.replay import sweep as sweeping
from tribes.replay.baseline import Recorder
from tribes.replay.parallel import Where
from tribes.testing import cli as testing_cli
from tribes.testing.cli import Cli


def first_event(path: Path, holds: Callable[[tuple[object, ...]], bool]) -> tuple[int, str] | None:
    """The first event of a game whose effects ``holds`` (by the real rules), in notation."""
    opened = logs.open_log(path)
    for step in logs.steps_of(opened.game, opened.log)[1:]:
        if holds(step.effects):
            assert step.event is not None
            return step.index, opened.game.format_move(step.event)
    return None


def third_village(effects: tuple[object, ...]) -> bool:
    return any(isinstance(e, VillageFounded) and e.number == 3 and e.scored for e in effects)


def test_an_unchanged_corpus_regresses_to_nothing(cli: Cli, here: Path) -> None:
    said = cli.ok("baseline", here / "runs.corpus", here / "demo.tribes", "-o", "b.baseline")
    assert said.startswith("b.baseline: 41 games, ")
    out = cli.ok("regress", here / "runs.corpus", here / "demo.tribes", "--baseline", "b.baseline")
    assert out.strip() == "0 of 41 games changed"


def test_a_path_with_control_characters_is_read_back(cli: Cli, here: Path) -> None:
    """A game's path is its name in the baseline, whatever characters it holds."""
    odd = here / "odd\x1b[31m\u202e.tribes"
    odd.write_bytes((here / "demo.tribes").read_bytes())
    said = cli.ok("baseline", odd, "-o", "b.baseline")
    assert said.startswith("b.baseline: 1 game")
    out = cli.ok("regress", odd, "--baseline", "b.baseline")
    assert out.strip() == "0 of 1 game changed"


def test_a_changed_rule_names_the_first_differing_event_of_each_game(
    cli: Cli, here: Path, replace_game: Callable[[Game], None]
) -> None:
    cli.ok("baseline", here / "runs.corpus", "-o", "b.baseline")
    expected = {}
    with corpus.Corpus(here / "runs.corpus") as read:
        count = len(read)
    for k in range(1, count + 1):
        where = first_event(Path(f"{here / 'runs.corpus'}#{k}"), third_village)
        if where is not None:
            expected[f"{here / 'runs.corpus'}#{k}"] = where
    assert expected
    replace_game(ThirdVillageScoresMore())
    result = cli.run("regress", here / "runs.corpus", "--baseline", "b.baseline")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    changed = {line.split()[1].rstrip(":"): line for line in lines if line.startswith("CHANGED")}
    assert set(changed) == set(expected)
    for name, (event, move) in expected.items():
        # the track moved, not the words: the event's effects are the same, its state is not
        assert (
            f"first difference at event {event} ({move}): the same effects (village 3 at "
            in (changed[name])
        )
        assert "outcome before: " in changed[name] and ", now: " in changed[name]
    firsts = sorted({e for e, _ in expected.values()})
    summary = lines[len(changed) :]
    assert summary[0].startswith(
        f"{len(expected)} of {count} games changed; first differences at events "
    )
    assert summary[0].endswith(
        ", ".join(map(str, firsts[:10])) + (", …" if len(firsts) > 10 else "")
    )
    assert summary[1].startswith("winners changed in ") and "; 0 games now illegal" in summary[1]


def test_the_json_report_gives_outcomes_before_and_now(
    cli: Cli, here: Path, replace_game: Callable[[Game], None]
) -> None:
    cli.ok("baseline", here / "demo.tribes", "-o", "b.baseline")
    event, move = first_event(here / "demo.tribes", third_village) or (0, "")
    replace_game(ThirdVillageScoresMore())
    result = cli.run("regress", here / "demo.tribes", "--baseline", "b.baseline", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    (game,) = report["games"]
    assert game["status"] == "changed" and (game["first_difference"], game["move"]) == (event, move)
    assert game["before"]["over"] and game["now"]["over"]
    moved = {
        s: game["now"]["scores"][s] - game["before"]["scores"][s] for s in game["now"]["scores"]
    }
    assert sorted(moved.values()) != [0, 0, 0]  # the extra points show in the final scores
    assert report["summary"]["changed"] == 1 and report["summary"]["firsts"] == [event]


def test_an_event_now_illegal_is_named_and_is_the_first_difference(
    cli: Cli, here: Path, replace_game: Callable[[Game], None]
) -> None:
    log = here / "demo.tribes"
    cli.ok("baseline", log, "-o", "b.baseline")
    opened = logs.open_log(log)
    tenth = opened.log.events[9]
    replace_game(SourceForbidden(tenth.source))
    first = next(
        i
        for i, e in enumerate(opened.log.events, start=1)
        if getattr(e, "source", None) == tenth.source
    )
    move = opened.game.format_move(opened.log.events[first - 1])
    result = cli.run("regress", log, "--baseline", "b.baseline")
    assert result.exit_code == 1
    line = result.stdout.splitlines()[0]
    assert line.startswith(f"CHANGED  {log}: first difference at event {first} ({move}): ")
    assert f" → illegal: huts never leave territory {tenth.source} here (C8); outcome" in line
    assert (
        f"event {first} ({move}) is now illegal: huts never leave territory {tenth.source} here (C8)"
        in line
    )
    assert "now: none (the replay stops at an illegal event)" in line
    summary = result.stdout.splitlines()[1:]
    assert summary[0].startswith("1 of 1 game changed; first difference at event ")
    assert summary[1] == "winners changed in 0 games; 1 game now illegal (C8: 1)"
    assert summary[2].startswith("length: 1 game shorter, 0 games longer; largest -")


def test_another_rules_version_is_said_for_every_game(
    cli: Cli, here: Path, replace_game: Callable[[Game], None]
) -> None:
    cli.ok("baseline", here / "demo.tribes", "-o", "b.baseline")
    replace_game(NextRulesVersion())
    out = cli.ok("regress", here / "demo.tribes", "--baseline", "b.baseline")
    first = out.splitlines()[0]
    assert first.startswith(f"ok       {here / 'demo.tribes'}: unchanged; ")
    assert first.endswith(
        "; its header and the baseline name clans rules version 1, this tribes plays version 2"
    )


def test_games_outside_the_baseline_and_missing_from_the_inputs(cli: Cli, here: Path) -> None:
    cli.ok("baseline", here / "demo.tribes", "-o", "b.baseline")
    result = cli.run("regress", f"{here / 'runs.corpus'}#2", "--baseline", "b.baseline")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"NEW      {here / 'runs.corpus'}#2: not in the baseline",
        "1 of 1 game changed; 1 not in the baseline; 1 games of the baseline were not given",
    ]


def test_the_same_records_on_two_processes(here: Path) -> None:
    inputs = [here / "runs.corpus", here / "demo.tribes"]
    alone = list(sweeping.sweep(inputs, Recorder(), Where(1)))
    shared = list(sweeping.sweep(inputs, Recorder(), Where(2)))
    assert alone == shared and len(alone) == 41


def test_a_baseline_is_within_twice_the_size_of_one_without_words(cli: Cli, here: Path) -> None:
    report = cli.json("baseline", here / "runs.corpus", "-o", "b.baseline", "--json")
    data = (here / "b.baseline").read_bytes()
    assert report["games"] == 40 and report["bytes"] == len(data)
    assert len(data) <= 2 * len(without_words(data))  # the words cost less than the digests


def test_baseline_refuses_to_replace_a_file(cli: Cli, here: Path) -> None:
    cli.ok("baseline", here / "demo.tribes", "-o", "b.baseline")
    before = (here / "b.baseline").read_bytes()
    line = cli.fails("baseline", here / "demo.tribes", "-o", "b.baseline", code=2)
    assert "exists" in line and "--force" in line
    assert (here / "b.baseline").read_bytes() == before
    cli.ok("baseline", here / "demo.tribes", "-o", "b.baseline", "--force")


def damaged(data: bytes) -> dict[str, bytes]:
    """Ways a baseline file is broken, and its bytes."""
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x20
    return {
        "empty": b"",
        "cut": data[: len(data) // 2],
        "cut by one byte": data[:-1],
        "flipped": bytes(flipped),
        "another file": b'{"format": "tribes-log"}',
        "a log": b"\x93\x01\x02\x03" * 8,
        "bytes after": data + b"\x00",
    }


@pytest.mark.parametrize("how", sorted(damaged(b"x" * 40)))
def test_a_damaged_baseline_is_refused_in_one_line(cli: Cli, here: Path, how: str) -> None:
    cli.ok("baseline", here / "demo.tribes", "-o", "b.baseline")
    (here / "bad.baseline").write_bytes(damaged((here / "b.baseline").read_bytes())[how])
    line = cli.fails("regress", here / "demo.tribes", "--baseline", here / "bad.baseline")
    assert line.startswith(f"tribes: baseline {here / 'bad.baseline'}: ")


def test_a_baseline_of_another_version_says_so(cli: Cli, here: Path) -> None:
    import msgpack

    head = msgpack.packb({"format": "tribes-baseline", "version": 9, "width": 2})
    (here / "v9.baseline").write_bytes(head + b"\x00" * 16)
    line = cli.fails("regress", here / "demo.tribes", "--baseline", here / "v9.baseline")
    assert "version 9 of the format; this tribes reads versions 1, 2, 3" in line


def test_bad_input_is_one_line(cli: Cli, here: Path) -> None:
    assert "no such file" in cli.fails(
        "regress", here / "demo.tribes", "--baseline", "none", code=2
    )
    cli.ok("baseline", here / "demo.tribes", "-o", "b.baseline")
    line = cli.fails("regress", here / "missing.tribes", "--baseline", "b.baseline")
    assert line == f"tribes: {here / 'missing.tribes'}: no such file"
    line = cli.fails("baseline", here / "missing.tribes", "-o", "c.baseline")
    assert line == f"tribes: {here / 'missing.tribes'}: no such file"


def test_on_a_terminal_the_baseline_check_and_the_games_show_progress(cli: Cli, here: Path) -> None:
    """A baseline of a million games takes a minute to check before the first game replays:
    on a terminal a bar of its bytes shows, then one of the games; off one, nothing."""
    cli.ok("baseline", "runs.corpus", "-o", "b.baseline")
    code, out, said = testing_cli.on_a_terminal(
        "regress", "runs.corpus", "--baseline", "b.baseline", cwd=here
    )
    assert code == 0 and out.startswith("0 of 40 games changed"), out
    assert b"checking the baseline" in said and b"100%" in said
    assert said.index(b"checking the baseline") < said.index(b"regress")
    quiet = cli.run("regress", "runs.corpus", "--baseline", "b.baseline")
    assert quiet.exit_code == 0 and quiet.stderr == ""
