"""Iwari throughput (target: >= 300 random games/s on one core).

Run: ``make bench`` or ``.venv/bin/python bench/iwari.py [--games N] [--seats N]``.
"""

from common import run

if __name__ == "__main__":
    run("iwari", games_default=300, seats_default=3)
