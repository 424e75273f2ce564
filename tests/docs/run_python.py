#!/usr/bin/env python3
"""tests/docs/run_python.py: runs the Python examples of the docs with doctest.

    .venv/bin/python tests/docs/run_python.py [FILE.md ...]

Without files: README.md, python/README.md and docs/**/*.md, less the contributor docs of
mkdocs.yml's ``exclude_docs`` and the generated API pages (the rule of tests/docs/docfiles.mjs).

Each file is one doctest session (``>>>`` / ``...`` examples, shared namespace, top to bottom),
run with NORMALIZE_WHITESPACE and ELLIPSIS in its own Python process (this interpreter) with a
fresh empty temporary directory as cwd, exactly as
``python -m doctest -o NORMALIZE_WHITESPACE -o ELLIPSIS FILE.md`` would, but for one thing: a
line starting with a code fence (```) also ends an example's expected output, so a ```pycon
block may close right after its last output line. A file without examples passes.

Prints each file's example count and every failure; exits 1 if any example failed.
"""

from __future__ import annotations

import doctest
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
TIMEOUT_S = 600
RESULT = "docs-doctest-result: "


def doc_files() -> list[str]:
    """The files of tests/docs/docfiles.mjs, the one statement of the rule (for both runners)."""
    out = subprocess.run(
        ["node", str(ROOT / "tests/docs/docfiles.mjs")], capture_output=True, text=True, check=True
    )
    return out.stdout.split()


class FenceParser(doctest.DocTestParser):
    """doctest's parser, with a line that starts a code fence ending the expected output."""

    def parse(self, string: str, name: str = "<string>") -> list:  # type: ignore[override]
        lines = string.split("\n")
        out: list[str] = []
        in_want = False
        for line in lines:
            stripped = line.lstrip()
            if stripped.startswith((">>>", "...")) and not stripped.startswith("...."):
                in_want = stripped.startswith(">>>") or in_want
                out.append(line)
                continue
            if in_want and stripped.startswith(("```", "~~~")):
                # a blank line ends the example's output here, the fence line follows it
                out.append("")
                in_want = False
            elif not stripped:
                in_want = False
            out.append(line)
        return super().parse("\n".join(out), name)


def run_one(path: str) -> None:
    """The child process: one file, in a fresh temporary cwd. Prints doctest's report and a
    result line."""
    src = Path(path).resolve()
    with tempfile.TemporaryDirectory(prefix="docs-py-") as d:
        os.chdir(d)
        sys.path.insert(0, d)
        r = doctest.testfile(
            str(src),
            module_relative=False,
            optionflags=FLAGS,
            parser=FenceParser(),
            encoding="utf-8",
        )
        os.chdir(ROOT)
    print(RESULT + json.dumps({"attempted": r.attempted, "failed": r.failed}), flush=True)


def run_file(rel: str) -> tuple[str, int, int, str]:
    """Runs one file in its own process: (file, attempted, failed, output)."""
    try:
        p = subprocess.run(
            [sys.executable, __file__, "--one", str(ROOT / rel)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        return rel, 0, 1, f"timed out after {TIMEOUT_S} s"
    out = p.stdout + p.stderr
    for line in reversed(p.stdout.splitlines()):
        if line.startswith(RESULT):
            r = json.loads(line[len(RESULT) :])
            report = out.replace(line + "\n", "")
            failed = r["failed"] or (p.returncode != 0)
            return rel, r["attempted"], int(failed and max(r["failed"], 1)), report
    return rel, 0, 1, f"exit {p.returncode} without a result:\n{out}"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--one"]:
        run_one(argv[1])
        return 0
    files = [Path(f).resolve().relative_to(ROOT).as_posix() for f in argv] or doc_files()
    jobs = max(1, min(4, os.cpu_count() or 2))
    with ThreadPoolExecutor(jobs) as ex:
        results = list(ex.map(run_file, files))
    attempted = failed = 0
    for rel, n, f, report in results:
        attempted += n
        failed += f
        print(f"{'FAILED' if f else 'ok    '} {rel}: {n} examples" + (f", {f} failed" if f else ""))
        if f:
            print("    " + report.strip().replace("\n", "\n    "))
    with_examples = sum(1 for _, n, _, _ in results if n)
    n = len(files)
    print(f"python examples: {attempted} run in {with_examples} of {n} files, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
