"""Old public names that still answer for one release, with a ``DeprecationWarning``.

A package whose public surface was narrowed lists each name it no longer promises and
where the object lives now; :func:`moved_names` makes the module ``__getattr__`` (PEP 562)
that finds it there and says so. The object is the very same one, so code that still
uses an old name keeps working until the name is removed.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Mapping
from typing import Any

__all__ = ["MovedNames", "moved_names"]


class MovedNames:
    """A module's ``__getattr__`` (PEP 562) that answers each old name it was given.

    Attributes:
        module: the package whose surface no longer lists the names.
        moved: each old name, mapped to the module it is read from now
            (``module:attr`` when the object's own name differs).
    """

    def __init__(self, module: str, moved: Mapping[str, str]) -> None:
        self.module = module
        self.moved = dict(moved)

    def __call__(self, name: str) -> Any:
        target = self.moved.get(name)
        if target is None:
            raise AttributeError(f"module {self.module!r} has no attribute {name!r}")
        home, _, attribute = target.partition(":")
        attribute = attribute or name
        if any(part.startswith("_") for part in home.split(".")):
            advice = "it is an implementation detail, with no public replacement"
        else:
            advice = f"import {attribute} from {home} instead"
        warnings.warn(
            f"{self.module}.{name} is no longer public and will be removed in the next "
            f"release; {advice}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(home), attribute)


def moved_names(module: str, moved: Mapping[str, str]) -> MovedNames:
    """The ``__getattr__`` of ``module`` that answers each old name of ``moved``.

    Args:
        module: the package whose surface no longer lists the names.
        moved: each old name, mapped to the module it is read from now (``module:attr``
            when the object's own name differs).

    Returns:
        A callable for the module's ``__getattr__``: it warns and returns the object for
        an old name, and raises ``AttributeError`` for any other.

    Examples:
        >>> import warnings
        >>> getter = moved_names("example", {"sqrt": "math", "root": "math:sqrt"})
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     getter("root")(4.0)
        2.0
        >>> caught[0].category.__name__, "import sqrt from math instead" in str(caught[0].message)
        ('DeprecationWarning', True)
        >>> getter("cube")
        Traceback (most recent call last):
        ...
        AttributeError: module 'example' has no attribute 'cube'
    """
    return MovedNames(module, moved)
