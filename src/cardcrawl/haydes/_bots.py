"""A heuristic player for Escape from Haydes (imported only when the game is installed).

It reads the exact odds of every face-down card from the rules themselves: the state is
rebuilt from the observation (which, by Haydes' lazy deal, holds everything but the
generator), a move is stepped with explicit chance, and the game lists every card the
cell may turn out to be with its probability.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from cardcrawl.bots._base import DeterministicPolicy
from cardcrawl.bots._params import Parameter
from cardcrawl.core._random import rng_from_seed
from cardcrawl.haydes._actions import Choose, EndTurn, Guess, Move, Step, Tuybe
from cardcrawl.haydes._creatures import Creature
from cardcrawl.haydes._events import TurnStarted
from cardcrawl.haydes._state import Figure, HaydesObservation, HaydesState, Phase
from cardcrawl.haydes._unseen import reveal_chances
from cardcrawl.kit._cards import Card

__all__ = ["HaydesHeuristicBot", "HaydesLookaheadBot", "haydes_state_from_observation"]


def haydes_state_from_observation(
    observation: HaydesObservation, seed: int, *, explicit_chance: bool = False
) -> HaydesState:
    """A state no player can tell from the one observed, with a fresh generator.

    Exact: Haydes deals lazily, so its state keeps no card identity the players do not
    know; the observation lacks only the generator and any stacked outcomes.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.haydes._bots import haydes_state_from_observation
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=30)
        >>> state = game.initial_state(seed=4)
        >>> haydes_state_from_observation(game.observe(state, 0), 9) == game.determinize(
        ...     state, 0, 9)
        True
    """
    o = observation
    return HaydesState(
        phase=o.phase, seats=o.seats, current=o.current, first=o.first, round=o.round,
        layout=o.layout, face_up=o.face_up, pool_of=o.pool_of, shown=o.shown, mixes=o.mixes,
        beliefs=o.beliefs, replacement_left=o.replacement_left, discard=o.discard,
        removed=o.removed, overcome=o.overcome, aim=o.aim, chosen=o.chosen,
        stacked_first=None, stacked_rolls=(), ending=o.ending, winner=o.winner,
        rng=rng_from_seed(seed), explicit_chance=explicit_chance, events=o.events,
    )  # fmt: skip


# The heuristic's weights, tuned by hand on the standard rules; each is a declared
# parameter of the bots (HEURISTIC_PARAMETERS), so that `cardcrawl tune` fits them to a
# variant whose rules make another weight right.
#: Worth of finding the way out, against 1 for a correct guess (which lets the player
#: go on exploring this turn).
_ESCAPE_WORTH = 50.0
#: What meeting a creature costs (H-8: the characteristic drops by 1 either way, and a
#: player not overcoming it is held), more as the better characteristic runs low.
_CREATURE_COST = 0.6
_CREATURE_COST_LOW = 1.5
_LOW = 4
#: Go on after a correct guess only when the best move is worth at least this much; at
#: the start of a turn any move worth more than ending it at once.
_GO_ON = 0.3
_START = 0.0

#: The weights of :class:`HaydesHeuristicBot` that :func:`cardcrawl.tune.tune` may fit.
HEURISTIC_PARAMETERS = (
    Parameter(
        "escape",
        _ESCAPE_WORTH,
        low=0.0,
        high=200.0,
        description="worth of the way out (and cost of a creature no roll overcomes), "
        "against 1 for a correct guess",
    ),
    Parameter(
        "creature_cost",
        _CREATURE_COST,
        low=-5.0,
        high=5.0,
        description="cost of meeting a creature (negative: a creature is worth meeting)",
    ),
    Parameter(
        "creature_cost_low",
        _CREATURE_COST_LOW,
        low=-5.0,
        high=10.0,
        description="that cost once the better characteristic is at most `low`",
    ),
    Parameter(
        "low",
        _LOW,
        low=0,
        high=9,
        integer=True,
        description="the better characteristic's value at or below which a creature costs "
        "creature_cost_low",
    ),
    Parameter(
        "start",
        _START,
        low=-1.0,
        high=3.0,
        description="a move's score above which a turn's first move is made, else the turn ends",
    ),
    Parameter(
        "threshold",
        _GO_ON,
        low=-1.0,
        high=3.0,
        description="a move's score above which the player goes on after a correct guess",
    ),
)


def overcome_chance(game: Any, creature: Creature, value: int) -> Fraction:
    """The chance that one roll overcomes ``creature`` faced with a characteristic worth
    ``value``, by the game's own dice and rule (``roll_weights``, ``overcomes``: H-8).

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes")
        >>> king = game.creature(cardcrawl.Card.parse("KS"))
        >>> overcome_chance(game, king, 8), overcome_chance(game, king, 1)
        (Fraction(13, 18), Fraction(0, 1))
    """
    weights = game.roll_weights()
    won = sum(w for total, w in weights if game.overcomes(creature, value, total))
    return Fraction(won, sum(w for _, w in weights))


def _forced(game: Any, obs: HaydesObservation, legal_actions: Sequence[Any]) -> Any:
    """The choice every Haydes bot here makes alike, or ``None``: the only legal action,
    or at an encounter the characteristic the creature allows with the best chance to
    overcome it (H-8), the higher value on a tie."""
    if len(legal_actions) == 1:
        return legal_actions[0]
    if obs.phase is Phase.ENCOUNTER:
        me = obs.seats[obs.current]
        assert me.cell is not None
        card = obs.face_up[obs.layout.index(me.cell)]
        creature = None if card is None else game.creature(card)
        choices = [a for a in legal_actions if isinstance(a, Choose)]

        def worth(action: Choose) -> tuple[Fraction, int]:
            value = me.value(action.characteristic)
            chance = Fraction(0) if creature is None else overcome_chance(game, creature, value)
            return chance, value

        return max(choices, key=worth)
    return None


def _hopeless(game: Any, creature: Creature, me: Figure) -> bool:
    """Whether no roll can overcome ``creature`` with any characteristic it allows, by
    the game's hooks (H-8): a player who meets it is held there until out (H-11)."""
    return all(overcome_chance(game, creature, me.value(ch)) == 0 for ch in creature.allowed)


class HaydesHeuristicBot(DeterministicPolicy):
    """An Escape from Haydes player that guesses by the odds of the unseen cards.

    * **Guessing (H-6, H-7).** For each touching face-down card (two cells away too, in
      the Tuybe variant), the exact chance of every card it may be, from the cards not
      seen yet; each move is scored by the chance that the guess is right, the chance of
      finding the Red Joker with *lower* (H-9, worth far more), and the chance of
      meeting a creature (a cost, higher once a characteristic runs low).
    * **When to stop.** At the start of a turn it moves if any move scores above zero;
      after a correct guess it goes on only while the best move's score stays above
      0.3, else it ends the turn (H-7).
    * **Creatures (H-8).** It faces them with the characteristic the creature allows
      that gives the best chance to overcome it, by the game's ``roll_weights`` and
      ``overcomes``. A creature that no roll can overcome, with any characteristic it
      allows, holds the player until out (H-11): meeting one costs as much as the way
      out is worth.

    Its weights are parameters (``parameters``, which :func:`cardcrawl.tune.tune` fits to
    a variant), with the values tuned by hand on the standard rules as defaults: the
    way out's worth ``escape``, a creature's cost ``creature_cost`` (``creature_cost_low``
    once the better characteristic is at most ``low``), and the scores ``start`` and
    ``threshold`` above which it moves at the start of a turn and after a correct guess.
    Deterministic: the seed is unused, and :meth:`action_probabilities` is one-hot. The
    hooks it asks are listed in ``weighs_hooks``.

    Args:
        game: the game it plays.
        seed: unused.
        seat: the seat it plays.
        escape: the way out's worth, against 1 for a correct guess.
        creature_cost: what meeting a creature costs.
        creature_cost_low: that cost once the better characteristic is at most ``low``.
        low: see ``creature_cost_low``.
        start: a move's score above which the turn's first move is made.
        threshold: a move's score above which the player goes on after a correct guess.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import make_bot
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=30)
        >>> state = game.initial_state(seed=3)
        >>> bot = make_bot("heuristic", game, seed=3)
        >>> legal = game.legal_actions(state)
        >>> bot.choose(game, game.observe(state, 0), legal) in legal
        True
    """

    #: What :func:`cardcrawl.tune.tune` may fit (see :class:`~cardcrawl.bots.Parameter`).
    parameters: ClassVar[tuple[Parameter, ...]] = HEURISTIC_PARAMETERS
    #: The hooks it weighs when it decides (see :func:`cardcrawl.testing.check_bot_hooks`).
    weighs_hooks: ClassVar[tuple[str, ...]] = (
        "card_value", "creature", "guess_is_correct", "is_escape", "roll_weights", "overcomes",
    )  # fmt: skip

    def __init__(
        self,
        game: Any,
        seed: int,
        seat: int = 0,
        *,
        escape: float = _ESCAPE_WORTH,
        creature_cost: float = _CREATURE_COST,
        creature_cost_low: float = _CREATURE_COST_LOW,
        low: int = _LOW,
        start: float = _START,
        threshold: float = _GO_ON,
    ) -> None:
        self.escape = escape
        self.creature_cost, self.creature_cost_low, self.low = creature_cost, creature_cost_low, low
        self.start, self.threshold = start, threshold
        # What the game's hooks say of each card alone (is it the Red Joker, a creature,
        # its value), and of each guess, asked once: a bot lives for one game, and the
        # hooks' answers for the same arguments do not change within it.
        self._facts: dict[int, tuple[bool, Creature | None, int]] = {}
        self._hopeless: dict[tuple[int, int, int], bool] = {}
        self._correct: dict[tuple[Guess, int, int], bool] = {}

    def choose(
        self, game: Any, observation: HaydesObservation, legal_actions: Sequence[Any]
    ) -> Any:
        """The move, step, characteristic or end of turn the odds favour."""
        obs = observation
        forced = _forced(game, obs, legal_actions)
        if forced is not None:
            return forced
        me = obs.seats[obs.current]
        assert me.cell is not None
        here = obs.face_up[obs.layout.index(me.cell)]
        from_value = game.card_value(here) if here is not None else 0
        creature = self._creature_cost(me)
        state = haydes_state_from_observation(obs, 0, explicit_chance=True)
        odds: dict[Any, list[tuple[tuple[bool, Creature | None, int], float]]] = {}
        best: Any = None
        best_score = -1e9
        for action in legal_actions:
            if not isinstance(action, (Move, Tuybe)):
                continue
            chances = odds.get(action.cell)
            if chances is None:
                turned = game.chance_outcomes(game.step(state, action))
                chances = odds[action.cell] = self._weighed(game, turned)
            score = self._score(game, chances, action.guess, from_value, creature, me)
            if score > best_score:
                best, best_score = action, score
        return self._go_on_or_end(obs, legal_actions, best, best_score)

    def _go_on_or_end(
        self,
        obs: HaydesObservation,
        legal_actions: Sequence[Any],
        best: Any,
        best_score: float,
    ) -> Any:
        """The best move when it is worth more than ``start`` (at the start of a turn)
        or ``threshold`` (after a correct guess), else the end of the turn (H-6)."""
        starting = any(isinstance(e, TurnStarted) for e in obs.events)
        if best is not None and best_score > (self.start if starting else self.threshold):
            return best
        end = next((a for a in legal_actions if isinstance(a, EndTurn)), None)
        if end is not None:
            return end
        # No ending allowed and no move worth it: the least bad move, else a step.
        if best is not None:
            return best
        steps = [a for a in legal_actions if isinstance(a, Step)]
        return steps[0] if steps else legal_actions[0]

    def _creature_cost(self, me: Figure) -> float:
        """What meeting a creature costs ``me``: more once the better characteristic
        runs low."""
        low = max(me.charisma, me.endurance) <= self.low
        return self.creature_cost_low if low else self.creature_cost

    def _weighed(
        self, game: Any, chances: Sequence[tuple[Any, Fraction]]
    ) -> list[tuple[tuple[bool, Creature | None, int], float]]:
        """The turned card's outcomes as (what the hooks say of the card, probability)."""
        return [
            (self._card_facts(game, outcome.card), float(probability))
            for outcome, probability in chances
        ]

    def _card_facts(self, game: Any, card: Card) -> tuple[bool, Creature | None, int]:
        """What the hooks say of ``card`` alone: is it the Red Joker, the creature it is
        (or None), its value; asked once per card."""
        known = self._facts.get(card.index)
        if known is None:
            known = self._facts[card.index] = (
                card == Card.RED_JOKER,
                game.creature(card),
                game.card_value(card),
            )
        return known

    def _score(
        self,
        game: Any,
        weighed: Sequence[tuple[tuple[bool, Creature | None, int], float]],
        guess: Guess,
        from_value: int,
        creature: float,
        me: Figure | None = None,
    ) -> float:
        """Escape worth x its chance + chance the guess is right - creature cost x its
        chance - escape worth x the chance of a creature that ``me`` (the figure to move;
        ``None``: not weighed) cannot overcome.

        Every rule it weighs is the game's own hook (H-7, H-8, H-9), so a variant's rules
        are the ones it plays by.
        """
        correct = self._correct
        win = right = court = trap = 0.0
        for (joker, kind, value), p in weighed:
            if joker:
                win += p if game.is_escape(guess, from_value) else 0.0
            elif kind is not None:
                court += p
                if me is not None and self._is_hopeless(game, kind, me):
                    trap += p
            else:
                key = (guess, from_value, value)
                right_guess = correct.get(key)
                if right_guess is None:
                    right_guess = correct[key] = game.guess_is_correct(guess, from_value, value)
                if right_guess:
                    right += p
        return self.escape * (win - trap) + right - creature * court

    def _is_hopeless(self, game: Any, creature: Creature, me: Figure) -> bool:
        key = (id(creature), me.charisma, me.endurance)
        known = self._hopeless.get(key)
        if known is None:
            known = self._hopeless[key] = _hopeless(game, creature, me)
        return known


#: A cell's odds, summed by what matters to a guess: (chance of the Red Joker, chance of
#: a creature, chance of a creature that cannot be overcome, chance of each plain value
#: 0-13).
_Odds = tuple[float, float, float, tuple[float, ...]]
_VALUES = 14


class HaydesLookaheadBot(HaydesHeuristicBot):
    """An Escape from Haydes player that looks one reveal past the move it weighs.

    It scores a move as :class:`HaydesHeuristicBot` does (the exact odds of the turned
    card, H-7 to H-9), and adds what each outcome leaves it: after a correct guess the
    best move from the card it now stands on (``go_on`` times its score, H-7), after a
    wrong one the best move it will have from there next turn (``stand`` times it, since
    the figure moves onto the card, H-6), and a Red Joker met with a failing move
    (H-10) is worth ``found`` escapes, since it is shuffled back in among the cells this
    turn turned. The follow-up moves are scored with the exact odds of every face-down
    cell touching the new card, from the cards unseen now.

    At the start of a turn it moves when its best move is worth more than ``start``,
    after a correct guess when it is worth more than ``threshold``; else it ends the
    turn. Creatures are faced with the higher characteristic. Deterministic. Its
    parameters (``parameters``, for :func:`cardcrawl.tune.tune`) are the heuristic's and
    its own ``go_on``, ``stand`` and ``found``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import make_bot
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=30)
        >>> state = game.initial_state(seed=3)
        >>> bot = make_bot("lookahead", game, seed=3)
        >>> legal = game.legal_actions(state)
        >>> bot.choose(game, game.observe(state, 0), legal) in legal
        True
    """

    #: What :func:`cardcrawl.tune.tune` may fit: the heuristic's weights and its own.
    parameters = (
        *HEURISTIC_PARAMETERS,
        Parameter(
            "go_on", 0.5, low=0.0, high=2.0,
            description="weight of the best next move after a correct guess",
        ),
        Parameter(
            "stand", 0.5, low=0.0, high=2.0,
            description="weight of the best move next turn after a wrong guess",
        ),
        Parameter(
            "found", 0.3, low=0.0, high=1.0,
            description="share of the way out's worth that finding the Red Joker is worth",
        ),
    )  # fmt: skip
    weighs_hooks = (*HaydesHeuristicBot.weighs_hooks, "touching_cells")

    def __init__(
        self,
        game: Any,
        seed: int,
        seat: int = 0,
        *,
        go_on: float = 0.5,
        stand: float = 0.5,
        found: float = 0.3,
        start: float = 0.0,
        threshold: float = 0.3,
        escape: float = _ESCAPE_WORTH,
        creature_cost: float = _CREATURE_COST,
        creature_cost_low: float = _CREATURE_COST_LOW,
        low: int = _LOW,
    ) -> None:
        super().__init__(
            game,
            seed,
            seat,
            escape=escape,
            creature_cost=creature_cost,
            creature_cost_low=creature_cost_low,
            low=low,
            start=start,
            threshold=threshold,
        )
        self.go_on, self.stand, self.found = go_on, stand, found
        self._right: dict[tuple[Guess, int], tuple[bool, ...]] = {}
        self._touching: dict[Any, tuple[int, ...]] = {}

    def _right_table(self, game: Any, guess: Guess, from_value: int) -> tuple[bool, ...]:
        """Which plain values 0-13 make ``guess`` from ``from_value`` correct (H-7)."""
        key = (guess, from_value)
        table = self._right.get(key)
        if table is None:
            table = self._right[key] = tuple(
                game.guess_is_correct(guess, from_value, v) for v in range(_VALUES)
            )
        return table

    def _odds(self, game: Any, state: HaydesState, index: int, me: Figure) -> _Odds:
        """The chances of what the face-down cell ``index`` holds."""
        chances = reveal_chances(state, index)
        total = sum(w for _, w in chances)
        joker = court = trap = 0.0
        plain = [0.0] * _VALUES
        for card, w in chances:
            known = self._card_facts(game, card)
            p = w / total
            if known[0]:
                joker += p
            elif known[1] is not None:
                court += p
                if self._is_hopeless(game, known[1], me):
                    trap += p
            else:
                plain[min(max(known[2], 0), _VALUES - 1)] += p
        return joker, court, trap, tuple(plain)

    def _base(
        self, game: Any, odds: _Odds, guess: Guess, from_value: int, creature: float
    ) -> float:
        """The heuristic's score of turning a cell with these odds."""
        joker, court, trap, plain = odds
        table = self._right_table(game, guess, from_value)
        right = sum(p for p, ok in zip(plain, table, strict=True) if ok)
        if game.is_escape(guess, from_value):
            win = self.escape * joker
        else:
            win = self.found * self.escape * joker
        return win + right - creature * court - self.escape * trap

    def _best_from(
        self,
        game: Any,
        cell_odds: dict[int, _Odds],
        neighbours: Sequence[int],
        from_value: int,
        creature: float,
    ) -> float:
        best = 0.0
        for j in neighbours:
            odds = cell_odds[j]
            for guess in (Guess.HIGHER, Guess.LOWER):
                score = self._base(game, odds, guess, from_value, creature)
                if score > best:
                    best = score
        return best

    def choose(
        self, game: Any, observation: HaydesObservation, legal_actions: Sequence[Any]
    ) -> Any:
        """The move, step, characteristic or end of turn worth most one reveal ahead."""
        obs = observation
        forced = _forced(game, obs, legal_actions)
        if forced is not None:
            return forced
        me = obs.seats[obs.current]
        assert me.cell is not None
        layout = obs.layout
        index = {c: i for i, c in enumerate(layout)}
        here_i = index[me.cell]
        here = obs.face_up[here_i]
        from_value = game.card_value(here) if here is not None else 0
        creature = self._creature_cost(me)
        state = haydes_state_from_observation(obs, 0)
        up = obs.face_up
        cell_odds: dict[int, _Odds] = {}
        touching = self._touching

        def neighbours_of(i: int) -> tuple[int, ...]:
            found = touching.get(layout[i])
            if found is None:
                found = touching[layout[i]] = tuple(
                    index[c] for c in game.touching_cells(layout[i]) if c in index
                )
            return found

        def odds_of(i: int) -> _Odds:
            odds = cell_odds.get(i)
            if odds is None:
                odds = cell_odds[i] = self._odds(game, state, i, me)
            return odds

        follow: dict[tuple[int, int], float] = {}
        best: Any = None
        best_score = -1e9
        for action in legal_actions:
            if not isinstance(action, (Move, Tuybe)):
                continue
            t = index[action.cell]
            odds = odds_of(t)
            nexts = [j for j in neighbours_of(t) if up[j] is None and j != t]
            for j in nexts:
                odds_of(j)
            joker, court, trap, plain = odds
            table = self._right_table(game, action.guess, from_value)
            if game.is_escape(action.guess, from_value):
                score = self.escape * joker
            else:
                score = self.found * self.escape * joker
            score -= creature * court + self.escape * trap
            for v, p in enumerate(plain):
                if p == 0.0:
                    continue
                key = (t, v)
                after = follow.get(key)
                if after is None:
                    after = follow[key] = self._best_from(game, cell_odds, nexts, v, creature)
                if table[v]:
                    score += p * (1.0 + self.go_on * after)
                else:
                    score += p * self.stand * after
            if score > best_score:
                best, best_score = action, score
        return self._go_on_or_end(obs, legal_actions, best, best_score)
