"""The errors of the web app, re-exported here for its modules: like every error of
the library they are defined in :mod:`cardcrawl.errors`, under
:class:`~cardcrawl.errors.CardcrawlError`.

* :class:`~cardcrawl.errors.RequestError`: a request refused, with its HTTP status;
* :class:`~cardcrawl.errors.StorageError`: the database of tables failed.
"""

from __future__ import annotations

from cardcrawl.errors import RequestError, StorageError

__all__ = ["RequestError", "StorageError"]
