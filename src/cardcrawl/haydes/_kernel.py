"""A rollout kernel: whole games of the stock Escape from Haydes with uniform-random play.

Issue 14 asks ``simulate`` to play random games faster than a hand-written simulator.
This module plays them on plain mutable lists, and is kept honest as The Mapless
House's kernel is (:mod:`cardcrawl.mapless._kernel`):

- it is used only for a game whose class overrides none of the rule steps and engine
  methods of :class:`~cardcrawl.haydes.EscapeFromHaydes` (:func:`rollout_kernel`),
  without the Tuybe. A variant may change the rule hooks (:data:`HONOURED_HOOKS`): the
  kernel reads the game's tables, made from the hooks of a card, a cell and the dice,
  and calls each other hook the variant changes where the public path calls it (it
  states only the stock hooks' answers inline, since calling them costs more than the
  rest of a decision);
- :func:`cardcrawl.testing.check_kernel` proves, seed by seed, that it plays the very
  games of the public path (``initial_state(seed)``, ``legal_actions``, one
  :class:`~cardcrawl.bots.RandomBot` per seat, ``step``): the same outcome, the same
  number of decisions, an equal final state (the last step's events included) and the
  figures of :class:`~cardcrawl.haydes.HaydesFigures`.

The kernel starts from the public path's first state, ``initial_state(seed)`` (the first
player already drawn, H-5), and reads it into lists: the face-up card by cell, the pool
by cell, the unseen cards of each pool sorted by card index (the lazy deal: a pool's
cards are its Deck's sorted rest), the mixes (H-10) and their counts. Every chance draw is
made with the library's SplitMix64 (the body of :func:`cardcrawl.rng_below`, inlined) in
the order of the public path:

- a card turned on a pool's cell is index ``rng_below(len(pool))`` of the pool's sorted
  cards, as the game's ``_sample`` draws it from the Deck, even from a pool of one;
- a card turned on a mix's cell (H-10) is ``rng_choice_weighted`` over the weights
  ``reveal_chances`` gives, the cards sorted by index, reduced by their common divisor
  (the sum of the weights is the range drawn from, so it must be the same sum);
- a roll (H-8) is one of the 36 equally likely throws, ``rng_below(36)``, in the order of
  the cumulative 2D6 weights;
- each seat's bot draws ``rng_below(len(legal))`` on its own generator,
  ``rng_derive(seed, seat)`` (as ``simulate`` builds one RandomBot per seat), at every
  decision, even with one legal action; the legal actions are listed as
  ``legal_actions`` lists them (H-6: higher then lower onto each touching face-down
  cell, then a step onto each touching face-up cell, then the end of the turn).

The rare positions whose bookkeeping is the general one of :mod:`cardcrawl.haydes._unseen`
are not played here: a mix holding cards of two pools (the Replacement deck ran out while
a Red Joker turn was dealt, H-10 with H-12, which makes several beliefs as soon as one of
its cards is turned), and a turn that could run both the Replacement deck and the
discard pile dry (H-12 then turns old cards face down). At the decision before either
could happen, the kernel builds the public state and plays on the public way, with the
same generators: the game is the same, only slower.

Examples:
    >>> import cardcrawl
    >>> game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=30)
    >>> kernel = rollout_kernel(game)
    >>> state, decisions, figures = kernel.play(1, 100_000)
    >>> game.is_terminal(state), dict(figures)["rounds"] == state.round
    (True, True)
"""

from __future__ import annotations

from bisect import bisect_left
from math import gcd, lcm
from typing import Any

import attrs

from cardcrawl.core._protocol import Outcome
from cardcrawl.core._random import (
    _GAMMA,
    _MASK,
    _MUL1,
    _MUL2,
    _SMALL,
    _TOPS,
    _highest_accepted,
    rng_below,
)
from cardcrawl.core._seeds import derived_seeds
from cardcrawl.core._stock import StockRules
from cardcrawl.core._tools import Figures
from cardcrawl.haydes._actions import Guess
from cardcrawl.haydes._creatures import Characteristic
from cardcrawl.haydes._events import (
    AllTrapped,
    AlmostThere,
    Announced,
    CardsReplaced,
    EncounterBegan,
    Escaped,
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
    TurnEnded,
    TurnStarted,
)
from cardcrawl.haydes._figures import HaydesFigures
from cardcrawl.haydes._game import EscapeFromHaydes
from cardcrawl.haydes._state import (
    FACE_UP,
    MIXED,
    Belief,
    Ending,
    Figure,
    HaydesOptions,
    HaydesState,
    Mix,
    Phase,
)
from cardcrawl.kit._cards import Card, standard_deck
from cardcrawl.kit._deck import Deck

__all__ = ["HONOURED_HOOKS", "HaydesKernel", "kernel_for", "rollout_kernel"]


_CARDS = standard_deck(jokers=True)
_RJ = Card.RED_JOKER.index
_TURN, _ENCOUNTER, _OVER = Phase.TURN, Phase.ENCOUNTER, Phase.OVER
_HIGHER, _LOWER = Guess.HIGHER, Guess.LOWER
_CHARISMA = Characteristic.CHARISMA
_ESCAPED, _TRAPPED, _TIME_UP = Ending.ESCAPED, Ending.TRAPPED, Ending.TIME_UP

#: The rule hooks the kernel honours. Those of a card, a cell or the dice (card_value,
#: creature, touching_cells, roll_weights) come in the game's tables, which the kernel
#: reads; it calls the others, when a game changes them, where the public path does.
#: None of them is given the state, so the kernel's lists lose nothing they need.
HONOURED_HOOKS = frozenset(
    {
        "card_value",
        "creature",
        "touching_cells",
        "roll_weights",
        "guess_is_correct",
        "is_escape",
        "overcomes",
        "characteristic_after",
        "next_seat",
        "stays_face_up",
    }
)
#: What else a variant may change and keep the kernel: its options class (a subclass of
#: HaydesOptions, checked below), which only the setup reads, and the kernel starts from
#: the setup's state, ``initial_state(seed)``.
_SETUP = frozenset({"options_type"})

# The stock rules as the kernel was written for them (see cardcrawl.core._stock).
_STOCK = StockRules(EscapeFromHaydes, HaydesState, hooks=HONOURED_HOOKS | _SETUP)


def _stock_game(game: Any) -> bool:
    """Does ``game`` play the stock rules but for hooks the kernel honours, with options
    the kernel plays (no Tuybe)?"""
    return (
        _STOCK.changed(game) is not None
        and isinstance(game.options, HaydesOptions)
        and not game.options.tuybe
    )


def kernel_for(game: Any) -> HaydesKernel | None:
    """The kernel of ``game``, or ``None`` when it must be played the public way: a
    variant overriding a rule step or an engine method, or an instance shadowing one,
    or the Tuybe. A variant that changes only rule hooks (:data:`HONOURED_HOOKS`) is
    played by the kernel, which asks its hooks.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.haydes import EscapeFromHaydes
        >>> kernel_for(cardcrawl.load("escape-from-haydes")) is not None
        True
        >>> class Generous(EscapeFromHaydes):
        ...     def guess_is_correct(self, guess, from_value, value):
        ...         return True
        >>> kernel_for(Generous()) is not None
        True
        >>> class Replayed(EscapeFromHaydes):
        ...     def _apply(self, state, action, events):
        ...         return super()._apply(state, action, events)
        >>> print(kernel_for(Replayed()))
        None
        >>> print(kernel_for(cardcrawl.load("escape-from-haydes", tuybe=True)))
        None
    """
    return HaydesKernel(game) if _stock_game(game) else None


def rollout_kernel(game: Any) -> HaydesKernel | None:
    """``GameTools.rollout`` of Escape from Haydes (see :func:`kernel_for`)."""
    return kernel_for(game)


@attrs.frozen
class HaydesKernel:
    """The :class:`~cardcrawl.RolloutKernel` of the stock Escape from Haydes.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=50)
        >>> kernel = rollout_kernel(game)
        >>> state, decisions, figures = kernel.play(3, 100_000)
        >>> kernel.summary(3, 100_000, HaydesFigures) == (
        ...     game.outcome(state), decisions, figures)
        True
    """

    game: EscapeFromHaydes

    def play(
        self, seed: int, max_decisions: int, start: Any = None
    ) -> tuple[HaydesState, int, Figures] | None:
        """The game of ``seed`` to its end: final state, decisions, figures."""
        played = _run(self.game, seed, max_decisions, start, True)
        if played is None:
            return None
        state, decisions, figures = played
        assert isinstance(state, HaydesState)
        return state, decisions, figures

    def summary(
        self, seed: int, max_decisions: int, figures: Any
    ) -> tuple[Outcome, int, Figures] | None:
        """What a simulation keeps of the game of ``seed``: outcome, decisions, figures;
        ``None`` for another figure tracker than HaydesFigures."""
        if figures is not HaydesFigures:
            return None
        played = _run(self.game, seed, max_decisions, None, False)
        if played is None:
            return None
        outcome, decisions, kept = played
        assert isinstance(outcome, Outcome)
        return outcome, decisions, kept


# Outcomes are values: made once per (players, ending, winner).
_OUTCOMES: dict[tuple[int, Ending, int | None], Outcome] = {}


def _outcome(players: int, ending: Ending, winner: int | None) -> Outcome:
    """EscapeFromHaydes.outcome, of the state not built."""
    key = (players, ending, winner)
    made = _OUTCOMES.get(key)
    if made is None:
        if ending is _ESCAPED:
            assert winner is not None
            returns = tuple(1.0 if s == winner else 0.0 for s in range(players))
            made = Outcome(label="escaped", returns=returns, winners=(winner,))
        else:
            made = Outcome(label=ending.value, returns=(0.0,) * players)
        _OUTCOMES[key] = made
    return made


def _counts(events: Any) -> list[int]:
    """What HaydesFigures counts of these events: turns, guesses, correct, encounters,
    overcome."""
    counts = [0, 0, 0, 0, 0]
    for event in events:
        if isinstance(event, Revealed):
            counts[1] += 1
            counts[2] += event.correct
        elif isinstance(event, TurnStarted):
            counts[0] += 1
        elif isinstance(event, EncounterBegan):
            counts[3] += 1
        elif isinstance(event, Overcame):
            counts[4] += 1
    return counts


def _figures(counts: list[int], rounds: int, out: int) -> Figures:
    turns, guesses, correct, encounters, overcome = counts
    return (
        ("rounds", rounds),
        ("turns", turns),
        ("guesses", guesses),
        ("correct", correct),
        ("encounters", encounters),
        ("overcome", overcome),
        ("out", out),
    )


def _readable(game: EscapeFromHaydes, state: Any) -> bool:
    """Whether the kernel reads ``state``: sampled play waiting for a decision, one
    belief, nothing stacked, this game's layout."""
    return (
        isinstance(state, HaydesState)
        and (state.phase is _TURN or state.phase is _ENCOUNTER)
        and not state.explicit_chance
        and len(state.beliefs) == 1
        and state.stacked_first is None
        and not state.stacked_rolls
        and state.layout == game._cells
        and not any(deck.stacked for deck in state.beliefs[0].unseen)
    )


Hooks = tuple[
    Any, Any, Any, Any, Any, Any, tuple[int, ...], tuple[int, ...]
]  # the six hooks called (or None), the highest accepted outputs, the throws' totals

# What _prepared found for the last few games, by id (the game kept, so that an id is
# never mistaken for a later game's): a simulation asks once per game played, and the
# answer depends only on the game's class and the tables made when the game was built.
_PREPARED: dict[int, tuple[EscapeFromHaydes, Hooks]] = {}


def _prepared(game: EscapeFromHaydes) -> Hooks:
    """The hooks ``game`` changes, as bound methods, called where the public path calls
    them, and ``None`` for each stock one, whose answer the kernel writes inline
    (calling it would cost more than the rest of the decision); then the highest
    accepted output (``_TOPS``) of every range the kernel draws from without a test
    (the legal actions of a turn: two a touching face-down cell at most, one a face-up
    one, the end of the turn;
    and the throws), however a variant's hooks widen them; last, the totals of the
    throws (``roll_weights``), in the order drawn."""
    kept = _PREPARED.get(id(game))
    if kept is not None and kept[0] is game:
        return kept[1]
    changed = _STOCK.changed(game)
    assert changed is not None  # kernel_for has refused any other game
    hooks = tuple(
        getattr(game, name) if name in changed else None
        for name in (
            "guess_is_correct", "is_escape", "overcomes", "characteristic_after",
            "next_seat", "stays_face_up",
        )
    )  # fmt: skip
    throws = tuple([roll.total for roll in game._throws])
    n_throws = len(throws)
    limits = _TOPS
    widest = max(2 * max(map(len, game._adj)) + 1, n_throws)
    if widest >= len(limits):
        limits = tuple([_highest_accepted(n) if n else 0 for n in range(widest + 1)])
    prepared: Hooks = (*hooks, limits, throws)  # type: ignore[assignment]
    if len(_PREPARED) >= 8:
        _PREPARED.clear()
    _PREPARED[id(game)] = (game, prepared)
    return prepared


# The last few position parts read into lists, by the identity of the tuple read (kept,
# so that an id is never mistaken for a later tuple's). Every game dealt by
# ``initial_state`` starts from the same shared tuples (EscapeFromHaydes._new_state
# copies its setup), so a simulation reads them once, not at every game.
_UNPACKED: dict[int, tuple[Any, Any]] = {}


def _unpacked(part: Any, read: Any) -> Any:
    """``read(part)``, read once per tuple ``part``; the caller copies what it changes."""
    kept = _UNPACKED.get(id(part))
    if kept is not None and kept[0] is part:
        return kept[1]
    lists = read(part)
    if len(_UNPACKED) >= 16:
        _UNPACKED.clear()
    _UNPACKED[id(part)] = (part, lists)
    return lists


def _up_indices(face_up: tuple[Card | None, ...]) -> list[int]:
    """By cell, the face-up card's index, -1 for a face-down card."""
    return [-1 if card is None else card.index for card in face_up]


def _pool_indices(unseen: tuple[Deck, ...]) -> list[list[int]]:
    """By pool, the indices of its unseen cards, in order (an unstacked deck's rest)."""
    return [[card.index for card in deck.rest] for deck in unseen]


def _run(
    game: EscapeFromHaydes, seed: int, max_decisions: int, start: Any, build: bool
) -> tuple[Any, int, Figures] | None:
    """The game of ``seed`` (from ``start``, or ``initial_state(seed)``), played to its
    end: ``(final state or outcome, decisions, figures)``, or ``None``."""
    if start is None:
        start = game.initial_state(seed)
    elif isinstance(start, HaydesState) and start.phase is _OVER:
        figures = _figures(
            _counts(start.events), start.round, sum([f.cell is None for f in start.seats])
        )
        if build:
            return start, 0, figures
        assert start.ending is not None  # a finished game says how it ended
        return _outcome(game.num_players, start.ending, start.winner), 0, figures
    if not _readable(game, start):
        return None
    players = game.num_players
    bots = derived_seeds(seed, players)  # rng_derive(seed, seat), seat by seat
    counts = _counts(start.events)
    turns, guesses, correct_count, encounters, overcame = counts

    cells = game._cells
    index = game._index
    adj = game._adj
    values = game._values
    creatures = game._creatures
    limit = game._max_rounds
    cards = _CARDS
    (
        guess_hook, escape_hook, overcomes_hook, after_hook, next_hook, stays_hook, limits,
        throws,
    ) = _prepared(game)  # fmt: skip
    n_throws = len(throws)

    # The position, as lists (see the module docstring).
    up = _unpacked(start.face_up, _up_indices).copy()
    pool_of = list(start.pool_of)
    shown = [index[given] for given in start.shown]
    belief = start.beliefs[0]
    pools = [pool.copy() for pool in _unpacked(belief.unseen, _pool_indices)]
    rows = [list(row) for row in belief.mixed]
    mixes = [
        ([index[given] for given in mix.cells], [given.index for given in mix.known])
        for mix in start.mixes
    ]
    left = start.replacement_left
    discard = [given.index for given in start.discard]
    removed = [given.index for given in start.removed]
    overcome = {index[given] for given in start.overcome}
    seat_cell = [-1 if f.cell is None else index[f.cell] for f in start.seats]
    cha = [f.charisma for f in start.seats]
    endu = [f.endurance for f in start.seats]
    cur, first, rnd = start.current, start.first, start.round
    phase = start.phase
    rng = start.rng
    # A mix of two pools (see the module docstring): played the public way from here.
    multi = _two_pools(rows)
    # left + len(discard) - len(shown): the cards the deal at the end of the turn has to
    # spare, kept up to date where those three change (a card turned, the end of a turn).
    room = left + len(discard) - len(shown)
    events: list[Any] = []

    # SplitMix64 inlined (a call per draw would cost more than the draw), on the core
    # generator's own constants and rejection test (as ``z <= limit - 1``, see
    # _highest_accepted: the compiled build keeps z in a 64-bit word), so the same rejections.
    mask, gamma, mul1, mul2, small = _MASK, _GAMMA, _MUL1, _MUL2, _SMALL
    decisions = 0
    ending: Ending | None = None
    winner: int | None = None
    while True:
        # ---- a decision of seat ``cur``, in ``phase``
        if multi or room <= 0:
            # The deal at the end of this turn could run the piles dry (H-12), or a mix
            # of two pools is about: the public path from here, the same generators.
            state = _state(
                game, phase, seat_cell, cha, endu, cur, first, rnd, up, pool_of, shown,
                mixes, pools, rows, left, discard, removed, overcome, None, None, rng, (),
            )  # fmt: skip
            counts = [turns, guesses, correct_count, encounters, overcame]
            return _public(game, state, bots, decisions, max_decisions, counts, build)
        if decisions >= max_decisions:
            return None
        c = seat_cell[cur]
        if phase is _ENCOUNTER:
            creature = creatures[up[c]]
            assert creature is not None
            options = creature.allowed
            n = len(options)
        else:
            # The touching face-down cards, in a loop: before Python 3.12 a list
            # comprehension is a function call, and this runs at every decision.
            fd = []
            touching = adj[c]
            for j in touching:
                if up[j] < 0:
                    fd.append(j)
            nd = 2 * len(fd)
            n = len(touching) - len(fd) + nd + 1
        # RandomBot.choose: rng_below(len(legal)) on the seat's own generator.
        b = bots[cur]
        top = limits[n]
        while True:
            b = (b + gamma) & mask
            z = ((b ^ (b >> 30)) * mul1) & mask
            z = ((z ^ (z >> 27)) * mul2) & mask
            z ^= z >> 31
            if z <= top:
                k = z % n
                break
        bots[cur] = b
        decisions += 1
        if build:
            events = []  # a new step: the final state keeps the last step's events

        end_turn = False
        if phase is _ENCOUNTER:
            # _rolled (H-8): the roll is drawn at once, one of the 36 throws.
            chosen = options[k]
            while True:
                rng = (rng + gamma) & mask
                z = ((rng ^ (rng >> 30)) * mul1) & mask
                z = ((z ^ (z >> 27)) * mul2) & mask
                z ^= z >> 31
                if z <= limits[n_throws]:
                    total = throws[z % n_throws]
                    break
            on_charisma = chosen is _CHARISMA
            value = cha[cur] if on_charisma else endu[cur]
            if overcomes_hook is None:
                won = total + creature.modifier <= value
            else:
                won = overcomes_hook(creature, value, total)
            if after_hook is None:
                after = value - creature.cost
                if after < 0:
                    after = 0
            else:
                after = after_hook(creature, value, won)
            if build:
                events.append(Rolled(cur, chosen, total, creature.modifier, value, won))
                events.append(Lowered(cur, chosen, value, after))
            if on_charisma:
                cha[cur] = after
            else:
                endu[cur] = after
            if won:
                # H-8: the creature is gone; everyone held there is freed.
                overcame += 1
                overcome.add(c)
                if build:
                    events.append(Overcame(cur, cells[c], cards[up[c]]))
                    if players > 1:
                        freed = tuple([s for s in range(players) if s != cur and seat_cell[s] == c])
                        if freed:
                            events.append(Released(freed, cells[c]))
            if after == 0:
                # H-11: out at once, the turn ends; nobody left, nobody wins.
                if build:
                    events.append(Trapped(cur, chosen))
                seat_cell[cur] = -1
                if max(seat_cell) < 0:  # every seat out
                    if build:
                        events.append(AllTrapped())
                    ending = _TRAPPED
                    break
                end_turn = True
            elif won:
                phase = _TURN  # H-8: move on or end
                continue
            else:
                if build:
                    events.append(Held(cur, cells[c]))
                end_turn = True
        elif k < nd:
            # A move onto a face-down card (H-6), announced first, then turned.
            j = fd[k >> 1]
            lower = k & 1
            guess = _LOWER if lower else _HIGHER
            from_value = values[up[c]]
            if build:
                events.append(Announced(cur, cells[c], cells[j], guess, False))
            p = pool_of[j]
            if p >= 0:
                pool = pools[p]
                m = len(pool)
                top = limits[m] if m < small else _highest_accepted(m)
                while True:
                    rng = (rng + gamma) & mask
                    z = ((rng ^ (rng >> 30)) * mul1) & mask
                    z = ((z ^ (z >> 27)) * mul2) & mask
                    z ^= z >> 31
                    if z <= top:
                        card = pool.pop(z % m)
                        break
                pool_of[j] = FACE_UP
            else:
                rng, card = _reveal_mix(rng, j, pools, rows, mixes, pool_of)
                multi = _two_pools(rows)
            v = values[card]
            if guess_hook is None:
                correct = v < from_value if lower else v > from_value  # H-7
            else:
                correct = guess_hook(guess, from_value, v)
            guesses += 1
            correct_count += correct
            if build:
                events.append(Revealed(cells[j], cards[card], guess, from_value, correct))
            up[j] = card
            shown.append(j)
            room -= 1
            if card == _RJ:
                if (
                    lower and from_value >= 1
                    if escape_hook is None
                    else escape_hook(guess, from_value)
                ):
                    # H-9: the escape.
                    if build:
                        events.append(Moved(cur, cells[c], cells[j]))
                        events.append(Escaped(cur, cells[j]))
                    seat_cell[cur] = j
                    ending, winner = _ESCAPED, cur
                    break
                # H-10: the figure stays, the joker stays face up, the turn ends.
                if build:
                    events.append(AlmostThere(cur, cells[j]))
                end_turn = True
            else:
                # H-6: the figure moves onto the turned card, right or wrong.
                if build:
                    events.append(Moved(cur, cells[c], cells[j]))
                seat_cell[cur] = j
                if creatures[card] is not None:
                    encounters += 1
                    if build:
                        creature = creatures[card]
                        assert creature is not None
                        events.append(EncounterBegan(cur, cells[j], cards[card], creature.name))
                    phase = _ENCOUNTER  # H-7, H-8
                    continue
                if correct:
                    phase = _TURN  # H-7: move again or end the turn
                    continue
                end_turn = True
        elif k < n - 1:
            # A step onto a touching face-up card (H-6): it ends the turn, unless a
            # creature not overcome waits there (H-8).
            j = [x for x in adj[c] if up[x] >= 0][k - nd]
            if build:
                events.append(Moved(cur, cells[c], cells[j]))
            seat_cell[cur] = j
            card = up[j]
            if creatures[card] is not None and j not in overcome:
                encounters += 1
                if build:
                    creature = creatures[card]
                    assert creature is not None
                    events.append(EncounterBegan(cur, cells[j], cards[card], creature.name))
                phase = _ENCOUNTER
                continue
            end_turn = True
        else:
            end_turn = True

        # ---- _end_turn (H-12, H-13, H-5), then _begin_turn
        assert end_turn
        if build:
            events.append(TurnEnded(cur))
        if shown:
            # H-12: every face-up card but those with a figure is replaced.
            keep = []
            targets = []
            if stays_hook is None:
                for x in shown:
                    if x in seat_cell:
                        keep.append(x)
                    else:
                        targets.append(x)
            else:
                for x in shown:
                    if stays_hook(cells[x], cards[up[x]], x in seat_cell):
                        keep.append(x)
                    else:
                        targets.append(x)
            if targets:
                targets.sort()  # dealing order: by y, then x
                discarded = []
                gone = []
                joker = -1
                for i in targets:
                    card = up[i]
                    if card == _RJ:
                        joker = i  # H-10: it goes back in among the new cards
                    elif i in overcome:
                        gone.append(card)  # an overcome creature's card leaves the game
                    else:
                        discarded.append(card)
                if overcome:
                    overcome.difference_update(targets)
                if build:
                    events.append(
                        CardsReplaced(
                            tuple([cells[i] for i in targets]),
                            tuple([cards[i] for i in discarded]),
                            tuple([cards[i] for i in gone]),
                        )
                    )
                discard.extend(discarded)
                removed.extend(gone)
                if joker < 0 and left >= len(targets):
                    p = len(pools) - 1
                    for i in targets:
                        pool_of[i] = p
                        up[i] = -1
                    left -= len(targets)
                else:
                    left = _deal(
                        targets, joker, left, discard, pools, rows, mixes, up, pool_of,
                        events if build else None, cells,
                    )  # fmt: skip
                    multi = _two_pools(rows)
            shown = keep
            room = left + len(discard) - len(shown)
        # next_seat (H-5, H-13): seat order, skipping players out.
        if next_hook is None and players == 1:
            s, new_round = cur, True  # the one seat, still in: the game would be over
        elif next_hook is None:
            # The next seat still in, after ``cur``; someone is (else the game is over).
            s = cur + 1 if cur + 1 < players else 0
            while seat_cell[s] < 0:
                s = s + 1 if s + 1 < players else 0
            new_round = (s - first) % players <= (cur - first) % players
        else:
            following = next_hook(cur, first, tuple([x >= 0 for x in seat_cell]))
            assert following is not None  # the last player out ends the game before this
            s, new_round = following
            assert seat_cell[s] >= 0, "next_seat named a player who is out"
        if new_round:
            if limit is not None and rnd >= limit:
                if build:
                    events.append(TimeUp(rnd))  # H-13
                ending = _TIME_UP
                break
            rnd += 1
        cur = s
        turns += 1
        if build:
            events.append(TurnStarted(cur, rnd))
        c = seat_cell[cur]
        card = up[c]
        if creatures[card] is not None and c not in overcome:
            # H-8: a held player faces the creature again before anything else.
            encounters += 1
            if build:
                creature = creatures[card]
                assert creature is not None
                events.append(EncounterBegan(cur, cells[c], cards[card], creature.name))
            phase = _ENCOUNTER
        else:
            phase = _TURN

    out = sum([s < 0 for s in seat_cell])
    figures = _figures([turns, guesses, correct_count, encounters, overcame], rnd, out)
    if not build:
        return _outcome(players, ending, winner), decisions, figures
    final = _state(
        game, _OVER, seat_cell, cha, endu, cur, first, rnd, up, pool_of, shown, mixes, pools,
        rows, left, discard, removed, overcome, ending, winner, rng, tuple(events),
    )  # fmt: skip
    return final, decisions, figures


def _two_pools(rows: list[list[int]]) -> bool:
    """Does a mix hold cards of two pools (see the module docstring)?"""
    return any(sum(1 for count in row if count) > 1 for row in rows)


def _reveal_mix(
    rng: int,
    j: int,
    pools: list[list[int]],
    rows: list[list[int]],
    mixes: list[tuple[list[int], list[int]]],
    pool_of: list[int],
) -> tuple[int, int]:
    """Turn the card of cell ``j`` of a mix of one pool (H-10) under one belief:
    ``rng_choice_weighted`` over reveal_chances' weights, then apply_reveal's and
    _tidy_mix's bookkeeping. Returns ``(rng, card)``."""
    m = next(i for i, (mix_cells, _) in enumerate(mixes) if j in mix_cells)
    mix_cells, known = mixes[m]
    row = rows[m]
    # _mix_chances: the same integer weights, so the same sum to draw below.
    parts = [(count, q) for q, count in enumerate(row) if count]
    scale = lcm(*(len(pools[q]) for _, q in parts))
    weights: dict[int, int] = {}
    for card in known:
        weights[card] = weights.get(card, 0) + scale
    for count, q in parts:
        unit = count * (scale // len(pools[q]))
        for card in pools[q]:
            weights[card] = weights.get(card, 0) + unit
    common = gcd(*weights.values())
    order = sorted(weights)
    rng, r = rng_below(rng, sum(weights[i] for i in order) // common)
    for card in order:
        w = weights[card] // common
        if r < w:
            break
        r -= w
    if card in known:
        known.remove(card)  # the Red Joker is in no pool: this cell held it
    else:
        # One pool only (a mix of two is played the public way): its card.
        (q,) = [q for _, q in parts if card in pools[q]]
        pool = pools[q]
        del pool[bisect_left(pool, card)]
        row[q] -= 1
    mix_cells.remove(j)
    pool_of[j] = FACE_UP
    # _tidy_mix: a mix with no known card left and one pool is plain cells of that pool.
    nonzero = [q for q, count in enumerate(row) if count]
    if not mix_cells or (not known and len(nonzero) == 1):
        for i in mix_cells:
            pool_of[i] = nonzero[0]
        del mixes[m]
        del rows[m]
    return rng, card


def _deal(
    targets: list[int],
    joker: int,
    left: int,
    discard: list[int],
    pools: list[list[int]],
    rows: list[list[int]],
    mixes: list[tuple[list[int], list[int]]],
    up: list[int],
    pool_of: list[int],
    events: list[Any] | None,
    cells: tuple[Any, ...],
) -> int:
    """_deal (H-12, H-10): the Replacement deck may run out, the discard pile then
    becomes a new pool; the Red Joker goes back in among the new cards, a mix. The
    kernel never gets here when the piles could both run dry. Returns the cards left."""
    reshuffles = []
    counts: list[int] = []
    mixed = [joker] if joker >= 0 else []
    for i in targets:
        if i == joker:
            continue
        if not left:
            assert discard, "the kernel plays no deal that runs the piles dry"
            reshuffles.append(len(discard))
            pools.append(sorted(discard))
            left = len(discard)
            discard.clear()
            for row in rows:
                row.append(0)
        left -= 1
        pool = len(pools) - 1
        up[i] = -1
        if joker < 0:
            pool_of[i] = pool
        else:
            counts.extend([0] * (pool + 1 - len(counts)))
            counts[pool] += 1
            mixed.append(i)
    if joker >= 0:
        mixed.sort()
        for i in mixed:
            pool_of[i] = MIXED
            up[i] = -1
        mixes.append((mixed, [_RJ]))
        rows.append(counts + [0] * (len(pools) - len(counts)))
    if events is not None:
        for size in reshuffles:
            events.append(ReplacementReshuffled(size))
        if joker >= 0:
            events.append(JokerShuffledIn(tuple([cells[i] for i in mixed])))
    return left


def _state(
    game: EscapeFromHaydes,
    phase: Phase,
    seat_cell: list[int],
    cha: list[int],
    endu: list[int],
    cur: int,
    first: int,
    rnd: int,
    up: list[int],
    pool_of: list[int],
    shown: list[int],
    mixes: list[tuple[list[int], list[int]]],
    pools: list[list[int]],
    rows: list[list[int]],
    left: int,
    discard: list[int],
    removed: list[int],
    overcome: set[int],
    ending: Ending | None,
    winner: int | None,
    rng: int,
    events: tuple[Any, ...],
) -> HaydesState:
    """The public state of the kernel's position."""
    cells, cards = game._cells, _CARDS
    unseen = tuple(Deck._make((), tuple([cards[i] for i in pool])) for pool in pools)
    return HaydesState(
        phase=phase,
        seats=tuple(
            Figure(cha[s], endu[s], None if seat_cell[s] < 0 else cells[seat_cell[s]])
            for s in range(len(seat_cell))
        ),
        current=cur, first=first, round=rnd, layout=cells,
        face_up=tuple([None if i < 0 else cards[i] for i in up]), pool_of=tuple(pool_of),
        shown=tuple([cells[i] for i in shown]),
        mixes=tuple(
            Mix(tuple([cells[i] for i in m]), tuple([cards[i] for i in known]))
            for m, known in mixes
        ),
        beliefs=(Belief(1, unseen, tuple(tuple(row) for row in rows)),),
        replacement_left=left, discard=tuple([cards[i] for i in discard]),
        removed=tuple([cards[i] for i in removed]),
        overcome=frozenset(cells[i] for i in overcome), aim=None, chosen=None,
        stacked_first=None, stacked_rolls=(), ending=ending, winner=winner, rng=rng,
        explicit_chance=False, events=events,
    )  # fmt: skip


def _public(
    game: EscapeFromHaydes,
    state: HaydesState,
    bots: list[int],
    decisions: int,
    max_decisions: int,
    counts: list[int],
    build: bool,
) -> tuple[Any, int, Figures] | None:
    """The rest of the game the public way, from ``state`` (a decision), with the bots'
    generators as they are: ``legal_actions``, ``rng_below(len(legal))``, ``step``."""
    while not game.is_terminal(state):
        if decisions >= max_decisions:
            return None
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        bots[seat], k = rng_below(bots[seat], len(legal))
        state = game.step(state, legal[k])
        decisions += 1
        counts = [a + b for a, b in zip(counts, _counts(state.events), strict=True)]
    figures = _figures(counts, state.round, sum(f.cell is None for f in state.seats))
    if build:
        return state, decisions, figures
    assert state.ending is not None
    return _outcome(game.num_players, state.ending, state.winner), decisions, figures
