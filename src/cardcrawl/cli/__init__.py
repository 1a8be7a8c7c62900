"""The command line: ``cardcrawl games``, ``play``, ``replay``, ``render``, ``simulate``.

Every command works for any registered game or variant, plug-ins and ``--import``
modules included; ``main`` is the entry point of the ``cardcrawl`` script and of
``python -m cardcrawl``.

Examples:
    >>> import contextlib, io
    >>> from cardcrawl.cli import main
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = main(["games"])
    >>> code, "escape-from-haydes-tuybe" in out.getvalue()
    (0, True)
"""

from cardcrawl.cli._main import main

__all__ = ["main"]
