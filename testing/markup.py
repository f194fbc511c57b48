"""What is wrong with SVG markup, in the terms of its elements and attributes (a duplicate
attribute, an element not closed) rather than a parser's line and column."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from tribes.testing.playouts import clip

_TAG = re.compile(r"<([A-Za-z][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*/?>")
_ATTRIBUTE = re.compile(r"([^\s=/>]+)\s*=\s*(?:\"[^\"]*\"|'[^']*')")


def svg_problem(markup: str) -> str | None:
    """What is wrong with SVG markup (a whole document or a part's body), in its own terms —
    the element and attribute, not a column — or None when it is well-formed XML."""
    wrapped = markup if markup.lstrip().startswith("<svg") else f"<svg>{markup}</svg>"
    try:
        ET.fromstring(wrapped)  # noqa: S314  a game's own SVG, under test
    except ET.ParseError as exc:
        parse_error = exc
    else:
        return None
    for found in _TAG.finditer(markup):
        names = _ATTRIBUTE.findall(found.group(2))
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            return (
                f"the <{found.group(1)}> element has attribute {twice[0]!r} twice: "
                f"{clip(found.group(0))}"
            )
    unclosed = _unclosed(wrapped)
    if unclosed:
        return unclosed
    line, column = parse_error.position
    at = _offset(wrapped, line, column)
    start = wrapped.rfind("<", 0, at + 1)
    return f"{parse_error.msg.split(':')[0]} at {clip(wrapped[max(0, start) : at + 40])}"


_ANY_TAG = re.compile(r"<(/?)([A-Za-z][\w:.-]*)[^>]*?(/?)>")


def _unclosed(markup: str) -> str | None:
    """The element a closing tag does not match, in words, or None."""
    open_tags: list[str] = []
    for found in _ANY_TAG.finditer(markup):
        closing, name, empty = found.groups()
        if empty:
            continue
        if not closing:
            open_tags.append(name)
        elif not open_tags or open_tags[-1] != name:
            inner = (
                f"the <{open_tags[-1]}> element is not closed" if open_tags else "nothing is open"
            )
            return f"{inner} before </{name}>"
        else:
            open_tags.pop()
    return None


def _offset(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: line - 1]) + column
