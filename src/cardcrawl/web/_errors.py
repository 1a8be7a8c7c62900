"""The errors of the web app, all under :class:`~cardcrawl.errors.CardcrawlError`.

:class:`~cardcrawl.errors.RequestError` (a request refused, with its HTTP status) is
re-exported from here; :class:`StorageError` is the web app's own.
"""

from __future__ import annotations

from cardcrawl.errors import CardcrawlError, RequestError

__all__ = ["RequestError", "StorageError"]


class StorageError(CardcrawlError, OSError):
    """The tables' database cannot be opened, read or written.

    Examples:
        >>> from cardcrawl.web import StorageError
        >>> isinstance(StorageError("the disk is full"), OSError)
        True
    """
