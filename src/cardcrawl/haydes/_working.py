"""The working interface of Escape from Haydes (see :class:`cardcrawl.Working`).

A position is the rules' own :class:`~cardcrawl.haydes._position.Position`, begun as
``initial_state`` begins it and played by :meth:`Rules.play
<cardcrawl.haydes._play.Rules.play>`, the method ``step`` and the rollout kernel call
for a decision, with the game's hooks bound in it (a variant's included). Nothing here
states a rule: the legal decisions are the rules' ``legal_entry``, the outcome is the
game's ``outcome``, and a state is made by the game's own freeze.

Examples:
    >>> import cardcrawl
    >>> game = cardcrawl.load("escape-from-haydes", max_rounds=20)
    >>> working = HaydesWorking(game)
    >>> position = working.begin(3)
    >>> while not working.is_over(position):
    ...     working.advance(position, working.legal(position)[-1])  # always "end"
    >>> working.outcome(position).label
    'time-up'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcrawl.core._protocol import Outcome
from cardcrawl.core._random import rng_from_seed
from cardcrawl.core._working import refuse
from cardcrawl.haydes._actions import Action
from cardcrawl.haydes._position import Position, thaw
from cardcrawl.haydes._state import HaydesState, Phase

__all__ = ["HaydesNumbering", "HaydesWorking", "working"]

_TURN, _ENCOUNTER, _OVER = Phase.TURN, Phase.ENCOUNTER, Phase.OVER


def working(game: Any, events: bool) -> HaydesWorking:
    """``GameTools.working`` of Escape from Haydes: the working interface of ``game``,
    any variant."""
    return HaydesWorking(game, events)


class HaydesWorking:
    """Escape from Haydes played in place on working positions (see the module's text).

    Args:
        game: a game of Escape from Haydes or a variant of it.
        events: whether :meth:`freeze` gives the last decision's events.
    """

    __slots__ = ("_index", "_rules", "events", "game")

    def __init__(self, game: Any, events: bool = False) -> None:
        self.game = game
        self.events = events
        self._rules = game._rules
        self._index = game._index

    def begin(self, seed: int, stack: Mapping[str, Sequence[Any]] | None = None) -> Position:
        """The position ``initial_state(seed, stack=stack)`` freezes.

        Raises:
            OptionsError: the seed is not an integer from 0 to 2**64 - 1.
            StackError: a bad stack.
        """
        game = self.game
        if stack:
            # A stack is checked and dealt by the public path, then thawed.
            state: HaydesState = game.initial_state(seed, stack=stack)
            events = list(state.events) if self.events else None
            pos = thaw(state, self._index, events)
        else:
            pos = game._started(rng_from_seed(seed), False, {}, [] if self.events else None)
        pos.listed()  # many draws follow, as in a rollout
        return pos

    def legal(self, pos: Position) -> tuple[Action, ...]:
        """The legal decisions of ``pos``, the very tuple ``legal_actions`` gives."""
        phase = pos.phase
        if phase is _TURN or phase is _ENCOUNTER:
            legal: tuple[Action, ...] = self._rules.legal_entry(
                pos.at[pos.current], phase, pos._card_at
            )[0]
            return legal
        return ()

    def advance(self, pos: Position, action: Any) -> None:
        """Play the legal decision ``action`` on ``pos`` and the chance that follows.

        Raises:
            IllegalActionError: ``action`` is not legal here; ``pos`` is unchanged.
        """
        phase = pos.phase
        if phase is _TURN or phase is _ENCOUNTER:
            actions, codes = self._rules.legal_entry(pos.at[pos.current], phase, pos._card_at)
            k = 0
            for listed in actions:
                if listed is action:
                    break
                k += 1
            else:
                k = _position_of(actions, action)
            if k >= 0:
                if self.events:
                    pos.events = []
                self._rules.play(pos, codes[k])
                return
        refuse(self, pos, action)

    def numbering(self, encoding: Any) -> HaydesNumbering:
        """The legal decisions of a position as ``encoding``'s action numbers, each
        beside the rules' code of it (see :class:`HaydesNumbering`)."""
        return HaydesNumbering(self, encoding)

    def is_over(self, pos: Position) -> bool:
        """True once the game is over."""
        return pos.phase is _OVER

    def outcome(self, pos: Position) -> Outcome | None:
        """The game's ``outcome``, which reads a position as it reads a state."""
        outcome: Outcome | None = self.game.outcome(pos)
        return outcome

    def freeze(self, pos: Position) -> HaydesState:
        """The state of ``pos``; ``pos`` plays on without changing it."""
        state: HaydesState = self.game._frozen(pos)
        # The position goes on from the state it now is, as a thawed one does (its next
        # freeze copies the fields a step leaves as they are from that state).
        pos._thawed = state.__dict__
        return state


def _position_of(actions: tuple[Action, ...], action: Any) -> int:
    """Where an action equal to ``action`` is among ``actions``, or -1."""
    try:
        return actions.index(action)
    except (ValueError, TypeError):
        return -1


class HaydesNumbering:
    """Numbers a position's legal decisions with an encoding, once per list of them.

    The rules hand out the legal decisions of a cell and its face-down neighbours (or
    of a creature) as the same two tuples every time, the actions and their codes
    (``legal_entry``): each pair is numbered once, and a decision is then played by its
    code (``Rules.play``), with no action object and no search for it.

    Args:
        working: the working interface whose positions are numbered.
        encoding: the encoding that numbers the actions.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=20)
        >>> working, encoding = HaydesWorking(game, events=True), encoding_for(game)
        >>> numbering, position = working.numbering(encoding), working.begin(3)
        >>> numbers, codes = numbering.numbers(position)
        >>> numbers == [encoding.encode_action(a) for a in working.legal(position)]
        True
        >>> numbering.play(position, codes[numbers[-1]])  # the last is "end"
        >>> start = game.initial_state(3)
        >>> working.freeze(position) == game.step(start, game.legal_actions(start)[-1])
        True
    """

    def __init__(self, working: HaydesWorking, encoding: Any) -> None:
        self._rules = working._rules
        self._events = working.events
        self._encode = encoding.encode_action
        # By actions tuple (kept, so that its id is never another's): the numbers and
        # the code of each number.
        self._memo: dict[int, tuple[tuple[Action, ...], tuple[list[int], dict[int, int]]]] = {}

    def numbers(self, pos: Position) -> tuple[list[int], dict[int, int]]:
        """The action numbers of the legal decisions of ``pos``, and by number the
        rules' code of it; the same objects for the same decisions."""
        phase = pos.phase
        if phase is not _TURN and phase is not _ENCOUNTER:
            return [], {}
        actions, codes = self._rules.legal_entry(pos.at[pos.current], phase, pos._card_at)
        entry = self._memo.get(id(actions))
        if entry is not None and entry[0] is actions:
            return entry[1]
        numbers = [self._encode(action) for action in actions]
        if len(self._memo) >= 4096:
            self._memo.clear()
        made = self._memo[id(actions)] = (
            actions,
            (numbers, dict(zip(numbers, codes, strict=True))),
        )
        return made[1]

    def play(self, pos: Position, code: int) -> None:
        """Play the legal decision ``code`` (one of :meth:`numbers`) on ``pos``, and the
        chance that follows."""
        if self._events:
            pos.events = []
        self._rules.play(pos, code)
