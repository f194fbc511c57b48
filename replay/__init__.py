"""The replay tooling, over any game: logs (open, check, append), cursors, diffs, forks, bisect,
what-if, simulations and the demo."""
