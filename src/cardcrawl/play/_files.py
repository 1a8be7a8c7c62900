"""Record files: written whole or not at all, read as UTF-8 text."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile

from cardcrawl.errors import RecordFileError

__all__ = ["read_text", "write_text"]


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` in UTF-8 through a temporary file beside it, which then
    replaces ``path`` in one step: a reader never finds half a file, and a failed write
    leaves any file that was there as it was.

    Raises:
        RecordFileError: the file cannot be written (no such folder, no permission).
    """
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder
        )
    except OSError as exc:
        raise RecordFileError(
            f"cannot write a record to {target!r}: {exc.strerror or exc}", path=target
        ) from None
    try:
        # mkstemp makes the file private (0o600); a record is as readable as any
        # file written in place, or keeps the mode of the file it replaces.
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            mode = 0o644
        os.chmod(temporary, mode)
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise RecordFileError(
            f"cannot write a record to {target!r}: {exc.strerror or exc}", path=target
        ) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def read_text(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of the record file ``path``.

    Raises:
        RecordFileError: there is no such file, or it cannot be read (a folder, no
            permission, not UTF-8 text).
    """
    source = os.fspath(path)
    try:
        with open(source, encoding="utf-8") as stream:
            return stream.read()
    except FileNotFoundError:
        raise RecordFileError(f"no record file at {source!r}", path=source) from None
    except UnicodeDecodeError as exc:
        raise RecordFileError(
            f"cannot read the record file {source!r}: it is not UTF-8 text ({exc.reason} "
            f"at byte {exc.start})",
            path=source,
        ) from None
    except OSError as exc:
        raise RecordFileError(
            f"cannot read the record file {source!r}: {exc.strerror or exc}", path=source
        ) from None
