"""Peak memory of ``tribes verify`` on the worst files under the size limit (16 MiB).

    python bench/logs_memory.py

Each file is written to a scratch folder and verified in its own process under
``/usr/bin/time -v``; prints its size, verify's exit status, wall time and maximum resident set.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tribes import games
from tribes.events import codec, logfile
from tribes.events.framing import frame
from tribes.events.logfile import GameLog
from tribes.replay import logs

GAME = games.get("clans")
LIMIT = logfile.MAX_LOG_BYTES


def framed(payloads: list[bytes]) -> bytes:
    parts, check = [logfile.MAGIC], 0
    for payload in payloads:
        chunk, check = frame(payload, check)
        parts.append(chunk)
    return b"".join(parts)


def header_payload(meta: object) -> bytes:
    head = logs.header(GAME, seats=["ann", "bob"], seed=1)
    data = logfile.header_data(head)
    data["meta"] = meta
    return b"".join(codec.pack(v) for v in ("tribes-log", 2, data))


def files(folder: Path) -> dict[str, Path]:
    out = {}
    small = folder / "small.tribes"
    logs.create(small, GameLog(header=logs.header(GAME, seats=["ann", "bob"], seed=1)), GAME)
    out["a new log (baseline)"] = small

    head = small.read_bytes()
    one = frame(b"\x01", head[-1])[0]
    path = folder / "frames.tribes"
    path.write_bytes(head + one * ((LIMIT - len(head)) // len(one)))
    out["16 MiB of one-byte frames"] = path

    move = b"".join(codec.pack(v) for v in (1, 1, 2))
    wide = [[i] * 250 for i in range(4000)]  # a 1 MiB header of a million numbers
    payloads = [header_payload({"x": wide})]
    while len(framed(payloads)) > logfile.MAX_RECORD_BYTES + 64:
        wide.pop()
        payloads = [header_payload({"x": wide})]
    payloads += [move] * (logfile.MAX_EVENTS + 1)
    path = folder / "header-and-events.tribes"
    path.write_bytes(framed(payloads))
    out["1 MiB header + 20,001 events"] = path

    empty = [[[] for _ in range(250)] for _ in range(4000)]  # a million empty lists
    payloads = [header_payload({"x": empty})]
    while len(framed(payloads)) > logfile.MAX_RECORD_BYTES + 64:
        empty.pop()
        payloads = [header_payload({"x": empty})]
    path = folder / "empty-lists.tribes"
    path.write_bytes(framed(payloads))
    out["1 MiB header of empty lists"] = path

    doc = json.loads(
        logs.to_json(
            logs.seal(GAME, GameLog(header=logs.header(GAME, seats=["ann", "bob"], seed=1)))
        )
    )
    doc["header"]["meta"] = {"x": [0] * (codec.MAX_JSON_ITEMS - 100)}
    text = json.dumps(doc)
    path = folder / "items.json"
    path.write_text(text)
    out["JSON with the most items"] = path

    doc["header"]["meta"] = {"x": "y" * (LIMIT - 2000)}
    path = folder / "string.json"
    path.write_text(json.dumps(doc))
    out["JSON with a 16 MiB string"] = path

    path = folder / "deep.json"
    path.write_text("[" * (LIMIT - 1))
    out["16 MiB of ["] = path
    return out


def measure(path: Path) -> tuple[int, str, str]:
    tribes = shutil.which("tribes", path=str(Path(sys.executable).parent)) or "tribes"
    done = subprocess.run(
        ["/usr/bin/time", "-v", tribes, "verify", str(path)], capture_output=True, text=True
    )
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", done.stderr)
    return done.returncode, wall.group(1) if wall else "?", rss.group(1) if rss else "?"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in files(Path(tmp)).items():
            code, wall, rss = measure(path)
            size = path.stat().st_size
            print(
                f"{name:32} {size:>10} bytes  exit {code}  {wall:>8}  peak {int(rss) // 1024} MiB"
            )


if __name__ == "__main__":
    main()
