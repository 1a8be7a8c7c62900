"""Old public names that still answer for one release, with a ``DeprecationWarning``.

A package whose public surface was narrowed lists each name it no longer promises and
where the object lives now; :func:`moved_names` makes the module ``__getattr__`` (PEP 562)
that finds it there and says so. The object is the very same one, so code that still
uses an old name keeps working until the name is removed.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["moved_names"]


def moved_names(module: str, moved: Mapping[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``module`` that answers each old name of ``moved``.

    Args:
        module: the package whose surface no longer lists the names.
        moved: each old name, mapped to the module it is read from now (``module:attr``
            when the object's own name differs).

    Returns:
        A function for the module's ``__getattr__``: it warns and returns the object for
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

    def old_name(name: str) -> Any:
        target = moved.get(name)
        if target is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        home, _, attribute = target.partition(":")
        attribute = attribute or name
        if any(part.startswith("_") for part in home.split(".")):
            advice = "it is an implementation detail, with no public replacement"
        else:
            advice = f"import {attribute} from {home} instead"
        warnings.warn(
            f"{module}.{name} is no longer public and will be removed in the next release; "
            f"{advice}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(home), attribute)

    return old_name
