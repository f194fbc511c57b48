"""Logs of format version 1, as the tribes before version 2 wrote them: kept byte for byte, read,
verified, and upgraded by ``import`` and ``tribes upgrade``."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from tribes.events import logfile
from tribes.replay import logs

V1 = Path(__file__).parent / "v1"
AS_WRITTEN = {
    "hand-played.json": "e00153854d5e8f4a62b90ff9b19e0c97faa9a9a5e606d808197a35f246a9b4ec",
    "hand-played.tribes": "966ec1ab1d994b565dd4e694620dc629acaeeb65fb12cfd1e3356770b23e1d1b",
    "iwari.json": "cd858b3a162d931431da911db0ea1841a3120193252a25e664ea6685f5868673",
    "two-players.json": "b86599fdcc7551e0a073306752ab6acb0783d8d976f5be1986f20adfde11f5b3",
    "two-players.tribes": "c857f4db90e6c361f9a55755b87a8ffbed3fd71de1a87189e2a78aa8e6f87ce3",
    "with-board.tribes": "d6be1ae6e0fed6d9fd200766b480973afc7e4c09bd7593edd7dc24f6c2b7a4f2",
}
LOGS = sorted(set(AS_WRITTEN) - {"with-board.tribes"})  # that one needs its board: below


@pytest.mark.parametrize("name", sorted(AS_WRITTEN))
def test_v1_fixture_is_kept_as_it_was_written(name: str) -> None:
    assert hashlib.sha256((V1 / name).read_bytes()).hexdigest() == AS_WRITTEN[name]


@pytest.mark.parametrize("name", LOGS)
def test_v1_log_reads_and_verifies(cli, name: str) -> None:
    opened = logs.open_log(V1 / name)
    assert opened.log.version == 1
    logs.steps_of(opened.game, opened.log, path=name)  # every checkpoint holds
    line = cli.ok("verify", V1 / name)
    assert line.startswith("ok") and "format version 1" in line and "digest " in line


def test_both_forms_of_a_v1_log_have_one_digest(cli) -> None:
    a = cli.ok("verify", V1 / "two-players.tribes").split("digest ")[1].split()[0]
    b = cli.ok("verify", V1 / "two-players.json").split("digest ")[1].split()[0]
    assert a == b


@pytest.mark.parametrize("name", ["hand-played.tribes", "two-players.json", "iwari.json"])
def test_upgrade_writes_version_3_with_the_same_content(cli, name: str) -> None:
    for out in ("up.tribes", "up.json"):
        path = cli.path(out)
        cli.ok("upgrade", V1 / name, "-o", path, "--force")
        new = logs.open_log(path)
        old = logs.open_log(V1 / name)
        assert new.log.version == 3 and new.log.commits[-1].events == len(old.log.events)
        assert (new.log.header, new.log.events) == (old.log.header, old.log.events)
        assert logfile.log_digest(new.log) == logfile.log_digest(old.log)
        assert "format version 1" not in cli.ok("verify", path)


def test_import_upgrades_a_v1_json_log(cli) -> None:
    out = cli.path("imported.tribes")
    cli.ok("import", V1 / "two-players.json", "-o", out)
    assert logs.open_log(out).log.version == 3
    assert json.loads(cli.ok("export", out))["version"] == 3


def test_act_on_a_v1_log_rewrites_it_in_version_3(cli) -> None:
    path = cli.path("old.tribes")
    shutil.copy(V1 / "hand-played.tribes", path)
    move = cli.moves(path)[0]
    cli.ok("act", path, move)
    opened = logs.open_log(path)
    assert opened.log.version == 3 and len(opened.log.events) == 5
    cli.ok("verify", path)


def test_a_v1_log_naming_a_board_file_is_upgraded_only_with_the_file(cli) -> None:
    old = V1 / "with-board.tribes"
    line = cli.fails("show", old)
    assert "tribes upgrade" in line and "--file board=PATH" in line
    out = cli.path("with-board.tribes")
    line = cli.fails("upgrade", old, "-o", out, code=2)
    assert "--file board=PATH" in line and not out.exists()
    cli.ok("upgrade", old, "-o", out, "--file", f"board={V1 / 'board.json'}")
    assert logs.open_log(out).log.header.files["board"] == (V1 / "board.json").read_text()
    cli.ok("verify", out)
