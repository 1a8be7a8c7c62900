"""The Mapless House oracle: a player that cheats, to bound the bots' strength from above.

It is shown the true state, generator included, so every card still to be drawn is
known to it (the decks' order is the generator's). It is no bot: it is registered as an
oracle (:mod:`cardcrawl.bots._oracles`), not among the fair players, and refuses to
play from an observation.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from cardcrawl.errors import CardcrawlError
from cardcrawl.kit._grid import Cell, Grid, distance
from cardcrawl.mapless._actions import Action
from cardcrawl.mapless._bots import MaplessHeuristicBot, _build_costs, _cell, _steps_to
from cardcrawl.mapless._state import Ending, MaplessState, Phase

__all__ = ["MaplessOracleBot"]

_Key = tuple[Any, ...]

#: The turn limits (M-12) of the search's first passes, before ``hunt_turns``.
_CAPS = (6, 8, 10, 12, 16, 20)


class _OutOfBudgetError(Exception):
    """The search tried more positions than it may for one decision."""


class MaplessOracleBot:
    """An oracle for The Mapless House: it **cheats**, and its results are only an
    upper bound on what a fair bot can do.

    Its ``choose`` is given the true state (``sees_state``), not an observation, and it
    plays with full knowledge of the draws to come: the state's generator decides every
    Narrative, Mind and Body card still to be turned, and ``game.step`` on a copy of the
    state turns them exactly as the game will. Until ``endgame`` Narrative cards or fewer
    are left it builds as :class:`~cardcrawl.mapless.MaplessHeuristicBot` does; from then
    on it searches, depth first, for a line of play that escapes: each card placed on one
    of the plan's ``width`` cheapest cells, the Exit on each candidate (M-11), and the
    whole hunt exactly, every Move and Expand placement tried (M-12 to M-20), the
    Encounters and the ♣A's arrival known in advance. Once a line is found it is
    played out (nothing can stray from it: the game is deterministic given the
    generator). A line must escape within ``hunt_turns`` turns of phase two (M-12):
    the heuristic's escapes take about six. With no escaping line (or the search out of
    its budget of ``budget`` positions per decision) it plays as the heuristic.

    It is never weaker than the heuristic, seed for seed: until its first search it
    has played the heuristic's actions, and if that search finds no escape it goes on as
    the heuristic would from the same position. The lines searched are not all lines,
    so its escape rate is a lower bound on the perfect-information optimum, which is
    itself an upper bound on any fair player's.

    Raises (from ``choose``):
        CardcrawlError: it was given an observation rather than a state (as
            ``simulate``, ``play_game`` and the CLI give every player).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless._oracle import MaplessOracleBot
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> state = game.initial_state(seed=3)
        >>> oracle = MaplessOracleBot(game, seed=3)
        >>> while not game.is_terminal(state):
        ...     state = game.step(state, oracle.choose(game, state, game.legal_actions(state)))
        >>> game.outcome(state).label
        'escaped'
        >>> oracle.choose(game, game.observe(state, 0), ())  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.CardcrawlError: the Mapless House oracle plays from the true state ...
    """

    #: Whoever plays it passes the state, not an observation.
    sees_state = True

    def __init__(
        self,
        game: Any,
        seed: int,
        seat: int = 0,
        *,
        endgame: int = 3,
        width: int = 4,
        hunt_turns: int = 20,
        budget: int = 200_000,
    ) -> None:
        self.endgame = endgame
        self.hunt_turns = hunt_turns
        self.width = width
        self.budget = budget
        self._heuristic = MaplessHeuristicBot(game, seed, seat)
        self._line: deque[Action] = deque()
        self._hopeless = False
        # The game is deterministic given the state: a position with no escape by some
        # turn has none by any earlier turn either. Each lost position, the latest turn.
        self._lost: dict[_Key, int] = {}
        self._steps: dict[tuple[Grid, Cell], dict[Cell, int]] = {}
        #: Decisions whose search ran out of budget (then the heuristic chose).
        self.out_of_budget = 0

    def choose(self, game: Any, state: Any, legal_actions: Sequence[Action]) -> Action:
        """The next action of an escaping line if there is one, else the heuristic's."""
        if not isinstance(state, MaplessState):
            raise CardcrawlError(
                "the Mapless House oracle plays from the true state (it cheats, to measure "
                f"an upper bound), and was given a {type(state).__name__}: play it with "
                "benchmarks/strength.py, which passes the state to players with sees_state"
            )
        if self._line:
            action = self._line.popleft()
            if action in legal_actions:
                return action
            self._line.clear()  # pragma: no cover - a deterministic game keeps to the line
        if not self._hopeless and self._searching(state):
            self._nodes = 0
            try:
                line = self._deepening(game, state)
            except _OutOfBudgetError:
                self.out_of_budget += 1
                line = None
            if line is None:
                self._hopeless = True
            else:
                self._line.extend(line)
                return self._line.popleft()
        return self._heuristic.choose(game, game.observe(state, 0), legal_actions)

    def _searching(self, state: MaplessState) -> bool:
        return (
            state.exit_cell is not None
            or state.phase is Phase.PLACE_EXIT
            or (len(state.narrative) <= self.endgame)
        )

    # -------------------------------------------------------------- the search
    def _deepening(self, game: Any, state: MaplessState) -> list[Action] | None:
        """:meth:`_win` with the turn limit raised step by step: most escapes are short,
        and a short limit spares the search the long hopeless lines beside them."""
        for cap in (*(c for c in _CAPS if c < self.hunt_turns), self.hunt_turns):
            if cap < state.turn:
                continue
            self._cap = cap
            line = self._win(game, state)
            if line is not None:
                return line
        return None

    def _win(self, game: Any, state: MaplessState) -> list[Action] | None:
        """A line of play from ``state`` that escapes by turn ``_cap``, among those
        searched, or None."""
        if state.ending is not None:
            return [] if state.ending is Ending.ESCAPED else None
        if state.turn > self._cap or state.turn + self._moves_left(state) - 1 > self._cap:
            return None
        key = _key(state)
        if self._lost.get(key, -1) >= self._cap:
            return None
        self._nodes += 1
        if self._nodes > self.budget:
            raise _OutOfBudgetError
        for action in self._candidates(game, state):
            line = self._win(game, game.step(state, action))
            if line is not None:
                line.insert(0, action)
                return line
        self._lost[key] = self._cap
        return None

    def _moves_left(self, state: MaplessState) -> int:
        """At least how many Moves the player needs to reach the Exit: one a turn, so
        the search need not go on where they cannot arrive in time. Over the cards on the
        table once no more can come (M-13); before that, cards yet to come could open a
        shorter way, so as the crow flies."""
        if state.exit_cell is None:
            return 0
        if state.narrative or state.drawn is not None:
            return distance(state.player, state.exit_cell)
        return self._steps_for(state).get(state.player, len(state.table))

    def _steps_for(self, state: MaplessState) -> dict[Cell, int]:
        assert state.exit_cell is not None
        where = (state.table, state.exit_cell)
        steps = self._steps.get(where)
        if steps is None:
            steps = self._steps[where] = _steps_to(*where)
        return steps

    def _candidates(self, game: Any, state: MaplessState) -> Sequence[Action]:
        """The actions searched, likeliest first."""
        legal: Sequence[Action] = game.legal_actions(state)
        if state.phase is Phase.PLACE and state.exit_cell is None:
            obs = game.observe(state, 0)
            costs = _build_costs(game, obs, legal)
            return sorted(legal, key=costs.__getitem__)[: self.width]
        if state.phase is Phase.MOVE and state.exit_cell is not None:
            steps = self._steps_for(state)
            far = len(state.table)
            return sorted(legal, key=lambda a: steps.get(_cell(a), far))
        return legal


def _key(state: MaplessState) -> _Key:
    """What decides the game from here: the state without its events."""
    return (
        state.phase,
        state.turn,
        state.table,
        state.last_room,
        state.narrative,
        state.mind,
        state.body,
        state.mind_aside,
        state.body_aside,
        state.held,
        state.drawn,
        state.mind_card,
        state.player,
        state.spade,
        state.club,
        state.spade_left_exit,
        state.ran_dry,
        state.rng,
    )
