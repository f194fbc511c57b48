"""The rules of the three games as tribes plays them, shipped with it: ``clans.md``, ``hunters.md``
and ``iwari.md`` (numbered rules C1…, H1…, I1…, with our rulings). Read them with ``tribes rules``
or :mod:`tribes.core.rulebook`."""
