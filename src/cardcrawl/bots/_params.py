"""Bot parameters: what a bot declares it can be tuned on, and parameter files.

A bot factory (a bot class, usually) declares the parameters it takes as keyword
arguments in a class attribute ``parameters``, a tuple of :class:`Parameter`; each has
a default, so the bot plays without them. :func:`cardcrawl.tune.tune` searches them,
and a parameter file (JSON: ``{"bot": NAME, "parameters": {...}}``) gives them back:
``NAME:FILE.json`` names the bot with the file's values wherever a bot is named
(``make_bot``, ``simulate``, ``--bot heuristic:params.json``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from cardcrawl.errors import OptionsError

__all__ = ["Parameter", "bot_parameters", "check_parameters", "read_parameter_file"]


@attrs.frozen
class Parameter:
    """One documented parameter of a bot, and the values it may take.

    Attributes:
        name: the keyword argument the bot's factory takes.
        default: the value the bot plays with when none is given.
        low: the smallest value of a number (with ``high``).
        high: the largest value of a number.
        integer: the number is a whole number.
        choices: the values of a parameter that is not a number (instead of
            ``low`` and ``high``).
        description: what it changes, in one line.

    Examples:
        >>> from cardcrawl.bots import Parameter
        >>> Parameter("exploration", 0.7, low=0.0, high=2.0).check(2.5)
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: parameter exploration is a number from 0.0 to 2.0, not 2.5
    """

    name: str
    default: Any
    low: float | None = None
    high: float | None = None
    integer: bool = False
    choices: tuple[Any, ...] | None = None
    description: str = ""

    def check(self, value: Any) -> Any:
        """``value``, checked to be one this parameter takes.

        Raises:
            OptionsError: it is not.
        """
        if self.choices is not None:
            if value not in self.choices:
                raise OptionsError(
                    f"parameter {self.name} is one of {list(self.choices)}, not {value!r}"
                )
            return value
        number = (
            isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        )
        if not number or (self.integer and value != int(value)):
            kind = "a whole number" if self.integer else "a number"
            raise OptionsError(
                f"parameter {self.name} is {kind} from {self.low} to {self.high}, not {value!r}"
            )
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise OptionsError(
                f"parameter {self.name} is a number from {self.low} to {self.high}, not {value!r}"
            )
        return int(value) if self.integer else value


def bot_parameters(factory: Any) -> tuple[Parameter, ...]:
    """The parameters a bot factory declares (its ``parameters`` attribute), or none.

    Examples:
        >>> from cardcrawl.bots import ISMCTSBot, RandomBot, bot_parameters
        >>> [p.name for p in bot_parameters(ISMCTSBot)], bot_parameters(RandomBot)
        (['exploration', 'common_draws'], ())
    """
    declared = getattr(factory, "parameters", ())
    if not isinstance(declared, Sequence) or not all(isinstance(p, Parameter) for p in declared):
        return ()
    return tuple(declared)


def check_parameters(factory: Any, values: Mapping[str, Any], bot: str) -> dict[str, Any]:
    """``values``, checked against what the factory declares.

    Raises:
        OptionsError: a name is not a parameter of the bot, or a value out of range.

    Examples:
        >>> from cardcrawl.bots import ISMCTSBot
        >>> from cardcrawl.bots._params import check_parameters
        >>> check_parameters(ISMCTSBot, {"exploration": 1.2}, "ismcts")
        {'exploration': 1.2}
        >>> check_parameters(ISMCTSBot, {"depth": 3}, "ismcts")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: bot ismcts has no parameter 'depth'; its parameters: ...
    """
    declared = {p.name: p for p in bot_parameters(factory)}
    checked = {}
    for name, value in values.items():
        parameter = declared.get(name)
        if parameter is None:
            known = ", ".join(declared) or "none (it declares no parameters)"
            raise OptionsError(f"bot {bot} has no parameter {name!r}; its parameters: {known}")
        checked[name] = parameter.check(value)
    return checked


def read_parameter_file(path: str | Path) -> tuple[str, dict[str, Any]]:
    """The bot's name and parameters a parameter file holds.

    Raises:
        OptionsError: the file cannot be read, is not JSON, or is not
            ``{"bot": NAME, "parameters": {NAME: VALUE, ...}}``.

    Examples:
        >>> import json, pathlib, tempfile
        >>> from cardcrawl.bots._params import read_parameter_file
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "params.json"
        >>> _ = path.write_text(json.dumps({"bot": "ismcts", "parameters": {"exploration": 1}}))
        >>> read_parameter_file(path)
        ('ismcts', {'exploration': 1})
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise OptionsError(f"cannot read the parameter file {str(path)!r}: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise OptionsError(
            f"the parameter file {str(path)!r} is not JSON that can be read: "
            f"{type(exc).__name__}: {exc}"
        ) from None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("bot"), str)
        or not isinstance(data.get("parameters"), dict)
    ):
        raise OptionsError(
            f"the parameter file {str(path)!r} is not "
            '{"bot": NAME, "parameters": {NAME: VALUE, ...}}'
        )
    return data["bot"], dict(data["parameters"])
