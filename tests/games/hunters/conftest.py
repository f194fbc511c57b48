"""The Hunters and Gatherers rule tests run once the game is registered; the helpers are in
hunters_helpers.py."""

from __future__ import annotations

import tribes.games

if "hunters" not in tribes.games.names():
    collect_ignore_glob = ["test_*.py"]
