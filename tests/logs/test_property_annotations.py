"""Annotations (tags, notes) interleaved with appends of moves: both forms carry them
losslessly, the digest covers them, and any change to one is caught by a commit."""

from __future__ import annotations

from pathlib import Path

import attrs
from hypothesis import given
from hypothesis import strategies as st

from tribes import games
from tribes.core.errors import CorruptLog
from tribes.events import logfile
from tribes.events.logfile import Annotation, GameLog
from tribes.replay import logs
from tribes.testing import Harness

GAME = games.get("clans")
HARNESS = Harness("clans")
PLAYED = HARNESS.random_game(5, 3)

texts = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=40
).filter(lambda t: t.strip() and t.isprintable())
keys = st.from_regex(r"[A-Za-z][A-Za-z0-9_.:-]{0,10}", fullmatch=True)
# an append: a number of moves, then some annotations
appends = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.lists(st.tuples(st.booleans(), keys, texts, st.booleans()), max_size=3),
    ),
    min_size=1,
    max_size=6,
)


def build(plan):
    events = PLAYED.log.events
    count, notes, ends = 0, [], [(0, 0)]
    for moves, changes in plan:
        count = min(len(events), count + moves)
        if moves:
            ends.append((count, len(notes)))
        for is_note, key, text, remove in changes:
            if is_note:
                notes.append(Annotation(count, count // 2, None if remove else text))
            else:
                notes.append(Annotation(count, key, None if remove else text))
        ends.append((count, len(notes)))
    log = GameLog(header=PLAYED.log.header, events=events[:count], annotations=tuple(notes))
    return logs.seal(GAME, log, appended_from=ends)


@given(appends)
def test_both_forms_carry_annotations_and_the_commits_check_them(plan):
    log = build(plan)
    data = logfile.encode(log)
    back, end = logfile.decode(data, games.event_table)
    assert back == log and end.tail is None
    text = logfile.to_json_text(log)
    opened = logs.opened_from(Path("x.json"), text.encode())
    assert opened.log == log
    assert logfile.to_json_text(opened.log) == text
    logs.steps_of(GAME, back)  # every commit matches
    if log.annotations:
        first = log.annotations[0]
        changed = attrs.evolve(first, value="tampered" if first.value != "tampered" else "x")
        bad = attrs.evolve(log, annotations=(changed, *log.annotations[1:]))
        try:
            logs.steps_of(GAME, bad)
        except CorruptLog as exc:
            assert "annotation 1" in exc.message or "does not match" in exc.message
        else:
            raise AssertionError("a changed annotation went unnoticed")
