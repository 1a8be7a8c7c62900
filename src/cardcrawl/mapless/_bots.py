"""Bots for The Mapless House: the shortest-path baseline and the heuristic player."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from cardcrawl.bots._base import DeterministicPolicy
from cardcrawl.bots._params import Parameter
from cardcrawl.core._protocol import CHANCE
from cardcrawl.kit._cards import Card
from cardcrawl.kit._grid import Cell, Grid, distance
from cardcrawl.mapless._actions import Action, Move, Place, PlaceExit
from cardcrawl.mapless._bot_model import (
    EncounterOdds,
    HuntPlanner,
    closed_cells,
    state_from_observation,
)
from cardcrawl.mapless._position import WorkingDeck, thaw
from cardcrawl.mapless._rules import newly_closed
from cardcrawl.mapless._state import (
    ENTRANCE_CELL,
    EXIT,
    MaplessObservation,
    MaplessState,
    Phase,
)

__all__ = [
    "MaplessHeuristicBot",
    "MaplessPlannerBot",
    "MaplessSearchModel",
    "ShortestPathBot",
    "hunt_planner",
    "position_value",
]


class ShortestPathBot(DeterministicPolicy):
    """The Mapless House baseline: build anyhow, then walk straight for the Exit.

    It places every card on the first legal cell (in canonical order), and the Exit on
    the first candidate; in the hunt it always moves one step along a shortest path over
    table cards to the Exit, ignoring the Stalkers. Deterministic: the seed is unused,
    and :meth:`action_probabilities` is one-hot.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless._bots import ShortestPathBot
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> state = game.initial_state(seed=2)
        >>> bot = ShortestPathBot(game, seed=2)
        >>> while not game.is_terminal(state):
        ...     legal = game.legal_actions(state)
        ...     state = game.step(state, bot.choose(game, game.observe(state, 0), legal))
        >>> game.outcome(state).label
        'consumed'
    """

    def __init__(self, game: Any, seed: int, seat: int = 0) -> None:
        pass

    def choose(
        self, game: Any, observation: MaplessObservation, legal_actions: Sequence[Action]
    ) -> Action:
        """The first legal placement, or a step along a shortest path to the Exit."""
        obs = observation
        if obs.phase is not Phase.MOVE or obs.exit_cell is None:
            return legal_actions[0]
        steps = _steps_to(obs.table, obs.exit_cell)
        far = len(obs.table)
        return min(legal_actions, key=lambda a: steps.get(_cell(a), far))


def _cell(action: Action) -> Cell:
    assert isinstance(action, (Move, Place, PlaceExit))
    return action.cell


def _steps_to(table: Grid, goal: Cell) -> dict[Cell, int]:
    """Steps over table cards from each card to ``goal``."""
    steps = {goal: 0}
    queue = deque([goal])
    while queue:
        cell = queue.popleft()
        for n in table.touching_cards(cell):
            if n not in steps:
                steps[n] = steps[cell] + 1
                queue.append(n)
    return steps


# ------------------------------------------------------------------ the hunt
def hunt_planner(
    game: Any, observation: MaplessObservation, table: Grid | None = None, horizon: int = 8
) -> HuntPlanner:
    """A :class:`HuntPlanner` for the position observed (optionally on another table).

    Raises:
        ValueError: the Exit is not on the table yet.
    """
    obs = observation
    table = obs.table if table is None else table
    if obs.exit_cell is None:
        raise ValueError("the hunt has not begun: the Exit is not on the table")
    club_arrives = None
    if obs.club is None and not obs.ran_dry:
        # M-17: the ♣A arrives at the end of the turn whose Encounter first finds a deck
        # empty, one Encounter after the last card of the shorter deck is turned.
        club_arrives = _encounters_done(obs) + min(len(obs.mind_left), len(obs.body_left)) + 1
    odds = EncounterOdds.of(
        obs.mind_left or obs.mind_aside, obs.body_left or obs.body_aside, game.card_value
    )
    max_turns = getattr(game.options, "max_turns", None)
    return HuntPlanner(
        table, obs.exit_cell, odds, club_arrives, max_turns, horizon, game=game, observation=obs
    )


def _encounters_done(obs: MaplessObservation) -> int:
    """Encounters so far: one per turn, the current turn's still to come (M-12)."""
    return max(obs.turn - 1, 0)


def position_value(
    game: Any, observation: MaplessObservation, table: Grid | None = None, horizon: int = 8
) -> float:
    """The planner's value of the observed hunt position: the best Move's value, or a held
    player's Encounter value, or 0 or 1 when the game is over.

    A position waiting for an Expand placement is valued on ``table`` (default: the table
    as it stands, before the drawn card is placed).
    """
    obs = observation
    if obs.ending is not None:
        return 1.0 if obs.ending.value == "escaped" else 0.0
    assert obs.exit_cell is not None
    assert obs.spade is not None
    planner = hunt_planner(game, obs, table, horizon)
    if obs.held:
        held = sum(game.card_value(c) for c in obs.held)
        return planner.held_value(
            obs.player, obs.spade, obs.spade_left_exit, obs.club, _encounters_done(obs), held
        )
    return max(_hunt_move_values(planner, obs).values(), default=0.0)


def _hunt_move_values(planner: HuntPlanner, obs: MaplessObservation) -> dict[Cell, float]:
    """The planner's value of each Move from the observed hunt position; on turn 0 the
    opening Move's, which no Encounter and no Stalker step follow (M-12)."""
    assert obs.spade is not None
    if obs.turn == 0:
        return planner.opening_values(obs.player, obs.spade)
    return planner.move_values(
        obs.player, obs.spade, obs.spade_left_exit, obs.club, _encounters_done(obs)
    )


# ---------------------------------------------------------------- building
#: The cards on the table lie within distance D of the Entrance; the Exit goes at D + 1
#: (M-11). With D odd, the player and the ♠A close in on each other with the parity that
#: lets the player end a turn *beside* the ♠A, not diagonal to it (only a hold or a ♠A
#: waiting changes that parity). So D is kept odd whenever the Exit may be drawn next.
_PARITY_PENALTY = 100.0
#: Each unit of D (or of the target, before the Exit can come) costs this much.
_REACH_COST = 10.0
#: The house's reach the plan aims for: a spine of five cards up from the Entrance.
_TARGET_REACH = 5
#: Extending the spine: a fixed bonus for its first card (the opening Move lands there
#: and no Encounter follows, so its value does not matter) ...
_SPINE_FIRST_BONUS = 30.0
#: ... and for the others a bonus falling with the card's value (the threshold the
#: player must meet there while the ♠A walks beside them): BASE - SLOPE * value.
_SPINE_BASE = 20.0
_SPINE_SLOPE = 2.0
#: Cards off the spine do not go on the spine's line, where they would block it.
_SPINE_LINE_COST = 5.0
#: A mild preference for cards near the Entrance.
_CLOSENESS_COST = 0.5
#: A placement after which every legal cell for a corridor lies beyond the reach (M-7
#: pulls corridors to a room touching one card) forces the house to grow: avoided.
_FORCED_GROWTH_COST = 10.0
#: While the Exit may be drawn next and the spine is still short, any card extends it:
#: a spine that stops short of the Exit is worse than a high card on it.
_URGENT_SPINE_BONUS = 8.0

#: The building plan's weights, tuned by hand on the standard rules; each a declared
#: parameter of the heuristic bots, so that `cardcrawl tune` fits them to a variant.
BUILD_PARAMETERS = (
    Parameter(
        "parity_penalty", _PARITY_PENALTY, low=0.0, high=200.0,
        description="cost of an even reach when the Exit may be drawn next",
    ),
    Parameter(
        "reach_cost", _REACH_COST, low=0.0, high=30.0,
        description="cost of each unit of the house's reach",
    ),
    Parameter(
        "target_reach", _TARGET_REACH, low=1, high=9, integer=True,
        description="the reach, and the spine's length, the plan aims for",
    ),
    Parameter(
        "spine_first_bonus", _SPINE_FIRST_BONUS, low=0.0, high=60.0,
        description="bonus for the spine's first card",
    ),
    Parameter(
        "spine_base", _SPINE_BASE, low=-10.0, high=50.0,
        description="bonus for a later spine card, less spine_slope times its value",
    ),
    Parameter(
        "spine_slope", _SPINE_SLOPE, low=-5.0, high=5.0,
        description="how much a spine card's value lowers its bonus (negative: raises it)",
    ),
    Parameter(
        "spine_line_cost", _SPINE_LINE_COST, low=0.0, high=20.0,
        description="cost of a card on the spine's line",
    ),
    Parameter(
        "closeness_cost", _CLOSENESS_COST, low=0.0, high=5.0,
        description="cost of each step from the Entrance",
    ),
    Parameter(
        "forced_growth_cost", _FORCED_GROWTH_COST, low=0.0, high=30.0,
        description="cost of a placement that forces the house to grow",
    ),
)  # fmt: skip
_DEFAULT_PLAN: Mapping[str, float] = MappingProxyType({p.name: p.default for p in BUILD_PARAMETERS})


class MaplessHeuristicBot(DeterministicPolicy):
    """A Mapless House player with a house-building plan and a hunt planner.

    **Building (phase one).** The plan is a *spine*: a straight line of cards from the
    Entrance up to distance D = 5, low cards preferred (the first spine card may be
    anything: the opening Move lands there and no Encounter follows). Every other card goes
    within distance D, and while the Exit can be drawn next (a black suit exhausted, M-10)
    the farthest card is kept at an odd distance. The Exit then opens at distance D + 1
    beside the top of the spine (M-11), and the spine is a lane up the column next to the
    Exit's: the ♠A comes down the Exit's column to meet the player (it closes the bigger
    gap first, M-18), then mirrors the player's steps up the lane, and when its next step
    would be back onto the Exit it must turn aside (M-19), leaving the Exit open.

    **The Exit (M-11).** Among several candidates, the one whose opening position the
    :class:`HuntPlanner` values most.

    **The hunt.** Every Move and every Expand placement is chosen by the planner's
    expectimax over the next eight turns: the Stalkers' steps simulated exactly, the
    chance of a hold from the unseen Mind and Body cards, the ♣A's arrival (M-17) and the
    turn limit. Deterministic: the seed is unused, and :meth:`action_probabilities` is
    one-hot. Every rule it weighs is a hook of the game (listed in ``weighs_hooks``):
    a variant's rules are the ones it plans by.

    **Parameters.** The building plan's weights (``parameters``, which
    :func:`cardcrawl.tune.tune` fits to a variant), with the values tuned by hand on the
    standard rules as defaults: ``target_reach`` (D), ``reach_cost`` and
    ``parity_penalty`` (an even D while the Exit may come), the spine's bonuses
    (``spine_first_bonus``; ``spine_base - spine_slope * value`` for the others),
    ``spine_line_cost``,
    ``closeness_cost`` and ``forced_growth_cost``. ``horizon`` is the planner's, in
    turns; ``expand_horizon`` the one for Expand placements.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless import MaplessHeuristicBot
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> state = game.initial_state(seed=1)
        >>> bot = MaplessHeuristicBot(game, seed=1)
        >>> while not game.is_terminal(state):
        ...     legal = game.legal_actions(state)
        ...     state = game.step(state, bot.choose(game, game.observe(state, 0), legal))
        >>> game.outcome(state).label
        'escaped'
    """

    #: What :func:`cardcrawl.tune.tune` may fit (see :class:`~cardcrawl.bots.Parameter`).
    parameters: ClassVar[tuple[Parameter, ...]] = BUILD_PARAMETERS
    #: The hooks it weighs when it decides (see :func:`cardcrawl.testing.check_bot_hooks`).
    weighs_hooks: ClassVar[tuple[str, ...]] = (
        "card_value", "is_corridor", "is_room", "corridor_cells", "exit_may_open",
        "move_cells", "encounter_threshold", "stalker_step", "club_arrival",
    )  # fmt: skip

    def __init__(
        self,
        game: Any,
        seed: int,
        seat: int = 0,
        *,
        horizon: int = 8,
        expand_horizon: int | None = None,
        **weights: float,
    ) -> None:
        unknown = sorted(set(weights) - set(_DEFAULT_PLAN))
        if unknown:
            raise TypeError(f"{type(self).__name__} takes no parameter {', '.join(unknown)}")
        #: The building plan's weights, by parameter name.
        self.plan = {**_DEFAULT_PLAN, **weights}
        self.horizon = horizon
        #: The horizon for Expand placements (default: ``horizon``); a shorter one makes
        #: a quicker player, as the search bot's rollouts want.
        self.expand_horizon = horizon if expand_horizon is None else expand_horizon

    def choose(
        self, game: Any, observation: MaplessObservation, legal_actions: Sequence[Action]
    ) -> Action:
        """The action the plan prefers (see the class description)."""
        obs = observation
        if len(legal_actions) == 1:
            return legal_actions[0]
        if obs.phase is Phase.PLACE_EXIT:
            return self._place_exit(game, obs, legal_actions)
        if obs.phase is Phase.PLACE and obs.exit_cell is None:
            return _build(game, obs, legal_actions, self.plan)
        if obs.phase is Phase.PLACE:
            return self._expand(game, obs, legal_actions)
        return self._move(game, obs, legal_actions)

    def action_values(
        self, game: Any, observation: MaplessObservation, legal_actions: Sequence[Action]
    ) -> dict[Action, float] | None:
        """The hunt planner's value of each legal action: the Exit's placement, the hunt's
        Moves and Expand placements; ``None`` while building (phase one), which the plan
        does by cost, not value."""
        obs = observation
        if obs.phase is Phase.PLACE_EXIT:
            return {a: self._exit_value(game, obs, a) for a in legal_actions}
        if obs.phase is Phase.PLACE and obs.exit_cell is None:
            return None
        if obs.phase is Phase.PLACE:
            return {a: self._expand_value(game, obs, a) for a in legal_actions}
        values = self._move_values(game, obs)[0]
        return {a: values.get(_cell(a), 0.0) for a in legal_actions}

    def _place_exit(self, game: Any, obs: MaplessObservation, legal: Sequence[Action]) -> Action:
        return _best(legal, lambda action: self._exit_value(game, obs, action))

    def _exit_value(self, game: Any, obs: MaplessObservation, action: Action) -> float:
        cell = _cell(action)
        table = obs.table.place(cell, EXIT)
        planner = HuntPlanner(
            table,
            cell,
            EncounterOdds.of(obs.mind_left, obs.body_left, game.card_value),
            club_arrives=min(len(obs.mind_left), len(obs.body_left)) + 1,
            max_turns=getattr(game.options, "max_turns", None),
            horizon=self.horizon,
            game=game,
            observation=obs,
        )
        return max(planner.opening_values(ENTRANCE_CELL, cell).values(), default=0.0)

    def _expand(self, game: Any, obs: MaplessObservation, legal: Sequence[Action]) -> Action:
        return _best(legal, lambda action: self._expand_value(game, obs, action))

    def _expand_value(self, game: Any, obs: MaplessObservation, action: Action) -> float:
        assert obs.drawn is not None
        table = obs.table.place(_cell(action), obs.drawn)
        return position_value(game, obs, table, self.expand_horizon)

    def _move_values(
        self, game: Any, obs: MaplessObservation
    ) -> tuple[dict[Cell, float], HuntPlanner]:
        planner = hunt_planner(game, obs, horizon=self.horizon)
        return _hunt_move_values(planner, obs), planner

    def _move(self, game: Any, obs: MaplessObservation, legal: Sequence[Action]) -> Action:
        values, planner = self._move_values(game, obs)
        far = len(obs.table)
        # Ties (all hopeless, typically) go to the move nearer the Exit. A Move the
        # planner was not told of (a bot of one game shown another's position) is
        # worth nothing to it.
        return max(
            legal, key=lambda a: (values.get(_cell(a), 0.0), -planner.distance.get(_cell(a), far))
        )


def _best(legal: Sequence[Action], value: Callable[[Action], float]) -> Action:
    """The first action of highest value (canonical order breaks ties)."""
    best, best_value = legal[0], -1.0
    for action in legal:
        v = value(action)
        if v > best_value:
            best, best_value = action, v
    return best


def _build(
    game: Any,
    obs: MaplessObservation,
    legal: Sequence[Action],
    plan: Mapping[str, float] = _DEFAULT_PLAN,
) -> Action:
    """Phase one: the legal cell of lowest cost under the building plan.

    The rules it weighs are the game's hooks (M-1, M-3, M-6, M-7, M-10), asked of a
    position rebuilt from the observation.
    """
    return min(legal, key=_build_costs(game, obs, legal, plan).__getitem__)


def _build_costs(
    game: Any,
    obs: MaplessObservation,
    legal: Sequence[Action],
    plan: Mapping[str, float] = _DEFAULT_PLAN,
) -> dict[Action, tuple[float, Cell]]:
    """Each legal placement's cost under the building plan's weights ``plan`` (see
    :func:`_build`)."""
    parity_penalty, reach_cost = plan["parity_penalty"], plan["reach_cost"]
    first_bonus, base, slope = plan["spine_first_bonus"], plan["spine_base"], plan["spine_slope"]
    line_cost, closeness_cost = plan["spine_line_cost"], plan["closeness_cost"]
    growth_cost = plan["forced_growth_cost"]
    card = obs.drawn
    assert card is not None
    table = obs.table
    reach = max(distance(ENTRANCE_CELL, c) for c in table)
    spine = 0
    while (0, spine + 1) in table:
        spine += 1
    # The rules weighed are the game's hooks, asked of a position rebuilt from the
    # observation (a view changed here and there, never kept by a hook).
    view = thaw(state_from_observation(obs, 0, game=game))
    # M-10: may the Exit open if the ♥A comes now? Asked as the rules ask it, of the
    # Narrative deck without the ♥A.
    view.narrative = WorkingDeck.shuffled(c for c in obs.narrative_left if c != EXIT)
    exit_may_come = game.exit_may_open(view)
    # An even reach already forced on the house is rounded up to the next odd one.
    target = max(int(plan["target_reach"]), reach | 1)
    value = game.card_value(card)
    room = game.is_room(card)
    closed = closed_cells(table, game)
    corridor_table = tuple(game.is_corridor(Card(i)) for i in range(52))

    def corridors_after(after: Grid, after_closed: frozenset[Cell], last: Cell | None) -> Any:
        view.table, view.closed, view.last_room = after, after_closed, last
        return game.corridor_cells(view)

    def cost(action: Action) -> tuple[float, Cell]:
        cell = _cell(action)
        d = distance(ENTRANCE_CELL, cell)
        new_reach = max(reach, d)
        total = closeness_cost * d
        if exit_may_come:
            total += reach_cost * new_reach + parity_penalty * (new_reach % 2 == 0)
        else:
            total += reach_cost * max(new_reach, target)
        if cell[0] == 0 and cell[1] > 0:
            total += line_cost
            if cell[1] == spine + 1 and spine < target:
                bonus = first_bonus if spine == 0 else base - slope * value
                if exit_may_come:
                    bonus = max(bonus, _URGENT_SPINE_BONUS)
                total -= bonus
        after = table.place(cell, card)
        after_closed = closed | newly_closed(after, cell, corridor_table)
        corridors = corridors_after(after, after_closed, cell if room else obs.last_room)
        beyond = sum(1 for c in corridors if distance(ENTRANCE_CELL, c) > max(new_reach, target))
        total += beyond
        if beyond == len(corridors) and beyond:
            total += growth_cost
        return total, cell

    return {action: cost(action) for action in legal}


class MaplessSearchModel:
    """The :class:`~cardcrawl.bots.SearchModel` of The Mapless House.

    States are rebuilt from the observation exactly (see
    :func:`~cardcrawl.mapless.state_from_observation`: the exact posterior), positions are
    valued by the heuristic bot's hunt planner, and the search looks at the Exit's
    placement and the hunt's Moves, but only where the planner cannot tell the best
    actions apart: the candidates are the actions valued within ``margin`` of the best,
    unless the best is already decided (at least ``sure`` or at most ``hopeless``).
    Card placements (building, and the hunt's Expand, where a card seldom changes the
    outcome and the cells are many) are left to the plan. Rollouts are played by the
    heuristic with a short horizon for Expand placements (``rollout_expand_horizon``),
    which makes them several times quicker.

    Args:
        horizon: the planner's horizon, in turns.
        margin: how far below the best action's value a candidate may be.
        sure: a best value from which the planner's choice is not searched.
        hopeless: a best value up to which the planner's choice is not searched.
        rollout_expand_horizon: the rollout player's horizon for Expand placements.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless._bots import MaplessSearchModel
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> state = game.initial_state(seed=1)
        >>> model = MaplessSearchModel()
        >>> model.candidates(game, game.observe(state, 0), game.legal_actions(state))
        []
    """

    def __init__(
        self,
        horizon: int = 8,
        *,
        margin: float = 0.1,
        sure: float = 0.99,
        hopeless: float = 0.02,
        rollout_expand_horizon: int = 2,
    ) -> None:
        self.horizon = horizon
        self.rollout_expand_horizon = rollout_expand_horizon
        self.margin = margin
        self.sure = sure
        self.hopeless = hopeless
        self._planner = MaplessHeuristicBot(None, 0, horizon=horizon)

    def sample_state(
        self,
        game: Any,
        observation: MaplessObservation,
        seat: int,
        seed: int,
        *,
        explicit_chance: bool,
    ) -> MaplessState:
        """The observed position with a fresh generator (the exact posterior)."""
        return state_from_observation(observation, seed, explicit_chance=explicit_chance, game=game)

    def rollout_bot(self, game: Any, seed: int, seat: int) -> MaplessHeuristicBot:
        """The heuristic, quicker at Expand placements."""
        return MaplessHeuristicBot(
            game, seed, seat, horizon=self.horizon, expand_horizon=self.rollout_expand_horizon
        )

    def evaluate(self, game: Any, observation: MaplessObservation, seat: int) -> float:
        """The planner's escape chance from the observed position (0 before the hunt)."""
        if observation.exit_cell is None:
            return 0.0
        return position_value(game, observation, horizon=self.horizon)

    def candidates(
        self, game: Any, observation: MaplessObservation, legal_actions: Sequence[Action]
    ) -> list[Action]:
        """The actions the planner values within ``margin`` of the best, best first, when
        the best is neither sure nor hopeless; none for card placements."""
        if len(legal_actions) < 2 or observation.phase is Phase.PLACE:
            return []
        values = self._planner.action_values(game, observation, legal_actions)
        if values is None:  # pragma: no cover - building is a PLACE decision
            return []
        best = max(values.values())
        if best >= self.sure or best <= self.hopeless:
            return []
        close = [a for a in legal_actions if values[a] >= best - self.margin]
        return sorted(close, key=lambda a: -values[a])


class MaplessPlannerBot(MaplessHeuristicBot):
    """The heuristic player, with the end of the building phase searched exactly.

    The heuristic's house-building plan weighs one placement at a time, and most of the
    houses it loses were spoiled in the last few placements of phase one: a room left a
    dead end at the edge of the house pulls the next corridor beyond it (M-7), the house's
    reach grows by one and the Exit opens at the wrong parity or too far from the spine
    (M-11). So once at most ``endgame`` Narrative cards are left to draw, this bot looks
    ahead to the Exit: an expectimax over the draws to come, exactly as the rules deal
    them (the Exit drawn too early and shuffled back, M-10; refused cards, M-8), over the
    plan's ``width`` cheapest placements of each card, that values each house by the hunt
    planner's chance of escape from the opening position (the Exit placed where it is
    valued most, M-11). Elsewhere it plays as :class:`MaplessHeuristicBot`. It reads the
    observation only: the states it searches are rebuilt from it with explicit chance.
    Deterministic: the seed is unused.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless._bots import MaplessPlannerBot
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> state = game.initial_state(seed=1)
        >>> bot = MaplessPlannerBot(game, seed=1)
        >>> while not game.is_terminal(state):
        ...     legal = game.legal_actions(state)
        ...     state = game.step(state, bot.choose(game, game.observe(state, 0), legal))
        >>> game.outcome(state).label
        'escaped'
    """

    def __init__(
        self,
        game: Any,
        seed: int,
        seat: int = 0,
        *,
        horizon: int = 8,
        endgame: int = 2,
        width: int = 4,
        **weights: Any,
    ) -> None:
        super().__init__(game, seed, seat, horizon=horizon, **weights)
        #: Search the building phase once this many Narrative cards or fewer are left.
        self.endgame = endgame
        #: How many of the plan's cheapest placements of each card the search tries.
        self.width = width

    def choose(
        self, game: Any, observation: MaplessObservation, legal_actions: Sequence[Action]
    ) -> Action:
        """The heuristic's action, but late in phase one the placement searched best."""
        obs = observation
        if (
            len(legal_actions) > 1
            and obs.phase is Phase.PLACE
            and obs.exit_cell is None
            and len(obs.narrative_left) <= self.endgame
        ):
            return self._search_build(game, obs, legal_actions)
        return super().choose(game, obs, legal_actions)

    def _search_build(self, game: Any, obs: MaplessObservation, legal: Sequence[Action]) -> Action:
        root = state_from_observation(obs, 0, explicit_chance=True, game=game)
        self._houses: dict[tuple[Grid, Cell], float] = {}
        best, best_value = legal[0], -1.0
        for action in self._cheapest(game, obs, legal):
            v = self._house_value(game, game.step(root, action))
            if v > best_value + 1e-9:
                best, best_value = action, v
        return best

    def _cheapest(
        self, game: Any, obs: MaplessObservation, legal: Sequence[Action]
    ) -> list[Action]:
        """The plan's ``width`` cheapest placements, cheapest first."""
        costs = _build_costs(game, obs, legal, self.plan)
        return sorted(legal, key=costs.__getitem__)[: self.width]

    def _house_value(self, game: Any, state: MaplessState) -> float:
        """The expected escape chance, by the hunt planner, from a phase-one state."""
        seat = game.current_player(state)
        if seat == CHANCE:
            return sum(
                float(p) * self._house_value(game, game.step(state, outcome))
                for outcome, p in game.chance_outcomes(state)
            )
        if seat < 0:  # pragma: no cover - phase one never ends the game
            return 0.0
        obs = game.observe(state, seat)
        legal = game.legal_actions(state)
        if obs.phase is Phase.PLACE_EXIT:
            return max(self._remembered_exit_value(game, obs, a) for a in legal)
        if obs.exit_cell is not None:
            return position_value(game, obs, horizon=self.horizon)
        if obs.phase is not Phase.PLACE:  # pragma: no cover - phase one only places
            return 0.0
        return max(
            self._house_value(game, game.step(state, a)) for a in self._cheapest(game, obs, legal)
        )

    def _remembered_exit_value(self, game: Any, obs: MaplessObservation, action: Action) -> float:
        """:meth:`_exit_value`, remembered for the search: the Mind and Body decks are
        untouched in phase one, so a house and its Exit's cell decide the value, and the
        same house is reached by the draws in different orders."""
        key = (obs.table, _cell(action))
        value = self._houses.get(key)
        if value is None:
            value = self._houses[key] = self._exit_value(game, obs, action)
        return value
