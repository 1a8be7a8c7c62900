"""Shared strategies and helpers for the test suite.

Three parts:

* **Playing games.** :func:`play` plays one game of The Mapless House to its end, drawing
  every decision (and, in explicit-chance play, every chance outcome) with Hypothesis, and
  returns a :class:`Playthrough` of ``(state, action, next_state)`` steps.
  :func:`play_by_policy` does the same with a seeded :func:`cardcrawl.rng_below` policy, for
  golden transcripts and other deterministic tests.
* **An independent model of the rulings.** The ``oracle_*`` functions and :class:`Model`
  are written from RULINGS.md alone; they never call the engine's rule helpers
  (``corridor_cells``, ``exit_candidates``, ``stalker_step``, ``card_value``...), so that
  the property tests check the engine against a second reading of the rules rather than
  against itself. :class:`Model` follows the event stream of a game the way an observer
  at the table would, keeping its own table, tokens and piles.
* **Stacked scenarios.** :func:`stacked` starts a game from stacked decks and steps through
  a list of decisions given as text, checking each is legal when made.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import CHANCE, Card, Suit, rng_below, rng_from_seed
from cardcrawl.mapless import (
    CLUB_STALKER,
    ENTRANCE,
    ENTRANCE_CELL,
    EXIT,
    SPADE_STALKER,
    Action,
    CardDrawn,
    CardPlaced,
    CardRefused,
    Consumed,
    DeckRanDry,
    Encounter,
    Escaped,
    ExitPlaced,
    ExitShuffledBack,
    LostInTheHouse,
    MaplessEvent,
    MaplessHouse,
    MaplessState,
    Move,
    Moved,
    MoveSkipped,
    StalkerArrived,
    StalkerStepped,
    StalkerWaited,
    TurnStarted,
)

Cell = tuple[int, int]

#: The turn limit of random games: long enough for every ruling, short enough to be fast.
MAX_TURNS = 80

#: Seeds for random games.
seeds = st.integers(0, 2**32)


def mapless(max_turns: int | None = MAX_TURNS, **options: Any) -> MaplessHouse:
    """The Mapless House loaded from the registry with a turn limit."""
    game: MaplessHouse = cardcrawl.load("mapless-house", max_turns=max_turns, **options)
    return game


# --------------------------------------------------------------------- playing games


@attrs.frozen
class Step:
    """One step of a game: ``next_state == game.step(state, action)``."""

    state: MaplessState
    action: Action
    next_state: MaplessState


@attrs.frozen
class Playthrough:
    """A whole game: its initial state and every step to its end."""

    game: MaplessHouse
    initial: MaplessState
    steps: tuple[Step, ...]

    @property
    def states(self) -> tuple[MaplessState, ...]:
        """Every state, the initial one first."""
        return (self.initial, *(s.next_state for s in self.steps))

    @property
    def final(self) -> MaplessState:
        """The last state (terminal, unless play was cut short)."""
        return self.steps[-1].next_state if self.steps else self.initial

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action (decisions and, in explicit play, chance outcomes) in order."""
        return tuple(s.action for s in self.steps)

    @property
    def events(self) -> tuple[MaplessEvent, ...]:
        """Every event of the game in order (each state carries its step's events)."""
        return tuple(e for state in self.states for e in state.events)


def options_at(game: MaplessHouse, state: MaplessState) -> list[Action]:
    """What may be stepped with: the legal decisions, or the chance outcomes."""
    if game.current_player(state) == CHANCE:
        return [a for a, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state))


def play(
    game: MaplessHouse,
    seed: int,
    data: st.DataObject,
    *,
    explicit_chance: bool = False,
    max_steps: int = 5_000,
) -> Playthrough:
    """Play one game to its end, every choice drawn by Hypothesis from the legal ones.

    Random players are consumed early, so Hypothesis also decides whether this player is
    *evasive*: one who only takes the Moves that keep the Stalkers farthest away (up to
    four cells), which makes the late rulings (M-17, M-22) common.
    """
    evasive = data.draw(st.booleans(), label="evasive")

    def choose(state: MaplessState, options: list[Action]) -> Action:
        if evasive and isinstance(options[0], Move):
            options = _safest(options, [c for c in (state.spade, state.club) if c is not None])
        return data.draw(st.sampled_from(options))

    return _play(game, seed, choose, explicit_chance=explicit_chance, max_steps=max_steps)


def random_game_states(game: Any, seed: int) -> list[Any]:
    """Every state of one game of any ``game``, from ``initial_state(seed)`` to its end,
    each decision drawn by ``random.Random(seed).choice`` from the legal ones."""
    choose = random.Random(seed).choice
    state, states = game.initial_state(seed), []
    while not game.is_terminal(state):
        states.append(state)
        state = game.step(state, choose(game.legal_actions(state)))
    return [*states, state]


def _safest(moves: list[Action], stalkers: list[Cell]) -> list[Action]:
    def danger(move: Action) -> int:
        assert isinstance(move, Move)
        x, y = move.cell
        return min([4] + [abs(x - sx) + abs(y - sy) for sx, sy in stalkers])

    best = max(danger(m) for m in moves)
    return [m for m in moves if danger(m) == best]


def play_by_policy(
    game: MaplessHouse,
    seed: int,
    policy_seed: int,
    *,
    explicit_chance: bool = False,
    max_steps: int = 5_000,
) -> Playthrough:
    """Play one game to its end, every choice made by a seeded ``rng_below`` policy."""
    rng = rng_from_seed(policy_seed)

    def choose(_: MaplessState, options: list[Action]) -> Action:
        nonlocal rng
        rng, i = rng_below(rng, len(options))
        return options[i]

    return _play(game, seed, choose, explicit_chance=explicit_chance, max_steps=max_steps)


def _play(
    game: MaplessHouse,
    seed: int,
    choose: Callable[[MaplessState, list[Action]], Action],
    *,
    explicit_chance: bool,
    max_steps: int,
) -> Playthrough:
    state = game.initial_state(seed, explicit_chance=explicit_chance)
    initial = state
    steps: list[Step] = []
    while not game.is_terminal(state):
        assert len(steps) < max_steps, f"seed {seed}: no end after {max_steps} steps"
        options = options_at(game, state)
        assert options, f"seed {seed}: a live state offers nothing to step with"
        action = choose(state, options)
        nxt = game.step(state, action)
        steps.append(Step(state, action, nxt))
        state = nxt
    return Playthrough(game, initial, tuple(steps))


# ----------------------------------------------- an independent reading of the rulings

SPADES_2_TO_K = frozenset(Card.of(r, Suit.SPADES) for r in range(2, 14))
CLUBS_2_TO_K = frozenset(Card.of(r, Suit.CLUBS) for r in range(2, 14))
ALL_52 = Counter(Card(i) for i in range(52))


def value(card: Card | None) -> int:
    """M-1: 2-10 face value, J 11, Q 12, K 13; an ace (or no card, M-17) counts 0."""
    if card is None or card.rank == 1:
        return 0
    return card.rank


def corridor(card: Card) -> bool:
    """M-3: 2-10 are corridors."""
    return card.rank in range(2, 11)


def room(card: Card) -> bool:
    """M-3: J, Q, K are rooms."""
    return card.rank in (11, 12, 13)


def around(cell: Cell) -> list[Cell]:
    """The four cells sharing an edge with ``cell``."""
    x, y = cell
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def touching_count(table: Mapping[Cell, Card], cell: Cell) -> int:
    """M-3: the degree of ``cell``, every table card counted."""
    return sum(1 for n in around(cell) if n in table)


def manhattan(cell: Cell) -> int:
    """Distance from the Entrance at (0, 0)."""
    return abs(cell[0]) + abs(cell[1])


def empty_touching(table: Mapping[Cell, Card]) -> set[Cell]:
    """Every empty cell touching at least one table card."""
    return {n for c in table for n in around(c) if n not in table}


def oracle_place_cells(
    table: Mapping[Cell, Card], card: Card, last_room: Cell | None
) -> list[Cell]:
    """M-4 to M-7: where a drawn Narrative card (not the Exit) may go, sorted."""
    cells = []
    for cell in empty_touching(table):
        neighbours = [n for n in around(cell) if n in table]
        # M-6: never a third touching card for a corridor.
        if any(corridor(table[n]) and touching_count(table, n) >= 2 for n in neighbours):
            continue
        if corridor(card):
            if len(neighbours) != 1:  # M-4
                continue
            # M-7: a dead end pulls corridors.
            if (
                last_room is not None
                and touching_count(table, last_room) < 2
                and last_room not in neighbours
            ):
                continue
        cells.append(cell)
    return sorted(cells)


def oracle_exit_cells(table: Mapping[Cell, Card]) -> list[Cell]:
    """M-11: the empty cells at distance D + 1 touching a table card, sorted."""
    far = max(manhattan(c) for c in table)
    return sorted(c for c in empty_touching(table) if manhattan(c) == far + 1)


def oracle_moves(table: Mapping[Cell, Card], player: Cell) -> list[Cell]:
    """M-14: the table cards touching the player's cell, sorted."""
    return sorted(n for n in around(player) if n in table)


def oracle_stalker_target(stalker: Cell, player: Cell, never: Cell | None = None) -> Cell:
    """M-18 and M-19: where a Stalker goes; ``never`` is a cell it may not step onto.

    Returns ``stalker`` itself when it waits.
    """
    dx = player[0] - stalker[0]
    dy = player[1] - stalker[1]

    def toward(gap: int) -> int:
        return 1 if gap > 0 else -1 if gap < 0 else 0

    along_y = (stalker[0], stalker[1] + toward(dy))
    along_x = (stalker[0] + toward(dx), stalker[1])
    if abs(dy) >= abs(dx):  # the bigger gap first; equal gaps: up or down
        first, other, other_gap = along_y, along_x, dx
    else:
        first, other, other_gap = along_x, along_y, dy
    if first != never:
        return first
    return other if other_gap != 0 else stalker


def exhausted(left: Iterable[Card]) -> bool:
    """M-10: all twelve spades, or all twelve clubs, have left the Narrative deck."""
    gone = set(left)
    return gone >= SPADES_2_TO_K or gone >= CLUBS_2_TO_K


@attrs.define
class Model:
    """The game as an observer following its events sees it (see module docstring).

    :meth:`apply` takes the events in order; read the fields before applying an event
    to see the game as it was just before it.
    """

    table: dict[Cell, Card] = attrs.field(factory=lambda: {ENTRANCE_CELL: ENTRANCE})
    last_room: Cell | None = None
    pending: Card | None = None
    left_narrative: list[Card] = attrs.field(factory=list)
    refused: list[Card] = attrs.field(factory=list)
    player: Cell = ENTRANCE_CELL
    exit_cell: Cell | None = None
    spade: Cell | None = None
    club: Cell | None = None
    spade_left_exit: bool = False
    turn: int = 0
    encounters: int = 0
    held: tuple[Card, ...] = ()
    mind_left: int = 12
    body_left: int = 12
    mind_aside: list[Card] = attrs.field(factory=list)
    body_aside: list[Card] = attrs.field(factory=list)
    dry_turn: int | None = None
    ending: str | None = None

    def apply(self, event: MaplessEvent) -> None:
        """Follow one event."""
        if isinstance(event, CardDrawn):
            self.pending = event.card
        elif isinstance(event, CardPlaced):
            self.table[event.cell] = event.card
            if room(event.card):
                self.last_room = event.cell
            self.left_narrative.append(event.card)
            self.pending = None
        elif isinstance(event, CardRefused):
            self.refused.append(event.card)
            self.left_narrative.append(event.card)
            self.pending = None
        elif isinstance(event, ExitShuffledBack):
            self.pending = None
        elif isinstance(event, ExitPlaced):
            self.table[event.cell] = EXIT
            self.exit_cell = self.spade = event.cell
            self.pending = None
        elif isinstance(event, TurnStarted):
            self.turn = event.turn
        elif isinstance(event, Moved):
            self.player = event.target
        elif isinstance(event, DeckRanDry):
            if self.dry_turn is None:
                self.dry_turn = self.turn
            if event.deck == "Mind":
                self.mind_left, self.mind_aside = len(self.mind_aside), []
            else:
                self.body_left, self.body_aside = len(self.body_aside), []
        elif isinstance(event, Encounter):
            self.encounters += 1
            self.mind_left -= event.mind is not None
            self.body_left -= event.body is not None
            turned = tuple(c for c in (event.mind, event.body) if c is not None)
            involved = (*self.held, *turned)
            if event.held:
                self.held = involved
            else:
                self.held = ()
                self.mind_aside += [c for c in involved if c.suit is Suit.HEARTS]
                self.body_aside += [c for c in involved if c.suit is Suit.DIAMONDS]
        elif isinstance(event, StalkerStepped):
            if event.stalker == SPADE_STALKER:
                self.spade, self.spade_left_exit = event.target, True
            else:
                self.club = event.target
        elif isinstance(event, StalkerArrived):
            self.club = event.cell
        elif isinstance(event, Escaped):
            self.ending = "escaped"
        elif isinstance(event, Consumed):
            self.ending = "consumed"
        elif isinstance(event, LostInTheHouse):
            self.ending = "lost"
        else:
            assert isinstance(event, (MoveSkipped, StalkerWaited)), event


def walk_events(play: Playthrough) -> Iterator[tuple[MaplessEvent, Model]]:
    """Each event of the game with the model as it stood just before that event.

    The model is shared and changes as the iteration goes on: use it at once.
    """
    model = Model()
    for state in play.states:
        for event in state.events:
            yield event, model
            model.apply(event)


def walk_states(play: Playthrough) -> Iterator[tuple[MaplessState, Model]]:
    """Each state of the game with the model after all the events leading to it."""
    model = Model()
    for state in play.states:
        for event in state.events:
            model.apply(event)
        yield state, model


# One letter per event kind, to check the shape of a whole game with a regular expression.
_CODES: dict[type, str] = {
    CardDrawn: "d",
    CardPlaced: "p",
    CardRefused: "r",
    ExitShuffledBack: "x",
    ExitPlaced: "E",
    TurnStarted: "T",
    Moved: "m",
    MoveSkipped: "k",
    DeckRanDry: "y",
    Encounter: "e",
    StalkerWaited: "w",
    StalkerArrived: "a",
    Escaped: "W",
    Consumed: "C",
    LostInTheHouse: "L",
}


def event_code(event: MaplessEvent) -> str:
    """The letter of an event; a ♠A step is ``s``, a ♣A step ``c``."""
    if isinstance(event, StalkerStepped):
        return "s" if event.stalker == SPADE_STALKER else "c"
    return _CODES[type(event)]


def event_codes(events: Iterable[MaplessEvent]) -> str:
    """The letters of a sequence of events."""
    return "".join(event_code(e) for e in events)


# Phase one (M-9, M-10): draws dealt with until the Exit is placed.
_PHASE_ONE = r"(?:d[prx])*dE"
# A turn of phase two (M-12) up to its Encounter: Expand (M-13), Move or held (M-14, M-16),
# the decks running dry (M-17), the Encounter (M-15).
_BODY = r"T(?:d[pr])?[mk]y{0,2}e"
# A whole turn: then the ♠A steps or waits (M-18, M-19), the ♣A steps or arrives (M-17).
_TURN = _BODY + r"[sw][ca]?"
_END = (
    r"(?:T(?:d[pr])?m[WC]"  # the Move escapes or walks into a Stalker (M-14, M-20)
    r"|" + _BODY + r"(?:sC|[sw]cC|[sw]aC)"  # a Stalker's step or arrival (M-20)
    r"|" + _TURN + r"L)"  # the turn limit (M-22)
)
#: The shape of every complete game of The Mapless House, one letter per event (see
#: :func:`event_codes`): phase one, the lone opening Move (M-12, which can only end the game
#: by walking into the ♠A), then whole turns until an ending.
GAME_SHAPE = re.compile(_PHASE_ONE + r"m(?:C|(?:" + _TURN + r")*" + _END + r")")


def census(state: MaplessState) -> Counter[Card]:
    """Every card of a state, gathered from its fields (not from ``card_census``)."""
    cards: list[Card] = [*state.table.values(), *state.narrative.cards, *state.mind.cards]
    cards += [*state.body.cards, *state.mind_aside, *state.body_aside, *state.refused]
    cards += [*state.held, SPADE_STALKER, CLUB_STALKER]
    cards += [c for c in (state.drawn, state.mind_card) if c is not None]
    return Counter(cards)


# ------------------------------------------------------------------- stacked scenarios


def stacked(
    game: MaplessHouse,
    stack: Mapping[str, str | Sequence[str]],
    decisions: Sequence[str] = (),
    *,
    seed: int = 0,
    explicit_chance: bool = False,
) -> MaplessState:
    """A game from stacked decks (card texts such as ``"KS 2S"``), stepped through
    ``decisions`` (action texts)."""
    state = game.initial_state(seed, stack=dict(stack), explicit_chance=explicit_chance)
    return advance(game, state, decisions)


def advance(game: MaplessHouse, state: MaplessState, decisions: Sequence[str]) -> MaplessState:
    """Step ``state`` through ``decisions`` (action texts), each of which must be legal."""
    for text in decisions:
        action = game.parse_action(text)
        legal = options_at(game, state)
        assert action in legal, f"{text} is not legal; legal: {[str(a) for a in legal]}"
        state = game.step(state, action)
    return state
