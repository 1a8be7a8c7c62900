"""The position notation of The Mapless House: a state as one line of text.

The first token is the table, drawn row by row from the top (the highest ``y``) down,
rows joined by ``/``: each card by its code, ``.`` for an empty cell and ``n.`` for a run
of ``n`` empty cells, trailing empty cells left out. The Entrance (``AD``) lies at
``(0, 0)``, so where it stands in the rows gives every other card its cell. Then come
``key=value`` fields and flags, the ones at their default left out::

    AD phase=place:KS player=0,0 rng=0000000000000001

Everything else is implied: the Exit's cell is where ``AH`` lies, the closed cells
follow from the table (M-6), and the unordered rest of each deck is every card of that
deck found nowhere else (M-2). Only the stacked top of a deck, drawn first, is written.
The page *Position notation* of the documentation gives the grammar.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from cardcrawl.core._notation import (
    cards_text,
    cell_or_none,
    fail,
    field_by_words,
    parse_cards_field,
    parse_cell_field,
    parse_fields,
    parse_int_field,
    parse_optional_cell,
    parse_rng_field,
    rng_text,
    validated,
)
from cardcrawl.errors import ParseError
from cardcrawl.kit._cards import Card
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Grid, bounds, cell_code
from cardcrawl.mapless._state import Ending, MaplessObservation, MaplessState, Phase

__all__ = ["MaplessNotation", "table_text"]

ENTRANCE = Card.parse("AD")
EXIT = Card.parse("AH")

# The fields in the order they are written, then the flags.
_KEYS = (
    "phase", "turn", "player", "spade", "club", "last_room", "held", "mind_aside",
    "body_aside", "refused", "narrative", "mind", "body", "rng",
)  # fmt: skip
_OBSERVED_KEYS = tuple(k for k in _KEYS if k not in ("narrative", "mind", "body", "rng"))
_FLAGS = ("ran_dry", "spade_left_exit", "explicit_chance")
_OBSERVED_FLAGS = ("ran_dry", "spade_left_exit")
_DECKS = ("narrative", "mind", "body")

_PHASES = {phase.value: phase for phase in Phase}
_ENDINGS = {ending.value: ending for ending in Ending}
_ROW_ITEM = re.compile(r"([1-9][0-9]{0,2})?\.|(10|[2-9AJQK])([SHDC])")

# Which field each of the game's state problems is about (see state_problems).
_PROBLEM_FIELDS = {
    "the Entrance": "table",
    "not one piece": "table",
    "closed cells": "table",
    "the Exit is not on its cell": "table",
    "cannot lie on the table": "table",
    "the ♠A cannot have left": "spade_left_exit",
    "♠A": "spade",
    "♣A": "club",
    "the player is not on a table card": "player",
    "drawn card": "phase",
    "an ending": "phase",
    "the Exit waits": "phase",
    "Narrative card to place": "phase",
    "a turned Mind card": "phase",
    "last_room": "last_room",
    "turn must be": "turn",
    "rng must be": "rng",
    "the Narrative deck holds": "narrative",
    "the Mind deck holds": "mind",
    "the Body deck holds": "body",
    "the Mind Aside pile holds": "mind_aside",
    "the Body Aside pile holds": "body_aside",
    "the Refused pile holds": "refused",
    "the cards holding the player": "held",
    "no card can hold the player": "held",
}


def table_text(table: Grid) -> str:
    """The table as rows of card codes, the top row first (see the module).

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> from cardcrawl.mapless._notation import table_text
        >>> table_text(Grid({(0, 0): Card.parse("AD"), (1, 1): Card.parse("KS")}))
        '.KS/AD'
    """
    if not table:
        return "-"
    low_x, low_y, high_x, high_y = bounds(table)
    rows = []
    for y in range(high_y, low_y - 1, -1):
        row, gap = [], 0
        for x in range(low_x, high_x + 1):
            card = table.get((x, y))
            if card is None:
                gap += 1
                continue
            if gap:
                row.append("." if gap == 1 else f"{gap}.")
                gap = 0
            row.append(card.code)
        rows.append("".join(row))
    return "/".join(rows)


def _parse_table(text: str) -> Grid:
    if text == "-":
        raise fail("table", "the Entrance (AD) is always on the table")
    placed: dict[tuple[int, int], Card] = {}
    for row, line in enumerate(text.split("/")):
        column, at = 0, 0
        while at < len(line):
            item = _ROW_ITEM.match(line, at)
            if item is None:
                raise fail(
                    "table",
                    f"row {row + 1} has {line[at : at + 6]!r} where a card code (such as KS or "
                    "10H), '.' or a count of empty cells ('3.') belongs",
                )
            if item[2] is None:
                column += int(item[1] or 1)
            else:
                placed[(column, row)] = Card.parse(item[2] + item[3])
                column += 1
            at = item.end()
    entrances = [spot for spot, card in placed.items() if card == ENTRANCE]
    if len(entrances) != 1:
        raise fail(
            "table",
            f"the Entrance (AD) lies at (0, 0) and places the other cards; found it "
            f"{len(entrances)} times",
        )
    (ex, ey), = entrances  # fmt: skip
    return Grid({(column - ex, ey - row): card for (column, row), card in placed.items()})


def _phase_text(phase: Phase, drawn: Card | None, mind_card: Card | None, ending: Any) -> str:
    if phase is Phase.PLACE and drawn is not None:
        return f"place:{drawn.code}"
    if phase is Phase.DRAW_BODY and mind_card is not None:
        return f"draw-body:{mind_card.code}"
    if phase is Phase.OVER and ending is not None:
        return f"over:{ending.value}"
    return str(phase.value)


def _parse_phase(text: str) -> tuple[Phase, Card | None, Card | None, Ending | None]:
    """(phase, drawn, mind card, ending) from ``place:KS``, ``over:escaped``, ``move``..."""
    name, colon, detail = text.partition(":")
    phase = _PHASES.get(name)
    if phase is None:
        raise fail("phase", f"{name!r} is not a phase; the phases are {', '.join(_PHASES)}")
    if phase is Phase.OVER:
        ending = _ENDINGS.get(detail)
        if ending is None:
            raise fail("phase", f"over is written over:ENDING, with one of {', '.join(_ENDINGS)}")
        return phase, None, None, ending
    if phase is Phase.PLACE or (phase is Phase.DRAW_BODY and colon):
        try:
            card = Card.parse(detail)
        except ParseError:
            raise fail("phase", f"{name} is written {name}:CARD, not {text!r}") from None
        return (phase, card, None, None) if phase is Phase.PLACE else (phase, None, card, None)
    if colon:
        raise fail("phase", f"{name} is written alone, not {text!r}")
    return phase, EXIT if phase is Phase.PLACE_EXIT else None, None, None


def _write(state: Any, *, observed: bool) -> str:
    parts = [
        table_text(state.table),
        "phase=" + _phase_text(state.phase, state.drawn, state.mind_card, state.ending),
    ]
    if state.turn:
        parts.append(f"turn={state.turn}")
    parts.append(f"player={cell_code(state.player)}")
    for key in ("spade", "club", "last_room"):
        if getattr(state, key) is not None:
            parts.append(f"{key}={cell_or_none(getattr(state, key))}")
    for key in ("held", "mind_aside", "body_aside", "refused"):
        if getattr(state, key):
            parts.append(f"{key}={cards_text(getattr(state, key))}")
    if not observed:
        for key in _DECKS:
            stacked = getattr(state, key).stacked
            if stacked:
                parts.append(f"{key}={cards_text(stacked)}")
    parts.extend(flag for flag in _OBSERVED_FLAGS if getattr(state, flag))
    if not observed:
        parts.append(f"rng={rng_text(state.rng)}")
        if state.explicit_chance:
            parts.append("explicit_chance")
    return " ".join(parts)


def _check_once(
    table: Grid, drawn: Card | None, mind_card: Card | None, piles: dict[str, tuple[Card, ...]]
) -> None:
    """Refuse a card written twice, naming the field that writes it the second time."""
    where: dict[Card, str] = {}
    # Phase place-exit holds the Exit (AH) in hand: it writes the card too.
    written = [("table", tuple(table.values())), ("phase", (drawn, mind_card))]
    for field, cards in [*written, *piles.items()]:
        for card in cards:
            if card is None:
                continue
            if card in where:
                raise fail(field, f"{card.code} is written twice: {where[card]} holds it already")
            where[card] = field


class MaplessNotation:
    """The notation of The Mapless House (see the module), for
    :meth:`~cardcrawl.GameBase.notation` and :meth:`~cardcrawl.GameBase.position`.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.position("KS/AD phase=place:5C player=0,0 rng=0000000000000007")
        >>> state.table[(0, 1)], state.drawn, len(state.narrative)
        (Card.parse('KS'), Card.parse('5C'), 23)
        >>> game.position("KS/AD phase=place:5C player=0,0 rng=7")
        Traceback (most recent call last):
        ...
        cardcrawl.errors.NotationError: rng: '7' is not a generator state: 16 hex digits (0-9, a-f)
    """

    def write(self, game: Any, state: MaplessState) -> str:
        """The notation of ``state``."""
        return _write(state, observed=False)

    def write_observation(self, game: Any, observation: MaplessObservation) -> str:
        """The notation of what the player knows: no deck order, no generator."""
        return _write(observation, observed=True)

    def read(self, game: Any, text: str) -> MaplessState:
        """The state ``text`` writes (validated by the caller)."""
        return self._read(game, text, observed=False)

    def read_observation(self, game: Any, text: str) -> MaplessObservation:
        """The observation ``text`` writes, checked as the position it comes from."""
        state = validated(game, self._read(game, text, observed=True), self.field_of)
        observation: MaplessObservation = game.observe(state, 0)
        return observation

    def field_of(self, problem: str) -> str:
        """The field a problem of ``state_problems`` is about."""
        return field_by_words(problem, _PROBLEM_FIELDS)

    def _read(self, game: Any, text: str, *, observed: bool) -> MaplessState:
        from cardcrawl.mapless._game import _closed_cells

        what = f"a{'n observation' if observed else ' position'} of {game.title or game.name}"
        keys, flags = (_OBSERVED_KEYS, _OBSERVED_FLAGS) if observed else (_KEYS, _FLAGS)
        first, fields, words = parse_fields(text, keys, flags, what=what)
        table = _parse_table(first)
        for key in ("phase", "player") if observed else ("phase", "player", "rng"):
            if key not in fields:
                raise fail(key, f"{what} gives its {key} (write {key}=...)")
        phase, drawn, mind_card, ending = _parse_phase(fields["phase"])
        piles = {
            key: parse_cards_field(key, fields.get(key, "-"))
            for key in ("held", "mind_aside", "body_aside", "refused", *_DECKS)
        }
        _check_once(table, drawn, mind_card, piles)
        exits = [cell for cell, card in table.items() if card == EXIT]
        # Each deck's unordered rest: every card of the deck found nowhere else (M-2).
        elsewhere = Counter(table.values())
        for cards in piles.values():
            elsewhere.update(cards)
        elsewhere.update(c for c in (drawn, mind_card) if c is not None)
        decks = {}
        for key in _DECKS:
            rest = Counter(game.stack_sources[key]) - elsewhere
            decks[key] = Deck(piles[key], tuple(rest.elements()))
        return MaplessState(
            phase=phase,
            turn=parse_int_field("turn", fields.get("turn", "0")),
            table=table,
            closed=_closed_cells(table, game._corridor),
            last_room=parse_optional_cell("last_room", fields.get("last_room", "-")),
            narrative=decks["narrative"],
            mind=decks["mind"],
            body=decks["body"],
            mind_aside=piles["mind_aside"],
            body_aside=piles["body_aside"],
            refused=piles["refused"],
            held=piles["held"],
            drawn=drawn,
            mind_card=mind_card,
            player=parse_cell_field("player", fields["player"]),
            exit_cell=exits[0] if len(exits) == 1 else None,
            spade=parse_optional_cell("spade", fields.get("spade", "-")),
            club=parse_optional_cell("club", fields.get("club", "-")),
            spade_left_exit="spade_left_exit" in words,
            ran_dry="ran_dry" in words,
            ending=ending,
            rng=0 if observed else parse_rng_field("rng", fields["rng"]),
            explicit_chance="explicit_chance" in words,
            events=(),
        )
