"""Replay tooling: logs, checks, and (later) cursors, diffs and forks over any game."""
