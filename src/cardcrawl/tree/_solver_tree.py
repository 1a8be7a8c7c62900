"""The exact solver's tree of a small position: every decision and chance node, valued."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any

import attrs

from cardcrawl.core._protocol import CHANCE, TERMINAL
from cardcrawl.errors import OptionsError, SolverBudgetError
from cardcrawl.solve._solver import Mixed, Policy, Solver, _Search

__all__ = ["DEFAULT_TREE_NODES", "TreeNode", "solver_tree"]

#: The most nodes :func:`solver_tree` draws unless told: a page of a few hundred rows.
DEFAULT_TREE_NODES = 400

#: The kinds of node.
DECISION, POLICY, CHANCE_NODE, END, CUT = "decision", "policy", "chance", "end", "cut"


@attrs.frozen
class TreeNode:
    """One node of a solved tree, and the edges below it.

    Attributes:
        kind: ``"decision"`` (the solved seat chooses: the best child's value),
            ``"policy"`` (a seat with a fixed policy chooses: its action's value),
            ``"chance"`` (the probability-weighted mean of the children), ``"end"``
            (the game is over: the utility), or ``"cut"`` (below the depth asked for:
            valued, its children not drawn).
        seat: the seat to move (``CHANCE`` or ``TERMINAL`` where none).
        value: the exact value of the node for the solved seat.
        text: what the game says of the state (``game.describe``), or the outcome.
        edge: the action or chance outcome that led here, as text (``""`` at the root).
        probability: the chance of the edge, for a child of a chance node; else ``None``.
        best: the edge is a best action of its decision (or the action the policy
            plays), or the root.
        children: the nodes below, in the game's order.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.tree import solver_tree
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=1)
        >>> state = game.initial_state(
        ...     seed=1, explicit_chance=True, stack={"build": ["5S", "QH", "2C", "RJ"]})
        >>> for text in ("higher 1,0", "higher 2,0"):  # the Q♥: a creature (H-8)
        ...     state = game.step(state, game.parse_action(text))
        >>> tree = solver_tree(game, state, hidden=True, depth=2)
        >>> tree.kind, tree.value, tree.size
        ('decision', Fraction(13, 18), 25)
        >>> [(node.edge, node.kind) for node in tree.best_line()]
        [('', 'decision'), ('charisma', 'chance'), ('roll 7', 'cut')]
        >>> roll = tree.children[0].children[5]
        >>> roll.edge, roll.probability, roll.value
        ('roll 7', Fraction(1, 6), Fraction(1, 1))
    """

    kind: str
    seat: int
    value: Fraction
    text: str
    edge: str = ""
    probability: Fraction | None = None
    best: bool = True
    children: tuple[TreeNode, ...] = ()

    @property
    def size(self) -> int:
        """The nodes of the tree, this one included."""
        return 1 + sum(child.size for child in self.children)

    def walk(self) -> Iterator[tuple[int, TreeNode]]:
        """Every node with its depth, depth first, in the game's order."""
        stack: list[tuple[int, TreeNode]] = [(0, self)]
        while stack:
            depth, node = stack.pop()
            yield depth, node
            stack.extend((depth + 1, child) for child in reversed(node.children))

    def best_line(self) -> list[TreeNode]:
        """The best line from here: the first best action at each decision, the most
        likely outcome at each chance node (the first of the likeliest), to the end."""
        line = [self]
        node = self
        while node.children:
            if node.children[0].probability is not None:  # chance, or a mixed policy
                top = max(c.probability or 0 for c in node.children)
                node = next(c for c in node.children if c.probability == top)
            else:
                node = next(c for c in node.children if c.best)
            line.append(node)
        return line


def solver_tree(
    game: Any,
    state: Any,
    *,
    player: int = 0,
    policies: Mapping[int, Policy] | None = None,
    utility: Callable[[Any], Any] | None = None,
    hidden: bool = False,
    max_nodes: int = DEFAULT_TREE_NODES,
    depth: int | None = None,
    solver_nodes: int | None = 100_000,
) -> TreeNode:
    """The exact solver's tree of ``state``: each node's value, each chance's probability.

    The position is solved with :func:`~cardcrawl.solve.solve` (same arguments, same
    refusals), then its tree is laid out node by node: a state reached by two paths is
    drawn twice, though solved once. ``depth`` cuts the drawing (not the solving): a
    node that deep is a ``"cut"`` node, valued, without children.

    Args:
        game: the game.
        state: a state in explicit-chance play (see :func:`~cardcrawl.solve.solve`).
        player: the seat whose value is maximised.
        policies: fixed choices of other seats (see :func:`~cardcrawl.solve.solve`).
        utility: the value of a finished game (default: the seat's return).
        hidden: solve even a state that hides something from the player.
        max_nodes: the most nodes to draw.
        depth: the deepest level drawn (``None``: to the end of the game).
        solver_nodes: the solver's node budget (``None``: none).

    Returns:
        The root :class:`TreeNode`.

    Raises:
        SolverBudgetError: the tree has more than ``max_nodes`` nodes (the message
            says how to make it smaller), or the solver ran out of its budget.
        UnsolvableError: the solver refuses the position (see
            :func:`~cardcrawl.solve.solve`).
        OptionsError: ``max_nodes`` or ``depth`` is not a positive integer.

    Examples:
        A position too big to draw is refused, and says what to do:

        >>> import cardcrawl
        >>> from cardcrawl.tree import solver_tree
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=1)
        >>> state = game.initial_state(
        ...     seed=1, explicit_chance=True, stack={"build": ["5S", "QH", "2C", "RJ"]})
        >>> solver_tree(game, state, hidden=True, max_nodes=50)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.SolverBudgetError: the tree of this position has more than 50 nodes...
        >>> solver_tree(game, state, hidden=True, max_nodes=50, depth=1).size
        10
    """
    if type(max_nodes) is not int or max_nodes < 1:
        raise OptionsError(f"max_nodes is an integer >= 1, not {max_nodes!r}")
    if depth is not None and (type(depth) is not int or depth < 0):
        raise OptionsError(f"depth is None or an integer >= 0, not {depth!r}")
    solver: Solver[Any, Any] = Solver(
        game,
        player=player,
        policies=policies,
        utility=utility,
        max_nodes=solver_nodes,
        hidden=hidden,
    )
    solver.solve(state)  # checks the root, and values every state below it
    search = _Search(solver, time.perf_counter())
    budget = [max_nodes]

    def value(s: Any) -> Fraction:
        if game.current_player(s) == TERMINAL:
            return solver.utility(s)
        return search.value(s)

    def count() -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise SolverBudgetError(
                f"the tree of this position has more than {max_nodes} nodes, too many to "
                "draw: draw a later position, give a smaller depth (depth=N, --depth N) "
                "or a larger max_nodes",
                budget="tree_nodes",
                limit=max_nodes,
                nodes=max_nodes + 1,
            )

    # Built from the leaves up on an explicit stack: a deep tree cannot overflow
    # Python's. A frame: [state, value, level, edge, probability, best, pending
    # children (state, edge, probability, best), built children].
    def frame(s: Any, level: int, edge: str, p: Fraction | None, best: bool) -> list[Any]:
        count()
        return [s, value(s), level, edge, p, best, _children(game, solver, s, value), []]

    root = frame(state, 0, "", None, True)
    if depth == 0:
        root[6] = []
    stack = [root]
    built: TreeNode | None = None
    while stack:
        top = stack[-1]
        s, v, level, edge, p, best, pending, done = top
        if pending and (depth is None or level < depth):
            child, text, prob, is_best = pending.pop(0)
            stack.append(frame(child, level + 1, text, prob, is_best))
            continue
        stack.pop()
        cut = (
            depth is not None
            and level >= depth
            and bool(
                _children(game, solver, s, value) if game.current_player(s) != TERMINAL else []
            )
        )
        node = TreeNode(
            kind=CUT if cut else _kind(game, solver, s),
            seat=game.current_player(s),
            value=v,
            text=str(game.describe(s)) if hasattr(game, "describe") else "",
            edge=edge,
            probability=p,
            best=best,
            children=tuple(done),
        )
        if stack:
            stack[-1][7].append(node)
        else:
            built = node
    assert built is not None
    return built


def _kind(game: Any, solver: Solver[Any, Any], state: Any) -> str:
    seat = game.current_player(state)
    if seat == TERMINAL:
        return END
    if seat == CHANCE:
        return CHANCE_NODE
    return POLICY if seat in solver.policies else DECISION


def _children(
    game: Any, solver: Solver[Any, Any], state: Any, value: Callable[[Any], Fraction]
) -> list[tuple[Any, str, Fraction | None, bool]]:
    """The children of ``state`` to draw: (state, edge text, probability, best)."""
    seat = game.current_player(state)
    if seat == TERMINAL:
        return []
    if seat == CHANCE:
        return [
            (game.step(state, outcome), _text(game, outcome), Fraction(p), False)
            for outcome, p in game.chance_outcomes(state)
        ]
    policy = solver.policies.get(seat)
    if policy is not None:
        chosen = policy(state)
        if isinstance(chosen, Mixed):
            # The seat plays at random: only the actions it may play, with their chances.
            return [
                (game.step(state, a), _text(game, a), Fraction(p), False) for a, p in chosen.actions
            ]
        legal = game.legal_actions(state)
        return [(game.step(state, a), _text(game, a), None, a == chosen) for a in legal]
    children = [(a, game.step(state, a)) for a in game.legal_actions(state)]
    values = [value(s) for _, s in children]
    top = max(values)
    return [(s, _text(game, a), None, v == top) for (a, s), v in zip(children, values, strict=True)]


def _text(game: Any, action: Any) -> str:
    try:
        return str(game.format_action(action))
    except Exception:  # an outcome the game's notation does not write
        return str(action)
