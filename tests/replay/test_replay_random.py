"""All of the tooling on random simulated games (``simulate.play_game``), not only on fixtures:
a seeded loop over games of 2, 3 and 4 seats."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from tribes.core.game import EVERYTHING, SPECTATOR
from tribes.events import codec
from tribes.replay import logs, questions
from tribes.replay.cursor import Cursor
from tribes.replay.query import parse
from tribes.replay.stepper import Stepper

RAW = ("huts.", "villages.", "track.", "chips.", "scores.", "clans.", "pending.")


def hashes(replay: Cursor) -> list[str]:
    return [codec.state_hash(replay.at(n).state) for n in range(len(replay) + 1)]


def test_diffs_of_every_event_speak_the_games_language(random_logs: list[Path]) -> None:
    for path in random_logs:
        replay = Cursor.open(path)
        for n in range(1, len(replay) + 1):
            for change in questions.state_diff(replay, n - 1, n):
                assert change.text and not change.text.startswith(RAW), (path.name, n, change)
        for change in questions.state_diff(replay, 0, len(replay)):
            assert not change.text.startswith(RAW), (path.name, change)


def test_diffs_between_random_points(random_logs: list[Path]) -> None:
    rng = random.Random(11)
    for path in random_logs:
        replay = Cursor.open(path)
        pending = {n for n in range(len(replay) + 1) if replay.document(EVERYTHING, n)["pending"]}
        states = hashes(replay)
        for _ in range(25):
            a, b = rng.randint(0, len(replay)), rng.randint(0, len(replay))
            if a in pending and b in pending and a != b:
                continue  # two different pending decisions: test_diff_between_two_pending_decisions
            changes = questions.state_diff(replay, a, b)
            assert (changes == []) == (states[a] == states[b])
            for change in changes:
                assert not change.text.startswith(RAW), (path.name, a, b, change)


def test_forks_replay_to_the_original_states(cli: Any, random_logs: list[Path]) -> None:
    rng = random.Random(5)
    for path in random_logs:
        original = hashes(Cursor.open(path))
        at = rng.randint(1, len(original))  # 1 .. events + 1
        new = path.with_name(f"fork-{path.name}")
        cli.ok("fork", path, "--at", at, "-o", new)
        forked = Cursor.open(new)
        assert len(forked) == at - 1
        assert hashes(forked) == original[:at]
        assert forked.log.header.meta["parent"] == {
            "log": questions.log_digest(logs.open_log(path).log),
            "at": at,
        }
        doc = json.loads(cli.run("diff", path, new, "--json").stdout)  # exit 1: they differ
        assert doc["state"] is None
        assert doc["event"] == (at if at <= len(original) - 1 else None)


def test_bisect_finds_the_first_event_where_it_holds(random_logs: list[Path]) -> None:
    for path in random_logs:
        replay = Cursor.open(path)
        fields = set(replay.document(EVERYTHING, 0))
        assert questions.bisect(replay, "over") == len(replay)
        for expression in (
            "len(villages) >= 4",
            "epoch == 3",
            "pending != null",
            "max(track) > 15",
            "chips.p1 >= 2 or chips.p2 >= 2",
        ):
            query = parse(expression, fields)
            truth = [query.holds(replay.document(EVERYTHING, n)) for n in range(len(replay) + 1)]
            expected = truth.index(True) if True in truth else None
            assert questions.bisect(replay, expression) == expected, (path.name, expression)


def test_whatif_with_another_legal_move(cli: Any, random_logs: list[Path]) -> None:
    rng = random.Random(3)
    for path in random_logs:
        replay = Cursor.open(path)
        at = rng.randint(1, len(replay))
        state = replay.at(at - 1).state
        played = replay.log.events[at - 1]
        others = [m for m in replay.game.legal_moves(state) if m != played]
        if not others:
            continue
        move = replay.game.format_move(rng.choice(others))
        result = questions.whatif(replay, at, move)
        end = len(result.log.events)
        if result.illegal_at is None:
            assert end == len(replay)
        else:
            assert result.illegal_at == end + 1 and result.reason
        new = path.with_name(f"whatif-{path.name}")
        ran = cli.run("whatif", path, "--at", at, move, "-o", new)
        assert ran.exit_code == (0 if result.illegal_at is None else 3), ran.stdout
        assert cli.ok("verify", new).startswith("ok")
        doc = json.loads(cli.run("diff", path, new, "--json").stdout)  # exit 1: they differ
        assert doc["event"] == at  # the logs part where the move was replaced


def test_verify_and_damage(cli: Any, random_logs: list[Path], damage: Any) -> None:
    out = cli.ok("verify", *random_logs)
    assert out.splitlines()[-1] == f"{len(random_logs)} ok, 0 failed"
    rng = random.Random(9)
    for path in random_logs:
        size = len(path.read_bytes())
        broken = damage.flip(path, rng.randrange(size), name=f"flip-{path.name}")
        result = cli.run("verify", broken)
        assert result.exit_code == 1
        assert result.stdout.startswith("FAIL") or result.stderr.startswith("tribes: ")
        cut = damage.cut(path, rng.randrange(size), name=f"cut-{path.name}")
        assert cli.run("verify", cut).exit_code in (
            0,
            1,
        )  # cut at a record boundary is a shorter log
        for command in (
            ["diff", cut, "--at", 1],
            ["bisect", cut, "--until", "over"],
            ["fork", cut, "--at", 1, "-o", "x.tribes"],
        ):
            result = cli.run(*command)
            if result.exit_code and "never holds" not in result.stdout:
                assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("tribes: ")


def test_the_stepper_on_random_games(random_logs: list[Path]) -> None:
    for path in random_logs[::3]:
        model = Stepper(Cursor.open(path), name=path.name)
        seats = len(model.cursor.seats)
        for _ in range(seats + 2):
            model.cursor.first()
            while True:
                for width, height in ((80, 24), (60, 15)):
                    lines = model.screen(width, height)
                    assert len(lines) <= height
                    assert all(len(line) <= width for line in lines)
                    assert (
                        f"event {model.cursor.index}/{len(model.cursor)}" in lines[0] or width < 80
                    )
                if model.cursor.index == len(model.cursor):
                    break
                model.press("n")
            model.press("v")
        assert model.viewer == EVERYTHING  # round again
        model.press("v")
        assert model.viewer is SPECTATOR
