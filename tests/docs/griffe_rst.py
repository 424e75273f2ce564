"""A griffe extension for the docs site (mkdocs.yml, mkdocstrings' python handler): renders the
reStructuredText the package's docstrings use (they are written for ``help()`` and Sphinx-style
readers) as the Markdown mkdocstrings expects, without changing the sources:

* ``:func:`x``` / ``:class:`~a.b.C``` (any role) -> a code span (``x`` / ``C``);
* a paragraph ending in ``::`` -> ``:`` (its indented literal block stays a code block);
* a doctest block (``>>>`` lines and their output) -> a fenced ``pycon`` block.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?[a-z]+:`(~?)([^`]+)`")


def _role(m: re.Match[str]) -> str:
    target = m.group(2)
    if m.group(1):
        target = target.rsplit(".", 1)[-1]
    return f"`{target}`"


def rst_to_markdown(text: str) -> str:
    text = _ROLE.sub(_role, text)
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = len(line) - len(line.lstrip())
            if out and out[-1].strip():
                out.append("")
            out.append("```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i][indent:])
                i += 1
            out.append("```")
            continue
        if line.endswith("::") and line.strip() != "::":
            line = line[:-1]
        out.append(line)
        i += 1
    return "\n".join(out)


class RstToMarkdown(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        seen: set[int] = set()

        def walk(obj: griffe.Object) -> None:
            if id(obj) in seen:
                return
            seen.add(id(obj))
            if obj.docstring is not None:
                obj.docstring.value = rst_to_markdown(obj.docstring.value)
            for member in obj.members.values():
                if not member.is_alias:
                    walk(member)  # type: ignore[arg-type]

        walk(pkg)
