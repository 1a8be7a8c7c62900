"""Best-response gains: what each seat of a line-up of bots gains by playing its best."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from cardcrawl.bots._base import get_bot_spec
from cardcrawl.simulate._run import _bot_label, _lineup
from cardcrawl.solve._solver import DEFAULT_MAX_NODES, Mixed, Policy, Solver

__all__ = ["BestResponseGains", "SeatGain", "best_response_gains", "bot_policy"]


def bot_policy(game: Any, bot: Any, seat: int, seed: int = 0) -> Policy:
    """A bot as a fixed policy of the solver: a function of the state to its choice.

    The bot sees only its seat's observation. A bot that says how likely each action is
    (an ``action_probabilities(game, observation, legal_actions)`` method, as the random
    bot has, and the deterministic bots, one-hot on their choice:
    :class:`~cardcrawl.bots.DeterministicPolicy`) gives a
    :class:`~cardcrawl.solve.Mixed` choice, valued exactly. Any other bot is built
    afresh for each position from ``seed``, so that its choice depends on what it sees
    there and nothing else: a fixed policy.

    Args:
        game: the game.
        bot: a registered bot name or a factory ``factory(game, seed, seat)``.
        seat: the seat it plays.
        seed: the seed it is built with.

    Returns:
        The policy.

    Raises:
        UnknownBotError: no bot of that name plays the game.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.solve import Mixed, bot_policy
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=1)
        >>> state = game.initial_state(seed=1, explicit_chance=True)
        >>> isinstance(bot_policy(game, "random", 0)(state), Mixed)
        True
        >>> choice = bot_policy(game, "heuristic", 0)(state)
        >>> len(choice.actions), choice.actions[0][0] in game.legal_actions(state)
        (1, True)
    """
    factory = get_bot_spec(bot, game).factory if isinstance(bot, str) else bot
    probe = factory(game, seed, seat)
    if hasattr(probe, "action_probabilities"):

        def mixed(state: Any) -> Mixed:
            legal = game.legal_actions(state)
            seen = game.observe(state, seat)
            return Mixed(probe.action_probabilities(game, seen, legal))

        return mixed

    def chosen(state: Any) -> Any:
        player = factory(game, seed, seat)
        return player.choose(game, game.observe(state, seat), game.legal_actions(state))

    return chosen


@attrs.frozen
class SeatGain:
    """One seat's values with its bot and with its best reply to the others' bots.

    Attributes:
        seat: the seat.
        bot: its bot's label.
        lineup_value: the seat's exact expected return when every seat plays its bot.
        best_value: its exact expected return when it best-responds to the others' bots
            (the others keep theirs).

    Examples:
        >>> from fractions import Fraction
        >>> from cardcrawl.solve import SeatGain
        >>> SeatGain(0, "random", Fraction(1, 4), Fraction(2, 3)).gain
        Fraction(5, 12)
    """

    seat: int
    bot: str
    lineup_value: Fraction
    best_value: Fraction

    @property
    def gain(self) -> Fraction:
        """What the seat gains by best-responding: ``best_value - lineup_value`` (0 at
        least: the bot's own choices are among those the best reply weighs)."""
        return self.best_value - self.lineup_value


@attrs.frozen
class BestResponseGains:
    """Each seat's exact best-response gain against a line-up of bots, from a position.

    Attributes:
        seats: one :class:`SeatGain` per seat, in seat order.

    Examples:
        >>> from fractions import Fraction
        >>> from cardcrawl.solve import BestResponseGains, SeatGain
        >>> gains = BestResponseGains((SeatGain(0, "a", Fraction(1, 2), Fraction(1, 2)),
        ...                            SeatGain(1, "b", Fraction(1, 4), Fraction(1, 2))))
        >>> gains.nash_conv, gains.exploitability
        (Fraction(1, 4), Fraction(1, 8))
    """

    seats: tuple[SeatGain, ...]

    @property
    def nash_conv(self) -> Fraction:
        """The sum of every seat's gain (OpenSpiel's NashConv): 0 exactly when no seat
        can gain by playing otherwise, the line-up an equilibrium of the position."""
        return sum((s.gain for s in self.seats), Fraction(0))

    @property
    def exploitability(self) -> Fraction:
        """The mean gain per seat (OpenSpiel's exploitability): ``nash_conv / seats``."""
        return self.nash_conv / len(self.seats)

    def format(self) -> str:
        """The gains as text, one line per seat, then the totals."""
        lines = []
        for s in self.seats:
            lines.append(
                f"seat {s.seat} ({s.bot}): {_text(s.lineup_value)} with its bot, "
                f"{_text(s.best_value)} best-responding: gains {_text(s.gain)}"
            )
        lines.append(
            f"NashConv {_text(self.nash_conv)}, exploitability {_text(self.exploitability)}"
        )
        return "\n".join(lines)


def _text(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value} ({float(value):.4f})"


def best_response_gains(
    game: Any,
    state: Any,
    bots: Any,
    *,
    seed: int = 0,
    hidden: bool = False,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    seconds: float | None = None,
) -> BestResponseGains:
    """Each seat's exact gain from best-responding to the other seats' bots.

    For each seat, two exact solves of ``state`` (:func:`~cardcrawl.solve.solve`, with
    explicit chance): its value when every seat plays its bot (each bot a fixed policy,
    see :func:`bot_policy`), and its value when it plays its best reply to the others'
    bots. The difference is the seat's gain; their sum is the line-up's NashConv, and
    its mean the exploitability (OpenSpiel's figures; rlcard's best-response
    evaluation). For a solo game the gain is what the bot loses against best play.

    The best reply sees what the solver sees: in a position that hides nothing from the
    seat but the chance to come (the solver's check, unless ``hidden=True``) it is a
    reply the seat could play.

    Args:
        game: the game.
        state: a position in explicit-chance play, small enough to solve.
        bots: the bot of every seat (a name or factory), or one per seat as a sequence
            or a mapping, as :func:`~cardcrawl.simulate.simulate` takes them.
        seed: the bots' seed.
        hidden: solve even a state that hides something from a seat (see
            :func:`~cardcrawl.solve.solve`).
        max_nodes: each solve's node budget.
        seconds: each solve's time budget.

    Returns:
        The :class:`BestResponseGains`.

    Raises:
        OptionsError: the bots do not fit the seats.
        UnknownBotError: a bot name is not registered for the game.
        UnsolvableError: the position cannot be solved (see :func:`~cardcrawl.solve.solve`).
        SolverBudgetError: a budget ran out.

    Examples:
        The one round of Escape from Haydes of :func:`~cardcrawl.solve.solve`: the
        random bot wins 1 time in 12 from the start, best play 13 in 18.

        >>> import cardcrawl
        >>> from cardcrawl.solve import best_response_gains
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=1)
        >>> state = game.initial_state(
        ...     seed=1, explicit_chance=True, stack={"build": ["5S", "QH", "2C", "RJ"]})
        >>> gains = best_response_gains(game, state, "random", hidden=True)
        >>> print(gains.format())  # doctest: +ELLIPSIS
        seat 0 (random): ... with its bot, 13/18 (0.7222) best-responding: gains ...
        NashConv ..., exploitability ...
    """
    lineup = _lineup(game, bots)
    policies = {s: bot_policy(game, bot, s, seed) for s, bot in enumerate(lineup)}
    seats = []
    for seat, bot in enumerate(lineup):
        others = {s: p for s, p in policies.items() if s != seat}
        values = []
        for fixed in (policies, others):
            solver: Solver[Any, Any] = Solver(
                game,
                player=seat,
                policies=fixed,
                max_nodes=max_nodes,
                seconds=seconds,
                hidden=hidden,
            )
            values.append(solver.solve(state).value)
        seats.append(SeatGain(seat, _bot_label(bot), values[0], values[1]))
    return BestResponseGains(tuple(seats))
