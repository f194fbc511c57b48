"""Clans throughput (targets: >= 1,000 games/s, >= 100,000 events/s, <= 6 bytes/event).

Run: ``make bench`` or ``.venv/bin/python bench/clans.py [--games N] [--seats N]``.
"""

from common import run

if __name__ == "__main__":
    run("clans", games_default=2000, seats_default=3)
