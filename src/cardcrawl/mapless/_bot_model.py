"""What the Mapless House bots know how to work out from an observation.

* :func:`state_from_observation`: a state consistent with an observation. A
  :class:`~cardcrawl.mapless.MaplessObservation` holds everything but the order of the
  decks, and in cardcrawl a shuffled deck *has* no order until a card is drawn (a deck is
  a multiset), so the rebuilt state is exactly what ``game.determinize`` would give for
  the real one: the exact posterior, not an approximation.
* :class:`HuntPlanner`: an expectimax over the hunt (phase two) in a small model of it:
  the table as it stands, the Moves as the game's ``move_cells`` hook says (M-14), the
  Stalkers' steps as its ``stalker_step`` hook says (M-18, M-19), the ♣A's arrival
  (M-17), and the chance of
  being held (M-15, M-16) from the Mind and Body cards still unseen.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cardcrawl.core._random import rng_from_seed
from cardcrawl.kit._cards import Card
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell, Grid, neighbours
from cardcrawl.mapless._game import MaplessHouse
from cardcrawl.mapless._position import setup, thaw
from cardcrawl.mapless._rules import card_value, is_corridor
from cardcrawl.mapless._state import (
    CLUB_STALKER,
    ENTRANCE_CELL,
    SPADE_STALKER,
    MaplessObservation,
    MaplessState,
    Phase,
)

#: Steps a Stalker: (the Stalker's card, its cell, the player's cell, the ♠A has left the
#: Exit) -> its new cell.
StalkerStepper = Callable[[Card, Cell, Cell, bool], Cell]

__all__ = ["EncounterOdds", "HuntPlanner", "closed_cells", "state_from_observation"]


def closed_cells(table: Grid, game: Any = None) -> frozenset[Cell]:
    """The empty cells no Narrative card may take (M-6): those touching a corridor that
    already touches two cards (corridors as ``game.is_corridor`` says, when given).

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> from cardcrawl.mapless._bot_model import closed_cells
        >>> table = Grid({(0, 0): Card.parse("AD"), (0, 1): Card.parse("5S"),
        ...               (0, 2): Card.parse("KS")})
        >>> sorted(closed_cells(table))
        [(-1, 1), (1, 1)]
    """
    corridor = is_corridor if game is None else game.is_corridor
    closed: set[Cell] = set()
    for cell, card in table.items():
        if corridor(card) and table.degree(cell) >= 2:
            closed.update(n for n in neighbours(cell) if n not in table)
    return frozenset(closed)


def state_from_observation(
    observation: MaplessObservation, seed: int, *, explicit_chance: bool = False, game: Any = None
) -> MaplessState:
    """A state the player cannot tell from the one observed, with a fresh generator.

    Args:
        observation: what the player sees.
        seed: the new state's generator seed (0 to 2**64 - 1).
        explicit_chance: make chance events stop and wait for an outcome.
        game: the game (or variant) observed, whose corridors close cells (M-6); ``None``
            for the standard rules.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless._bot_model import state_from_observation
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> state = game.initial_state(seed=4)
        >>> rebuilt = state_from_observation(game.observe(state, 0), seed=9)
        >>> rebuilt == game.determinize(state, 0, seed=9)
        True
    """
    o = observation
    return MaplessState(
        phase=o.phase, turn=o.turn, table=o.table, closed=closed_cells(o.table, game),
        last_room=o.last_room, narrative=Deck.of(o.narrative_left), mind=Deck.of(o.mind_left),
        body=Deck.of(o.body_left), mind_aside=o.mind_aside, body_aside=o.body_aside,
        refused=o.refused, held=o.held, drawn=o.drawn, mind_card=o.mind_card,
        player=o.player, exit_cell=o.exit_cell, spade=o.spade, club=o.club,
        spade_left_exit=o.spade_left_exit, ran_dry=o.ran_dry, ending=o.ending,
        rng=rng_from_seed(seed), explicit_chance=explicit_chance, events=o.events,
    )  # fmt: skip


class EncounterOdds:
    """The chance of holding one's nerve (M-15) with the Mind and Body cards unseen.

    The next Mind and Body cards are uniform over the cards left in each deck (over its
    Aside pile when the deck is empty, as M-17 reshuffles it; a card worth 0 when both
    are empty). Later Encounters are assumed to draw from the same mix, which is close
    enough for planning a few turns ahead.

    Examples:
        >>> from cardcrawl.mapless._bot_model import EncounterOdds
        >>> from cardcrawl.mapless import BODY_CARDS, MIND_CARDS
        >>> odds = EncounterOdds(MIND_CARDS, BODY_CARDS)
        >>> odds.success(13, 0)  # a King: 45 of the 144 pairs sum to 12 or less
        0.6875
        >>> odds.success(4, 0), odds.held_total(13, 0)
        (1.0, 9)
    """

    @classmethod
    def of(
        cls,
        mind: Sequence[Card],
        body: Sequence[Card],
        value: Callable[[Card], int] = card_value,
    ) -> EncounterOdds:
        """The odds for these decks, remembered: the same few decks come up again and again.

        ``value`` is the game's ``card_value`` hook (M-1); the odds depend on the values
        alone, which are what is remembered.
        """
        key = (tuple(map(value, mind)), tuple(map(value, body)))
        odds = _ODDS.get(key)
        if odds is None:
            if len(_ODDS) >= 4096:
                _ODDS.clear()
            odds = _ODDS[key] = cls(mind, body, value)
        return odds

    def __init__(
        self,
        mind: Iterable[Card],
        body: Iterable[Card],
        value: Callable[[Card], int] = card_value,
    ) -> None:
        minds = [value(c) for c in mind] or [0]
        bodies = [value(c) for c in body] or [0]
        counts: dict[int, int] = {}
        for m in minds:
            for b in bodies:
                counts[m + b] = counts.get(m + b, 0) + 1
        n = len(minds) * len(bodies)
        self._lowest = min(counts)
        self._highest = max(counts)
        # For each shortfall need = threshold - held: P(sum >= need), and the rounded
        # mean of the sum when it falls short (what then holds the player, M-16).
        self._success: dict[int, float] = {}
        self._short_mean: dict[int, int] = {}
        for need in range(self._lowest + 1, self._highest + 2):
            short = [(s, k) for s, k in counts.items() if s < need]
            missed = sum(k for _, k in short)
            self._success[need] = 1.0 - missed / n
            self._short_mean[need] = round(sum(s * k for s, k in short) / missed)

    def success(self, threshold: int, held: int) -> float:
        """P(total >= threshold) with cards worth ``held`` already holding the player."""
        need = threshold - held
        if need <= self._lowest:
            return 1.0
        if need > self._highest:
            return 0.0
        return self._success[need]

    def held_total(self, threshold: int, held: int) -> int:
        """The (rounded mean) value holding the player after falling short of ``threshold``."""
        need = threshold - held
        if need <= self._lowest:
            return held
        return held + self._short_mean[min(need, self._highest + 1)]


_ODDS: dict[tuple[tuple[int, ...], tuple[int, ...]], EncounterOdds] = {}

#: Memo key of a Move decision: player, ♠A, ♠A has left the Exit, ♣A, Encounters so far.
_Key = tuple[Cell, Cell, bool, Cell | None, int]


class HuntPlanner:
    """Expectimax over the next turns of the hunt, on the table as it stands.

    The value of a position is the probability of escaping within ``horizon`` turns,
    plus a small reward for ending nearer the Exit (so that far from it the player still
    heads the right way). Stalkers move exactly as the rules say, so the planner sees
    the two facts the hunt turns on: a Stalker one step from the player after the
    player's move steps onto them, and the ♠A, once off the Exit, turns aside rather than
    step back onto it (M-19), so a player who reaches a card beside the Exit with the ♠A
    beside them, not between, walks out next turn.

    Args:
        table: the cards on the table.
        exit_cell: where the Exit is.
        odds: the Encounter odds.
        club_arrives: the Encounter number (counted over the whole game) at the end of
            whose turn the ♣A appears on the Entrance; ``None`` if it never will (it is
            already on the table).
        max_turns: the game's turn limit (M-22), or ``None``.
        horizon: how many turns ahead to look.
        game: the game (or variant) being played: its hooks decide each card's threshold
            (M-15) and each Stalker step (M-18, M-19); ``None`` for the standard rules.
        observation: what the player sees, needed with a ``game`` whose
            ``encounter_threshold`` or ``stalker_step`` is its own (they read a state).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless._bot_model import EncounterOdds, HuntPlanner
        >>> from cardcrawl.mapless import BODY_CARDS, MIND_CARDS
        >>> table = cardcrawl.Grid({(0, 0): cardcrawl.Card.parse("AD"),
        ...     (0, 1): cardcrawl.Card.parse("2S"), (0, 2): cardcrawl.Card.parse("3S"),
        ...     (0, 3): cardcrawl.Card.parse("4S"), (1, 3): cardcrawl.Card.parse("AH")})
        >>> planner = HuntPlanner(table, (1, 3), EncounterOdds(MIND_CARDS, BODY_CARDS),
        ...                       club_arrives=13, max_turns=200, horizon=6)
        >>> planner.opening_values((0, 0), spade=(1, 3))  # two Encounters, out on turn 3
        {(0, 1): 0.9801}
    """

    #: Weight of the distance reward at the horizon; far below any chance of escape.
    LEAF_WEIGHT = 0.01
    #: Per-card decay of that reward.
    LEAF_DECAY = 0.8
    #: Each turn's value is worth this much of the last: an escape now beats the same
    #: escape later, so the planner never dawdles while the ♣A draws near and holds loom.
    DISCOUNT = 0.99

    def __init__(
        self,
        table: Mapping[Cell, Card],
        exit_cell: Cell,
        odds: EncounterOdds,
        club_arrives: int | None,
        max_turns: int | None,
        horizon: int,
        game: Any = None,
        observation: MaplessObservation | None = None,
    ) -> None:
        self._threshold, self._stalker_step, self._arrival, self._touching = _hunt_rules(
            game, observation, table, exit_cell
        )
        self._exit = exit_cell
        self._odds = odds
        self._club_arrives = club_arrives
        self._max_turns = max_turns
        self._horizon = horizon
        self._deadline = 0
        self._memo: dict[_Key, float] = {}
        self.distance = self._distances_to(exit_cell)

    def _distances_to(self, goal: Cell) -> dict[Cell, int]:
        """Steps over table cards from each card to ``goal`` (breadth-first)."""
        dist = {goal: 0}
        queue = deque([goal])
        while queue:
            cell = queue.popleft()
            for n in self._touching[cell]:
                if n not in dist:
                    dist[n] = dist[cell] + 1
                    queue.append(n)
        return dist

    # ------------------------------------------------------------ roots
    def move_values(
        self, player: Cell, spade: Cell, left: bool, club: Cell | None, encounters: int
    ) -> dict[Cell, float]:
        """The value of each Move of a turn's step 2, before that turn's Encounter.

        ``encounters`` is the number of Encounters so far in the game.
        """
        self._deadline = encounters + self._horizon
        return {
            q: self._after_move(q, spade, left, club, encounters) for q in self._touching[player]
        }

    def opening_values(self, player: Cell, spade: Cell) -> dict[Cell, float]:
        """The value of each opening Move (M-12: no Encounter and no Stalker step follow)."""
        self._deadline = self._horizon
        return {
            q: 0.0 if q == spade else self._move(q, spade, False, None, 0)
            for q in self._touching[player]
        }

    def held_value(
        self, player: Cell, spade: Cell, left: bool, club: Cell | None, encounters: int, held: int
    ) -> float:
        """The value of a held player (no Move) facing the Encounter, cards worth ``held``
        already holding them."""
        self._deadline = encounters + self._horizon
        return self._encounter(player, spade, left, club, encounters, held)

    # ------------------------------------------------------- recursion
    def _move(self, player: Cell, spade: Cell, left: bool, club: Cell | None, done: int) -> float:
        key = (player, spade, left, club, done)
        value = self._memo.get(key)
        if value is None:
            value = 0.0
            for q in self._touching[player]:
                v = self._after_move(q, spade, left, club, done)
                if v > value:
                    value = v
                    if value >= 1.0:
                        break
            self._memo[key] = value
        return value

    def _after_move(self, q: Cell, spade: Cell, left: bool, club: Cell | None, done: int) -> float:
        if q in (spade, club):
            return 0.0  # M-14, M-20: walking into a Stalker
        if q == self._exit:
            return 1.0  # M-14: the Exit with no Stalker on it
        return self._encounter(q, spade, left, club, done, 0)

    def _encounter(
        self, player: Cell, spade: Cell, left: bool, club: Cell | None, done: int, held: int
    ) -> float:
        done += 1
        threshold = self._threshold[player]
        # M-18, M-19: the ♠A first, then the ♣A; M-17: the ♣A arrives at the end of the turn.
        spade_to = self._stalker_step(SPADE_STALKER, spade, player, left)
        if spade_to == player:
            return 0.0
        left = left or spade_to != spade
        if club is not None:
            club = self._stalker_step(CLUB_STALKER, club, player, left)
        elif done == self._club_arrives:
            club = self._arrival
        if club == player:
            return 0.0
        if self._max_turns is not None and done >= self._max_turns:
            return 0.0  # M-22: lost in the house
        success = self._odds.success(threshold, held) * self.DISCOUNT
        miss = self.DISCOUNT - success
        at_horizon = done >= self._deadline
        value = 0.0
        if success > 0.0:
            if at_horizon:
                value += success * self._leaf(player)
            else:
                value += success * self._move(player, spade_to, left, club, done)
        if miss > 0.0 and not at_horizon:
            # M-16: held, the player faces the same card next turn without moving.
            again = self._odds.held_total(threshold, held)
            value += miss * self._encounter(player, spade_to, left, club, done, again)
        return value

    def _leaf(self, player: Cell) -> float:
        steps = self.distance.get(player)
        if steps is None:
            return 0.0
        return float(self.LEAF_WEIGHT * self.LEAF_DECAY**steps)


def _hunt_rules(
    game: Any,
    observation: MaplessObservation | None,
    table: Mapping[Cell, Card],
    exit_cell: Cell,
) -> tuple[dict[Cell, int], StalkerStepper, Cell | None, dict[Cell, tuple[Cell, ...]]]:
    """Each table card's Encounter threshold, the Stalkers' step, where the ♣A
    arrives once a deck has run dry (M-17) and where the player may move from each
    card (M-14), by the game's hooks (the standard game's without a game), asked of one
    position rebuilt from the observation, changed for each question: the planner asks
    thousands of steps. The Moves from a card are asked once, of the position observed
    with the player on it."""
    if game is None:
        game = _standard_game()
    if observation is not None:
        view = thaw(state_from_observation(observation, 0, game=game))
    else:
        empty = {name: Deck() for name in game.stack_sources}
        view = setup(0, False, empty, Grid())
    view.table = table if isinstance(table, Grid) else Grid(table)
    view.exit_cell = exit_cell
    view.phase = Phase.DRAW_BODY  # asked, as the rules ask, at the Encounter
    threshold_of, moves_of = game.encounter_threshold, game.move_cells
    threshold = {}
    moves: dict[Cell, tuple[Cell, ...]] = {}
    for cell in table:
        view.player = cell
        threshold[cell] = threshold_of(view)
        moves[cell] = tuple(c for c in moves_of(view) if c in table)
    ask = game.stalker_step

    def step(stalker: Card, cell: Cell, player: Cell, left: bool) -> Cell:
        view.player = player
        view.spade_left_exit = left
        target: Cell = ask(view, stalker, cell)
        return target

    view.player, view.club, view.ran_dry = ENTRANCE_CELL, None, True
    return threshold, step, game.club_arrival(view), moves


@functools.cache
def _standard_game() -> MaplessHouse:
    """The standard game, whose hooks a planner given no game asks."""
    return MaplessHouse()
