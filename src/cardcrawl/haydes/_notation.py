"""The position notation of Escape from Haydes: a state as one line of text.

The first token is the board: the layout's cells row by row, the top row (the highest
``y``) first, rows joined by ``/``, each row's cells from left to right. A face-up card
is its code (``QH``, ``10S``, ``BJ``), followed by ``!`` when its creature has been
overcome (H-8); a face-down card is ``*`` for the Build pool, ``1*`` for pool 1 (the
first Replacement deck), ``2*`` for the next; a face-down card of a mix (H-10) is ``~``
for mix 0, ``1~`` for mix 1. The layout is the game's, so the board holds no coordinates.
Then come ``key=value`` fields and flags::

    *********/***********/.../****BJ******/.../********* phase=first seats=8/8@0,0
        unseen=all/all rng=0000000000000001

The unseen cards of each pool are written after ``unseen=``, pool by pool (``/``): a
pool of the Build or the first Replacement deck as ``all`` or ``all-CARDS`` (its whole
deck but the cards that have left it), any other pool as its cards; a stacked top comes
first, before ``|``. When the unseen cards can be split between pools in more than one
way (H-10, H-12), each way is written, with its weight, joined by ``;``. The page
*Position notation* of the documentation gives the grammar.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from cardcrawl.core._notation import (
    card_part,
    cards_part,
    cards_text,
    cell_part,
    check_parts,
    fail,
    field_by_words,
    parse_cards_field,
    parse_fields,
    parse_int_field,
    parse_rng_field,
    rng_text,
    validated,
)
from cardcrawl.errors import PlayerError, short_repr
from cardcrawl.haydes._actions import Guess
from cardcrawl.haydes._creatures import Characteristic
from cardcrawl.haydes._state import (
    FACE_UP,
    MIXED,
    Aim,
    Belief,
    Ending,
    Figure,
    HaydesObservation,
    HaydesState,
    Mix,
    Phase,
)
from cardcrawl.kit._cards import Card
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell, cell_code, parse_cell_code

__all__ = ["HaydesNotation", "board_text"]

_KEYS = (
    "phase", "round", "current", "first", "seats", "shown", "discard", "removed", "mixes",
    "unseen", "stacked_first", "stacked_rolls", "rng",
)  # fmt: skip
_HIDDEN = ("stacked_first", "stacked_rolls", "rng")
_OBSERVED_KEYS = ("player", *(k for k in _KEYS if k not in _HIDDEN))
_FLAGS = ("explicit_chance",)

_PHASES = {phase.value: phase for phase in Phase}
_ENDINGS = {ending.value: ending for ending in Ending}
_GUESSES = {guess.value: guess for guess in Guess}
_CHARACTERISTICS = {c.value: c for c in Characteristic}
_BOARD_ITEM = re.compile(r"([1-9][0-9]{0,3})?([*~])|((?:10|[2-9AJQK])[SHDC]|RJ|BJ)(!?)")

# Which field each of the game's state problems is about (see state_problems); the
# first phrase a problem contains decides, so the longer phrases come first.
_PROBLEM_FIELDS = {
    # A card missing or written twice: unseen is the field that accounts for the rest.
    "does not hold each of the": "unseen",
    "the winner must be": "phase",  # the winner is written in the phase: over:escaped:N
    "every figure is on the Black Joker": "seats",
    "shown must list": "shown",
    "the player to move": "current",
    "the card aimed at": "phase",
    "a pending aim": "phase",
    "a chosen characteristic": "phase",
    "an ending": "phase",
    "a winner": "phase",
    "an encounter needs a creature": "phase",
    "the characteristic chosen": "phase",
    "layout": "board",
    "face_up and pool_of": "board",
    "the Black Joker": "board",
    "bad face-up card or pool": "board",
    "overcome cell": "board",
    "the mixes' cells": "mixes",
    "belief": "unseen",
    "has a bad row of counts": "unseen",
    "counts do not match its cells": "unseen",
    "pool ": "unseen",
    "seats": "seats",
    "seat ": "seats",
    "rng must be": "rng",
    "stacked rolls": "stacked_rolls",
    "the round": "round",
    "a stacked first player": "stacked_first",
}


def _rows(cells: Sequence[Cell]) -> list[list[int]]:
    """The layout's cell indices row by row, the top row first, each from left to right."""
    by_row: dict[int, list[int]] = {}
    for i, (_, y) in enumerate(cells):
        by_row.setdefault(y, []).append(i)
    return [sorted(by_row[y], key=lambda i: cells[i][0]) for y in sorted(by_row, reverse=True)]


def board_text(state: Any) -> str:
    """The board of a state or an observation, as the module describes it.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.haydes._notation import board_text
        >>> game = cardcrawl.load("escape-from-haydes")
        >>> board_text(game.initial_state(seed=1)).split("/")[5]
        '*****BJ*****'
    """
    rows = []
    overcome = state.overcome
    for row in _rows(state.layout):
        items = []
        for i in row:
            card, pool = state.face_up[i], state.pool_of[i]
            if card is not None:
                items.append(card.code + ("!" if state.layout[i] in overcome else ""))
            elif pool == MIXED:
                m = next(m for m, mix in enumerate(state.mixes) if state.layout[i] in mix.cells)
                items.append(f"{m or ''}~")
            else:
                items.append(f"{pool or ''}*")
        rows.append("".join(items))
    return "/".join(rows)


def _parse_board(
    cells: Sequence[Cell], text: str
) -> tuple[tuple[Card | None, ...], tuple[int, ...], dict[int, list[Cell]], frozenset[Cell]]:
    """(face_up, pool_of, the cells of each mix in dealing order, overcome cells)."""
    rows = _rows(cells)
    lines = text.split("/")
    if len(lines) != len(rows):
        raise fail("board", f"the layout has {len(rows)} rows, joined by '/'; found {len(lines)}")
    face_up: list[Card | None] = [None] * len(cells)
    pool_of = [FACE_UP] * len(cells)
    mixed: dict[int, list[int]] = {}
    overcome: set[Cell] = set()
    for r, (row, line) in enumerate(zip(rows, lines, strict=True)):
        at, items = 0, []
        while at < len(line):
            item = _BOARD_ITEM.match(line, at)
            if item is None:
                raise fail(
                    "board",
                    f"row {r + 1} has {line[at : at + 6]!r} where a card code (such as QH or "
                    "10S), '*' or '~' (with a pool or mix number before it) belongs",
                )
            items.append(item)
            at = item.end()
        if len(items) != len(row):
            raise fail("board", f"row {r + 1} of the layout has {len(row)} cells, not {len(items)}")
        for i, item in zip(row, items, strict=True):
            if item[3] is not None:
                face_up[i] = Card.parse(item[3])
                if item[4]:
                    overcome.add(cells[i])
            elif item[2] == "*":
                pool_of[i] = int(item[1] or 0)
            else:
                pool_of[i] = MIXED
                mixed.setdefault(int(item[1] or 0), []).append(i)
    mix_cells = {m: [cells[i] for i in sorted(found)] for m, found in mixed.items()}
    return tuple(face_up), tuple(pool_of), mix_cells, frozenset(overcome)


def _cells_text(cells: Sequence[Cell]) -> str:
    return ";".join(map(cell_code, cells)) or "-"


def _parse_cells(field: str, text: str) -> tuple[Cell, ...]:
    if text == "-":
        return ()
    found = []
    for part in text.split(";"):
        cell = parse_cell_code(part)
        if cell is None:
            raise fail(field, f"{part!r} is not a cell, written x,y (cells joined by ';')")
        found.append(cell)
    return tuple(found)


def _phase_text(state: Any) -> str:
    phase = state.phase
    if phase is Phase.REVEAL and state.aim is not None:
        aim = state.aim
        return f"reveal:{aim.guess.value}:{cell_code(aim.cell)}{':tuybe' if aim.tuybe else ''}"
    if phase is Phase.ROLL and state.chosen is not None:
        return f"roll:{state.chosen.value}"
    if phase is Phase.OVER and state.ending is not None:
        winner = "" if state.winner is None else f":{state.winner}"
        return f"over:{state.ending.value}{winner}"
    return str(phase.value)


def _parse_phase(
    text: str,
) -> tuple[Phase, Aim | None, Characteristic | None, Ending | None, int | None]:
    name, _, detail = text.partition(":")
    phase = _PHASES.get(name)
    if phase is None:
        raise fail("phase", f"{name!r} is not a phase; the phases are {', '.join(_PHASES)}")
    parts = detail.split(":") if detail else []
    if phase is Phase.REVEAL:
        cell = parse_cell_code(parts[1]) if len(parts) in (2, 3) else None
        guess = _GUESSES.get(parts[0]) if parts else None
        if cell is None or guess is None or parts[2:] not in ([], ["tuybe"]):
            raise fail("phase", f"reveal is written reveal:GUESS:x,y[:tuybe], not {text!r}")
        return phase, Aim(cell, guess, len(parts) == 3), None, None, None
    if phase is Phase.ROLL:
        chosen = _CHARACTERISTICS.get(detail)
        if chosen is None:
            raise fail("phase", f"roll is written roll:{'|'.join(_CHARACTERISTICS)}, not {text!r}")
        return phase, None, chosen, None, None
    if phase is Phase.OVER:
        ending = _ENDINGS.get(parts[0]) if parts else None
        winner = parse_int_field("phase", parts[1]) if len(parts) == 2 else None
        if ending is None or len(parts) > 2:
            raise fail("phase", f"over is written over:ENDING[:WINNER], not {text!r}")
        return phase, None, None, ending, winner
    if detail:
        raise fail("phase", f"{name} is written alone, not {text!r}")
    return phase, None, None, None, None


def _seats_text(seats: Sequence[Figure]) -> str:
    return ";".join(
        f"{f.charisma}/{f.endurance}@{'-' if f.cell is None else cell_code(f.cell)}" for f in seats
    )


_SEAT = re.compile(r"([0-9]{1,2})/([0-9]{1,2})@(-|-?[0-9]{1,9},-?[0-9]{1,9})")


def _parse_seats(text: str) -> tuple[Figure, ...]:
    seats = []
    for part in text.split(";"):
        seat = _SEAT.fullmatch(part)
        if seat is None:
            raise fail("seats", f"a seat is CHARISMA/ENDURANCE@x,y (or @- once out), not {part!r}")
        cell = None if seat[3] == "-" else parse_cell_code(seat[3])
        seats.append(Figure(int(seat[1]), int(seat[2]), cell))
    return tuple(seats)


def _signed_int(field: str, text: str) -> int:
    """A seat number, or -1 for none yet."""
    return -1 if text == "-1" else parse_int_field(field, text)


def _pool_text(deck: Deck, origin: Counter[Card] | None) -> str:
    stacked = f"{cards_text(deck.stacked)}|" if deck.stacked else ""
    listed = cards_text(deck.rest)
    rest = Counter(deck.rest)
    if origin is not None and not rest - origin:
        # Of the two forms, the shorter: a deck barely touched, or nearly used up.
        gone = sorted((origin - rest).elements(), key=lambda c: c.index)
        but = f"all-{cards_text(gone)}" if gone else "all"
        if len(but) <= len(listed):
            return stacked + but
    return stacked + listed


def _parse_pool(text: str, origin: Counter[Card] | None, pool: int) -> Deck:
    stacked_text, bar, rest_text = text.rpartition("|")
    stacked = parse_cards_field("unseen", stacked_text) if bar else ()
    if rest_text == "all" or rest_text.startswith("all-"):
        if origin is None:
            raise fail("unseen", f"pool {pool} is no deck of the setup: write its cards, not 'all'")
        gone = parse_cards_field("unseen", rest_text[4:]) if rest_text != "all" else ()
        missing = Counter(gone) - origin
        if missing:
            card = min(missing, key=lambda c: c.index)
            raise fail(
                "unseen", f"pool {pool}'s deck holds {card.code} fewer times than 'all-' says"
            )
        return Deck(stacked, tuple((origin - Counter(gone)).elements()))
    return Deck(stacked, parse_cards_field("unseen", rest_text))


def _beliefs_text(state: Any, origins: Sequence[Counter[Card]]) -> str:
    beliefs = state.beliefs
    written = []
    for belief in beliefs:
        pools = "/".join(
            _pool_text(deck, origins[p] if p < len(origins) else None)
            for p, deck in enumerate(belief.unseen)
        )
        weight = "" if len(beliefs) == 1 and belief.weight == 1 else f"{belief.weight}*"
        rows = "/".join(".".join(map(str, row)) for row in belief.mixed)
        written.append(f"{weight}{pools}{':' + rows if belief.mixed else ''}")
    return ";".join(written)


_WEIGHT = re.compile(r"([1-9][0-9]{0,40})\*")


def _parse_beliefs(text: str, origins: Sequence[Counter[Card]]) -> tuple[Belief, ...]:
    beliefs = []
    for part in text.split(";"):
        weight, body = 1, part
        lead = _WEIGHT.match(part)
        if lead is not None:
            weight, body = int(lead[1]), part[lead.end() :]
        pools_text, colon, rows_text = body.partition(":")
        unseen = tuple(
            _parse_pool(spec, origins[p] if p < len(origins) else None, p)
            for p, spec in enumerate(pools_text.split("/"))
        )
        rows = []
        for row in rows_text.split("/") if colon else ():
            counts = row.split(".")
            rows.append(tuple(parse_int_field("unseen", count) for count in counts))
        beliefs.append(Belief(weight, unseen, tuple(rows)))
    return tuple(beliefs)


def _mixes_text(mixes: Sequence[Mix]) -> str:
    return ";".join(cards_text(mix.known) for mix in mixes)


def write_notation(state: Any, origins: Sequence[Counter[Card]], *, observed: bool) -> str:
    """The notation of a state or an observation, its ``all`` pools read against
    ``origins`` (the setup's decks: see :func:`_origins`)."""
    parts = [board_text(state), f"phase={_phase_text(state)}"]
    if observed:
        parts.append(f"player={state.player}")
    if state.round:
        parts.append(f"round={state.round}")
    if state.current != -1:
        parts.append(f"current={state.current}")
    if state.first != -1:
        parts.append(f"first={state.first}")
    parts.append(f"seats={_seats_text(state.seats)}")
    if state.shown:
        parts.append(f"shown={_cells_text(state.shown)}")
    for key in ("discard", "removed"):
        if getattr(state, key):
            parts.append(f"{key}={cards_text(getattr(state, key))}")
    if state.mixes:
        parts.append(f"mixes={_mixes_text(state.mixes)}")
    parts.append(f"unseen={_beliefs_text(state, origins)}")
    if not observed:
        if state.stacked_first is not None:
            parts.append(f"stacked_first={state.stacked_first}")
        if state.stacked_rolls:
            parts.append(f"stacked_rolls={','.join(map(str, state.stacked_rolls))}")
        parts.append(f"rng={rng_text(state.rng)}")
        if state.explicit_chance:
            parts.append("explicit_chance")
    return " ".join(parts)


def _origins(game: Any) -> tuple[Counter[Card], Counter[Card]]:
    """The decks of the setup's two pools: the Build deck's and the Replacement deck's."""
    return Counter(game._build_cards), Counter(game._replacement_cards)


# The parts game.build takes (see HaydesNotation.compose).
_PARTS = (
    "face_up", "pools", "overcome", "phase", "aim", "chosen", "ending", "winner", "round",
    "current", "first", "seats", "shown", "discard", "removed", "unseen", "stacked_first",
    "stacked_rolls", "rng", "explicit_chance",
)  # fmt: skip


@attrs.frozen
class _Board:
    """What board_text reads, for a board built from parts (no mixes)."""

    layout: tuple[Cell, ...]
    face_up: tuple[Card | None, ...]
    pool_of: tuple[int, ...]
    overcome: frozenset[Cell]
    mixes: tuple[Mix, ...] = ()


def _mapping_part(field: str, value: Any) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise fail(field, f"a mapping of cells, not {short_repr(value)}")
    return value


def _list_part(field: str, value: Any) -> list[Any]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise fail(field, f"a sequence, not {short_repr(value)}")
    return list(value)


def _card_part(field: str, value: Any) -> Card:
    return card_part(field, value, example="QH")


def _cards_part(field: str, value: Any) -> tuple[Card, ...]:
    return cards_part(field, value, example="QH 5S")


def _seat_part(value: Any) -> Figure:
    if isinstance(value, Figure):
        return value
    if isinstance(value, tuple) and len(value) == 3:
        charisma, endurance, cell = value
        if type(charisma) is int and type(endurance) is int and min(charisma, endurance) >= 0:
            return Figure(charisma, endurance, None if cell is None else cell_part("seats", cell))
    raise fail("seats", f"a seat is (charisma, endurance, cell or None), not {short_repr(value)}")


def _phase_part(parts: Mapping[str, Any]) -> tuple[str, str]:
    """The phase's name and what follows it in the notation (``:higher:0,1``...)."""
    get = parts.get
    aim, chosen, ending, winner = get("aim"), get("chosen"), get("ending"), get("winner")
    phase = get("phase")
    if phase is None:
        phase = (
            "reveal" if aim is not None else "roll" if chosen is not None
            else "over" if ending is not None else "turn"
        )  # fmt: skip
    name = phase.value if isinstance(phase, Phase) else phase
    if name not in _PHASES:
        raise fail("phase", f"a Phase or its name ({', '.join(_PHASES)}), not {short_repr(phase)}")
    for key, value, wanted in (
        ("aim", aim, "reveal"),
        ("chosen", chosen, "roll"),
        ("ending", ending, "over"),
        ("winner", winner, "over"),
    ):
        if value is not None and name != wanted:
            raise fail(key, f"given, but only phase {wanted} holds one")
    if name == "reveal":
        if not (isinstance(aim, tuple) and len(aim) in (2, 3)):
            raise fail("aim", f"(cell, guess) or (cell, guess, tuybe), not {short_repr(aim)}")
        cell, guess, *tuybe = aim
        guess = guess.value if isinstance(guess, Guess) else guess
        if guess not in _GUESSES or tuybe not in ([], [False], [True]):
            raise fail("aim", f"(cell, guess) or (cell, guess, tuybe), not {short_repr(aim)}")
        ride = ":tuybe" if tuybe == [True] else ""
        return name, f":{guess}:{cell_code(cell_part('aim', cell))}{ride}"
    if name == "roll":
        chosen = chosen.value if isinstance(chosen, Characteristic) else chosen
        if chosen not in _CHARACTERISTICS:
            raise fail("chosen", f"a Characteristic or its name, not {short_repr(chosen)}")
        return name, f":{chosen}"
    if name == "over":
        ending = ending.value if isinstance(ending, Ending) else ending
        if ending not in _ENDINGS:
            raise fail("ending", f"an Ending or its name, not {short_repr(ending)}")
        if winner is not None and (type(winner) is not int or winner < 0):
            raise fail("winner", f"a seat, not {short_repr(winner)}")
        return name, f":{ending}" + ("" if winner is None else f":{winner}")
    return name, ""


def _derived_pools(
    game: Any, pool_of: Sequence[int], seen: Sequence[Card]
) -> list[tuple[Card, ...]]:
    """The unseen cards of the Build and the Replacement pool when only the cards seen
    are given: the seen cards left the Build deck first (face up in dealing order, then
    the discard pile, then the removed cards), as many as its face-down cells leave room
    for, the others the Replacement deck."""
    if max(pool_of, default=0) > 1:
        raise fail("unseen", "with a pool past the Replacement deck's, give the unseen cards")
    build, replacement = _origins(game)
    room = sum(build.values()) - pool_of.count(0)
    for card in seen:
        if room > 0 and build[card] > 0:
            build[card] -= 1
            room -= 1
        elif replacement[card] > 0:
            replacement[card] -= 1
        else:
            raise fail("unseen", f"{card.code} is seen more often than the decks hold it")
    return [tuple(build.elements()), tuple(replacement.elements())]


class HaydesNotation:
    """The notation of Escape from Haydes (see the module), for
    :meth:`~cardcrawl.GameBase.notation` and :meth:`~cardcrawl.GameBase.position`.

    Examples:
        >>> import attrs, cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> state = game.initial_state(seed=1, stack={"build": ["QH"], "first_player": 1})
        >>> text = game.notation(state)
        >>> for field in text.split(" ")[1:]:
        ...     print(field)
        phase=turn
        round=1
        current=1
        first=1
        seats=8/8@0,0;8/8@0,0
        unseen=QH|all-QH/all
        rng=9e3779b97f4a7c16
        >>> game.position(text) == attrs.evolve(state, events=())
        True
    """

    def write(self, game: Any, state: HaydesState) -> str:
        """The notation of ``state``."""
        return write_notation(state, _origins(game), observed=False)

    def write_observation(self, game: Any, observation: HaydesObservation) -> str:
        """The notation of what a seat knows: no generator, no stacks."""
        return write_notation(observation, _origins(game), observed=True)

    def read(self, game: Any, text: str) -> HaydesState:
        """The state ``text`` writes (validated by the caller)."""
        return self._read(game, text, observed=False)[0]

    def read_observation(self, game: Any, text: str) -> HaydesObservation:
        """The observation ``text`` writes, checked as the position it comes from."""
        state, player = self._read(game, text, observed=True)
        state = validated(game, state, self.field_of)
        try:
            game.check_player(player)
        except PlayerError as exc:
            raise fail("player", str(exc)) from None
        observation: HaydesObservation = game.observe(state, player)
        return observation

    def field_of(self, problem: str) -> str:
        """The field a problem of ``state_problems`` is about."""
        return field_by_words(problem, _PROBLEM_FIELDS)

    def compose(self, game: Any, parts: Mapping[str, Any]) -> str:
        """The notation of the position that ``parts`` describe (see ``game.build``)."""
        check_parts(game, parts, _PARTS)
        get = parts.get
        cells: tuple[Cell, ...] = game._cells
        face_up, pool_of, overcome = _table_parts(game, get)
        board_state = _Board(cells, tuple(face_up), tuple(pool_of), overcome)
        seen_up = [card for card in face_up if card is not None and card != Card.BLACK_JOKER]
        discard = _cards_part("discard", get("discard", ()))
        removed = _cards_part("removed", get("removed", ()))
        unseen = _unseen_part(game, parts, pool_of, [*seen_up, *discard, *removed])
        seats = get("seats")
        if seats is None:
            figures = list(game._setup_seats)
        else:
            figures = [_seat_part(seat) for seat in _list_part("seats", seats)]
        phase, detail = _phase_part(parts)
        shown = get("shown")
        if shown is None:
            shown_cells = [
                c for c, card in zip(cells, face_up, strict=True) if card and c != (0, 0)
            ]
        else:
            shown_cells = [cell_part("shown", c) for c in _list_part("shown", shown)]
        tokens = [board_text(board_state), f"phase={phase}{detail}", *_count_tokens(get, phase)]
        tokens.append(f"seats={_seats_text(figures)}")
        if shown_cells:
            tokens.append(f"shown={_cells_text(shown_cells)}")
        for key, cards in (("discard", discard), ("removed", removed)):
            if cards:
                tokens.append(f"{key}={cards_text(cards)}")
        tokens.append(f"unseen={unseen}")
        tokens.extend(_chance_tokens(get))
        return " ".join(tokens)

    def _read(self, game: Any, text: str, *, observed: bool) -> tuple[HaydesState, int]:
        what = f"a{'n observation' if observed else ' position'} of {game.title or game.name}"
        keys, flags = (_OBSERVED_KEYS, ()) if observed else (_KEYS, _FLAGS)
        first_token, fields, words = parse_fields(text, keys, flags, what=what, first="board")
        required = (
            ("phase", "seats", "unseen", "player")
            if observed
            else ("phase", "seats", "unseen", "rng")
        )
        for key in required:
            if key not in fields:
                raise fail(key, f"{what} gives its {key} (write {key}=...)")
        cells = game._cells
        face_up, pool_of, mix_cells, overcome = _parse_board(cells, first_token)
        phase, aim, chosen, ending, winner = _parse_phase(fields["phase"])
        known = (
            [parse_cards_field("mixes", k) for k in fields["mixes"].split(";")]
            if "mixes" in fields
            else []
        )
        if sorted(mix_cells) != list(range(len(known))):
            raise fail(
                "mixes",
                f"the board marks the cells of {len(mix_cells)} mixes; mixes= gives the known "
                f"cards of {len(known)} (one list per mix, joined by ';')",
            )
        mixes = tuple(Mix(tuple(mix_cells[m]), tuple(known[m])) for m in range(len(known)))
        beliefs = _parse_beliefs(fields["unseen"], _origins(game))
        # The Replacement deck is the last pool's cards not yet dealt to a cell.
        last = len(beliefs[0].unseen) - 1
        dealt = pool_of.count(last) + sum(row[last] for row in beliefs[0].mixed if len(row) > last)
        rolls = fields.get("stacked_rolls", "")
        state = HaydesState(
            phase=phase,
            seats=_parse_seats(fields["seats"]),
            current=_signed_int("current", fields.get("current", "-1")),
            first=_signed_int("first", fields.get("first", "-1")),
            round=parse_int_field("round", fields.get("round", "0")),
            layout=cells,
            face_up=face_up,
            pool_of=pool_of,
            shown=_parse_cells("shown", fields.get("shown", "-")),
            mixes=mixes,
            beliefs=beliefs,
            replacement_left=len(beliefs[0].unseen[last]) - dealt,
            discard=parse_cards_field("discard", fields.get("discard", "-")),
            removed=parse_cards_field("removed", fields.get("removed", "-")),
            overcome=overcome,
            aim=aim,
            chosen=chosen,
            stacked_first=(
                parse_int_field("stacked_first", fields["stacked_first"])
                if "stacked_first" in fields
                else None
            ),
            stacked_rolls=tuple(parse_int_field("stacked_rolls", r) for r in rolls.split(","))
            if rolls
            else (),
            ending=ending,
            winner=winner,
            rng=0 if observed else parse_rng_field("rng", fields["rng"]),
            explicit_chance="explicit_chance" in words,
            events=(),
        )
        player = parse_int_field("player", fields["player"]) if observed else 0
        return state, player


def _table_parts(
    game: Any, get: Callable[..., Any]
) -> tuple[list[Card | None], list[int], frozenset[Cell]]:
    """The face-up card (or ``None``) and the pool of each cell of the layout, and the
    overcome cells, from a build's ``face_up``, ``pools`` and ``overcome`` parts."""
    cells: tuple[Cell, ...] = game._cells
    index: dict[Cell, int] = game._index
    face_up: list[Card | None] = [None] * len(cells)
    face_up[index[(0, 0)]] = Card.BLACK_JOKER
    for cell, card in _mapping_part("face_up", get("face_up", {})).items():
        if cell_part("face_up", cell) not in index:
            raise fail("face_up", f"{cell_code(cell)} is not a cell of the layout")
        face_up[index[cell]] = _card_part("face_up", card)
    if face_up[index[(0, 0)]] != Card.BLACK_JOKER:
        raise fail("face_up", "the Black Joker (BJ) lies face up at (0, 0)")
    pool_of = [FACE_UP if card is not None else 0 for card in face_up]
    for cell, pool in _mapping_part("pools", get("pools", {})).items():
        i = index.get(cell_part("pools", cell))
        if i is None or face_up[i] is not None:
            raise fail("pools", f"{cell_code(cell)} is not a face-down cell of the layout")
        if type(pool) is not int or pool < 0:
            raise fail("pools", f"a pool is a number from 0, not {short_repr(pool)}")
        pool_of[i] = pool
    overcome = frozenset(
        cell_part("overcome", c) for c in _list_part("overcome", get("overcome", ()))
    )
    return face_up, pool_of, overcome


def _unseen_part(
    game: Any, parts: Mapping[str, Any], pool_of: Sequence[int], seen: Sequence[Card]
) -> str:
    """The unseen pools' text: a build's ``unseen`` part, or the pools the game's decks
    leave once the ``seen`` cards are out."""
    if "unseen" in parts:
        pools = [_cards_part("unseen", pool) for pool in _list_part("unseen", parts["unseen"])]
    else:
        pools = _derived_pools(game, pool_of, seen)
    return "/".join(
        _pool_text(Deck((), pool), origin if p < 2 else None)
        for p, (pool, origin) in enumerate(
            zip(pools, [*_origins(game), *[None] * len(pools)], strict=False)
        )
    )


def _count_tokens(get: Callable[..., Any], phase: str) -> list[str]:
    """The tokens of a build's round, player to move and first player, each left out at
    its least value."""
    tokens = []
    numbers = {"round": get("round", 0 if phase == "first" else 1)}
    numbers["current"] = get("current", -1 if phase == "first" else 0)
    numbers["first"] = get("first", -1 if phase == "first" else 0)
    for key, value in numbers.items():
        least = 0 if key == "round" else -1
        if type(value) is not int or value < least:
            raise fail(key, f"a number from {least}, not {short_repr(value)}")
        if value != least:
            tokens.append(f"{key}={value}")
    return tokens


def _chance_tokens(get: Callable[..., Any]) -> list[str]:
    """The tokens of a build's stacked first player and rolls, generator and explicit
    chance."""
    tokens = []
    first_stacked = get("stacked_first")
    if first_stacked is not None:
        if type(first_stacked) is not int or first_stacked < 0:
            raise fail("stacked_first", f"a seat, not {short_repr(first_stacked)}")
        tokens.append(f"stacked_first={first_stacked}")
    rolls = _list_part("stacked_rolls", get("stacked_rolls", ()))
    if any(type(r) is not int or r < 0 for r in rolls):
        raise fail("stacked_rolls", f"2D6 totals, not {short_repr(rolls)}")
    if rolls:
        tokens.append(f"stacked_rolls={','.join(map(str, rolls))}")
    rng = get("rng", 0)
    if type(rng) is not int or not 0 <= rng < 1 << 64:
        raise fail("rng", f"an integer from 0 to 2**64 - 1, not {short_repr(rng)}")
    tokens.append(f"rng={rng_text(rng)}")
    explicit = get("explicit_chance", False)
    if type(explicit) is not bool:
        raise fail("explicit_chance", f"True or False, not {short_repr(explicit)}")
    if explicit:
        tokens.append("explicit_chance")
    return tokens
