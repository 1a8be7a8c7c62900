"""Information-set Monte Carlo tree search (IS-MCTS), for every game of the protocol.

A bot is shown an observation, never the state, so it cannot search the game's tree
itself. Single-observer IS-MCTS (Cowling, Powley and Whitehouse, 2012) searches a tree
of *information sets* instead: each iteration draws a state the bot cannot tell from
what it saw (:meth:`~cardcrawl.GameBase.sample_state`, a determinization), walks the
tree down it by UCT, adds one node, plays the game out with a quick bot (a rollout),
and credits the result to every action on the way.

Here a node is what the player to move there observes (``observe(state, mover)``), so
the draws of sampled play (which ``step`` resolves itself) lead to different nodes, and
one node's statistics hold whatever determinization reached it. Each node keeps, per
action, the visits, the sum of the returns *of the player to move there* and how often
the action was legal when the node was visited (its availability, which UCT counts in
place of the parent's visits: an action legal in only some determinizations is not
penalised for the others). With several players, each seat's choices in the tree
maximise its own return.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from cardcrawl.bots._base import BotFactory, get_bot_spec
from cardcrawl.bots._params import Parameter
from cardcrawl.bots._random_bot import RandomBot
from cardcrawl.core._engine import GameBase
from cardcrawl.core._protocol import TERMINAL
from cardcrawl.core._random import rng_below, rng_derive, rng_from_seed
from cardcrawl.core._registry import tools_for
from cardcrawl.errors import OptionsError, UnknownBotError

__all__ = [
    "DEFAULT_EXPLORATION",
    "DEFAULT_ITERATIONS",
    "ActionStats",
    "ISMCTSBot",
    "LineStep",
    "SearchResult",
]

#: The UCT exploration constant ``c`` of :class:`ISMCTSBot`: an action's score is its
#: mean return plus ``c * sqrt(ln(availability) / visits)``. For returns between 0 and
#: 1 (a win is 1), Kocsis and Szepesvári's ``1 / sqrt(2)``, rounded.
DEFAULT_EXPLORATION = 0.7
#: The iterations of one decision when neither ``iterations`` nor ``seconds`` is given.
DEFAULT_ITERATIONS = 1000
#: The most decisions one rollout plays; a game still going after them counts as its
#: returns so far (zeros for the built-in games).
DEFAULT_ROLLOUT_LIMIT = 1000
#: The most nodes of one decision's tree; past them, iterations only roll out.
DEFAULT_MAX_NODES = 200_000


@attrs.frozen
class ActionStats:
    """What one search found of one legal action at the root.

    Attributes:
        action: the legal action.
        visits: the iterations that took it.
        value: the mean return for the searching seat of those iterations (0.0 when it
            was never visited).

    Examples:
        >>> from cardcrawl.bots import ActionStats
        >>> ActionStats("stand", visits=10, value=0.75).value
        0.75
    """

    action: Any
    visits: int
    value: float


@attrs.frozen
class LineStep:
    """One step of a search's principal variation: the most visited action of a node.

    Attributes:
        seat: the seat to move at the node.
        action: the node's most visited action.
        visits: the iterations that took it there.
        value: their mean return for ``seat``.
        share: the share of the parent's iterations through the previous action that
            came to this node (what chance and the hidden cards made of that action;
            1.0 at the root).

    Examples:
        >>> from cardcrawl.bots import LineStep
        >>> LineStep(0, "end", visits=40, value=0.25, share=0.5).visits
        40
    """

    seat: int
    action: Any
    visits: int
    value: float
    share: float = 1.0


@attrs.frozen
class SearchResult:
    """One IS-MCTS search of one decision: each legal action's visits and mean return.

    Attributes:
        seat: the seat that searched (whose returns the values are).
        iterations: the iterations run.
        actions: one :class:`ActionStats` per legal action, in the game's order.
        principal_variation: with ``search(..., principal_variation=True)``, the line
            the search expects: from the root, the most visited action of each node,
            then the node most of its iterations came to next, while the tree goes
            (:class:`LineStep`); else empty.

    Examples:
        >>> from cardcrawl.bots import ActionStats, SearchResult
        >>> result = SearchResult(0, 12, (ActionStats("hit", 4, 0.5), ActionStats("stand", 8, 0.7)))
        >>> result.best, result.value("hit"), result.best_value
        ('stand', 0.5, 0.7)
    """

    seat: int
    iterations: int
    actions: tuple[ActionStats, ...]
    principal_variation: tuple[LineStep, ...] = ()

    @property
    def best(self) -> Any:
        """The most visited action (the robust choice); ties go to the higher mean, then
        to the first in the game's order."""
        best = self.actions[0]
        for stats in self.actions[1:]:
            if (stats.visits, stats.value) > (best.visits, best.value):
                best = stats
        return best.action

    @property
    def best_value(self) -> float:
        """The mean return of :attr:`best`: what the search expects of the position."""
        return self.value(self.best)

    def stats(self, action: Any) -> ActionStats:
        """The statistics of ``action``.

        Raises:
            OptionsError: ``action`` is not one of the searched actions.
        """
        for stats in self.actions:
            if stats.action == action:
                return stats
        raise OptionsError(f"{action!r} is not one of the searched actions")

    def value(self, action: Any) -> float:
        """The mean return of ``action`` (see :meth:`stats`)."""
        return self.stats(action).value


class _Node:
    """One information set: per action ``[visits, return sum, availability]``, and,
    when a search keeps its principal variation, per action how often each next node
    (by key) followed it."""

    __slots__ = ("edges", "next")

    def __init__(self) -> None:
        self.edges: dict[Any, list[float]] = {}
        self.next: dict[Any, dict[Any, int]] | None = None

    def follow(self, action: Any, key: Any) -> None:
        """Count one iteration that came from ``action`` to the node ``key``."""
        if self.next is None:
            self.next = {}
        seen = self.next.setdefault(action, {})
        seen[key] = seen.get(key, 0) + 1


def _line(root: _Node, tree: dict[Any, _Node], seat: int) -> tuple[LineStep, ...]:
    """The principal variation of a searched tree (see :class:`SearchResult`)."""
    line: list[LineStep] = []
    node: _Node | None = root
    mover, share = seat, 1.0
    while node is not None and node.edges:
        action, edge = max(node.edges.items(), key=lambda item: (item[1][0], item[1][1]))
        if not edge[0]:
            break
        line.append(LineStep(mover, action, int(edge[0]), edge[1] / edge[0], share))
        followed = (node.next or {}).get(action)
        if not followed:
            break
        key, count = max(followed.items(), key=lambda item: item[1])
        share = count / sum(followed.values())
        mover = key[0]
        node = tree.get(key)
        if node is not None and len(line) > len(tree):
            break  # never longer than the tree: a node seen twice on a line
    return tuple(line)


def _advisors(
    game: Any, seed: int, seat: int, advisors: str | Sequence[str | BotFactory]
) -> list[Any]:
    """The advisor bots of ``advisors`` (see :class:`ISMCTSBot`), each on a seed of its
    own (``rng_derive(seed, seat, -1 - k)`` for the ``k``-th, never a search's seed),
    so that the bot stays reproducible."""
    if isinstance(advisors, str):
        names = [name.strip() for name in advisors.split(",")]
        if advisors.strip() and not all(names):
            raise OptionsError(
                f"advisors is bot names separated by commas, not {advisors!r} (an empty name)"
            )
        wanted: list[str | BotFactory] = [name for name in names if name]
    elif isinstance(advisors, Sequence):
        wanted = list(advisors)
    else:
        raise OptionsError(
            f"advisors is bot names (a list, or one string separated by commas) or "
            f"factories, not {advisors!r}"
        )
    bots = []
    for k, advisor in enumerate(wanted):
        if isinstance(advisor, str):
            if advisor == "ismcts":
                raise OptionsError("advisors cannot name ismcts itself")
            factory = get_bot_spec(advisor, game).factory
        elif callable(advisor):
            factory = advisor
        else:
            raise OptionsError(f"an advisor is a registered bot name or a factory, not {advisor!r}")
        bots.append(factory(game, rng_derive(seed, seat, -1 - k), seat))
    return bots


class ISMCTSBot:
    """Single-observer IS-MCTS over the real rules, from the bot's observation only.

    Each decision it searches a fresh tree: every iteration draws a state from the
    observation with the game's :meth:`~cardcrawl.GameBase.sample_state` (hidden
    information drawn afresh), walks down the tree choosing by UCT (an action never
    tried first, in a random order), adds the first node it reaches that the tree lacks,
    plays on from there with the ``rollout`` bot in every seat, and adds the returns to
    every action on its way, each from the view of the player who took it. Chance is
    left to sampled play: ``step`` draws each card and roll with the determinized
    state's generator, so each iteration follows different luck. It then plays the most
    visited action.

    Budget: ``iterations`` per decision (the default, 1000, when neither budget is
    given), or ``seconds`` per decision (anytime: it stops at the deadline and plays the
    best action so far, after one iteration at least), or both (whichever ends first).
    Under an iteration budget alone it is deterministic: every draw comes from its seed,
    seat and decision number, so the same seed makes the same choices. A ``seconds``
    budget depends on the machine's speed.

    Args:
        game: the game it plays (any game whose class overrides ``sample_state``).
        seed: its seed.
        seat: the seat it plays.
        iterations: the iterations per decision (>= 1).
        seconds: the time per decision (> 0).
        exploration: UCT's constant ``c`` (>= 0), :data:`DEFAULT_EXPLORATION` by default,
            for returns between 0 and 1.
        rollout: the bot (registered name or factory) playing every seat in rollouts:
            ``"random"`` (the default), the game's ``"heuristic"`` for stronger but
            slower playouts, or ``"kernel"``: random play on the game's rollout kernel
            (``GameTools.rollout``), the quickest, where the game has one for the
            position (else random play the public way).
        rollout_limit: the most decisions of one rollout.
        max_nodes: the most nodes of one tree.
        leaf: what a rollout stopped by ``rollout_limit`` is worth to each seat,
            ``leaf(game, state)`` (a game's own estimate); ``None`` (the default): its
            returns so far.
        advisors: bots (registered names, factories, or the names in one string
            separated by commas) that say where a search is worth its cost: at each
            decision :meth:`choose` asks every advisor, plays their action when they all
            agree, and otherwise searches among the actions they proposed only. Empty
            (the default): every decision with two legal actions or more is searched
            among all of them.
        common_draws: iterate in rounds of one iteration per root action, each round
            on one determinization and one generator for the rollout (common random
            numbers), so that the actions are compared on the same luck; the budget is
            then spent by whole rounds. ``False`` (the default): UCT at the root too.

    Raises:
        UnknownBotError: the game cannot draw a state from an observation, or no
            ``rollout`` bot or advisor of that name plays it.
        OptionsError: a budget or constant is out of range, ``common_draws`` is not a
            bool, ``leaf`` is not callable, or ``advisors`` is malformed.

    Examples:
        A game of Escape from Haydes played alone by IS-MCTS, 50 iterations a decision:

        >>> import cardcrawl
        >>> from cardcrawl.bots import make_bot
        >>> game = cardcrawl.load("escape-from-haydes", players=1, max_rounds=5)
        >>> state = game.initial_state(seed=2)
        >>> bot = make_bot("ismcts", game, seed=2, iterations=50)
        >>> while not game.is_terminal(state):
        ...     legal = game.legal_actions(state)
        ...     state = game.step(state, bot.choose(game, game.observe(state, 0), legal))
        >>> game.outcome(state).label in {"escaped", "trapped", "time-up"}
        True

        Its estimates of each action:

        >>> state = game.initial_state(seed=2)
        >>> result = make_bot("ismcts", game, seed=2, iterations=50).search(
        ...     game, game.observe(state, 0), game.legal_actions(state))
        >>> result.iterations, sum(s.visits for s in result.actions)
        (50, 50)
    """

    #: What :func:`cardcrawl.tune.tune` may search (see :class:`~cardcrawl.bots.Parameter`).
    parameters = (
        Parameter(
            "exploration",
            DEFAULT_EXPLORATION,
            low=0.0,
            high=2.0,
            description="UCT's constant c: how much an action little tried is worth trying",
        ),
        Parameter(
            "common_draws",
            False,
            choices=(False, True),
            description="compare the root's actions on the same determinizations",
        ),
    )

    def __init__(
        self,
        game: Any,
        seed: int,
        seat: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        rollout: str | BotFactory = "random",
        rollout_limit: int = DEFAULT_ROLLOUT_LIMIT,
        max_nodes: int = DEFAULT_MAX_NODES,
        leaf: Callable[[Any, Any], Sequence[float]] | None = None,
        advisors: str | Sequence[str | BotFactory] = (),
        common_draws: bool = False,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and (isinstance(iterations, bool) or iterations < 1):
            raise OptionsError(f"iterations is an integer >= 1, not {iterations!r}")
        if seconds is not None and not seconds > 0:
            raise OptionsError(f"seconds is a number > 0, not {seconds!r}")
        if not exploration >= 0:
            raise OptionsError(f"exploration is a number >= 0, not {exploration!r}")
        if rollout_limit < 1 or max_nodes < 1:
            raise OptionsError(
                f"rollout_limit and max_nodes are integers >= 1, not {rollout_limit!r} "
                f"and {max_nodes!r}"
            )
        sample = getattr(type(game), "sample_state", None)
        if sample is None or sample is GameBase.sample_state:
            raise UnknownBotError(
                f"ismcts cannot play {game.name}: its game class does not override "
                "sample_state (a state drawn from an observation)"
            )
        if not isinstance(common_draws, bool):
            raise OptionsError(f"common_draws is True or False, not {common_draws!r}")
        if leaf is not None and not callable(leaf):
            raise OptionsError(f"leaf is a function leaf(game, state) or None, not {leaf!r}")
        self._kernel: Any = None
        if isinstance(rollout, str) and rollout == "kernel":
            make_kernel = tools_for(game).rollout
            self._kernel = None if make_kernel is None else make_kernel(game)
            factory: BotFactory = RandomBot
        else:
            factory = get_bot_spec(rollout, game).factory if isinstance(rollout, str) else rollout
        self._rollout_factory: BotFactory | None = None if factory is RandomBot else factory
        self._common = common_draws
        self._seed = seed
        self._seat = seat
        self._iterations = iterations
        self._seconds = seconds
        self._c = float(exploration)
        self._rollout_limit = rollout_limit
        self._max_nodes = max_nodes
        self._decisions = 0
        self._leaf = leaf
        self._record = False
        self._advisors = _advisors(game, seed, seat, advisors)
        #: The iterations of the last search (for reports and tests).
        self.last_iterations = 0
        #: The decisions :meth:`choose` searched, and those it left to the advisors.
        self.searched = 0
        self.advised = 0

    def choose(self, game: Any, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The most visited action of a search from ``observation`` (the only legal
        action at once, without searching)."""
        self._decisions += 1
        if len(legal_actions) == 1:
            return legal_actions[0]
        allowed: list[Any] | None = None
        if self._advisors:
            allowed = []
            for advisor in self._advisors:
                proposed = advisor.choose(game, observation, legal_actions)
                if proposed not in allowed:
                    allowed.append(proposed)
            if len(allowed) == 1:
                self.advised += 1
                return allowed[0]
        self.searched += 1
        return self._search(game, observation, legal_actions, None, 0, allowed).best

    def search(
        self,
        game: Any,
        observation: Any,
        legal_actions: Sequence[Any],
        *,
        ensure: Sequence[Any] = (),
        min_visits: int = 0,
        principal_variation: bool = False,
    ) -> SearchResult:
        """Search one decision with the bot's budget; each action's visits and value.

        Counts as a decision for the seeds, as :meth:`choose` does. Keeping the
        principal variation changes nothing of the search: the same iterations, the same
        draws, the same values.

        Args:
            game: the game.
            observation: the bot's seat's observation at a decision of that seat.
            legal_actions: the legal actions there.
            ensure: actions to be visited at least ``min_visits`` times: after the
                budget, iterations that start with each of them are added until they
                are (for comparing a given action fairly, as game analysis does).
            min_visits: see ``ensure``.
            principal_variation: also keep the line the search expects
                (:attr:`SearchResult.principal_variation`).

        Returns:
            The :class:`SearchResult`.

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.bots import make_bot
            >>> game = cardcrawl.load("escape-from-haydes", players=1, max_rounds=5)
            >>> state = game.initial_state(seed=2)
            >>> seen, legal = game.observe(state, 0), game.legal_actions(state)
            >>> plain = make_bot("ismcts", game, seed=2, iterations=60).search(game, seen, legal)
            >>> kept = make_bot("ismcts", game, seed=2, iterations=60).search(
            ...     game, seen, legal, principal_variation=True)
            >>> kept.actions == plain.actions, kept.principal_variation[0].action == kept.best
            (True, True)
        """
        self._decisions += 1
        self._record = bool(principal_variation)
        try:
            return self._search(game, observation, legal_actions, ensure, min_visits)
        finally:
            self._record = False

    # ------------------------------------------------------------------ the search
    def _search(
        self,
        game: Any,
        observation: Any,
        legal_actions: Sequence[Any],
        ensure: Sequence[Any] | None,
        min_visits: int,
        allowed: Sequence[Any] | None = None,
    ) -> SearchResult:
        seat = self._seat
        root_seed = rng_derive(self._seed, seat, self._decisions)
        root = _Node()
        tree: dict[Any, _Node] = {}
        deadline = None if self._seconds is None else time.perf_counter() + self._seconds
        done = 0
        if self._common:
            actions = list(legal_actions if allowed is None else allowed)
            rounds = 0
            while self._iterations is None or done < self._iterations:
                shared = rng_derive(root_seed, rounds)
                for action in actions:
                    self._iterate(game, observation, root, tree, shared, action)
                    done += 1
                rounds += 1
                if deadline is not None and time.perf_counter() >= deadline:
                    break
        while not self._common and (self._iterations is None or done < self._iterations):
            self._iterate(game, observation, root, tree, rng_derive(root_seed, done), None, allowed)
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        for action in ensure or ():
            edge = root.edges.get(action)
            while edge is None or edge[0] < min_visits:
                self._iterate(game, observation, root, tree, rng_derive(root_seed, done), action)
                done += 1
                edge = root.edges.get(action)
                if edge is None:  # not legal in the determinization: cannot be forced
                    break
        self.last_iterations = done
        stats = []
        for action in legal_actions if allowed is None else allowed:
            edge = root.edges.get(action)
            visits = 0 if edge is None else int(edge[0])
            value = edge[1] / edge[0] if edge is not None and edge[0] else 0.0
            stats.append(ActionStats(action, visits, value))
        line = _line(root, tree, seat) if self._record else ()
        return SearchResult(seat, done, tuple(stats), line)

    def _iterate(
        self,
        game: Any,
        observation: Any,
        root: _Node,
        tree: dict[Any, _Node],
        seed: int,
        forced: Any,
        allowed: Sequence[Any] | None = None,
    ) -> None:
        """One iteration: a determinization, a walk down by UCT, one new node, a
        rollout, and the returns backed up the walk."""
        state = game.sample_state(observation, self._seat, seed)
        rng = rng_from_seed(rng_derive(seed, 1))
        path: list[tuple[list[float], int]] = []
        node: _Node | None = root
        mover = self._seat
        record = self._record
        current_player, legal_actions, observe, step = (
            game.current_player,
            game.legal_actions,
            game.observe,
            game.step,
        )
        while node is not None:
            legal = legal_actions(state)
            edges = node.edges
            if forced is not None and not path:
                if forced not in legal:
                    return
                for action in legal:
                    edge = edges.get(action)
                    if edge is None:
                        edges[action] = [0.0, 0.0, 1.0]
                    else:
                        edge[2] += 1.0
                chosen = forced
            else:
                if allowed is not None and not path:
                    legal = [a for a in legal if a in allowed] or legal
                rng, chosen = self._select(edges, legal, rng)
            path.append((edges[chosen], mover))
            state = step(state, chosen)
            mover = current_player(state)
            if mover == TERMINAL:
                node = None
                break
            key = (mover, observe(state, mover))
            if record:
                node.follow(chosen, key)
            node = tree.get(key)
            if node is None:
                if len(tree) < self._max_nodes:
                    tree[key] = _Node()
                break
        if mover != TERMINAL:
            state = self._rollout(game, state, rng)
        if self._leaf is not None and current_player(state) != TERMINAL:
            returns = self._leaf(game, state)
        else:
            returns = game.returns(state)
        for edge, who in path:
            edge[0] += 1.0
            edge[1] += returns[who]

    def _select(
        self, edges: dict[Any, list[float]], legal: Sequence[Any], rng: int
    ) -> tuple[int, Any]:
        """UCT over the actions legal here, an untried one first (chosen at random)."""
        untried = []
        for action in legal:
            edge = edges.get(action)
            if edge is None:
                edges[action] = [0.0, 0.0, 1.0]
                untried.append(action)
            else:
                edge[2] += 1.0
                if edge[0] == 0.0:
                    untried.append(action)
        if untried:
            if len(untried) == 1:
                return rng, untried[0]
            rng, index = rng_below(rng, len(untried))
            return rng, untried[index]
        c, log = self._c, math.log
        best, best_score = legal[0], -math.inf
        for action in legal:
            n, total, available = edges[action]
            score = total / n + c * math.sqrt(log(available) / n)
            if score > best_score:
                best, best_score = action, score
        return rng, best

    def _rollout(self, game: Any, state: Any, rng: int) -> Any:
        """The state where the rollout bot, playing every seat, ends the game (or stops
        after ``rollout_limit`` decisions)."""
        current_player, legal_actions, step = game.current_player, game.legal_actions, game.step
        factory = self._rollout_factory
        if self._kernel is not None:
            rng, kernel_seed = rng_below(rng, 2**63)
            played = self._kernel.play(kernel_seed, self._rollout_limit, start=state)
            if played is not None:
                return played[0]
        if factory is None:
            # The random bot, inline: it needs no observation, and no bot to be built.
            for _ in range(self._rollout_limit):
                if current_player(state) == TERMINAL:
                    break
                legal = legal_actions(state)
                rng, index = rng_below(rng, len(legal))
                state = step(state, legal[index])
            return state
        rng, bot_seed = rng_below(rng, 2**63)
        bots = [factory(game, bot_seed, s) for s in range(game.num_players)]
        reads = [getattr(bot, "reads_observation", True) for bot in bots]
        observe = game.observe
        for _ in range(self._rollout_limit):
            seat = current_player(state)
            if seat == TERMINAL:
                break
            seen = observe(state, seat) if reads[seat] else None
            state = step(state, bots[seat].choose(game, seen, legal_actions(state)))
        return state
