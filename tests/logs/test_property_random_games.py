"""Random legal Clans games: replay is deterministic, the reducer pure, and every state, event and
log round-trips through every form it is stored in."""

from __future__ import annotations

import pickle

import attrs
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tribes import games
from tribes.events import codec, logfile
from tribes.events.logfile import GameLog
from tribes.replay import logs

PROPERTIES = settings.get_profile("tribes-properties")

seeds = st.integers(min_value=0, max_value=2**64 - 1)
seat_counts = st.integers(min_value=2, max_value=4)
picks = st.integers(0, 120).flatmap(
    lambda n: st.lists(st.integers(0, 2**16), min_size=n, max_size=n)
)
"""Move picks: ``moves[pick % len(moves)]`` at each turn. The length is drawn first so that many
games are played to their end (a plain list strategy favours short ones)."""


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks)
def test_replaying_the_log_gives_the_same_state_hash_at_every_step(helpers, seed, seats, picks):
    played = helpers.play(seed, seats, picks)
    again = helpers.replayed(played.log)
    assert len(again) == len(played.steps)
    for built, replayed in zip(played.steps, again, strict=True):
        assert codec.state_hash(replayed.state) == codec.state_hash(built.state)
        assert replayed.state == built.state
        assert replayed.effects == built.effects
        assert replayed.seat == built.seat
    # and through the library's checked replay, checkpoints included
    checked = logs.steps_of(helpers.game, played.log)
    assert codec.state_hash(checked[-1].state) == codec.state_hash(played.steps[-1].state)


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks)
def test_apply_never_mutates_its_input(helpers, seed, seats, picks):
    game = helpers.game
    played = helpers.play(seed, seats, picks)
    for before, after in zip(played.steps, played.steps[1:], strict=False):
        state = before.state
        plain = codec.unstructure(state)
        twin = pickle.loads(pickle.dumps(state))  # a deep copy, as copy.deepcopy's but in C
        game.apply(state, after.event)
        assert codec.unstructure(state) == plain
        assert state == twin
        # every other legal move leaves it alone too
        for move in game.legal_moves(state)[:5]:
            game.apply(state, move)
        assert codec.unstructure(state) == plain
        assert state == twin


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks)
def test_legal_moves_are_empty_exactly_when_the_game_is_over(helpers, seed, seats, picks):
    game = helpers.game
    for step in helpers.play(seed, seats, picks).steps:
        moves = game.legal_moves(step.state)
        assert (len(moves) == 0) == game.is_over(step.state)
        assert (game.to_move(step.state) is None) == game.is_over(step.state)
        for move in moves:
            game.check(step.state, move)  # every listed move is legal


@PROPERTIES
@given(seed=seeds, seats=st.integers(2, 4), picks=st.lists(st.integers(0, 2**16), min_size=200))
def test_games_played_to_the_end_are_over(helpers, seed, seats, picks):
    played = helpers.play(seed, seats, picks)
    last = played.steps[-1].state
    assert helpers.game.is_over(last)
    assert type(played.steps[-1].effects[-1]).__name__ == "GameEnded"


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks)
@example(
    seed=0,
    seats=2,
    picks=[0, 0, 49, 338, 0, 1201, 25, 0, 21, 55, 195, 30, 16, 29, 0, 27, 19, 12, 1, 6],
)
def test_every_state_round_trips_through_the_codec(helpers, seed, seats, picks):
    for step in helpers.play(seed, seats, picks).steps:
        state = step.state
        plain = codec.unstructure(state)
        back = codec.structure(plain, type(state))
        assert back == state
        assert codec.state_hash(back) == codec.state_hash(state)
        # and through the bytes of msgpack and JSON
        assert codec.structure(codec.unpack_all(codec.pack(plain))[0], type(state)) == state
        assert codec.structure(codec.from_json(codec.to_json(plain)), type(state)) == state


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks)
def test_every_event_round_trips_through_wire_dict_and_notation(helpers, seed, seats, picks):
    game = helpers.game
    table, versions = game.events, game.events.versions()
    played = helpers.play(seed, seats, picks)
    # each event with the state just before it, which is where its notation is read
    pairs = zip(played.steps, played.steps[1:], strict=False)
    events = [(before.state, after.event) for before, after in pairs]
    events += [(s.state, m) for s in played.steps for m in game.legal_moves(s.state)[:3]]
    for before, event in events:
        wire = codec.event_to_wire(event)
        assert codec.event_from_wire(table, wire, versions) == event
        packed = b"".join(codec.pack(v) for v in wire)
        assert codec.event_from_wire(table, codec.unpack_all(packed), versions) == event
        as_dict = codec.event_to_dict(event)
        assert codec.event_from_dict(table, as_dict, versions) == event
        assert (
            codec.event_from_dict(table, codec.from_json(codec.event_json_line(event)), versions)
            == event
        )
        text = game.format_move(event)
        assert game.parse_move(before, text) == event


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks)
def test_logs_round_trip_through_both_file_forms(helpers, seed, seats, picks):
    log = helpers.play(seed, seats, picks).log
    decoded, end = logfile.decode(logfile.encode(log), games.event_table)
    assert decoded == log
    assert end.size == len(logfile.encode(log))

    raw = logfile.read_json_text(logfile.to_json_text(log))
    assert raw.header == log.header
    assert raw.checkpoints == log.checkpoints
    table, versions = helpers.game.events, log.header.schema
    assert tuple(codec.event_from_dict(table, item, versions) for item in raw.items) == log.events
    # the two forms agree: binary -> JSON -> binary is byte-identical
    assert logfile.to_json_text(decoded) == logfile.to_json_text(log)


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks, data=st.data())
def test_a_fork_replays_to_the_prefix_of_the_original(helpers, seed, seats, picks, data):
    played = helpers.play(seed, seats, picks)
    events = played.log.events
    n = data.draw(st.integers(1, len(events) + 1), label="fork at")
    fork = GameLog(header=played.log.header, events=events[: n - 1])
    fork = attrs.evolve(fork, checkpoints=logs.checkpoints(helpers.game, fork, ()))
    forked = logs.steps_of(helpers.game, fork)
    assert len(forked) == n
    for mine, theirs in zip(forked, played.steps[:n], strict=True):
        assert mine.state == theirs.state
        assert codec.state_hash(mine.state) == codec.state_hash(theirs.state)
    # a fork is a log like any other: it survives the file forms
    assert logfile.decode(logfile.encode(fork), games.event_table)[0] == fork


@PROPERTIES
@given(seed=seeds, seats=seat_counts, picks=picks, data=st.data())
def test_appending_to_a_file_equals_writing_it_whole(helpers, seed, seats, picks, data, scratch):
    """``act`` appends records after the old bytes; the result reads back as the longer log."""
    played = helpers.play(seed, seats, picks)
    events = played.log.events
    cut = data.draw(st.integers(0, len(events)), label="appended after event")
    path = scratch / "append.tribes"
    path.unlink(missing_ok=True)
    shorter = GameLog(header=played.log.header, events=events[:cut])
    logs.create(path, shorter, helpers.game)
    opened = logs.open_log(path)
    moves = [helpers.game.format_move(e) for e in events[cut:]]
    if moves:
        logs.act(opened, moves)
    again = logs.open_log(path)
    assert again.log.events == events
    assert path.read_bytes().startswith(logfile.encode(opened.log))
    assert codec.state_hash(logs.steps_of(helpers.game, again.log)[-1].state) == codec.state_hash(
        played.steps[-1].state
    )


def test_a_village_emptied_by_strife_round_trips(helpers):
    """Strife can remove every hut of a new village (one hut of each colour): the state after
    it must equal its own round trip, caches included."""
    position = {
        "seats": ["ann", "bob"],
        "clans": {"ann": "red", "bob": "blue"},
        "to_move": "ann",
        "huts": {
            "59": {"red": 1, "yellow": 1},
            "60": {"green": 1, "blue": 1, "black": 1},
            "12": {"red": 1},
            "13": {"red": 1},
        },
    }
    head = logs.header(helpers.game, seats=["ann", "bob"], seed=0, position=position)
    state = helpers.game.setup(head)
    [move] = [m for m in helpers.game.legal_moves(state) if helpers.game.format_move(m) == "59-60"]
    after, _ = helpers.game.apply(state, move)
    assert sum(after.huts[60]) == 0
    assert codec.structure(codec.unstructure(after), type(after)) == after
