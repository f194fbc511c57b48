"""Paper cuts a new user hit: help summaries cut short, "1 events"."""

from __future__ import annotations

import re

from tribes.core.views import count


def test_every_command_summary_is_whole(cli):
    listing = cli.ok("--help").split("Commands:")[1]
    summaries = [line.split(None, 1)[1] for line in listing.strip().splitlines()]
    assert len(summaries) >= 16
    for summary in summaries:
        assert not summary.endswith("..."), summary
        assert not summary.endswith("e.g."), summary


def test_counts_read_as_words():
    assert count(1, "event") == "1 event"
    assert count(0, "event") == "0 events"
    assert count(1, "territory", "territories") == "1 territory"
    assert count(3, "territory", "territories") == "3 territories"


def test_one_event_is_not_one_events(cli):
    cli.ok("new", "clans", "--names", "ann,bob", "--seed", "3", "-o", "g.tribes")
    cli.ok("act", "g.tribes", cli.ok("moves", "g.tribes").split()[0])
    out = cli.ok("verify", "g.tribes")
    assert re.search(r"\b1 event\b", out) and "1 events" not in out
