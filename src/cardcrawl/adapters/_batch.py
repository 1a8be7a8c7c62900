"""The loop of the native vector environment: N games stepped in place, no numpy.

:class:`Batch` keeps one working position per game (:func:`cardcrawl.working_for`),
plays each game's decision on it, and writes what the vector environment hands out
into flat buffers of its own (``bytearray`` and ``array``), which the environment
shows as numpy arrays without copying. No state is built along the way: a position is
frozen only when someone asks for its state. Kept free of numpy and Gymnasium, so the
compiled build compiles it (``COMPILED``) and a plain install runs it as Python.

Actions are numbered once, not per step: a game's working interface may offer a
``numbering(encoding)``, which lists a position's legal decisions as the encoding's
action numbers, each beside the code the game plays it by (for Escape from Haydes the
rules' own decision codes, for The Mapless House the cells), so that the mask is
written from numbers and a chosen number is played without an action object. Any other
game gets :class:`Numbered`, which numbers the legal actions with the encoding and
remembers the numbers of the tuples the rules hand out again. Either way an action is
legal exactly where the mask says 1, which is what the step checks.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.encoding import encoding_for
    >>> game = cardcrawl.load("escape-from-haydes", max_rounds=20)
    >>> encoding = encoding_for(game)
    >>> batch = Batch(game, 2, encoding, encoding.compact(), events=True)
    >>> batch.start(0, 7), batch.start(1, 8)
    (None, None)
    >>> first = batch.legal(0)[0]
    >>> batch.step([encoding.encode_action(first), 10**6])  # the second is no action
    >>> list(batch.illegal), batch.rewards[1]
    ([0, 1], -1.0)
    >>> batch.freeze(0) == game.step(game.initial_state(7), first)
    True
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardcrawl.core._working import Working, working_for
from cardcrawl.encoding import CompactObservation, Encoding
from cardcrawl.errors import IllegalActionError

__all__ = ["Batch", "Numbered"]

_MEMO_SIZE = 4096
#: The widest row of action masks that is written whole rather than number by number.
_WHOLE_ROW = 1024


class Numbered:
    """The numbering of any game's legal decisions, over its working interface: the
    encoding numbers the legal actions, and the numbers of a tuple the rules hand out
    again are remembered (by the tuple, kept, so that its id is never another's).

    Args:
        working: the game's working interface.
        encoding: the encoding that numbers the actions.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> game = cardcrawl.load("mapless-house", max_turns=30)
        >>> numbered = Numbered(cardcrawl.StateWorking(game), encoding_for(game))
        >>> position = numbered.working.begin(1)
        >>> numbers, codes = numbered.numbers(position)
        >>> [codes[k] for k in numbers] == list(game.legal_actions(game.initial_state(1)))
        True
    """

    def __init__(self, working: Working, encoding: Encoding) -> None:
        self.working = working
        self.encoding = encoding
        self._memo: dict[int, tuple[tuple[Any, ...], tuple[list[int], dict[int, Any]]]] = {}
        self._known: dict[int, tuple[Any, int]] = {}  # by action (kept): its number

    def numbers(self, position: Any) -> tuple[list[int], dict[int, Any]]:
        """The action numbers of the legal decisions of ``position``, and by number the
        code :meth:`play` takes (here the action itself)."""
        legal = self.working.legal(position)
        entry = self._memo.get(id(legal))
        if entry is not None and entry[0] is legal:
            return entry[1]
        numbers: list[int] = []
        codes: dict[int, Any] = {}
        known = self._known
        encode = self.encoding.encode_action
        for action in legal:
            hit = known.get(id(action))
            if hit is None or hit[0] is not action:
                if len(known) >= _MEMO_SIZE:
                    known.clear()
                hit = known[id(action)] = (action, encode(action))
            numbers.append(hit[1])
            codes[hit[1]] = action
        if len(self._memo) >= _MEMO_SIZE:
            self._memo.clear()
        self._memo[id(legal)] = (legal, (numbers, codes))
        return numbers, codes

    def play(self, position: Any, code: Any) -> None:
        """Play the legal decision ``code`` (one of :meth:`numbers`) on ``position``."""
        self.working.advance(position, code)


_NONE: tuple[tuple[int, ...], tuple[Any, ...]] = ((), ())


class Batch:
    """``n`` games of one game, each on its working position, stepped together.

    Args:
        game: a loaded game (or variant).
        n: the number of games.
        encoding: the game's encoding, which numbers the actions.
        compact: the compact form whose rows :attr:`obs` holds; ``None`` when the
            caller gives ``writers`` of its own.
        writers: one row writer per game (``write_position(position, out, offset)``);
            by default the compact form's (:meth:`CompactObservation.row_writer`).
        events: whether :meth:`freeze` gives the states' events.
        illegal_raise: raise on an illegal action, rather than end that game.
        illegal_reward: the reward of an illegal action that ends a game.
        next_seed: the seed of game ``i``'s next game, when it resets by itself.

    Attributes:
        obs: the compact rows, ``n * compact.size`` bytes (empty without ``compact``).
        mask: ``n * num_actions`` bytes: 1 where an action is legal.
        rewards: ``n`` doubles; terminated, truncated, illegal: ``n`` bytes each.
        numbered: how the legal decisions are numbered and played (see the module's
            text).
    """

    def __init__(
        self,
        game: Any,
        n: int,
        encoding: Encoding,
        compact: CompactObservation | None,
        writers: Sequence[Any] | None = None,
        *,
        events: bool = False,
        illegal_raise: bool = False,
        illegal_reward: float = -1.0,
        next_seed: Callable[[int], int] | None = None,
    ) -> None:
        self.game = game
        self.n = n
        self.encoding = encoding
        working: Working = working_for(game, events=events)
        self.working = working
        numbering = getattr(working, "numbering", None)
        numbered = None if numbering is None else numbering(encoding)
        self.numbered: Any = Numbered(working, encoding) if numbered is None else numbered
        self.size = 0 if compact is None else compact.size
        self.num_actions: int = encoding.num_actions
        self.obs = bytearray(n * self.size)
        self.mask = bytearray(n * self.num_actions)
        self.rewards = array("d", bytes(8 * n))
        self.terminated = bytearray(n)
        self.truncated = bytearray(n)
        self.illegal = bytearray(n)
        self.ended = bytearray(n)
        if writers is None:
            assert compact is not None
            writers = [compact.row_writer(working, 0) for _ in range(n)]
        self.writers = list(writers)
        self.positions: list[Any] = [None] * n
        self._set: list[Sequence[int]] = [()] * n  # the mask's 1s, by game
        self._codes: list[Any] = [()] * n  # by game, the code of each legal number
        self._rows: dict[int, tuple[Sequence[int], bytearray]] = {}  # mask rows, by numbers
        self.illegal_raise = illegal_raise
        self.illegal_reward = illegal_reward
        self.next_seed = next_seed

    def start(self, i: int, seed: int, stack: Mapping[str, Sequence[Any]] | None = None) -> None:
        """Begin game ``i`` anew from ``seed`` (and ``stack``), and write its row."""
        working = self.working
        pos = working.begin(seed, stack)
        self.positions[i] = pos
        over = working.is_over(pos)
        self.ended[i] = over
        self._write(i, pos, over)

    def step(self, actions: list[int]) -> None:
        """Play action number ``actions[i]`` in game ``i``; a game that ended at the last
        step starts anew instead (its action is ignored).

        Raises:
            IllegalActionError: with ``illegal_raise``, an illegal action.
            EncodingError: with ``illegal_raise``, a number outside the actions.
        """
        working = self.working
        is_over = working.is_over
        play = self.numbered.play
        rewards, terminated, truncated = self.rewards, self.terminated, self.truncated
        ended, illegal, codes, positions = self.ended, self.illegal, self._codes, self.positions
        mask, width = self.mask, self.num_actions
        for i in range(self.n):
            rewards[i] = 0.0
            illegal[i] = 0
            if ended[i]:
                assert self.next_seed is not None
                self.start(i, self.next_seed(i))
                terminated[i] = truncated[i] = 0
                continue
            pos = positions[i]
            number = actions[i]
            if not (0 <= number < width and mask[i * width + number]):
                if self.illegal_raise:
                    self._refuse(pos, number)
                ended[i] = illegal[i] = terminated[i] = 1
                truncated[i] = 0
                rewards[i] = self.illegal_reward
                self._write(i, pos, True)
                continue
            play(pos, codes[i][number])
            if is_over(pos):
                ended[i] = 1
                outcome = working.outcome(pos)
                assert outcome is not None
                rewards[i] = outcome.returns[0]
                limit = self.encoding.limit_reached(outcome)
                truncated[i] = limit
                terminated[i] = not limit
                self._write(i, pos, True)
            else:
                terminated[i] = truncated[i] = 0
                self._write(i, pos, False)

    def legal(self, i: int) -> tuple[Any, ...]:
        """The legal actions of game ``i`` now (none once it ended)."""
        if self.ended[i]:
            return ()
        return tuple(self.working.legal(self.positions[i]))

    def freeze(self, i: int) -> Any:
        """The state of game ``i`` now."""
        return self.working.freeze(self.positions[i])

    def _write(self, i: int, pos: Any, over: bool) -> None:
        """Row ``i`` of the observations and of the action masks."""
        self.writers[i].write_position(pos, self.obs, i * self.size)
        entry = _NONE if over else self.numbered.numbers(pos)
        numbers = entry[0]
        self._codes[i] = entry[1]
        if numbers is self._set[i]:
            return
        mask, width = self.mask, self.num_actions
        base = i * width
        if width <= _WHOLE_ROW:
            # A short row is copied whole, made once per list of numbers (a numbering
            # hands out the same list for the same decisions).
            hit = self._rows.get(id(numbers))
            if hit is None or hit[0] is not numbers:
                row = bytearray(width)
                for j in numbers:
                    row[j] = 1
                if len(self._rows) >= _MEMO_SIZE:
                    self._rows.clear()
                # The entry holds the list itself, so that its id is never another's.
                hit = self._rows[id(numbers)] = (numbers, row)
            mask[base : base + width] = hit[1]
        else:
            for j in self._set[i]:
                mask[base + j] = 0
            for j in numbers:
                mask[base + j] = 1
        self._set[i] = numbers

    def _refuse(self, pos: Any, number: int) -> None:
        """Raise the error an illegal action number gets."""
        action = self.encoding.decode_action(number)  # EncodingError when out of range
        state = self.working.freeze(pos)
        self.game.check(state, action)  # IllegalActionError, saying why
        legal = self.working.legal(pos)
        raise IllegalActionError(
            state, action, "a legal decision", legal, "it is not one of the legal actions"
        )
