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
from collections.abc import Mapping
from typing import Any

from cardcrawl.core._notation import (
    card_part,
    cards_part,
    cards_text,
    cell_or_none,
    cell_part,
    check_parts,
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
from cardcrawl.errors import ParseError, short_repr
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
_ROW_ITEM = re.compile(r"([1-9][0-9]{0,5})?\.|(10|[2-9AJQK])([SHDC])")

# Which field each of the game's state problems is about (see state_problems).
_PROBLEM_FIELDS = {
    "begins once the Exit is placed": "phase",
    "draws from an empty deck": "phase",
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


# The parts game.build takes: the state's fields that the notation does not imply.
_PARTS = (
    "table", "phase", "drawn", "mind_card", "ending", "turn", "player", "spade", "club",
    "last_room", "held", "mind_aside", "body_aside", "refused", "narrative", "mind", "body",
    "ran_dry", "spade_left_exit", "rng", "explicit_chance",
)  # fmt: skip


def _card_part(field: str, value: Any) -> Card | None:
    return None if value is None else card_part(field, value, example="KS")


def _cards_part(field: str, value: Any) -> tuple[Card, ...]:
    return cards_part(field, value, example="2H 9D")


def _cell_part(field: str, value: Any) -> str:
    return cell_code(cell_part(field, value))


def _flag_part(field: str, value: Any) -> bool:
    if type(value) is not bool:
        raise fail(field, f"True or False, not {short_repr(value)}")
    return value


def _table_part(value: Any) -> Grid:
    if not isinstance(value, Mapping):
        raise fail("table", f"a mapping of cells to cards, not {short_repr(value)}")
    cards = {(0, 0): ENTRANCE}
    for cell, card in value.items():
        _cell_part("table", cell)
        placed = _card_part("table", card)
        assert placed is not None
        cards[cell] = placed
    if cards[(0, 0)] != ENTRANCE:
        raise fail("table", "the Entrance (AD) lies at (0, 0)")
    if list(cards.values()).count(ENTRANCE) > 1:
        raise fail("table", "the Entrance (AD) lies at (0, 0) only")
    return Grid(cards)


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

    def compose(self, game: Any, parts: Mapping[str, Any]) -> str:
        """The notation of the position that ``parts`` describe (see ``game.build``)."""
        check_parts(game, parts, _PARTS)
        get = parts.get
        table = _table_part(get("table", {}))
        drawn, mind_card = (
            _card_part("drawn", get("drawn")),
            _card_part("mind_card", get("mind_card")),
        )
        ending = get("ending")
        phase = get("phase")
        if phase is None:
            if ending is not None:
                phase = Phase.OVER
            elif drawn is not None:
                phase = Phase.PLACE_EXIT if drawn == EXIT else Phase.PLACE
            else:
                # M-12: phase two, which opens with a Move, starts once the Exit is on the
                # table; until then the house waits on its next Narrative card (M-9).
                phase = Phase.MOVE if EXIT in table.values() else Phase.DRAW
        phase_name = phase.value if isinstance(phase, Phase) else phase
        ending_name = ending.value if isinstance(ending, Ending) else ending
        if not isinstance(phase_name, str) or (
            ending is not None and not isinstance(ending_name, str)
        ):
            raise fail("phase", f"a Phase or its name, not {short_repr(phase)}")
        # A card or an ending that the phase would not hold is refused, not dropped.
        for key, value, phases in (
            ("drawn", drawn, ("place", "place-exit")),
            ("mind_card", mind_card, ("draw-body",)),
            ("ending", ending, ("over",)),
        ):
            if value is not None and phase_name not in phases:
                raise fail(key, f"given, but only phase {' or '.join(phases)} holds one")
        if phase_name == "place-exit" and drawn not in (None, EXIT):
            raise fail("drawn", "in phase place-exit, the card drawn is the Exit (AH)")
        detail = {"place": drawn, "draw-body": mind_card}.get(phase_name)
        if phase_name == "over":
            text = f"over:{ending_name}"
        elif detail is not None:
            text = f"{phase_name}:{detail.code}"
        else:
            text = phase_name
        tokens = [table_text(table), f"phase={text}"]
        turn = get("turn", 0)
        if type(turn) is not int or turn < 0:
            raise fail("turn", f"a count (0, 1, 2, ...), not {short_repr(turn)}")
        if turn:
            tokens.append(f"turn={turn}")
        tokens.append(f"player={_cell_part('player', get('player', (0, 0)))}")
        for key in ("spade", "club", "last_room"):
            if get(key) is not None:
                tokens.append(f"{key}={_cell_part(key, get(key))}")
        for key in ("held", "mind_aside", "body_aside", "refused", *_DECKS):
            cards = _cards_part(key, get(key, ()))
            if cards:
                tokens.append(f"{key}={cards_text(cards)}")
        for key in _FLAGS[:2]:
            if _flag_part(key, get(key, False)):
                tokens.append(key)
        rng = get("rng", 0)
        if type(rng) is not int or not 0 <= rng < 1 << 64:
            raise fail("rng", f"an integer from 0 to 2**64 - 1, not {short_repr(rng)}")
        tokens.append(f"rng={rng_text(rng)}")
        if _flag_part("explicit_chance", get("explicit_chance", False)):
            tokens.append("explicit_chance")
        return " ".join(tokens)

    def _read(self, game: Any, text: str, *, observed: bool) -> MaplessState:
        from cardcrawl.mapless._rules import closed_cells

        what = f"a{'n observation' if observed else ' position'} of {game.title or game.name}"
        keys, flags = (_OBSERVED_KEYS, _OBSERVED_FLAGS) if observed else (_KEYS, _FLAGS)
        first, fields, words = parse_fields(text, keys, flags, what=what, first="table")
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
            rest = Counter(game.stack_sources.get(key, ())) - elsewhere
            decks[key] = Deck(piles[key], tuple(rest.elements()))
        return MaplessState(
            phase=phase,
            turn=parse_int_field("turn", fields.get("turn", "0")),
            table=table,
            closed=closed_cells(table, game._corridor),
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
