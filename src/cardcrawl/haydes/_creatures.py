"""The creatures of Haydes: what each court card's encounter asks of a player (H-8).

A *creature table* maps a court rank (``"J"``, ``"Q"``, ``"K"``) or a single court card
(``"KH"``) to a :class:`Creature`: its name, the characteristics a player may choose to
face it with, a modifier added to the 2D6 roll, and the cost taken from the chosen
characteristic whatever the result. A card's own entry wins over its rank's.

Two tables are built in, selectable by name through the ``creatures`` option:

* ``"standard"``, the rules as written (H-8): every court card is faced with either
  characteristic, no modifier, cost 1.
* ``"denizens"``, the project's table for the rulebook's "Different Creatures" variant,
  peopled with the denizens it names: the **bone-masked footman** (J) is a thug, beaten
  with either characteristic and a roll one easier; the **horned Lucifer** (Q) cannot be
  fought, only talked round (Charisma only); the **Infernal captain** (K) commands the
  guard, either characteristic with a roll one harder; and the king of hearts is
  **Vakhraca himself**, Prince of Haydes, faced with either characteristic, a roll two
  harder, and a cost of 2.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from cardcrawl.errors import OptionsError
from cardcrawl.kit._cards import RANK_NAMES, Card

__all__ = [
    "CREATURE_TABLES",
    "DENIZENS",
    "STANDARD_CREATURES",
    "Characteristic",
    "Creature",
    "creature_for",
]


class Characteristic(enum.Enum):
    """The two characteristics of a character (H-2).

    Examples:
        Choosing one to face a creature is the action of the same name:

        >>> from cardcrawl.haydes import Characteristic, Choose, parse_action
        >>> Characteristic("charisma")
        Characteristic.CHARISMA
        >>> parse_action("endurance") == Choose(Characteristic.ENDURANCE)
        True
    """

    CHARISMA = "charisma"
    ENDURANCE = "endurance"

    def __repr__(self) -> str:
        # Valid Python, so that actions holding one paste back as code.
        return f"Characteristic.{self.name}"


_BOTH = (Characteristic.CHARISMA, Characteristic.ENDURANCE)


def _to_characteristics(value: Iterable[Any]) -> tuple[Characteristic, ...]:
    if isinstance(value, (str, Characteristic)):
        value = (value,)
    try:
        items = {Characteristic(v) for v in value}
    except (TypeError, ValueError):
        raise OptionsError(
            f"a creature's characteristics are 'charisma' and/or 'endurance', not {value!r}"
        ) from None
    return tuple(c for c in _BOTH if c in items)


def _check_int(low: int, high: int) -> Any:
    def check(_: object, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise OptionsError(
                f"a creature's {attribute.name} is an integer from {low} to {high}, not {value!r}"
            )

    return check


def _check_allowed(_: object, __: object, value: tuple[Characteristic, ...]) -> None:
    if not value:
        raise OptionsError("a creature must allow at least one characteristic")


def _check_name(_: object, __: object, value: Any) -> None:
    if not isinstance(value, str) or not value.strip():
        raise OptionsError(f"a creature's name is a non-empty string, not {value!r}")


@attrs.frozen
class Creature:
    """One kind of creature: how its encounter is fought (H-8 and the variant).

    Attributes:
        name: what the narration calls it.
        allowed: the characteristics a player may choose to face it with.
        modifier: added to the 2D6 roll; the creature is overcome when roll + modifier
            is at most the chosen characteristic.
        cost: taken from the chosen characteristic whatever the result (stops at 0).

    Examples:
        >>> from cardcrawl.haydes import Characteristic, Creature
        >>> lucifer = Creature("horned Lucifer", allowed=("charisma",))
        >>> lucifer.allowed, lucifer.modifier, lucifer.cost
        ((Characteristic.CHARISMA,), 0, 1)
    """

    name: str = attrs.field(validator=_check_name)
    allowed: tuple[Characteristic, ...] = attrs.field(
        default=_BOTH, converter=_to_characteristics, validator=_check_allowed
    )
    modifier: int = attrs.field(default=0, validator=_check_int(-12, 12))
    cost: int = attrs.field(default=1, validator=_check_int(1, 9))


def _table(entries: Mapping[str, Creature]) -> Mapping[str, Creature]:
    return MappingProxyType(dict(entries))


#: The rules as written (H-8): either characteristic, no modifier, cost 1.
STANDARD_CREATURES: Mapping[str, Creature] = _table(
    {"J": Creature("creature"), "Q": Creature("creature"), "K": Creature("creature")}
)

#: The project's table of the rulebook's denizens (see the module docstring).
DENIZENS: Mapping[str, Creature] = _table(
    {
        "J": Creature("bone-masked footman", modifier=-1),
        "Q": Creature("horned Lucifer", allowed=(Characteristic.CHARISMA,)),
        "K": Creature("Infernal captain", modifier=1),
        "KH": Creature("Vakhraca, Prince of Haydes", modifier=2, cost=2),
    }
)

#: The built-in tables, by the name the ``creatures`` option takes.
CREATURE_TABLES: Mapping[str, Mapping[str, Creature]] = MappingProxyType(
    {"standard": STANDARD_CREATURES, "denizens": DENIZENS}
)

_RANKS = ("J", "Q", "K")
_COURT_CODES = frozenset(RANK_NAMES[r] + s for r in (11, 12, 13) for s in "SHDC")


def check_table(table: Mapping[str, Any]) -> None:
    """Raise :class:`OptionsError` unless ``table`` is a valid creature table."""
    keys = set(table)
    bad = sorted(k for k in keys if k not in _RANKS and k not in _COURT_CODES)
    if bad:
        raise OptionsError(
            f"creature table keys are court ranks (J, Q, K) or court cards (such as KH); "
            f"not {', '.join(map(repr, bad))}"
        )
    missing = [r for r in _RANKS if r not in keys]
    if missing:
        raise OptionsError(
            f"a creature table needs an entry for every court rank; missing {', '.join(missing)}"
        )
    wrong = sorted(k for k, v in table.items() if not isinstance(v, Creature))
    if wrong:
        raise OptionsError(f"creature table values are Creature objects; not for {wrong}")


def creature_for(table: Mapping[str, Creature], card: Card) -> Creature | None:
    """The creature a card holds in ``table``: its own entry, else its rank's; ``None`` for a
    card the table names neither way (a table names the court cards, H-1).

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.haydes import DENIZENS, creature_for
        >>> creature_for(DENIZENS, Card.parse("KH")).name
        'Vakhraca, Prince of Haydes'
        >>> creature_for(DENIZENS, Card.parse("KS")).name, creature_for(DENIZENS, Card.parse("9S"))
        ('Infernal captain', None)
    """
    return table.get(card.code) or table.get(RANK_NAMES[card.rank])
