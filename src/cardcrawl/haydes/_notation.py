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
from collections.abc import Sequence
from typing import Any

from cardcrawl.core._notation import (
    cards_text,
    fail,
    field_by_words,
    parse_cards_field,
    parse_fields,
    parse_int_field,
    parse_rng_field,
    rng_text,
    validated,
)
from cardcrawl.errors import PlayerError
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


_WEIGHT = re.compile(r"([1-9][0-9]{0,17})\*")


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


def _write(game: Any, state: Any, *, observed: bool) -> str:
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
    parts.append(f"unseen={_beliefs_text(state, _origins(game))}")
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
        return _write(game, state, observed=False)

    def write_observation(self, game: Any, observation: HaydesObservation) -> str:
        """The notation of what a seat knows: no generator, no stacks."""
        return _write(game, observation, observed=True)

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

    def _read(self, game: Any, text: str, *, observed: bool) -> tuple[HaydesState, int]:
        what = f"a{'n observation' if observed else ' position'} of {game.title or game.name}"
        keys, flags = (_OBSERVED_KEYS, ()) if observed else (_KEYS, _FLAGS)
        first_token, fields, words = parse_fields(text, keys, flags, what=what)
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
