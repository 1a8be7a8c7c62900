"""Run every code example of the documentation and compare it with the output shown.

Usage (from the repository root)::

    python docs/_ext/check_snippets.py            # every page
    python docs/_ext/check_snippets.py docs/tutorial.md

Conventions of the pages:

* a ```` ```python ```` block is run; when the next block (with only blank lines
  between) is a ```` ```text title="Output" ```` block, what the code printed must
  equal it exactly (trailing spaces ignored);
* a ```` ```pycon ```` block is run as a doctest;
* blocks of every page share one namespace, in page order, and each page runs in a
  fresh interpreter, so registrations on one page never leak into another;
* other blocks (``yaml``, ``sh``, lone ``text``) are not run.

The docs build (``mkdocs build --strict``) does not run this; CI should.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import subprocess
import sys
import traceback
from pathlib import Path

FENCE = re.compile(
    r"^(?P<indent> *)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)


def _blocks(text: str) -> list[tuple[str, str, str, int, int, int]]:
    """(language, info, body, line number, start, end) of every fenced block."""
    found = []
    for m in FENCE.finditer(text):
        info = m.group("info").strip()
        lang = info.split()[0] if info else ""
        indent = len(m.group("indent"))
        body = "\n".join(line[indent:] for line in m.group("body").splitlines())
        found.append((lang, info, body, text.count("\n", 0, m.start()) + 1, m.start(), m.end()))
    return found


def check_page(path: Path) -> int:
    text = path.read_text(encoding="utf-8")
    blocks = _blocks(text)
    namespace: dict[str, object] = {"__name__": f"docs_{path.stem.replace('-', '_')}"}
    failures = 0
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    parser = doctest.DocTestParser()
    for i, (lang, _info, body, line, _, end) in enumerate(blocks):
        where = f"{path}:{line}"
        if lang == "pycon":
            test = parser.get_doctest(body, namespace, where, str(path), line)
            result = runner.run(test, clear_globs=False)
            namespace.update(test.globs)  # DocTest works on a copy of the namespace
            failures += result.failed
            continue
        if lang != "python":
            continue
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(body, where, "exec", dont_inherit=True), namespace)
        except Exception:
            print(f"FAIL {where}: the block raised\n{traceback.format_exc()}")
            failures += 1
            continue
        if i + 1 < len(blocks):
            nlang, ninfo, nbody, nline, nstart, _ = blocks[i + 1]
            between = text[end:nstart]
            if nlang == "text" and 'title="Output"' in ninfo and not between.strip():
                got = [s.rstrip() for s in out.getvalue().rstrip("\n").splitlines()]
                want = [s.rstrip() for s in nbody.rstrip("\n").splitlines()]
                if got != want:
                    failures += 1
                    print(f"FAIL {where}: output differs from the block at line {nline}")
                    print("---- printed\n" + "\n".join(got) + "\n---- shown\n" + "\n".join(want))
    print(f"{path}: {'ok' if not failures else f'{failures} failure(s)'}")
    return failures


def main(argv: list[str]) -> int:
    pages = [Path(p) for p in argv] or sorted(
        p for p in Path("docs").rglob("*.md") if "_ext" not in p.parts
    )
    failed = 0
    for page in pages:
        failed += subprocess.run([sys.executable, __file__, str(page), "--single"]).returncode
    return 1 if failed else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[-1] == "--single":
        sys.exit(1 if check_page(Path(args[0])) else 0)
    sys.exit(main(args))
