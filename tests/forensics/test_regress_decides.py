"""``tribes regress`` that decides (issue 27 §8) and baselines as untrusted input, read as a
stream (issue 31 §2-4): a rule changed through a test double (Clans' 12th-village bonus changed in
process by ``tribes.testing.rulechange``, never the game's code), the words of the first differing event before and now, the
summary (winners changed, games now illegal by rule, score shifts by seat, lengths), version 2
still read, hostile records refused in one line, and the baseline never held whole."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from baseline_mutants import records, seal, values, without_words

from tribes.games.clans.events import VillageFounded
from tribes.replay import baseline_file, corpus, logs
from tribes.replay import regress as regressing
from tribes.replay.parallel import Where
from tribes.testing import rulechange
from tribes.testing.cli import Cli


def twelfth_villages(path: Path) -> dict[str, tuple[int, VillageFounded, tuple[str, ...]]]:
    """Each game's scored 12th village (by the real rules): its event, effect and the seats."""
    out = {}
    with corpus.Corpus(path) as read:
        count = len(read)
    for k in range(1, count + 1):
        opened = logs.open_log(Path(f"{path}#{k}"))
        for step in logs.steps_of(opened.game, opened.log)[1:]:
            for effect in step.effects:
                if isinstance(effect, VillageFounded) and effect.number == 12 and effect.scored:
                    out[f"{path}#{k}"] = (step.index, effect, opened.log.header.seats)
    return out


def changed_lines(stdout: str) -> dict[str, str]:
    return {
        line.split()[1].rstrip(":"): line
        for line in stdout.splitlines()
        if line.startswith("CHANGED")
    }


def test_a_smaller_bonus_is_shown_in_the_games_words(
    cli: Cli, here: Path, changed_bonus: Callable[[int], None]
) -> None:
    runs = here / "runs.corpus"
    cli.ok("baseline", runs, "-o", "b.baseline")
    expected = twelfth_villages(runs)
    assert expected
    changed_bonus(rulechange.ORIGINAL_BONUS - 1)
    result = cli.run("regress", runs, "--baseline", "b.baseline")
    assert result.exit_code == 1
    changed = changed_lines(result.stdout)
    assert set(expected) <= set(changed)
    for name, (event, village, _) in expected.items():
        line = changed[name]
        assert f": first difference at event {event} (" in line
        # the village's words before and now, what they share said once
        scored = ", ".join(village.scored)  # the whole clause, not its last word alone
        assert f"village 12 at {village.territory} (epoch " in line
        assert f"): {scored} +{village.value} → {scored} +{village.value - 1}" in line
    summary = result.stdout.splitlines()[len(changed) :]
    assert summary[0].startswith(f"{len(changed)} of 40 games changed; first differences at ")
    assert summary[1].startswith("winners changed in ")
    seats = [line for line in summary if line.startswith("scores of clans seat ")]
    assert seats and all(", largest -1 (" in line for line in seats)


def test_the_json_report_carries_the_summary_and_the_words(
    cli: Cli, here: Path, changed_bonus: Callable[[int], None]
) -> None:
    runs = here / "runs.corpus"
    cli.ok("baseline", runs, "-o", "b.baseline")
    expected = twelfth_villages(runs)
    changed_bonus(30)  # the 12th village now decides
    result = cli.run("regress", runs, "--baseline", "b.baseline", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    games = {g["game"]: g for g in report["games"]}
    winners = [g for g in games.values() if g["before"]["winners"] != g["now"]["winners"]]
    summary = report["summary"]
    assert summary["winners_changed"] == len(winners) > 0
    assert summary["winners_changed"] == sum(g["winners_changed"] for g in games.values())
    assert summary["illegal"] == {"games": 0, "rules": {}}
    for name, (event, village, seats) in expected.items():
        difference = games[name]["difference"]
        assert difference["event"] == event == games[name]["first_difference"]
        assert village.describe(seats) in difference["before"]
        now = attrs.evolve(village, value=village.value - 5 + 30)
        assert now.describe(seats) in difference["now"]
    shifts = summary["scores"]
    assert [(s["game"], s["seat"]) for s in shifts] == [("clans", 1), ("clans", 2), ("clans", 3)]
    for shift in shifts:
        moved = [
            g["now"]["scores"][f"p{shift['seat']}"] - g["before"]["scores"][f"p{shift['seat']}"]
            for g in games.values()
        ]
        assert shift["games"] == len(moved)
        assert shift["mean"] == pytest.approx(sum(moved) / len(moved), abs=1e-4)
        assert shift["largest"] == max(moved, key=abs)
    assert summary["length"] == {"shorter": 0, "longer": 0, "largest": 0, "largest_game": None}


def test_a_baseline_without_words_is_read_and_says_what_it_cannot_show(
    cli: Cli, here: Path, changed_bonus: Callable[[int], None]
) -> None:
    runs = here / "runs.corpus"
    cli.ok("baseline", runs, "-o", "b.baseline")
    (here / "v2.baseline").write_bytes(without_words((here / "b.baseline").read_bytes()))
    assert cli.ok("regress", runs, "--baseline", "v2.baseline").strip() == "0 of 40 games changed"
    changed_bonus(rulechange.ORIGINAL_BONUS - 1)
    result = cli.run("regress", runs, "--baseline", "v2.baseline")
    assert result.exit_code == 1
    line = next(iter(changed_lines(result.stdout).values()))
    assert ": (not recorded: a baseline of version 1 or 2) → village 12 at " in line


@pytest.fixture
def changed_bonus() -> Iterator[Callable[[int], None]]:
    """Clans' 12th village worth its huts and the bonus given, until the test ends (the
    double of a rules fix: the chart the rules read swapped, never the game's code)."""
    with contextlib.ExitStack() as stack:
        yield lambda bonus: stack.enter_context(rulechange.twelfth_bonus(bonus))


@pytest.fixture
def sealed(cli: Cli, here: Path) -> Callable[[Callable[[list[Any]], None]], Path]:
    """A baseline of demo.tribes changed by the given edit of its values, sealed again."""
    cli.ok("baseline", here / "demo.tribes", "-o", "b.baseline")

    def edit(change: Callable[[list[Any]], None]) -> Path:
        items = values((here / "b.baseline").read_bytes())
        change(items)
        (here / "x.baseline").write_bytes(seal(items))
        return here / "x.baseline"

    return edit


def record(items: list[Any]) -> list[Any]:
    value: list[Any] = items[records(items)[0]]
    return value


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        (1, "zzz", "its game 'zzz' is not one this tribes knows (clans, "),
        (1, "__class__", "its game '__class__' is not one this tribes knows"),
        (1, "iwari", "is of 'iwari', but the log is a clans game: a baseline of another game"),
        (5, [-20], "its winners [-20] are not seats of its 3"),
        (5, [-1], "its winners [-1] are not seats of its 3"),
        (5, [1, 1], "its winners [1, 1] are not seats of its 3"),
        (6, [1, 2], "has 2 seats, the log 3"),
        (6, [1] * 9, "its scores are not a clans game's (2 to 4 seats, each a number)"),
        (6, ["1", 2, 3], "its scores are not a clans game's"),
        (4, 1, "'over' is not true or false"),
        (7, b"\x00", "damaged state digests"),
    ],
)
def test_a_hostile_record_is_refused_in_one_line(
    cli: Cli,
    here: Path,
    sealed: Callable[[Callable[[list[Any]], None]], Path],
    field: int,
    value: Any,
    says: str,
) -> None:
    path = sealed(lambda items: record(items).__setitem__(field, value))
    line = cli.fails("regress", here / "demo.tribes", "--baseline", path)
    assert line.startswith(f"tribes: baseline {path}: ") and says in line


def test_a_hostile_header_is_refused(
    cli: Cli, here: Path, sealed: Callable[[Callable[[list[Any]], None]], Path]
) -> None:
    path = sealed(lambda items: items[0].__setitem__("__class__", 1))
    line = cli.fails("regress", here / "demo.tribes", "--baseline", path)
    assert line.endswith("its header holds unknown fields: '__class__'")
    path = sealed(lambda items: items[0].__setitem__("version", True))
    assert "version True of the format" in cli.fails(
        "regress", here / "demo.tribes", "--baseline", path
    )


def test_a_record_differing_only_in_its_outcome_says_so(
    cli: Cli, here: Path, sealed: Callable[[Callable[[list[Any]], None]], Path]
) -> None:
    def more(items: list[Any]) -> None:
        record(items)[6][0] += 1

    path = sealed(more)
    result = cli.run("regress", here / "demo.tribes", "--baseline", path)
    assert result.exit_code == 1
    line = result.stdout.splitlines()[0]
    assert (
        "the state after every event is the same; only the outcome differs; outcome before" in line
    )
    assert "None" not in line


def test_games_out_of_the_baselines_order_still_meet_their_records(cli: Cli, here: Path) -> None:
    runs, demo = here / "runs.corpus", here / "demo.tribes"
    cli.ok("baseline", runs, demo, "-o", "b.baseline")
    games = [f"{runs}#{k}" for k in (7, 3, 3, 40)]
    out = cli.ok("regress", demo, *games, "--baseline", "b.baseline")
    assert out.strip() == "0 of 5 games changed; 37 games of the baseline were not given"


def test_regress_reads_the_baseline_and_the_games_as_streams(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A baseline read holds only its count; games in its order are met without an index; the
    comparisons come as the games come (the loop takes an iterator)."""
    from tribes.replay import baseline as baselines

    runs = here / "runs.corpus"
    with (here / "b.baseline").open("wb") as out:
        baselines.make([runs], Where(), out.write)
    recorded = baseline_file.read(here / "b.baseline")
    assert [f.name for f in attrs.fields(baseline_file.Baseline)] == ["path", "version", "games"]
    assert len(recorded) == 40

    def no_index(self: baseline_file.Matcher) -> None:
        raise AssertionError("an index made for games in the baseline's order")

    monkeypatch.setattr(baseline_file.Matcher, "_index", no_index)
    real = regressing.sweep.sweep
    seen: list[str] = []

    def two_then_stop(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for n, visited in enumerate(real(*args, **kwargs)):
            if n == 2:
                raise RuntimeError("the games stop here")
            seen.append(visited.name)
            yield visited

    monkeypatch.setattr(regressing.sweep, "sweep", two_then_stop)
    compared = []
    with pytest.raises(RuntimeError, match="the games stop here"):
        for item in regressing.regress([runs], recorded, Where()):
            assert isinstance(item, regressing.Comparison)
            compared.append(item.name)
            assert compared == seen  # each game compared before the next is read
    assert compared == [f"{runs}#1", f"{runs}#2"]


def test_each_changed_clause_is_shown_on_its_own():
    """Two scores that changed in one effect read as two changes, not as one run of words."""
    from tribes.replay.regress import _changed

    before = "game over: p1 (green) 44, p2 (blue) 45"
    now = "game over: p1 (green) 43, p2 (blue) 44"
    assert _changed(before, now) == "game over: p1 (green) 44 → 43, p2 (blue) 45 → 44"
    one = "village 12 at 57 (epoch 5, 2 red): red +7; chip to p1"
    assert _changed(one, one.replace("+7", "+6")) == (
        "village 12 at 57 (epoch 5, 2 red): red +7 → red +6"
    )
    shared = "village 12 at 59 (epoch 5, 1 red, 1 blue, 1 black): red, blue, black +8; chip to p3"
    assert _changed(shared, shared.replace("+8", "+7")) == (
        "village 12 at 59 (epoch 5, 1 red, 1 blue, 1 black): red, blue, black +8 → "
        "red, blue, black +7"
    )  # never "black +8 → black +7", as if red and blue no longer scored
    fewer = "village 3 at 5 (epoch 1): green +6"
    assert _changed("village 3 at 5 (epoch 1): red, green +7", fewer) == (
        "village 3 at 5 (epoch 1): red, green +7 → green +6"
    )
