"""Hunters and Gatherers throughput (target: >= 300 random games/s at 2 seats on one core).

Run: ``make bench`` or ``.venv/bin/python bench/hunters.py [--games N] [--seats N]``.
"""

from common import run

if __name__ == "__main__":
    run("hunters", games_default=300, seats_default=2)
