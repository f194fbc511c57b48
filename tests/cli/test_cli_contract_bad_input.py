"""The CLI contract on bad input: the exit status, one clear line on stderr, and a log that a
failed command leaves byte-identical."""

from __future__ import annotations

import json

import pytest

# On the standard board: 59 and 60 are neighbours, 12 and 13 too; 12 and 30 are not.
FAR_FILLER = {59: {"green": 1}, 60: {"green": 1}}


@pytest.fixture
def big_group(cli, position):
    """ann to move; 12 holds 7 huts next to 13 (1 hut); 59-60 keeps the game going."""
    return cli.from_position(
        position({12: {"red": 4, "blue": 3}, 13: {"green": 1}, **FAR_FILLER}), "big.tribes"
    )


@pytest.fixture
def game(cli):
    path = cli.new()
    cli.play(path, 2)
    return path


# --- illegal moves ------------------------------------------------------------------------------


def test_moving_from_an_empty_territory(cli, big_group):
    line = cli.fails_untouched(big_group, "act", big_group, "30-29")
    assert "'30-29'" in line
    assert "event 1" in line
    assert line.endswith("territory 30 is empty: there are no huts to move (C8)")


def test_moving_onto_a_territory_that_is_not_adjacent(cli, big_group):
    line = cli.fails_untouched(big_group, "act", big_group, "13-59")
    assert "'13-59'" in line
    assert "event 1" in line
    assert line.endswith("territory 59 is not adjacent to 13 (C8)")


def test_a_group_of_seven_cannot_move(cli, big_group):
    line = cli.fails_untouched(big_group, "act", big_group, "12-13")
    assert "'12-13'" in line
    assert "event 1" in line
    assert line.endswith("territory 12 holds 7 huts: a group of 7 or more cannot move (C9)")


def test_moving_onto_an_empty_territory(cli, big_group):
    line = cli.fails_untouched(big_group, "act", big_group, "13-14")
    assert "'13-14'" in line
    assert line.endswith("territory 14 is empty: nothing can move onto an empty territory (C8)")


def test_no_such_territory(cli, big_group):
    line = cli.fails_untouched(big_group, "act", big_group, "13-99")
    assert "'13-99'" in line
    assert line.endswith("there is no territory 99; territories are 1 to 60 (C1)")


def test_an_illegal_move_later_in_a_game_names_its_event_number(cli, game):
    empty = next(t for t, huts in enumerate(_huts(cli, game), start=0) if t and not huts)
    line = cli.fails_untouched(game, "act", game, f"{empty}-{empty + 1}")
    assert "event 3" in line
    assert f"territory {empty} is empty" in line


def _huts(cli, path):
    doc = cli.show_json(path)
    return [doc["huts"].get(str(t)) for t in range(61)]


def test_an_order_when_none_is_awaited(cli, game):
    line = cli.fails_untouched(game, "act", game, "order 1 2")
    assert "'order 1 2'" in line and "event 3" in line and "no order" in line


def test_a_batch_with_a_later_illegal_move_appends_nothing(cli, big_group):
    line = cli.fails_untouched(big_group, "act", big_group, "13-12", "59-60", "60-59")
    assert line == "tribes: illegal move '60-59' at event 3: the game is over (C20)"
    assert cli.show_json(big_group)["events"] == 0


def test_a_batch_with_a_bad_notation_later_appends_nothing(cli, game):
    first = cli.moves(game)[0]
    line = cli.fails_untouched(game, "act", game, first, "12to13")
    assert "'12to13'" in line and "event 4" in line


def test_a_batch_on_a_json_log_appends_nothing(cli, position):
    path = cli.from_position(
        position({12: {"red": 4, "blue": 3}, 13: {"green": 1}, **FAR_FILLER}), "big.json"
    )
    line = cli.fails_untouched(path, "act", path, "13-12", "59-60", "60-59")
    assert "'60-59'" in line and "event 3" in line


@pytest.mark.parametrize("text", ["12to13", "order", "x", "", "12-", "-12", "1-2-3", "order x"])
def test_bad_notation(cli, game, text):
    line = cli.fails_untouched(game, "act", game, "--", text)
    assert f"'{text}'" in line
    assert "event 3" in line
    assert "12-13" in line, "the message shows what a move looks like"


def test_a_move_after_the_game_ended(cli, position):
    path = cli.from_position(position({59: {"red": 1}, 60: {"blue": 1}}))
    cli.ok("act", path, "59-60")
    assert cli.show_json(path)["over"] is True
    line = cli.fails_untouched(path, "act", path, "60-59")
    assert line == "tribes: illegal move '60-59' at event 2: the game is over (C20)"
    line = cli.fails_untouched(path, "act", path, "order 60")
    assert line == "tribes: illegal move 'order 60' at event 2: the game is over (C20)"


# --- usage --------------------------------------------------------------------------------------


def test_an_unknown_game_lists_the_known_ones(cli):
    line = cli.fails("new", "chess", "-o", cli.path("c.tribes"), code=2)
    assert "'chess'" in line
    assert "clans" in line
    assert not cli.path("c.tribes").exists()


def test_simulate_an_unknown_game(cli):
    line = cli.fails("simulate", "chess", "--games", 1, code=2)
    assert "'chess'" in line and "clans" in line


@pytest.mark.parametrize(
    "args",
    [
        ["new", "clans", "--bogus", "-o", "x.tribes"],
        ["show", "g.tribes", "--bogus"],
        ["act", "g.tribes", "1-2", "--bogus"],
    ],
)
def test_an_unknown_option(cli, game, args):
    before = game.read_bytes()
    stderr = cli.usage(*args)
    assert "--bogus" in stderr
    assert game.read_bytes() == before
    assert not cli.path("x.tribes").exists()


def test_an_unknown_command(cli):
    assert "frobnicate" in cli.usage("frobnicate")


@pytest.mark.parametrize("count", [1, 5])
def test_bad_seat_counts(cli, count):
    out = cli.path("s.tribes")
    line = cli.fails("new", "clans", "--seats", count, "-o", out, code=2)
    assert f"not {count}" in line and "2 to 4" in line
    assert not out.exists()


@pytest.mark.parametrize("names", ["ann", "a,b,c,d,e"])
def test_bad_name_counts(cli, names):
    line = cli.fails("new", "clans", "--names", names, "-o", cli.path("s.tribes"), code=2)
    assert line == f"tribes: clans is for 2 to 4 seats, not {len(names.split(','))}"


def test_seats_and_names_disagree(cli):
    line = cli.fails(
        "new", "clans", "--seats", 3, "--names", "ann,bob", "-o", cli.path("s.tribes"), code=2
    )
    assert "--seats 3" in line and "2 names" in line


def test_duplicate_names(cli):
    out = cli.path("d.tribes")
    line = cli.fails("new", "clans", "--names", "ann,bob,ann", "-o", out, code=2)
    assert line == "tribes: seat names must differ"
    assert not out.exists()


@pytest.mark.parametrize("names", ["ann,", "ann,b b", "ann,bob/cy"])
def test_bad_seat_names(cli, names):
    line = cli.fails("new", "clans", "--names", names, "-o", cli.path("s.tribes"), code=2)
    bad = next(n for n in names.split(",") if not n.isalnum())
    assert line.startswith(f"tribes: seat name '{bad}' must be 1 to 24 letters, digits")


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_a_seed_out_of_range(cli, seed):
    line = cli.fails("new", "clans", "--seed", seed, "-o", cli.path("s.tribes"), code=2)
    assert line == "tribes: the seed must be a whole number from 0 to 18446744073709551615"


@pytest.mark.parametrize("option", ["colour=red", "nonsense", "board=/no/such/board.json"])
def test_bad_game_options(cli, option):
    line = cli.fails("new", "clans", "--option", option, "-o", cli.path("s.tribes"), code=2)
    assert option.partition("=")[0] in line


@pytest.mark.parametrize("at", [-1, 3, 99])
def test_at_out_of_range(cli, game, at):
    line = cli.fails("show", game, "--at", at, code=2)
    assert f"--at {at}" in line
    assert "1 to 2" in line


def test_at_is_not_a_number(cli, game):
    assert "--at" in cli.usage("show", game, "--at", "x")


def test_as_an_unknown_seat(cli, game):
    line = cli.fails("show", game, "--as", "zed", code=2)
    assert "'zed'" in line
    assert "ann, bob, cy" in line and "spectator" in line


def test_the_output_exists_without_force(cli, game):
    line = cli.fails_untouched(
        game, "new", "clans", "--names", "x,y", "-o", game, code=2
    )  # a usage error: the hint is an option
    assert str(game) in line and "--force" in line


def test_import_onto_an_existing_output_without_force(cli, game):
    source = cli.path("g.json")
    source.write_text(cli.ok("export", game, "--json"))
    other = cli.new("other.tribes", seed=3)
    line = cli.fails_untouched(other, "import", source, "-o", other, code=2)
    assert line.endswith("other.tribes exists; choose another name or pass --force to replace it")


def test_import_of_a_binary_log(cli, game):
    line = cli.fails("import", game, "-o", cli.path("x.tribes"), code=2)
    assert line.endswith("g.tribes is already a .tribes log; import reads the JSON form")
    assert not cli.path("x.tribes").exists()


def test_simulate_an_unknown_bot(cli):
    result = cli.run("simulate", "clans", "--games", 1, "--bot", "nope")
    assert result.exit_code == 2
    assert "'nope'" in result.stderr and "greedy" in result.stderr and "random" in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("tribes: ")]
    assert len(errors) == 1


def test_simulate_an_unknown_bot_says_only_that(cli):
    """The error is the only line on stderr: no progress bar is started for a run that cannot
    start."""
    cli.fails("simulate", "clans", "--games", 1, "--bot", "nope", code=2)


def test_simulate_with_bad_seats_says_only_that(cli):
    cli.fails("simulate", "clans", "--games", 1, "--seats", 7, code=2)


# --- files --------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["show", "moves", "log", "verify", "export"])
def test_a_missing_file(cli, command):
    missing = cli.path("nope.tribes")
    args = ["export", missing, "--json"] if command == "export" else [command, missing]
    result = cli.run(*args)
    assert result.exit_code == 1
    text = result.stderr if command != "verify" else result.stdout
    assert "nope.tribes" in text and "no such file" in text
    if command != "verify":
        assert len(result.stderr.splitlines()) == 1
        assert result.stderr.startswith("tribes: ")
    assert not missing.exists()


def test_act_on_a_missing_file(cli):
    line = cli.fails("act", cli.path("nope.tribes"), "1-2")
    assert "nope.tribes" in line and "no such file" in line
    assert not cli.path("nope.tribes").exists()


@pytest.mark.parametrize("command", ["show", "moves", "act"])
def test_a_directory_instead_of_a_log(cli, command):
    """A directory is a file error like a missing file: exit 1, one line naming it."""
    folder = cli.path("folder")
    folder.mkdir()
    args = [command, folder] + (["1-2"] if command == "act" else [])
    line = cli.fails(*args)
    assert "folder" in line and "directory" in line


@pytest.mark.parametrize("name", ["empty.tribes", "empty.json"])
def test_an_empty_file(cli, name):
    path = cli.path(name)
    path.write_bytes(b"")
    line = cli.fails_untouched(path, "show", path)
    assert name in line
    assert "empty" in line or "not a tribes log" in line or "not valid JSON" in line
    line = cli.fails_untouched(path, "act", path, "1-2")
    assert name in line


@pytest.mark.parametrize(
    "content",
    [
        b"hello, world\n",
        b"The quick brown fox jumps over the lazy dog. " * 20,
        bytes(range(256)),
        b'{"not": "a log"}',
        b"[1, 2, 3]",
        b"\x89TRB",
        b"\x89PNG\r\n\x1a\n" + bytes(32),
    ],
)
def test_a_file_that_is_not_a_log(cli, content):
    path = cli.path("notalog.tribes")
    path.write_bytes(content)
    line = cli.fails_untouched(path, "show", path)
    assert "notalog.tribes" in line
    cli.fails_untouched(path, "act", path, "1-2")
    result = cli.run("verify", path)
    assert result.exit_code == 1


def test_a_random_text_file_named_json(cli):
    path = cli.path("notes.json")
    path.write_text("these are my notes, not a log\n")
    line = cli.fails_untouched(path, "show", path)
    assert "notes.json" in line and "JSON" in line


def test_a_json_file_that_is_not_a_log(cli):
    path = cli.path("other.json")
    path.write_text(json.dumps({"name": "not a log", "events": []}))
    line = cli.fails_untouched(path, "log", path)
    assert "other.json" in line and "tribes-log" in line


def test_a_non_utf8_json_file(cli):
    path = cli.path("latin.json")
    path.write_bytes(b'{"format": "tribes-log", "x": "\xe9"}')
    line = cli.fails_untouched(path, "show", path)
    assert "latin.json" in line and "UTF-8" in line


def test_writing_into_a_missing_folder(cli):
    line = cli.fails("new", "clans", "-o", cli.path("no/such/dir/g.tribes"))
    assert "g.tribes" in line and "cannot write" in line
