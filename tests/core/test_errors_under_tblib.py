"""Every error of the library pickles where Dask has installed tblib's exception pickling.

Dask's distributed installs tblib's reducer for every exception class of the process
(copyreg), which rebuilds an error without calling its class: through ``__new__`` of
the first base that has one, unsafe for the errors that are also OSErrors. The check
runs in a child process, since the reducer, once installed, stays for the whole process.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("tblib.pickling_support")

SCRIPT = """
import pickle
import tblib.pickling_support
import cardcrawl.errors as errors

tblib.pickling_support.install()
failed = []
for name in errors.__all__:
    cls = getattr(errors, name)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        continue
    error = cls(f"a {name}") if name != "IllegalActionError" else None
    if error is None:
        continue
    error.__dict__["note"] = 1
    try:
        again = pickle.loads(pickle.dumps(error))
    except Exception as problem:
        failed.append(f"{name}: {problem}")
        continue
    if type(again) is not cls or again.args != error.args or again.note != 1:
        failed.append(f"{name}: came back as {again!r}")
print("\\n".join(failed) or "all pickled")
"""


def test_every_error_pickles_with_tblib_installed() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "all pickled", done.stdout
