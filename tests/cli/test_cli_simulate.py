"""``tribes simulate``: a bot per seat, options and positions for every game, logs that say who
played, and no earlier run replaced without ``--force``."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

from tribes import games
from tribes.replay import logs, simulate
from tribes.replay.simulate import match, play_game


def saved(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.tribes"))


def test_a_bot_per_seat_is_recorded_in_each_log(cli, tmp_path):
    out = cli.ok("simulate", "clans", "--games", "3", "--bot", "greedy,random", "--save", "runs")
    assert "p1 (greedy)" in out and "p2 (random)" in out
    assert "2 seats" in out
    paths = saved(tmp_path / "runs")
    assert len(paths) == 3
    for path in paths:
        assert logs.open_log(path).log.tags == {"bots": "greedy,random"}  # in seat order
        assert cli.ok("verify", path).startswith("ok")


def test_options_reach_every_game(cli, tmp_path):
    cli.ok("simulate", "iwari", "--games", "2", "--option", "feats=on", "--save", "runs")
    for path in saved(tmp_path / "runs"):
        assert logs.open_log(path).log.header.options == {"feats": "on"}
    assert "option feats is on or off" in cli.fails(
        "simulate", "iwari", "--games", "2", "--option", "feats=maybe", code=2
    )


def test_a_position_starts_every_game(cli, tmp_path):
    position = {
        "seats": ["ann", "bob"],
        "clans": {"ann": "red", "bob": "blue"},
        "to_move": "bob",
        "huts": {"1": {"red": 2}, "2": {"blue": 1}, "3": {"green": 1}},
    }
    (tmp_path / "p.json").write_text(json.dumps(position))
    cli.ok("simulate", "clans", "--games", "2", "--position", "p.json", "--save", "runs")
    for path in saved(tmp_path / "runs"):
        opened = logs.open_log(path)
        assert opened.log.header.seats == ("ann", "bob")
        start = json.loads(cli.ok("show", path, "--json", "--at", "0"))
        assert start["to_move"] == "bob" and start["huts"]["1"] == {"red": 2}


def test_an_earlier_run_is_not_replaced_without_force(cli, tmp_path):
    cli.ok("simulate", "clans", "--games", "2", "--seed", "4", "--save", "runs")
    before = {p: p.read_bytes() for p in saved(tmp_path / "runs")}
    line = cli.fails("simulate", "clans", "--games", "2", "--seed", "4", "--save", "runs", code=2)
    assert "exists" in line and "--force" in line
    assert {p: p.read_bytes() for p in saved(tmp_path / "runs")} == before
    cli.ok("simulate", "clans", "--games", "2", "--seed", "4", "--save", "runs", "--force")


def test_bad_bot_lists_give_one_line(cli):
    assert "unknown bot 'smart'" in cli.fails("simulate", "clans", "--bot", "smart", code=2)
    assert "give 1 or 3" in cli.fails(
        "simulate", "clans", "--bot", "greedy,random", "--seats", "3", code=2
    )


def test_the_same_run_gives_the_same_games():
    game = games.get("iwari")
    how = match(game, ("greedy", "random", "random"), options={"expeditions": "on"})
    first = play_game(game, 77, how)
    again = play_game(game, 77, how)
    assert first.log == again.log and first.scores == again.scores
    assert len(how.seats) == 3 and how.bots == ("greedy", "random", "random")


def test_simulate_without_a_terminal_writes_nothing_on_stderr(run_process):
    """The progress bar is for a terminal; piped, stderr stays empty (a failure's one line is
    then all there is)."""
    done = run_process("simulate", "clans", "--games", "3")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("3 games, 3 seats")


def test_a_folder_run_names_how_many_of_its_logs_exist(cli, tmp_path):
    cli.ok("simulate", "clans", "--games", "2", "--seed", "4", "--save", "runs")
    line = cli.fails("simulate", "clans", "--games", "5", "--seed", "4", "--save", "runs", code=2)
    assert "(2 of the 5 logs do)" in line


def test_checking_a_new_corpus_for_a_million_games_holds_no_seed_per_game(tmp_path):
    """A corpus needs no game's seed to be checked: the seeds of a million games as a list took
    44 MB, the peak of ``simulate --save`` (81 MB against 29 MB at 1k)."""
    game = games.get("clans")
    simulate.check_save(game, tmp_path / "warm.corpus", 7, 10, force=False)
    tracemalloc.start()
    try:
        simulate.check_save(game, tmp_path / "runs.corpus", 7, 1_000_000, force=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100_000, peak
