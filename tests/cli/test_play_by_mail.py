"""Play by mail as two players play it (issue 29 §1): ann and bob, each in a folder of their own
with ``TRIBES_SEAT`` and a state folder of their own, mail an Iwari log back and forth in real
processes. What each command shows is that seat's view; ``act --as`` refuses a log whose history
was rewritten since it last wrote it; ``verify --extends`` and ``--digest`` check what one was
sent; a file cut in the mail is said to be one; ``diff`` of two logs exits as diff(1)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from tribes.cli.main import main
from tribes.testing.cli import assert_no_crash, run_process


class Player:
    """One player: a folder, a seat, a state folder; ``tribes`` run as they run it."""

    def __init__(self, root: Path, seat: str) -> None:
        self.seat = seat
        self.folder = root / seat
        self.folder.mkdir()
        self.env = {"TRIBES_SEAT": seat, "TRIBES_STATE": str(root / f"{seat}-state")}

    def run(
        self, *args: object, seat: str | None = None, process: bool = False
    ) -> subprocess.CompletedProcess[str]:
        """``tribes ARGS`` as this player runs it: in-process (click's runner, the same
        environment) or, with ``process``, in a real process of its own."""
        env = self.env if seat is None else {**self.env, "TRIBES_SEAT": seat}
        if process:
            return run_process(*args, cwd=self.folder, env=env)
        old = Path.cwd()
        os.chdir(self.folder)
        try:
            done = CliRunner(env={**env, "TRIBES_DEBUG": None}).invoke(
                main, [str(a) for a in args], catch_exceptions=False
            )
        finally:
            os.chdir(old)
        assert_no_crash(done.exit_code, done.stdout, done.stderr)
        return subprocess.CompletedProcess(args, done.exit_code, done.stdout, done.stderr)

    def ok(self, *args: object, seat: str | None = None) -> str:
        done = self.run(*args, seat=seat)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done.stdout

    def send(self, other: Player, name: str = "game.tribes") -> None:
        shutil.copyfile(self.folder / name, other.folder / name)


@pytest.fixture
def players(tmp_path: Path) -> tuple[Player, Player]:
    ann, bob = Player(tmp_path, "ann"), Player(tmp_path, "bob")
    ann.ok("new", "iwari", "--names", "ann,bob", "--seed", "5", "-o", "game.tribes")
    ann.send(bob)
    return ann, bob


def turn(player: Player, name: str = "game.tribes", seat: str | None = None) -> list[str]:
    """The player plays their whole turn (a play and its draws), the first legal move each
    (``seat=""``: without TRIBES_SEAT, as a cheat would)."""
    said = []
    while True:
        doc = json.loads(player.ok("moves", name, "--json", seat=seat))
        if doc["to_move"] != player.seat:
            return said
        said.append(doc["moves"][0])
        player.ok("act", name, doc["moves"][0], seat=seat)


def hands(player: Player, *extra: str) -> dict[str, str | int]:
    shown = json.loads(player.ok("show", "game.tribes", "--json", *extra))
    return shown["hands"]


def test_each_player_sees_only_their_own_view(players):
    ann, bob = players
    turn(bob)  # bob moves first in this seed
    bob.send(ann)
    # ann, while it is ann's turn: her moves; then bob's turn: none of his
    assert ann.ok("moves", "game.tribes").strip()
    turn(ann)
    ann.send(bob)
    done = ann.run("moves", "game.tribes", process=True)
    assert done.returncode == 0 and done.stdout == ""
    assert "bob" in done.stderr and "--as all" in done.stderr
    assert json.loads(ann.ok("moves", "game.tribes", "--json"))["moves"] is None
    assert bob.ok("moves", "game.tribes").strip()  # bob sees his own
    seen = hands(ann)
    assert isinstance(seen["ann"], str) and isinstance(seen["bob"], int)  # a count: no cards
    assert isinstance(hands(ann, "--as", "all")["bob"], str)  # unless she asks for everything
    assert isinstance(hands(ann, "--as", "bob")["ann"], int)
    board = ann.run("show", "game.tribes", process=True).stdout  # the quick path, too
    assert board == ann.ok("show", "game.tribes", "--as", "ann")
    assert board != ann.ok("show", "game.tribes", "--as", "all")
    assert ann.ok("log", "game.tribes") == ann.ok("log", "game.tribes", "--as", "ann")
    every = ann.ok("log", "game.tribes", "--json")
    assert all("card" not in e for line in every.splitlines() for e in json.loads(line)["effects"])
    assert ann.ok("show", "game.tribes", "--svg") == ann.ok(
        "show", "game.tribes", "--svg", "--as", "ann"
    )
    assert ann.ok("diff", "game.tribes", "--at", "3") == ann.ok(
        "diff", "game.tribes", "--at", "3", "--as", "ann"
    )
    assert ann.ok("diff", "game.tribes", "--at", "3") != ann.ok(
        "diff", "game.tribes", "--at", "3", "--as", "all"
    )
    ann.ok("html", "game.tribes", "-o", "mine.html")
    ann.ok("html", "game.tribes", "-o", "hers.html", "--as", "ann")
    assert (ann.folder / "mine.html").read_text() == (ann.folder / "hers.html").read_text()
    refused = ann.run("position", "game.tribes")
    assert refused.returncode == 2 and "--as all" in refused.stderr
    assert ann.ok("position", "game.tribes", "--as", "all")


def test_a_seat_the_log_does_not_have_is_named(players):
    ann, _ = players
    done = run_process("show", "game.tribes", cwd=ann.folder, env={"TRIBES_SEAT": "cy"})
    assert done.returncode == 2
    assert "TRIBES_SEAT 'cy' is no seat" in done.stderr and "ann, bob" in done.stderr


def test_a_rewritten_history_is_refused_by_act_as(players):
    ann, bob = players
    turn(bob)
    bob.send(ann)
    turn(ann)
    ann.send(bob)
    # bob rewrites an earlier draw of his: export, edit, import, as a valid log
    bob.ok("export", "game.tribes", "--json", "-o", "game.json")
    data = json.loads((bob.folder / "game.json").read_text())
    for key in ("digest", "commits", "checkpoints"):
        data.pop(key)
    events = data["events"]
    draw = next(i for i, e in enumerate(events) if e["type"] == "draw" and e["source"] == 0)
    for source in range(1, 5):  # from the display instead of the deck
        events[draw] = {**events[draw], "source": source}
        (bob.folder / "edited.json").write_text(json.dumps(data))
        if bob.run("import", "edited.json", "-o", "forged.tribes", "--force").returncode == 0:
            break
    else:
        pytest.fail("no other draw keeps the log valid")
    assert turn(bob, "forged.tribes", seat="")  # bob plays on, without --as, and sends it
    shutil.copyfile(bob.folder / "forged.tribes", ann.folder / "game.tribes")
    before = (ann.folder / "game.tribes").read_bytes()
    move = json.loads(ann.ok("moves", "game.tribes", "--json"))["moves"][0]
    refused = ann.run("act", "game.tribes", move, process=True)
    assert refused.returncode == 1, refused.stdout
    line = refused.stderr.strip()
    assert len(line.splitlines()) == 1
    assert f"they part at event {draw + 1}" in line
    assert "does not extend the log you last wrote as ann" in line
    assert "'tribes diff " in line
    assert (ann.folder / "game.tribes").read_bytes() == before
    # the copy it names is the log ann wrote: diff shows where they part, exit 1
    copy = line.split("'tribes diff ")[1].split(" ")[0]
    parted = ann.run("diff", copy, "game.tribes", "--as", "all")
    assert parted.returncode == 1 and f"event {draw + 1}" in parted.stdout
    # the honest log bob was sent still goes on
    shutil.copyfile(bob.folder / "game.tribes", ann.folder / "game.tribes")
    assert ann.run("act", "game.tribes", move).returncode in (0, 1)


def test_an_honest_exchange_goes_on_and_verify_checks_what_was_sent(players, tmp_path):
    ann, bob = players
    turn(bob)
    bob.send(ann)
    kept = ann.folder / "as-sent.tribes"
    shutil.copyfile(ann.folder / "game.tribes", kept)
    turn(ann)
    ann.send(bob)
    turn(bob)
    bob.send(ann)
    assert turn(ann)  # act --as ann takes bob's log: it extends hers
    said = ann.ok("verify", "game.tribes", "--extends", "as-sent.tribes")
    assert "extends as-sent.tribes" in said
    digest = ann.ok("verify", "game.tribes").split("digest ")[1].split()[0]
    assert f"digest {digest} as told" in ann.ok("verify", "game.tribes", "--digest", digest)
    wrong = ann.run("verify", "game.tribes", "--digest", "0" * 32)
    assert wrong.returncode == 1 and digest in wrong.stdout + wrong.stderr
    backwards = ann.run("verify", "as-sent.tribes", "--extends", "game.tribes")
    assert backwards.returncode == 1 and "does not extend" in backwards.stdout + backwards.stderr


def test_a_file_cut_in_the_mail_is_said_to_be_one(players):
    ann, bob = players
    turn(bob)
    data = (bob.folder / "game.tribes").read_bytes()
    (ann.folder / "game.tribes").write_bytes(data[:-5])
    done = ann.run("show", "game.tribes")
    assert done.returncode == 1
    line = done.stderr.strip()
    assert "a file received whole cannot have an interrupted append" in line
    assert "ask for it again" in line
    assert "drops the records after byte" in line


def test_diff_of_two_logs_exits_as_diff_does(players):
    ann, bob = players
    shutil.copyfile(ann.folder / "game.tribes", ann.folder / "same.tribes")
    assert ann.run("diff", "game.tribes", "same.tribes").returncode == 0
    turn(bob)
    bob.send(ann, "game.tribes")
    assert ann.run("diff", "same.tribes", "game.tribes").returncode == 1
    assert ann.run("diff", "same.tribes", "missing.tribes").returncode == 2


def test_undo_of_ones_own_moves_keeps_act_as_going(players):
    _, bob = players
    turn(bob)
    bob.ok("undo", "game.tribes", "--moves", "1")
    assert turn(bob)  # not refused: undo replaced the copy act --as keeps


def test_the_copy_is_kept_in_the_state_folder(players, tmp_path):
    _, bob = players
    turn(bob)
    kept = list((tmp_path / "bob-state" / "mail").iterdir())
    assert [p.suffix for p in kept] == [".tribes"] and kept[0].name.endswith("-seat2.tribes")
    assert kept[0].read_bytes() == (bob.folder / "game.tribes").read_bytes()
    assert not (tmp_path / "ann-state").exists()  # ann made the log, but played no move


def test_the_state_folder_follows_xdg():
    from tribes.replay.mail import state_folder

    assert state_folder({"TRIBES_STATE": "/s", "XDG_STATE_HOME": "/x"}) == Path("/s")
    assert state_folder({"XDG_STATE_HOME": "/x", "HOME": "/h"}) == Path("/x/tribes")
    assert state_folder({"XDG_STATE_HOME": "rel", "HOME": "/h"}) == Path("/h/.local/state/tribes")
    assert state_folder({"HOME": "/h"}) == Path("/h/.local/state/tribes")


def test_replay_as_a_seat_cycles_its_own_view_and_a_spectators_only():
    from tribes.core.game import EVERYTHING, SPECTATOR
    from tribes.replay import stepper
    from tribes.replay.cursor import Cursor

    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "iwari" / "full-game-2p.json"
    cursor = Cursor.open(fixture)
    model = stepper.Stepper(cursor, viewer=0, views=stepper.views_from(0))
    seen = []
    for _ in range(4):
        seen.append(model.viewer)
        model.press("v")
    assert seen == [0, SPECTATOR, 0, SPECTATOR]
    assert stepper.views_from(EVERYTHING) is None
    assert stepper.views_from(SPECTATOR) == (SPECTATOR,)


def test_replay_takes_as_and_tribes_seat(cli, monkeypatch):
    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "iwari" / "full-game-2p.json"
    monkeypatch.setenv("TRIBES_SEAT", "zed")
    # without a terminal replay says so first; a seat is checked once there is one
    assert "needs a terminal" in cli.fails("replay", str(fixture), code=2)
    assert "--as" in cli.ok("replay", "--help")


def test_verify_extends_and_digest_of_corpora(cli):
    cli.ok("simulate", "clans", "--games", "2", "--seed", "1", "--save", "a.corpus")
    shutil.copyfile(cli.root / "a.corpus", cli.root / "old.corpus")
    cli.ok("new", "clans", "--seats", "3", "--seed", "9", "-o", "g.tribes")
    cli.ok("corpus", "add", "a.corpus", "g.tribes")
    said = cli.ok("verify", "a.corpus", "--extends", "old.corpus")
    assert "a.corpus: extends old.corpus (2 games then, 3 now)" in said
    result = cli.run("verify", "old.corpus", "--extends", "a.corpus")
    assert result.exit_code == 1 and "FAIL  old.corpus: does not extend a.corpus" in result.stdout
    digest = cli.ok("verify", "old.corpus").splitlines()[-1].split("digest ")[1].split()[0]
    assert "as told" in cli.ok("verify", "old.corpus", "--digest", digest)
    assert cli.run("verify", "a.corpus", "--digest", digest).exit_code == 1
    doc = json.loads(cli.run("verify", "a.corpus", "--digest", digest, "--json").stdout)
    assert doc["compared"][0]["ok"] is False and doc["failed"] == 1
    line = cli.fails("verify", "a.corpus", "old.corpus", "--digest", digest, code=2)
    assert "one log or corpus" in line
    assert "no digest" in cli.fails("verify", "a.corpus", "--digest", "xyz", code=2)
