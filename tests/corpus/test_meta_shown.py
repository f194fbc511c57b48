"""Control characters from a header's metadata (issue 16 §7): ESC, OSC, U+202E and U+009B reached
the HTML page raw and `export --json` wrote them raw. Wherever metadata is shown now, they are
escaped: visibly on a page or a terminal, as \\uXXXX in JSON (the same document once read)."""

from __future__ import annotations

import json

import attrs

from tribes import games
from tribes.events.logfile import GameLog
from tribes.replay import logs, simulate

HOSTILE = "a\x1b]0;owned\x07b\u202ec\x9bd"
RAW = ("\x1b", "\x07", "\u202e", "\x9b")


def hostile_log(path, **meta):
    game = games.get("clans")
    head = logs.header(game, seats=["ann", "bob"], seed=3, meta=meta)
    logs.create(path, GameLog(header=head), game)


def test_the_page_shows_them_escaped(cli, tmp_path):
    hostile_log(tmp_path / "g.tribes", note=HOSTILE, **{HOSTILE: "key"})
    cli.ok("html", "g.tribes", "-o", "g.html")
    page = (tmp_path / "g.html").read_text()
    assert not any(c in page for c in RAW)
    assert "a\\x1b]0;owned\\x07b\\u202ec\\x9bd" in page


def test_export_json_escapes_them_and_reads_back_the_same(cli, tmp_path):
    hostile_log(tmp_path / "g.tribes", note=HOSTILE)
    text = cli.ok("export", "g.tribes")
    assert not any(c in text for c in RAW)
    assert json.loads(text)["header"]["meta"] == {"note": HOSTILE}
    (tmp_path / "g.json").write_text(text)
    assert cli.ok("verify", "g.json").startswith("ok")


def test_stats_and_corpus_ls_escape_a_bot_named_by_metadata(cli, tmp_path):
    game = games.get("clans")
    how = simulate.match(game, ("random",), seats=2)
    log = simulate.play_game(game, 5, how).log
    meta = {**log.header.meta, "bots": {"p1": HOSTILE, "p2": "random"}}
    path = tmp_path / "g.tribes"
    logs.create(path, GameLog(header=attrs.evolve(log.header, meta=meta), events=log.events), game)
    cli.ok("corpus", "add", "--new", "c.corpus", "g.tribes")
    for args in (
        ("corpus", "ls", "c.corpus"),
        ("stats", "c.corpus"),
        ("stats", "c.corpus", "--json"),
    ):
        out = cli.ok(*args)
        assert not any(c in out for c in RAW), out
        assert "\\x1b" in out, out
