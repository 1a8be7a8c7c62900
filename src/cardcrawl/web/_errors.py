"""The errors of the web app, defined with it and exported by :mod:`cardcrawl.web`; like
every error of the library they derive from :class:`~cardcrawl.errors.CardcrawlError`.

* :class:`RequestError`: a request refused, with its HTTP status;
* :class:`StorageError`: the database of tables failed.
"""

from __future__ import annotations

from cardcrawl.errors import CardcrawlError

__all__ = ["RequestError", "StorageError"]


class RequestError(CardcrawlError, ValueError):
    """A request the web app (:mod:`cardcrawl.web`) refuses: a sentence saying why, and
    the HTTP status it is answered with.

    Attributes:
        status: the HTTP status, 400 to 499 (400 unless given).

    Examples:
        >>> from cardcrawl.web import RequestError
        >>> error = RequestError("no table 'x' on this server", status=404)
        >>> error.status, str(error)
        (404, "no table 'x' on this server")
    """

    # Named by its public path in tracebacks and pickles: cardcrawl.web.RequestError.
    __module__ = "cardcrawl.web"

    def __init__(self, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class StorageError(CardcrawlError, OSError):
    """The web app's database of tables (:mod:`cardcrawl.web`) cannot be opened, read
    or written.

    Examples:
        >>> from cardcrawl.web import StorageError
        >>> isinstance(StorageError("the disk is full"), OSError)
        True
    """

    # Named by its public path in tracebacks and pickles: cardcrawl.web.StorageError.
    __module__ = "cardcrawl.web"
