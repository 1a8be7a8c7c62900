"""The rules of Escape from Haydes, each stated once, over a working position.

:class:`Rules` holds one game's tables and hooks, bound when the game is built, and
states each step of the rulebook's procedure as a method that changes a
:class:`~cardcrawl.haydes._position.Position` in place. Every path plays through it:
``step`` and ``initial_state`` (thaw, :meth:`Rules.apply`, :meth:`Rules.settle`,
freeze), ``simulate`` and the bots' playouts (the rollout kernel, which calls the same
two methods in a loop), ``legal_actions`` and ``chance_outcomes`` (:meth:`Rules.legal`,
:meth:`Rules.chances`).

The hooks are bound once (:meth:`Rules.__init__`): each is the game's own method, the
stock one or the variant's override, and the rules call that binding. The hooks of a
card alone (``card_value``, ``creature``), of a cell alone (``touching_cells``), the
dice (``roll_weights``) and those of a few small values (``guess_is_correct``,
``is_escape``, ``overcomes``, ``characteristic_after``, ``next_seat``,
``stays_face_up``; see :meth:`Rules._tabulate`) are asked once, and their answers kept
in tables, so that no hook is called in play. No hook is given the position:
every Haydes hook takes plain values, so a hook can neither see nor change what the
rules work on, and it answers from them alone, the same way every time.

The events a step makes anew almost every time are logged as a tuple of the event's
class and its values, made into the event only when a state's events are read (see
:mod:`cardcrawl.haydes._state`): a step whose events nobody reads never builds them.

A decision is played as a small int, its code (:meth:`Rules.legal_entry` lists the
codes beside the legal actions; :meth:`Rules.code_of` reads an action's): the kind of
move in its low three bits, the cell's index above them.

The comments cite the rulings (``H-x``) of the project's normative reading, RULINGS.md.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.haydes._position import thaw
    >>> from cardcrawl.core._engine import events_of_log
    >>> game = cardcrawl.load("escape-from-haydes")
    >>> state = game.initial_state(seed=1, stack={"build": ["5S"]})
    >>> position = thaw(state, game._index, [])
    >>> rules = game._rules
    >>> rules.apply(position, game.parse_action("higher 1,0"))
    >>> rules.settle(position)
    >>> [str(event) for event in events_of_log(position.events)][1:]
    ['The card at (1, 0) is turned: 5♠; higher than 0: correct.', 'Player 0 moves to (1, 0).']
"""

from __future__ import annotations

from typing import Any

from cardcrawl.core._compiled import runs_compiled
from cardcrawl.core._random import _SMALL, _below, rng_below, rng_choice_weighted
from cardcrawl.errors import HookError
from cardcrawl.haydes._actions import (
    Action,
    Choose,
    EndTurn,
    FirstPlayer,
    Guess,
    Move,
    Reveal,
    Roll,
    Step,
    Tuybe,
)
from cardcrawl.haydes._creatures import Characteristic, Creature
from cardcrawl.haydes._events import (
    AllTrapped,
    AlmostThere,
    Announced,
    CardsReplaced,
    EncounterBegan,
    Escaped,
    FirstPlayerDrawn,
    Held,
    JokerShuffledIn,
    Lowered,
    Moved,
    Overcame,
    Released,
    ReplacementReshuffled,
    Revealed,
    Rolled,
    TimeUp,
    Trapped,
    TurnedFaceDown,
    TurnEnded,
    TurnStarted,
)
from cardcrawl.haydes._position import Position
from cardcrawl.haydes._state import DOWN, MIXED, POOL_MASK, POOL_SHIFT, Aim, Ending, Mix, Phase
from cardcrawl.haydes._unseen import Dealer, apply_reveal, reveal_chances
from cardcrawl.kit._cards import Card, standard_deck
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell

__all__ = ["Rules"]

_TURN, _ENCOUNTER, _REVEAL, _ROLL, _FIRST, _OVER = (
    Phase.TURN,
    Phase.ENCOUNTER,
    Phase.REVEAL,
    Phase.ROLL,
    Phase.FIRST,
    Phase.OVER,
)
_CARDS = standard_deck(jokers=True)
_NCARDS = len(_CARDS)
_RED_JOKER = Card.RED_JOKER
_RJ = _RED_JOKER.index
_BJ = Card.BLACK_JOKER.index
_END = EndTurn()
# Actions and most events are immutable values of small sets: made once, shared.
_REVEALS = tuple(Reveal(c) for c in _CARDS)
# Enum members compared by identity (hashing them is a Python-level call).
_LOWER = Guess.LOWER
_CHARISMA = Characteristic.CHARISMA
_CHARACTERISTICS = tuple(Characteristic)
_GUESSES = (Guess.HIGHER, Guess.LOWER)  # by "is lower"
# A decision as the rules play it: a small int, its kind in the low three bits and the
# index of its cell (or characteristic) above them (see Rules.code_of).
_K_HIGHER, _K_LOWER, _K_TUYBE_HIGHER, _K_TUYBE_LOWER, _K_STEP, _K_END, _K_CHOOSE = range(7)
# The legal actions of a turn are kept for a cell of at most this many probes (see
# Rules.legal_entry): the bits of which are face down make a 64-bit key, compiled.
_MAX_PROBES = 63
#: Whether this module runs compiled (a few lines read C integers faster in a loop of
#: their own than through a Python operation, see Rules._replace_cards).
_COMPILED = runs_compiled(__file__)
# TurnStarted events are kept for reuse up to this round only: a game without a round
# limit could otherwise grow the table without bound.
_INTERNED_ROUNDS = 1000


#: A table's entry for arguments its hook refused when the game was built: the hook is
#: asked where the rule is decided.
_ASK: Any = object()
#: The same in the table of ``stays_face_up``, whose other entries are 0 (replaced) and
#: 1 (stays).
_ASK_STAYS = 2


def _asked(hook: Any, *args: Any) -> Any:
    """``hook(*args)``, or :data:`_ASK` if it raises."""
    try:
        return hook(*args)
    except Exception:  # asked again in play, where it raises for real
        return _ASK


def _hook_name(hook: Any) -> str:
    """How an error names ``hook``: ``Variant.stays_face_up``, its class's and its own
    name for a method, its own name for a function set on a game."""
    owner = getattr(hook, "__self__", None)
    name = getattr(hook, "__name__", None) or repr(hook)
    return f"{type(owner).__name__}.{name}" if owner is not None else name


def _replaced(
    cells: tuple[Cell, ...],
    targets: tuple[int, ...],
    discarded: tuple[Card, ...],
    gone: tuple[Card, ...],
) -> CardsReplaced:
    """The event of the cards replaced on the cells of ``targets`` (indices into
    ``cells``), as a step logs it (see Position)."""
    return CardsReplaced(tuple([cells[i] for i in targets]), discarded, gone)


class Rules:
    """The rules of one game of Escape from Haydes, over a working position.

    Built once per game object (``EscapeFromHaydes.__init__``), from the game's options
    and hooks. :meth:`legal_at` takes plain values, and :meth:`chances` reads only
    attribute names that a :class:`~cardcrawl.haydes.HaydesState` has too, so both
    answer for a state as well as for a position.
    """

    def __init__(self, game: Any) -> None:
        opts = game.options
        cells: tuple[Cell, ...] = opts.cells
        index = {cell: i for i, cell in enumerate(cells)}
        self.cells = cells
        self.index = index
        # Per cell, its touching cells and (Tuybe) its cells two away over a touching
        # cell, sorted like the actions they become, so legal actions need no sorting
        # (H-6: the game's touching_cells, asked once per cell).
        self.adj = tuple(
            tuple(index[n] for n in sorted(game.touching_cells(c)) if n in index) for c in cells
        )
        self.jumps = tuple(
            tuple(
                index[far]
                for near in (cells[j] for j in adj)
                if (far := (2 * near[0] - c[0], 2 * near[1] - c[1])) in index
                and far in game.touching_cells(near)
            )
            for c, adj in zip(cells, self.adj, strict=True)
        )
        self.tuybe: bool = opts.tuybe
        # Per cell, the cells whose cards, face up or down, make its legal actions: its
        # touching cells and, with the Tuybe, its cells two away (see legal_entry).
        self._probes = tuple(
            adj + jumps if self.tuybe else adj
            for adj, jumps in zip(self.adj, self.jumps, strict=True)
        )
        self._moves = tuple((Move(c, Guess.HIGHER), Move(c, Guess.LOWER)) for c in cells)
        self._steps = tuple(Step(c) for c in cells)
        self._tuybes = tuple((Tuybe(c, Guess.HIGHER), Tuybe(c, Guess.LOWER)) for c in cells)
        self._aims = tuple(
            tuple(Aim(c, g, t) for t in (False, True) for g in (Guess.HIGHER, Guess.LOWER))
            for c in cells
        )
        self.solo = opts.players == 1
        # The game's key of a state's legal actions in its memo, and its positions kept
        # for the next public step (see cardcrawl.haydes._game.advance): fields here,
        # which the compiled step reads as C, where the game's are attribute look-ups.
        self.legal_key: str = game._legal_key
        self.spare: dict[int, Any] = game._spare
        self.max_rounds: int | None = opts.max_rounds
        # The hooks of a card alone, asked once per card (H-1, H-8).
        self.values: tuple[int, ...] = tuple(game.card_value(card) for card in _CARDS)
        self.creatures: tuple[Creature | None, ...] = tuple(game.creature(card) for card in _CARDS)
        # By card, the decisions of an encounter with its creature (H-8): actions, codes.
        self._choices = tuple(
            ((), ())
            if c is None
            else (
                tuple(Choose(ch) for ch in c.allowed),
                tuple(_CHARACTERISTICS.index(ch) << 3 | _K_CHOOSE for ch in c.allowed),
            )
            for c in self.creatures
        )
        # The dice (H-8), asked once: each total with its weight, and the equally likely
        # throws in the order of the cumulative weights, so that one uniform draw below
        # their number picks exactly what rng_choice_weighted over the weights would.
        weights = tuple(game.roll_weights())
        self.rolls = {total: Roll(total) for total, _ in weights}
        self.roll_chances: tuple[tuple[Action, int], ...] = tuple(
            (self.rolls[t], w) for t, w in weights
        )
        self._throws = tuple(t for t, w in weights for _ in range(w))
        # The hooks the rules call: the game's own, bound once.
        self.guess_is_correct = game.guess_is_correct  # H-7
        self.is_escape = game.is_escape  # H-9
        self.overcomes = game.overcomes  # H-8
        self.characteristic_after = game.characteristic_after  # H-8
        self.next_seat = game.next_seat  # H-5, H-13
        self.stays_face_up = game.stays_face_up  # H-12
        players = opts.players
        self._tabulate(opts.max_characteristic, players)
        self.first_chances: tuple[tuple[Action, int], ...] = tuple(
            (FirstPlayer(seat), 1) for seat in range(players)
        )
        self._first_drawn = tuple(FirstPlayerDrawn(seat) for seat in range(players))
        self._turn_ended = tuple(TurnEnded(seat) for seat in range(players))
        self._began: tuple[list[TurnStarted], ...] = tuple([] for _ in range(players))
        # The legal actions of a turn and their codes, by cell, then by which of the
        # cell's probes are face down (see legal_entry).
        self._turn_legal: tuple[dict[int, tuple[tuple[Action, ...], tuple[int, ...]]], ...] = tuple(
            {} for _ in cells
        )

    def _tabulate(self, top: int, players: int) -> None:
        """Ask the hooks of a few small plain values once for every value the rules can
        give them, and keep their answers in tables, as the hooks of a card are kept:
        a guess on two values (H-7) or onto the Red Joker (H-9), an encounter's roll
        (H-8), the next seat (H-5, H-13) and the cards that stay face up (H-12). A hook
        answers from its arguments alone, the same way every time (the docs say so), so
        a table is the hook. An argument out of a table's range, or one the hook refused
        when it was asked (an exception), is asked again where the rule is decided, as
        if there were no table."""
        # Values by rank, so that a guess's table is small whatever the values are.
        distinct = sorted(set(self.values))
        rank = {v: r for r, v in enumerate(distinct)}
        nv = len(distinct)
        # A byte each (there are at most 54 distinct values): read as C integers, compiled.
        self._ranks = bytes([rank[v] for v in self.values])
        self._nv = nv
        guesses = (Guess.HIGHER, Guess.LOWER)
        # By (guess is lower, the value moved from, the value turned), as ranks.
        self._correct: tuple[Any, ...] = tuple(
            _asked(self.guess_is_correct, g, f, v)
            for g in guesses
            for f in distinct
            for v in distinct
        )
        # The same by (guess is lower, the card moved from, the card turned), as card
        # indices: a turned card's verdict is one look-up.
        ranks = self._ranks
        self._verdicts: tuple[Any, ...] = tuple(
            self._correct[(g * nv + ranks[f]) * nv + ranks[v]]
            for g in range(2)
            for f in range(_NCARDS)
            for v in range(_NCARDS)
        )
        self._escapes: tuple[Any, ...] = tuple(
            _asked(self.is_escape, g, f) for g in guesses for f in distinct
        )
        # By creature card, the characteristic's value and the roll's total: whether
        # the roll overcomes it and what the characteristic becomes.
        totals = range(max(self.rolls, default=-1) + 1)
        fights: dict[Creature, tuple[Any, ...]] = {}
        for creature in self.creatures:
            if creature is not None and creature not in fights:
                fights[creature] = tuple(
                    tuple(self._fight(creature, value, total) for total in totals)
                    for value in range(top + 1)
                )
        self._fights: tuple[tuple[Any, ...], ...] = tuple(
            () if c is None else fights[c] for c in self.creatures
        )
        # By (the seat whose turn ends, the first seat, the seats still in as bits).
        self._nexts: tuple[Any, ...] = tuple(
            _asked(
                self.next_seat, current, first, tuple([bool(m >> s & 1) for s in range(players)])
            )
            for current in range(players)
            for first in range(players)
            for m in range(1 << players)
        )
        # By (cell, card, whether a figure stands there), as bytes: whether the card
        # stays face up at the end of a turn (H-12). The Black Joker is never asked about.
        stays = bytearray(len(self.cells) * len(_CARDS) * 2)
        hook = self.stays_face_up
        for i, cell in enumerate(self.cells):
            for card in _CARDS:
                if card.index == _BJ:
                    continue
                for occupied in (False, True):
                    try:
                        verdict = 1 if hook(cell, card, occupied) else 0
                    except Exception:  # asked again in play, where it raises for real
                        verdict = _ASK_STAYS
                    stays[(i * 54 + card.index) << 1 | occupied] = verdict
        self._stays = stays

    def _fight(self, creature: Creature, value: int, total: int) -> Any:
        """Whether a roll of ``total`` overcomes ``creature`` faced with ``value``, and
        the value after (H-8): the hooks' answers, or :data:`_ASK`."""
        overcome = _asked(self.overcomes, creature, value, total)
        if overcome is _ASK:
            return _ASK
        after = _asked(self.characteristic_after, creature, value, overcome)
        return _ASK if after is _ASK else (overcome, after)

    # ------------------------------------------------------------ reading
    def creature_of(self, card: Card) -> Creature | None:
        """The creature ``card`` is, as the game's ``creature`` hook said (H-1, H-8)."""
        return self.creatures[card.index]

    def legal_at(self, i: int, phase: Phase, card_at: bytearray) -> tuple[Action, ...]:
        """The legal decisions in ``phase``, the figure to move on cell ``i`` and the
        cards by cell ``card_at`` (see :meth:`legal_entry`)."""
        return self.legal_entry(i, phase, card_at)[0]

    def legal_entry(
        self, i: int, phase: Phase, card_at: bytearray
    ) -> tuple[tuple[Action, ...], tuple[int, ...]]:
        """The legal decisions in ``phase``, the figure to move on cell ``i`` and the
        cards by cell ``card_at`` (a position's ``_card_at``: a card index, or ``DOWN``
        face down), as actions and as the codes :meth:`play` takes, in the same order.

        H-6: onto a touching face-down card (higher, then lower), onto a touching
        face-up card, or (the Tuybe) two cells away; or end the turn at once. H-8: at an
        encounter, the characteristics the creature may be faced with.
        """
        if phase is _ENCOUNTER:
            return self._choices[card_at[i]]
        # They depend only on the cell and on which of its probes are face down, a bit
        # each, kept by cell as they are first made.
        probes = self._probes[i]
        down = 0
        for j in probes:
            down = down << 1 | (card_at[j] == DOWN)
        known = self._turn_legal[i]
        legal = known.get(down)
        if legal is None:
            legal = self._turn_actions(i, card_at)
            if len(probes) <= _MAX_PROBES:  # else ``down`` holds too many bits to be a key
                known[down] = legal
        return legal

    def _turn_actions(
        self, i: int, card_at: bytearray
    ) -> tuple[tuple[Action, ...], tuple[int, ...]]:
        actions: list[Action] = []
        codes: list[int] = []
        adj = self.adj[i]
        for j in adj:
            if card_at[j] == DOWN:
                actions.extend(self._moves[j])
                codes += (j << 3 | _K_HIGHER, j << 3 | _K_LOWER)
        for j in adj:
            if card_at[j] != DOWN:
                actions.append(self._steps[j])
                codes.append(j << 3 | _K_STEP)
        if self.tuybe:
            for j in self.jumps[i]:
                if card_at[j] == DOWN:
                    actions.extend(self._tuybes[j])
                    codes += (j << 3 | _K_TUYBE_HIGHER, j << 3 | _K_TUYBE_LOWER)
        actions.append(_END)
        codes.append(_K_END)
        return tuple(actions), tuple(codes)

    def code_of(self, action: Action) -> int:
        """The code of a legal decision (see :meth:`legal_entry`)."""
        kind = type(action)
        if kind is Move or kind is Tuybe:
            j = self.index[action.cell]  # type: ignore[union-attr]
            lower = action.guess is _LOWER  # type: ignore[union-attr]
            return j << 3 | (lower + 2 * (kind is Tuybe))
        if kind is Step:
            return self.index[action.cell] << 3 | _K_STEP  # type: ignore[union-attr]
        if kind is Choose:
            return _CHARACTERISTICS.index(action.characteristic) << 3 | _K_CHOOSE  # type: ignore[union-attr]
        return _K_END

    def chances(self, pos: Any) -> tuple[tuple[Action, int], ...]:
        """The outcomes of the chance event ``pos`` (a position or a state) waits for,
        each with an integer weight: the card turned (H-6), the roll (H-8), the first
        player (H-5). A stacked outcome is the only one."""
        phase = pos.phase
        if phase is _REVEAL:
            index = self.index[pos.aim.cell]
            return tuple((_REVEALS[c.index], w) for c, w in reveal_chances(pos, index))
        if phase is _ROLL:
            if pos.stacked_rolls:
                total = pos.stacked_rolls[0]
                return ((self.rolls.get(total) or Roll(total), 1),)
            return self.roll_chances
        if pos.stacked_first is not None:
            return ((FirstPlayer(pos.stacked_first), 1),)
        return self.first_chances

    def sample(self, pos: Position) -> Action:
        """Draw the outcome of ``pos``'s chance event with its generator, which moves on.

        Exactly what ``rng_choice_weighted`` over :meth:`chances` draws, but faster
        where it can be: a plain cell under a single belief is drawn as ``Deck.sample``
        draws from its pool (a stacked card first, drawing nothing), a roll as one of the
        equally likely throws, the first player as one uniform draw.
        """
        phase = pos.phase
        if phase is _REVEAL:
            card = self._drawn(pos, False)
            if card >= 0:
                return _REVEALS[card]
        elif phase is _ROLL:
            if not pos.stacked_rolls:
                return self.rolls[self._thrown(pos)]
        elif phase is _FIRST and pos.stacked_first is None:
            pos.rng, seat = rng_below(pos.rng, len(self.first_chances))
            return self.first_chances[seat][0]
        chances = self.chances(pos)
        pos.rng, i = rng_choice_weighted(pos.rng, [w for _, w in chances])
        return chances[i][0]

    def _drawn(self, pos: Position, take: bool) -> int:
        """The index of the card turned on the cell aimed at, drawn as ``Deck.sample``
        draws from its pool (a stacked card first, drawing nothing), where it is a plain
        cell under a single belief, and taken out of the pool if ``take``; else -1,
        nothing changed (see :meth:`sample`)."""
        index = pos.aimed >> 3
        unseen = pos._unseen
        cards: Any
        if unseen is None:
            cards = pos.plain_unseen(index)
        else:
            # plain_unseen's case of the unseen cards held by pool, read here: a card is
            # turned at almost every move.
            pool = pos._pools[index >> POOL_SHIFT][index & POOL_MASK]
            cards = None if pool < 0 or pos._card_at[index] != DOWN else unseen[pool]
        if cards is None:
            return -1
        kind = type(cards)
        if kind is Deck and cards.stacked:
            k = 0
        else:
            # rng_below(pos.rng, n); the core's unchecked draw for the usual sizes (a
            # statement each: the compiled draw returns a C pair, see _random.pxd).
            n = len(cards.rest if kind is Deck else cards)
            if n < _SMALL:
                pos.rng, k = _below(pos.rng, n)
            else:
                pos.rng, k = rng_below(pos.rng, n)
        if kind is list:
            # A pool's card indices, sorted (see Position.draw), as a rollout keeps
            # them: taken as Position.take takes one, without finding the pool again.
            listed: list[int] = cards
            if take:
                pos._beliefs = None
            card: int = listed.pop(k) if take else listed[k]
            return card
        if take:
            return pos.take(index, k)
        if kind is Deck:
            cards = cards.stacked if cards.stacked else cards.rest
        return cards[k].index  # type: ignore[no-any-return]

    def _thrown(self, pos: Position) -> int:
        """The total of a roll with nothing stacked: one of the equally likely throws."""
        throws = self._throws
        n = len(throws)
        if n < _SMALL:
            pos.rng, k = _below(pos.rng, n)
        else:
            pos.rng, k = rng_below(pos.rng, n)
        total: int = throws[k]
        return total

    # ------------------------------------------------------------ playing
    def settle(self, pos: Position) -> None:
        """Resolve the chance events ``pos`` waits for: all of them in sampled play; in
        explicit-chance play, only those with a single outcome."""
        phase = pos.phase
        while phase is _REVEAL or phase is _ROLL or phase is _FIRST:
            if pos.explicit_chance:
                chances = self.chances(pos)
                if len(chances) != 1:
                    return
                outcome = chances[0][0]
            else:
                outcome = self.sample(pos)
            self.apply(pos, outcome)
            phase = pos.phase

    def apply(self, pos: Position, action: Action) -> None:
        """Apply a legal decision or chance outcome to ``pos``."""
        # The action is legal (step checks it first), so the phase tells its kind: the
        # hottest branches read its fields unchecked.
        phase = pos.phase
        if phase is _TURN or phase is _ENCOUNTER:
            self.play(pos, self.code_of(action), False)
        elif phase is _REVEAL:
            self._revealed(pos, action.card.index, False)  # type: ignore[union-attr]
        elif phase is _ROLL:
            assert isinstance(action, Roll)
            self._rolled(pos, action.total)
        else:
            assert isinstance(action, FirstPlayer)
            if pos.events is not None:
                pos.events.append(self._first_drawn[action.seat])
            pos.first = pos.current = action.seat
            pos.round = 1
            pos.stacked_first = None
            self._begin_turn(pos)

    def play(self, pos: Position, code: int, resolve: bool = True) -> None:
        """Apply the legal decision ``code`` (see :meth:`legal_entry`) to ``pos`` and, if
        ``resolve``, the chance event it leads to, as :meth:`settle` does; else ``pos``
        is left waiting for that event."""
        kind = code & 7
        if kind < _K_STEP:
            # H-6: a move onto a face-down card, announced first; then the card is
            # turned, a chance event.
            events = pos.events
            if events is not None:
                # Logged, made into the event when read (see Position).
                aim = self._aims[code >> 3][kind]
                seat = pos.current
                source = self.cells[pos.at[seat]]
                events.append((Announced, seat, source, aim.cell, aim.guess, aim.tuybe))
            pos.aimed = code  # what _drawn and _revealed read
            if resolve and not pos.explicit_chance:
                card = self._drawn(pos, True)
                if card >= 0:
                    # Turned at once: no state sees the move aimed, and _revealed sets
                    # the phase and the aim that follow.
                    self._revealed(pos, card, True)
                    return
            pos.aim = self._aims[code >> 3][kind]
            pos.phase = _REVEAL
            if resolve:
                self.settle(pos)
        elif kind == _K_END:
            self._end_turn(pos)
        elif kind == _K_STEP:
            self._step(pos, code >> 3)
        else:
            # H-8: the creature faced with a characteristic; then the roll.
            pos.chosen = _CHARACTERISTICS[code >> 3]
            pos.phase = _ROLL
            if not resolve:
                return
            if pos.explicit_chance or pos.stacked_rolls:
                self.settle(pos)
            else:
                self._rolled(pos, self._thrown(pos))

    # ------------------------------------------------------------ turns
    def _begin_turn(self, pos: Position) -> None:
        seat = pos.current
        round_ = pos.round
        pos.turns += 1
        events = pos.events
        if events is not None:
            began = self._began[seat]
            started = began[round_] if round_ < len(began) else self._turn_started(seat, round_)
            events.append(started)
        i = pos._began_on = pos.at[seat]  # a cell it may leave (see _replace_cards)
        c = pos._card_at[i]  # a figure stands on a face-up card
        if self.creatures[c] is not None and self.cells[i] not in pos.overcome:
            # H-8: a held player faces the creature again before anything else.
            self._meet(pos, seat, i, c)
        else:
            pos.phase = _TURN

    def _turn_started(self, seat: int, round_: int) -> TurnStarted:
        began = self._began[seat]
        while len(began) <= min(round_, _INTERNED_ROUNDS):
            began.append(TurnStarted(seat, len(began)))
        return began[round_] if round_ < len(began) else TurnStarted(seat, round_)

    def _revealed(self, pos: Position, c: int, drawn: bool) -> None:
        """The card aimed at turned out to be card ``c`` (an index), taken out of its
        pool already if ``drawn``."""
        aimed = pos.aimed  # the code of the move (see play)
        index = aimed >> 3
        lower = aimed & 1
        seat = pos.current
        at = pos.at
        here = at[seat]
        from_card = pos._card_at[here]  # the card the figure stands on
        correct = self._verdicts[(lower * _NCARDS + from_card) * _NCARDS + c]
        if correct is _ASK:
            values = self.values
            correct = self.guess_is_correct(_GUESSES[lower], values[from_card], values[c])
        pos.guesses += 1
        pos.correct += correct
        events = pos.events
        if events is not None:
            cell = self.cells[index]
            value = self.values[from_card]
            events.append((Revealed, cell, _CARDS[c], _GUESSES[lower], value, correct))
        # What the players know of the face-down cards (see cardcrawl.haydes._unseen):
        # almost always one draw from one pool.
        if not drawn and not pos.draw(index, _CARDS[c]):
            pool_of = pos.flat_pools()
            pos.mixes, pos.beliefs = apply_reveal(pos, index, _CARDS[c], pool_of)  # type: ignore[arg-type]
            pos.set_flat_pools(pool_of)
        pos._card_at[index] = c
        pos._up_frozen = None
        pos.shown.append(index)
        pos.aim = None
        pos.aimed = -1
        if c == _RJ:
            escape = self._escapes[lower * self._nv + self._ranks[from_card]]
            if escape is _ASK:
                escape = self.is_escape(_GUESSES[lower], self.values[from_card])
            if escape:
                # H-9: the player escapes and wins.
                if events is not None:
                    cell = self.cells[index]
                    events.append(Moved(seat, self.cells[at[seat]], cell))
                    events.append(Escaped(seat, cell))
                at[seat] = index
                pos.frozen_seats = None
                pos._changed |= 1 << seat  # the figure to make again (see freeze)
                pos.phase = _OVER
                pos.ending = Ending.ESCAPED
                pos.winner = seat
                return
            # H-10: the figure does not move, the joker stays face up, the turn ends.
            if events is not None:
                events.append(AlmostThere(seat, self.cells[index]))
            self._end_turn(pos)
            return
        if aimed & 2 and not correct:
            # The Tuybe: wrong or equal, the figure stays (and meets no creature).
            self._end_turn(pos)
            return
        # H-6: the figure moves onto the turned card, right or wrong.
        if events is not None:
            cells = self.cells
            events.append((Moved, seat, cells[at[seat]], cells[index]))
        at[seat] = index
        pos.frozen_seats = None
        pos._changed |= 1 << seat  # the figure to make again (see freeze)
        if self.creatures[c] is not None:
            self._meet(pos, seat, index, c)  # H-7, H-8
        elif correct:
            pos.phase = _TURN  # H-7: move again or end the turn
        else:
            self._end_turn(pos)

    def _step(self, pos: Position, index: int) -> None:
        """H-6: a step onto the touching face-up card of cell ``index`` ends the turn,
        unless a creature not overcome waits there (H-8)."""
        seat = pos.current
        cell = self.cells[index]
        c = pos._card_at[index]
        if c == _RJ:  # pragma: no cover - never face up on a turn
            if pos.events is not None:
                pos.events.append(AlmostThere(seat, cell))  # H-10
            self._end_turn(pos)
            return
        if pos.events is not None:
            pos.events.append((Moved, seat, self.cells[pos.at[seat]], cell))
        pos.at[seat] = index
        pos._stood = 0  # onto a card that may have stayed: every one is asked again
        pos.frozen_seats = None
        pos._changed |= 1 << seat  # the figure to make again (see freeze)
        if self.creatures[c] is not None and cell not in pos.overcome:
            self._meet(pos, seat, index, c)  # H-8
        else:
            self._end_turn(pos)

    def _meet(self, pos: Position, seat: int, index: int, c: int) -> None:
        """H-8: the creature of card ``c`` (an index), on cell ``index``, must be faced."""
        pos.encounters += 1
        if pos.events is not None:
            creature = self.creatures[c]
            assert creature is not None
            pos.events.append((EncounterBegan, seat, self.cells[index], _CARDS[c], creature.name))
        pos.phase = _ENCOUNTER

    def _rolled(self, pos: Position, total: int) -> None:
        """The roll of an encounter came out ``total`` (H-8, H-11)."""
        chosen = pos.chosen
        assert chosen is not None
        seat = pos.current
        at = pos.at
        i = at[seat]
        cell = self.cells[i]
        c = pos._card_at[i]  # the creature's card the figure stands on
        creature = self.creatures[c]
        assert creature is not None
        on_charisma = chosen is _CHARISMA
        value = pos.charisma[seat] if on_charisma else pos.endurance[seat]
        fights = self._fights[c]
        try:
            fight = fights[value][total]
        except IndexError:
            fight = _ASK  # a value or total out of the table's range
        if fight is _ASK:
            overcome = self.overcomes(creature, value, total)
            after = self.characteristic_after(creature, value, overcome)
        else:
            overcome, after = fight
        events = pos.events
        if events is not None:
            events.append((Rolled, seat, chosen, total, creature.modifier, value, overcome))
            events.append((Lowered, seat, chosen, value, after))
        if on_charisma:
            pos.charisma[seat] = after
        else:
            pos.endurance[seat] = after
        pos.frozen_seats = None
        pos._changed |= 1 << seat  # the figure to make again (see freeze)
        pos.chosen = None
        if pos.stacked_rolls:
            pos.stacked_rolls = pos.stacked_rolls[1:]
        if overcome:
            # H-8: the creature is gone, its card plain ground; everyone held there is freed.
            pos.overcame += 1
            pos.overcome = pos.overcome | {cell}
            if events is not None:
                events.append((Overcame, seat, cell, _CARDS[c]))
                if not self.solo:
                    freed = tuple([s for s, j in enumerate(at) if s != seat and j == i])
                    if freed:
                        events.append(Released(freed, cell))
        if after == 0:
            # H-11: out of the game, figure removed at once, turn ends.
            if events is not None:
                events.append(Trapped(seat, chosen))
            at[seat] = -1
            pos.out()
            if max(at) < 0:
                if events is not None:
                    events.append(AllTrapped())  # H-11: nobody left, nobody wins
                pos.phase = _OVER
                pos.ending = Ending.TRAPPED
                return
            self._end_turn(pos)
            return
        if overcome:
            pos.phase = _TURN  # H-8: move on or end, even after a wrong guess
            return
        if events is not None:
            events.append((Held, seat, cell))
        self._end_turn(pos)  # H-8: held there, the turn ends

    def _end_turn(self, pos: Position) -> None:
        """End the turn (H-12, H-13, H-5)."""
        seat = pos.current
        if pos.events is not None:
            pos.events.append(self._turn_ended[seat])
        if pos.shown:
            self._replace_cards(pos)  # H-12
        players = len(pos.at)
        mask = pos._mask  # the seats still in, as bits (see Position.seats_mask)
        if mask < 0:
            mask = pos.seats_mask()
        following = self._nexts[((seat * players + pos.first) << players) + mask]
        if following is _ASK:
            following = self.next_seat(seat, pos.first, pos.seats_in())
        assert following is not None  # the last player out ends the game before this
        nxt, new_round = following
        if new_round:
            limit = self.max_rounds
            if limit is not None and pos.round >= limit:
                if pos.events is not None:
                    pos.events.append(TimeUp(pos.round))  # H-13
                pos.phase = _OVER
                pos.ending = Ending.TIME_UP
                return
            pos.round += 1
        pos.current = nxt
        self._begin_turn(pos)

    def _replace_cards(self, pos: Position) -> None:
        """H-12: replace every face-up card but the Black Joker and those that stay."""
        at = pos.at
        card_at = pos._card_at
        table = self._stays
        shown = pos.shown
        targets: list[int] = []
        # The first ``pos._stood`` cells shown stayed at the end of the last turn and
        # still hold their cards. Since then only this turn's player has moved, from the
        # cell it began the turn on (``pos._began_on``) onto cells shown this turn (a
        # step onto a card shown before sets ``_stood`` to 0): a verdict on those cards
        # can have changed only on that first cell, asked again with the cells shown
        # this turn.
        stood = pos._stood
        if stood > 1:  # else the slice saves nothing: all are asked
            asked = shown[stood:]
            began = pos._began_on
            # A figure's cell is face up: among the cells shown unless the Black Joker's.
            if began >= 0 and began != at[pos.current] and card_at[began] != _BJ:
                asked.append(began)
        else:
            asked = shown
        for i in asked:
            # Whether a figure stands there: ``i in at``, which the compiled build runs
            # faster as a loop on C integers, and Python as one test.
            if _COMPILED:
                occupied = False
                for j in at:
                    if j == i:
                        occupied = True
                        break
            else:
                occupied = i in at
            # By (cell, card, whether a figure stands there): 1 stays, 0 is replaced,
            # _ASK_STAYS asks the hook.
            stays = table[(i * 54 + card_at[i]) << 1 | occupied]
            if stays != 1 and (
                stays == 0 or not self.stays_face_up(self.cells[i], _CARDS[card_at[i]], occupied)
            ):
                if occupied:
                    # A figure stands only on a face-up card: the rules have no cell
                    # for it once its card is replaced.
                    raise HookError(
                        f"{_hook_name(self.stays_face_up)} returned False for "
                        f"{_CARDS[card_at[i]]} on {self.cells[i]}, where a figure stands: a "
                        "card with a figure on it stays face up (H-12); return True there"
                    )
                targets.append(i)
        # The cells whose cards stay keep their order in ``shown``: ``shown.remove``,
        # which the compiled build runs faster as a loop on C integers.
        for i in targets:
            if _COMPILED:
                k = 0
                for j in shown:
                    if j == i:
                        break
                    k += 1
                del shown[k]
            else:
                shown.remove(i)
        pos._stood = len(shown)
        if not targets:
            return
        if len(targets) > 1:
            targets.sort()  # dealing order: by y, then x
        cells = self.cells
        discard = pos.discard
        pile = discard if type(discard) is list else pos.pile()
        start = len(pile)  # the cards discarded now are those put on from here
        # The old cards removed from the game, by cell (see _deal), made when there are.
        removed_at: dict[int, Card] | None = None
        overcome = pos.overcome
        joker = -1
        # Discarding comes before dealing.
        for i in targets:
            c = card_at[i]
            if c == _RJ:
                joker = i  # H-10: it goes back in among the new cards
            elif overcome and cells[i] in overcome:
                # An overcome creature's card leaves the game.
                if removed_at is None:
                    removed_at = {}
                removed_at[i] = _CARDS[c]
            else:
                pile.append(_CARDS[c])
        if removed_at is not None:
            pos.removed = (*pos.removed, *removed_at.values())
            # The overcome creatures replaced are gone (the Red Joker's cell is never
            # among the cells overcome: no creature is met on it, H-9, H-10).
            pos.overcome = overcome.difference([cells[i] for i in removed_at])
        if pos.events is not None:
            # The cells by index, named only if the events are read.
            gone = () if removed_at is None else tuple(removed_at.values())
            pos.events.append((_replaced, cells, tuple(targets), tuple(pile[start:]), gone))
        left = pos.replacement_left
        if joker < 0 and left >= len(targets):
            # The common case: the Replacement deck has enough cards, the new face-down
            # cards all join its pool.
            unseen = pos._unseen
            pos.face_down(targets, (pos.pool_count() if unseen is None else len(unseen)) - 1)
            pos.replacement_left = left - len(targets)
        else:
            self._deal(pos, targets, joker, {} if removed_at is None else removed_at)
            pos.pools_anew()

    def _deal(
        self,
        pos: Position,
        targets: list[int],
        joker: int,
        removed_at: dict[int, Card],
    ) -> None:
        """H-12's deal when the Replacement deck may run out, or H-10's joker goes back in.

        ``joker`` is the cell of the Red Joker replaced, -1 for none. ``removed_at`` holds,
        by cell, the old cards removed from the game this turn (overcome creatures). When a
        card is needed and the Replacement deck and the discard pile are both empty, H-12
        turns the cell's old card face down where it lies, a card everyone knows. If that
        card was removed from the game this turn, it is the one. Otherwise it went to the
        discard pile, which has been shuffled and dealt out in this very deal, so it lies
        face down on another cell already; the card turned face down is then one removed
        from the game this turn from a cell that did get a new card, the first in dealing
        order. There always is one (see the package docstring), so every cell of Haydes
        keeps a card.
        """
        cells = self.cells
        pos._up_frozen = None
        events = pos.events
        pile = list(pos.discard)
        dealer = Dealer(pos, pos.replacement_left, pile)
        removed = list(pos.removed)
        mixes: list[Mix] = []
        dealt: list[int] = []
        spares: list[Card] = []
        starved = False

        def turn_face_down(i: int) -> None:
            nonlocal starved
            if not starved:
                # From now on the piles stay empty: every cell still waiting is turned
                # face down, and the cards removed this turn from cells that did get a
                # new card are the spares.
                starved = True
                spares.extend(removed_at[j] for j in dealt if j in removed_at)
            card = removed_at.get(i)
            if card is None:
                card = spares.pop(0)
            removed.remove(card)
            if events is not None:
                events.append(TurnedFaceDown(cells[i], card))
            mixes.append(Mix((cells[i],), (card,)))
            dealer.add_mix([])
            pos.face_down([i], MIXED)

        if joker < 0:
            for i in targets:
                pool = dealer.take()
                if pool is None:
                    turn_face_down(i)
                else:
                    dealt.append(i)
                    pos.face_down([i], pool)
        else:
            # H-10: the joker is shuffled in among the new cards, so it lies under one of
            # the replaced cells, nobody knows which: those cells become one mix.
            counts: list[int] = []
            mixed = [joker]
            for i in targets:
                if i == joker:
                    continue
                pool = dealer.take()
                if pool is None:
                    turn_face_down(i)
                    continue
                dealt.append(i)
                counts.extend([0] * (pool + 1 - len(counts)))
                counts[pool] += 1
                mixed.append(i)
            mixed.sort()
            pos.face_down(mixed, MIXED)
            mixes.append(Mix(tuple(cells[i] for i in mixed), (_RED_JOKER,)))
            dealer.add_mix(counts)
        if events is not None:
            for size in dealer.reshuffles:
                events.append(ReplacementReshuffled(size))
            if joker >= 0:
                events.append(JokerShuffledIn(mixes[-1].cells))
        pos.replacement_left = dealer.left
        pos.discard = tuple(pile)
        pos.removed = tuple(removed)
        pos.mixes = (*pos.mixes, *mixes)
