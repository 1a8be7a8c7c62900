"""Matches: a game in progress with its whole history, fair undo and redo, and records.

A :class:`Match` is the playing surface that user interfaces, notebooks and tutorials
share. It is a mutable container (like a chess board's move stack) of immutable
states: every state in it is the value :meth:`~cardcrawl.Game.step` returned, never
changed afterwards. It is written against the :class:`~cardcrawl.Game` protocol alone,
so it works for every game and every variant.

Examples:
    >>> import cardcrawl
    >>> match = cardcrawl.Match.start(cardcrawl.load("mapless-house"), seed=4)
    >>> state = match.play(match.game.legal_actions(match.state)[0])
    >>> len(match.history), match.history[-1].state is match.state
    (1, True)
    >>> again = cardcrawl.Match.from_record(match.to_record())
    >>> again.state == match.state
    True
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar, cast, overload

import attrs

from cardcrawl.core._engine import GameBase
from cardcrawl.core._notation import fail
from cardcrawl.core._protocol import CHANCE, Game, GameState
from cardcrawl.core._registry import load
from cardcrawl.errors import CardcrawlError, OptionsError, PlayerError, RecordError, UndoError
from cardcrawl.kit._svg import find_renderer, svg
from cardcrawl.play._agent import Agent
from cardcrawl.play._html import replay_html
from cardcrawl.play._record import (
    Comment,
    Record,
    Seconds,
    problem,
    started_problem,
    started_text,
)

__all__ = ["Match", "MatchEntry", "UndoError"]

#: The state type of a match's game: ``Match[MaplessState]`` is a match of The Mapless
#: House, whose ``state`` a type checker knows as a ``MaplessState``.
S = TypeVar("S", bound=GameState)

# determinize() needs a seed for its fresh generator; any fixed one will do, since the
# twin state it seeds is only compared, never shown or played on.
_TWIN_SEED = 0


@attrs.frozen
class MatchEntry(Generic[S]):
    """One step of a match: the action taken and the state it made.

    Attributes:
        action: the decision, or in explicit-chance play the chance outcome, taken.
        state: the state the action made (immutable, like every state).
        player: who chose the action: a player number, or :data:`cardcrawl.CHANCE`
            for a chance outcome.
        revealed: this step revealed the outcome of a chance event (a card drawn or
            turned, a die rolled), so fair undo will not go back across it.
        seconds: how long the action took to choose, in seconds, or ``None`` when it
            was not timed (see :meth:`Match.play_bot`).
        comment: a comment on the action (see :meth:`Match.comment`), or ``None``.

    Examples:
        >>> import cardcrawl
        >>> match = cardcrawl.Match.start("mapless-house", seed=1)
        >>> _ = match.play("place 1,0")
        >>> entry = match.history[-1]
        >>> entry.action, entry.player, entry.revealed, entry.state is match.state
        (Place(cell=(1, 0)), 0, True, True)
        >>> [str(event) for event in entry.events][-1]
        'You draw 9♠ from the Narrative deck.'
    """

    action: Any
    state: S
    player: int
    revealed: bool
    seconds: float | None = None
    comment: str | None = None

    @property
    def events(self) -> tuple[Any, ...]:
        """What happened in this step, in order (the state's own ``events``)."""
        return tuple(self.state.events)


def _check_comment(text: Any) -> None:
    why = problem(Comment, text)
    if why is not None:
        raise RecordError(f"a comment on an action is {why}")


def _reveals(game: Any, before: Any, action: Any, after: Any) -> bool:
    """True when stepping ``before`` with ``action`` (which made ``after``) revealed
    the outcome of a chance event to some player.

    Three generic tests, each sound on its own ground:

    * in explicit-chance play a chance outcome is an action of its own, and stepping
      with it reveals it;
    * in sampled play every chance event is resolved with the state's generator, and
      every draw advances it (SplitMix64 comes back to a state only after 2**64
      draws), so the step revealed chance if the generator moved;
    * a stacked outcome is resolved without the generator, and in explicit play
      without stopping. To see those, the same action is taken on a *twin*:
      ``determinize(before, p)``, a state player ``p`` cannot tell from ``before``
      with all hidden information drawn afresh (so a stacked deck is shuffled again).
      If the twin's generator moved, or ``p`` sees a different result, the step
      depended on something ``p`` could not know: it revealed it.

    The tests err on the safe side: drawing the last card of a deck counts as a
    reveal in sampled play, and a twin that cannot be made or stepped counts as one.
    """
    if game.current_player(before) == CHANCE:
        return True
    if after.rng != before.rng:
        return True
    for player in range(game.num_players):
        try:
            twin = game.determinize(before, player, _TWIN_SEED)
            twin_after = game.step(twin, action)
        except (CardcrawlError, NotImplementedError):
            return True
        if twin_after.rng != twin.rng:
            return True
        if game.observe(twin_after, player) != game.observe(after, player):
            return True
    return False


class Match(Generic[S]):
    """A game in progress: its states, the actions between them, undo and redo.

    Build one with :meth:`start` or :meth:`from_record`. :attr:`history` holds one
    ``MatchEntry`` per action taken since the initial state; :meth:`undo` takes
    the last one back (keeping it for :meth:`redo`) and :meth:`play` adds one.

    **Fair undo.** By default a match never undoes a step that revealed the outcome of
    a chance event: a card drawn, a card turned, a roll. Otherwise undo would let a
    player see what chance gives and then choose again knowing it; in sampled play,
    where the generator travels inside the state, what undo showed is exactly what
    would come again. Steps that revealed nothing can be undone freely: choosing the
    Exit's cell in The Mapless House, or, with explicit chance, every decision (the
    outcome that follows is a step of its own). ``fair_undo=False`` lifts the
    restriction, for analysis, teaching and debugging. Fair undo keeps a table fair;
    it keeps no secret from the program itself: a sampled state carries its
    generator, and a record its seed.

    **The trace.** A match started with its ``agents`` (or a start time) records what
    :meth:`to_record` writes down as a match trace: who plays each seat, when the game
    started, how long each action took (:meth:`play_bot` times a bot; :meth:`play`
    takes ``seconds=``) and comments on actions (:meth:`comment`). An undone action
    keeps its time and comment for :meth:`redo`.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> match = cardcrawl.Match.start(game, seed=2)
        >>> _ = match.play(game.legal_actions(match.state)[0])
        >>> match.history[-1].revealed  # placing a card drew the next one
        True
        >>> match.can_undo
        False
        >>> match.undo()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.UndoError: cannot undo 'place ...': that step revealed ...
    """

    def __init__(
        self,
        game: Any,
        initial_state: S,
        seed: int | None,
        *,
        fair_undo: bool = True,
        stack: Mapping[str, Sequence[Any]] | None = None,
        entries: Iterable[MatchEntry[S]] = (),
        agents: Sequence[Agent] = (),
        started: str | None = None,
        position: str | None = None,
    ) -> None:
        # Plain assignment only: the named constructors do the work.
        self._game: GameBase[S, Any, Any] = game
        self._agents = tuple(agents)
        self._started = started
        self._initial = initial_state
        self._seed = seed
        self._position = position
        self._fair_undo = bool(fair_undo)
        # A plain dict, not the read-only view a record holds (which cannot be
        # pickled): a match pickles and deep-copies with its start.
        self._stack = None if stack is None else dict(stack)
        self._entries: list[MatchEntry[S]] = list(entries)
        self._undone: list[MatchEntry[S]] = []

    # ----------------------------------------------------------- creating
    # A game object gives its state type to the match; a name, loaded here, gives only
    # what every state has (GameState).
    @overload
    @classmethod
    def start(
        cls,
        game: Game[S, Any, Any],
        seed: int | None = None,
        *,
        position: str | None = None,
        explicit_chance: bool | None = None,
        fair_undo: bool = True,
        stack: Mapping[str, Sequence[Any]] | None = None,
        agents: Sequence[Agent] = (),
        started: str | datetime.datetime | bool | None = None,
    ) -> Match[S]: ...
    @overload
    @classmethod
    def start(
        cls,
        game: str,
        seed: int | None = None,
        *,
        position: str | None = None,
        explicit_chance: bool | None = None,
        fair_undo: bool = True,
        stack: Mapping[str, Sequence[Any]] | None = None,
        agents: Sequence[Agent] = (),
        started: str | datetime.datetime | bool | None = None,
    ) -> Match[GameState]: ...
    @classmethod
    def start(
        cls,
        game: Any,
        seed: int | None = None,
        *,
        position: str | None = None,
        explicit_chance: bool | None = None,
        fair_undo: bool = True,
        stack: Mapping[str, Sequence[Any]] | None = None,
        agents: Sequence[Agent] = (),
        started: str | datetime.datetime | bool | None = None,
    ) -> Match[Any]:
        """A new match of ``game`` from ``game.initial_state(seed)``, or from
        ``game.position(position)``.

        Args:
            game: a loaded game, or a registered game name.
            seed: the generator seed, an integer from 0 to 2**64 - 1.
            position: instead of a seed, the position to start from, in the game's
                position notation (see :meth:`~cardcrawl.GameBase.position`): it holds
                the generator, the stacked tops and whether chance is explicit. The
                record of the match keeps it.
            explicit_chance: stop at chance events; their outcomes are then played
                with :meth:`play` like decisions (and recorded with them). Default:
                as the position says, else ``False``.
            fair_undo: refuse to undo steps that revealed chance (see the class).
            stack: forced chance outcomes by source (a stacked deck), for tutorials and
                puzzles; the record of the match keeps it.
            agents: who plays, one :class:`~cardcrawl.Agent` per seat in seat order,
                for the record; empty for none named.
            started: when the game started, for the record: ``True`` for now, an aware
                :class:`~datetime.datetime` in UTC, or ISO 8601 text in UTC.

        Returns:
            The match, at the initial state with an empty history.

        Raises:
            NotationError: ``position`` is malformed or no legal position (``field``
                names the field at fault), or ``explicit_chance`` contradicts it.
            OptionsError: the seed is out of range, or not exactly one of ``seed`` and
                ``position`` is given, or ``stack`` is given with a position.
            RecordError: ``agents`` are not one per seat, or ``started`` is no time in UTC.
            StackError: ``stack`` is malformed for this game.
            UnknownGameError: ``game`` is a name that is not registered.

        Examples:
            >>> import cardcrawl
            >>> match = cardcrawl.Match.start("mapless-house", seed=9, explicit_chance=True)
            >>> match.game.current_player(match.state) == cardcrawl.CHANCE
            True
            >>> traced = cardcrawl.Match.start(
            ...     "mapless-house", seed=9, agents=[cardcrawl.Agent.human(0)], started=True)
            >>> traced.agents[0].kind, traced.started.endswith("Z")
            ('human', True)
            >>> puzzle = cardcrawl.Match.start(
            ...     "mapless-house", position="AD phase=place:KS player=0,0 rng=0000000000000001")
            >>> puzzle.seed, puzzle.position == puzzle.game.notation(puzzle.state)
            (None, True)
        """
        if isinstance(game, str):
            game = load(game)
        agents = tuple(agents)
        if agents and (
            len(agents) != game.num_players
            or any(not isinstance(a, Agent) or a.seat != i for i, a in enumerate(agents))
        ):
            raise RecordError(
                f"a match of {game.name} names its agents seat by seat, one Agent for each "
                f"of its {game.num_players} seats; given {len(agents)}"
            )
        if started is True:
            started = datetime.datetime.now(datetime.timezone.utc)
        text = started_text(started) if started is not False else None
        why = started_problem(text)
        if why is not None:
            raise RecordError(f"a match's start time is {why}")
        if (seed is None) == (position is None):
            raise OptionsError(
                "a match starts from a seed or from a position: give one of seed= and "
                f"position=, not {'both' if seed is not None else 'neither'}"
            )
        if position is None:
            state = game.initial_state(seed, explicit_chance=bool(explicit_chance), stack=stack)
        else:
            if stack:
                raise OptionsError(
                    "a match from a position takes no stack: the position writes each "
                    "deck's stacked top itself"
                )
            state = game.position(position)
            if explicit_chance is not None and bool(explicit_chance) != state.explicit_chance:
                has = "has" if state.explicit_chance else "lacks"
                raise fail(
                    "explicit_chance",
                    f"the position {has} the explicit_chance flag, and explicit_chance="
                    f"{bool(explicit_chance)} was asked for: write the flag in the position, "
                    "or leave explicit_chance out",
                )
        return cls(
            game,
            state,
            seed,
            fair_undo=fair_undo,
            stack=stack or None,
            agents=agents,
            started=text,
            position=position,
        )

    @classmethod
    def from_record(cls, record: Record, *, fair_undo: bool = True) -> Match[GameState]:
        """The match a record describes, replayed and verified entry by entry.

        Args:
            record: a record, such as one read with :meth:`cardcrawl.Record.from_json`.
            fair_undo: as for :meth:`start`.

        Returns:
            The match at the record's last state, its history holding every entry.

        Raises:
            RecordError: the record's game cannot be loaded, it was made under another
                rules version, an entry is malformed or illegal, or a claim of the
                record fails; the message names the first entry that fails, or the claim.

        Examples:
            >>> import cardcrawl
            >>> record = cardcrawl.Record(
            ...     game="mapless-house", options={}, seed=1, actions=["place 9,9"],
            ...     rules_version=cardcrawl.load("mapless-house").rules_version)
            >>> cardcrawl.Match.from_record(record)  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.RecordError: record entry 0 ('place 9,9') does not replay: ...
        """
        game = record.load_game()
        states = record.states()
        initial: Any = next(states)
        entries: list[MatchEntry[Any]] = []
        before = initial
        seconds = record.seconds or (None,) * len(record.actions)
        for i, (text, after) in enumerate(zip(record.actions, states, strict=True)):
            action = game.parse_action(text)  # it parsed in states(), so it parses here
            player = game.current_player(before)
            revealed = _reveals(game, before, action, after)
            entries.append(
                MatchEntry(action, after, player, revealed, seconds[i], record.comments.get(i))
            )
            before = after
        # A record names its game, which gives its states only as GameStates.
        return cast(
            "Match[GameState]",
            cls(
                game,
                initial,
                record.seed,
                fair_undo=fair_undo,
                stack=record.stack,
                entries=entries,
                agents=record.agents,
                started=record.started,
                position=record.position,
            ),
        )

    # ---------------------------------------------------------- reading
    @property
    def game(self) -> GameBase[S, Any, Any]:
        """The game being played."""
        return self._game

    @property
    def seed(self) -> int | None:
        """The seed the match started from; ``None`` for a match from a position."""
        return self._seed

    @property
    def position(self) -> str | None:
        """The notation of the position the match started from, or ``None`` for a match
        started from its seed."""
        return self._position

    @property
    def explicit_chance(self) -> bool:
        """True when chance outcomes are actions of the match."""
        return bool(self._initial.explicit_chance)

    @property
    def agents(self) -> tuple[Agent, ...]:
        """Who plays each seat, in seat order, as the match was started with them."""
        return self._agents

    @property
    def started(self) -> str | None:
        """When the game started, ISO 8601 text in UTC, or ``None`` if not recorded."""
        return self._started

    @property
    def fair_undo(self) -> bool:
        """True when undo refuses to go back across a step that revealed chance."""
        return self._fair_undo

    @property
    def initial_state(self) -> S:
        """The state before the first action."""
        return self._initial

    @property
    def state(self) -> S:
        """The current state: the last entry's, or the initial state."""
        return self._entries[-1].state if self._entries else self._initial

    @property
    def history(self) -> tuple[MatchEntry[S], ...]:
        """One entry per action from the initial state to the current one (an
        immutable snapshot: it does not follow later plays and undos)."""
        return tuple(self._entries)

    @property
    def states(self) -> tuple[S, ...]:
        """Every state from the initial one to the current one."""
        return (self._initial, *(e.state for e in self._entries))

    @property
    def actions(self) -> tuple[Any, ...]:
        """The actions from the initial state to the current one."""
        return tuple(e.action for e in self._entries)

    @property
    def can_undo(self) -> bool:
        """True when :meth:`undo` would succeed."""
        if not self._entries:
            return False
        return not (self._fair_undo and self._entries[-1].revealed)

    @property
    def can_redo(self) -> bool:
        """True when an undone action waits to be redone."""
        return bool(self._undone)

    # ---------------------------------------------------------- playing
    def play(self, action: Any, *, seconds: float | None = None, comment: str | None = None) -> S:
        """Take ``action`` (a decision, or a chance outcome in explicit play) and
        return the new state. Undone actions can no longer be redone afterwards.

        Args:
            action: an action of the game, or its text form (``"place 1,0"``).
            seconds: how long the action took to choose, for the record.
            comment: a comment on the action, for the record (1 to 2,000 characters).

        Returns:
            The new current state.

        Raises:
            IllegalActionError: the action is not legal now; the match has not changed.
            ParseError: ``action`` is text that names no action of the game.
            RecordError: ``seconds`` is not a finite number from 0, or ``comment`` is
                not text of 1 to 2,000 characters; the match has not changed.

        Examples:
            >>> import cardcrawl
            >>> match = cardcrawl.Match.start("mapless-house", seed=1)
            >>> state = match.play("place 1,0")
            >>> state is match.state, len(match.history)
            (True, 1)
        """
        if type(seconds) is int:
            seconds = float(seconds)
        why = None if seconds is None else problem(Seconds, seconds)
        if why is not None:
            raise RecordError(f"an action's time is {why}")
        if comment is not None:
            _check_comment(comment)
        game = self._game
        before = self.state
        if isinstance(action, str):
            action = game.parse_action(action)
        player = game.current_player(before)
        after = game.step(before, action)
        revealed = _reveals(game, before, action, after)
        self._entries.append(MatchEntry(action, after, player, revealed, seconds, comment))
        self._undone.clear()
        return after

    def play_bot(self, bot: Any, *, comment: str | None = None) -> S:
        """Let ``bot`` choose the next action from what its seat observes, and play it,
        timed: the entry holds the seconds the bot took to choose.

        Args:
            bot: a :class:`~cardcrawl.bots.Bot` (such as one from
                :func:`~cardcrawl.bots.make_bot`) for the seat to play.
            comment: a comment on the action, for the record.

        Returns:
            The new current state.

        Raises:
            PlayerError: the next step is a chance outcome (explicit chance), which no
                bot chooses, or the game is over.
            IllegalActionError: the bot chose an action that is not legal.

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.bots import make_bot
            >>> match = cardcrawl.Match.start("mapless-house", seed=1)
            >>> _ = match.play_bot(make_bot("heuristic", match.game, seed=1))
            >>> match.history[-1].seconds >= 0
            True
        """
        game = self._game
        state = self.state
        player = game.current_player(state)
        if game.is_terminal(state) or player == CHANCE:
            what = "the game is over" if game.is_terminal(state) else "a chance outcome is next"
            raise PlayerError(f"no bot has a turn to play: {what}")
        legal = game.legal_actions(state)
        observation = game.observe(state, player)
        clock = time.perf_counter()
        action = bot.choose(game, observation, legal)
        seconds = max(0.0, time.perf_counter() - clock)
        return self.play(action, seconds=seconds, comment=comment)

    def comment(self, text: str, *, entry: int = -1) -> MatchEntry[S]:
        """Comment on an action of the history (by default the last), for the record;
        a new comment replaces the old one.

        Args:
            text: the comment, 1 to 2,000 characters.
            entry: the index of the action in :attr:`history`.

        Returns:
            The entry with its comment, now in the history in place of the old one.

        Raises:
            RecordError: there is no such entry, or ``text`` is not text of 1 to 2,000
                characters; the match has not changed.

        Examples:
            >>> import cardcrawl
            >>> match = cardcrawl.Match.start("mapless-house", seed=1)
            >>> _ = match.play("place 1,0")
            >>> match.comment("next to the Entrance").comment
            'next to the Entrance'
            >>> dict(match.to_record().comments)
            {0: 'next to the Entrance'}
        """
        _check_comment(text)
        if type(entry) is not int or not -len(self._entries) <= entry < len(self._entries):
            raise RecordError(
                f"no action {entry!r} to comment on: the match has {len(self._entries)} "
                "in its history"
            )
        index = entry % len(self._entries)
        commented = attrs.evolve(self._entries[index], comment=text)
        self._entries[index] = commented
        return commented

    def undo(self) -> MatchEntry[S]:
        """Take the last action back and return its entry (kept for :meth:`redo`).

        Returns:
            The entry taken back.

        Raises:
            UndoError: there is nothing to undo, or the last step revealed chance and
                the match plays fair undo (see the class); the match has not changed.

        Examples:
            >>> import cardcrawl
            >>> match = cardcrawl.Match.start("mapless-house", seed=1, fair_undo=False)
            >>> _ = match.play("place 1,0")
            >>> match.undo().action, match.state is match.initial_state, match.can_redo
            (Place(cell=(1, 0)), True, True)
        """
        if not self._entries:
            raise UndoError("nothing to undo: the match is at its initial state")
        entry = self._entries[-1]
        if self._fair_undo and entry.revealed:
            text = self._game.format_action(entry.action)
            raise UndoError(
                f"cannot undo {text!r}: that step revealed the outcome of a chance event "
                "(a card drawn or turned, a roll). Fair undo never goes back across one, so "
                "that undo cannot be used to see what chance gives and then choose again. "
                "Start the match with fair_undo=False to undo freely, for analysis",
                entry,
            )
        self._undone.append(self._entries.pop())
        return entry

    def redo(self) -> MatchEntry[S]:
        """Take the last undone action again and return its entry.

        Returns:
            The entry played again, the same object :meth:`undo` returned.

        Raises:
            UndoError: nothing has been undone since the last :meth:`play`.

        Examples:
            >>> import cardcrawl
            >>> match = cardcrawl.Match.start("mapless-house", seed=1, fair_undo=False)
            >>> _ = match.play("place 1,0")
            >>> undone = match.undo()
            >>> match.redo() is undone, len(match.history)
            (True, 1)
        """
        if not self._undone:
            raise UndoError("nothing to redo: no action has been undone since the last play")
        entry = self._undone.pop()
        self._entries.append(entry)
        return entry

    # ------------------------------------------------------------ saving
    def to_record(self) -> Record:
        """The match so far as a :class:`~cardcrawl.Record`: options, seed and stacked start
        (if any) or the position it started from, and actions (chance outcomes included
        when chance is explicit), with the claims that its states make (see
        :class:`~cardcrawl.Record`). A match with agents, a start time, timed or commented
        actions gives a match trace, which names the result of a finished game too.

        Examples:
            >>> import cardcrawl
            >>> match = cardcrawl.Match.start("mapless-house", seed=3)
            >>> _ = match.play("place 1,0")
            >>> record = match.to_record()
            >>> record.actions, record.claims.length, record.verified
            (('place 1,0',), 1, True)
        """
        # The states are at hand, so the claims are made from them without a replay.
        timed = any(e.seconds is not None for e in self._entries)
        return Record._of_play(
            self._game,
            self._seed,
            self.actions,
            self.states,
            explicit_chance=self.explicit_chance,
            stack=self._stack,
            position=self._position,
            agents=self._agents,
            started=self._started,
            seconds=[e.seconds for e in self._entries] if timed else (),
            comments={i: e.comment for i, e in enumerate(self._entries) if e.comment is not None},
        )

    def to_html(self, *, step: int | None = None, seat: int | None = None) -> str:
        """A self-contained HTML page replaying the match step by step, in ``seat``'s
        view when given (see :func:`cardcrawl.replay_html`)."""
        return replay_html(self, step=step, seat=seat)

    def _repr_svg_(self) -> str | None:
        # Jupyter shows the current state; None tells it to fall back to the repr.
        if find_renderer(self._game) is None:
            return None
        return svg(self._game, self.state).text

    def __repr__(self) -> str:
        steps = len(self._entries)
        redo = f", {len(self._undone)} to redo" if self._undone else ""
        start = f"seed={self._seed}" if self._position is None else "from a position"
        return f"<Match of {self._game.name} {start}: {steps} actions{redo}>"
