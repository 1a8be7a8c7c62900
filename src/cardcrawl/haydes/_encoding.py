"""The encoding of Escape from Haydes: cells of the layout in dealing order, seats relative.

Haydes is played on a fixed layout (H-4, or the ``layout`` option), so its cells are
numbered by their position in ``options.cells`` (by y, then x): the standard layout has
106. Every decision names one of those cells or none, so the decision space is small and
exact. The observation is written from the observing player's seat: seat ``player`` comes
first, then the following seats in turn order, so one network can play every seat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardcrawl.encoding import Encoding, EncodingError, LayoutBuilder
from cardcrawl.haydes._actions import (
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
from cardcrawl.haydes._compact import HaydesCompact
from cardcrawl.haydes._creatures import Characteristic
from cardcrawl.haydes._game import EscapeFromHaydes
from cardcrawl.haydes._state import MIXED, Ending, HaydesObservation, Phase, setup_cards
from cardcrawl.kit._cards import Card

__all__ = ["HaydesEncoding"]

_GUESSES = (Guess.HIGHER, Guess.LOWER)
_CHARACTERISTICS = (Characteristic.CHARISMA, Characteristic.ENDURANCE)
_PHASES = tuple(Phase)
_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}
_ENDINGS = tuple(Ending)
_ENDING_INDEX = {e: i for i, e in enumerate(_ENDINGS)}
_CARDS = tuple(Card(i) for i in range(54))
_RED_JOKER = Card.RED_JOKER

_PLANES = (
    ("face_down", "1 where the card is face down"),
    ("value", "the face-up card's value over 13 (H-1: ace 1, jokers 0)"),
    ("black_joker", "1 on the Black Joker"),
    ("red_joker", "1 where the Red Joker lies face up (H-10)"),
    ("creature", "1 on a face-up card whose creature is not overcome (H-1, H-8)"),
    ("creature_charisma", "1 where that creature may be faced with Charisma"),
    ("creature_endurance", "1 where that creature may be faced with Endurance"),
    ("creature_modifier", "that creature's roll modifier, (modifier + 12) / 24"),
    ("creature_cost", "that creature's cost over 9"),
    ("may_hide_joker", "1 on each face-down cell that may hold the Red Joker"),
    ("build_pool", "1 on a face-down card dealt from the Build deck"),
    ("mixed", "1 on a face-down card of a mix (cells sharing a shuffled known mixture)"),
    ("aim", "1 on the cell being turned (phase reveal)"),
)
_SEAT_SCALARS = (
    "in: 1 while the seat is in the game (H-11)",
    "charisma over 9",
    "endurance over 9",
    "1 for the seat whose turn it is",
    "1 for the first player (H-5)",
    "1 for the winner",
)


class HaydesEncoding(Encoding):
    """The encoding of Escape from Haydes for one set of options (players, layout, Tuybe...).

    With ``n`` the number of cells of the layout (106 for the standard one), in the order
    of ``options.cells``, decisions are numbered:

    * ``2 * i + g``: ``Move`` to cell ``i`` announcing higher (``g`` 0) or lower (1);
    * ``2n + i``: ``Step`` onto cell ``i``;
    * ``3n + 2 * i + g``: ``Tuybe`` to cell ``i`` (only with the ``tuybe`` option);
    * then ``EndTurn``, ``Choose(charisma)``, ``Choose(endurance)``.

    Chance outcomes: ``FirstPlayer(seat)`` is ``seat``, ``Reveal(card)`` is
    ``players + card.index`` and ``Roll(total)`` is ``players + 54 + total - 2``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> from cardcrawl.haydes import EndTurn
        >>> enc = encoding_for(cardcrawl.load("escape-from-haydes", players=2))
        >>> enc.num_actions, enc.num_chance_outcomes, enc.observation_shape
        (321, 67, (1647,))
        >>> enc.encode_action(EndTurn()), enc.decode_action(0)
        (318, Move(cell=(-4, -4), guess=Guess.HIGHER))
    """

    limit_label = Ending.TIME_UP.value  # H-13: nobody escapes after max_rounds rounds

    def __init__(self, game: EscapeFromHaydes) -> None:
        super().__init__(game)
        opts = game.options
        self._cells = opts.cells
        self._players: int = opts.players
        # Characteristics are scaled by the highest they can be (9 in the standard rules).
        self._top = opts.max_characteristic
        n = len(self._cells)
        actions: list[Any] = []
        actions.extend(Move(c, g) for c in self._cells for g in _GUESSES)
        actions.extend(Step(c) for c in self._cells)
        if opts.tuybe:
            actions.extend(Tuybe(c, g) for c in self._cells for g in _GUESSES)
        actions.append(EndTurn())
        actions.extend(Choose(ch) for ch in _CHARACTERISTICS)
        self._actions = tuple(actions)
        self._action_index = {a: i for i, a in enumerate(actions)}
        self.num_actions = len(actions)
        chances: list[Any] = [FirstPlayer(s) for s in range(self._players)]
        chances.extend(Reveal(c) for c in _CARDS)
        # The game's own dice (H-8): the standard 2D6 gives the totals 2 to 12.
        chances.extend(Roll(t) for t, _ in game.roll_weights())
        self._chances = tuple(chances)
        self._chance_index = {a: i for i, a in enumerate(chances)}
        self.num_chance_outcomes = len(chances)
        # By card index, the (charisma, endurance, modifier, cost) of its creature.
        self._creature: tuple[tuple[float, float, float, float] | None, ...] = tuple(
            None
            if (cr := game.creature(card)) is None
            else (
                float(Characteristic.CHARISMA in cr.allowed),
                float(Characteristic.ENDURANCE in cr.allowed),
                (cr.modifier + 12) / 24,
                cr.cost / self._top,
            )
            for card in _CARDS
        )
        self._max_rounds: int | None = opts.max_rounds
        self._total_cards = opts.build_count + opts.replacement_count
        self._replacement_count = opts.replacement_count
        # By card index, the value the game's card_value hook gives (H-1), kept within the
        # 0-13 the planes hold.
        self._value = tuple(min(max(game.card_value(card), 0), 13) for card in _CARDS)
        # Most copies of one value among the unseen cards: the game's cards of that value.
        build, replacement = setup_cards(opts.deck_count)
        copies = Counter(self._value[card.index] for card in (*build, *replacement))
        self._value_cap = tuple(max(1, copies[v]) for v in range(14))

        lay = LayoutBuilder()
        self._planes = [lay.add(name, (n,), text) for name, text in _PLANES]
        p = self._players
        self._figures = lay.add(
            "figures",
            (p, n),
            "one plane per seat, the observer's first then in turn order: 1 on its figure",
        )
        self._seats = lay.add(
            "seats",
            (p, len(_SEAT_SCALARS)),
            "per seat, observer first: " + "; ".join(_SEAT_SCALARS),
        )
        self._phase = lay.add(
            "phase", (len(_PHASES),), "one-hot phase: " + ", ".join(ph.value for ph in _PHASES)
        )
        self._ending = lay.add(
            "ending", (len(_ENDINGS),), "one-hot ending: " + ", ".join(e.value for e in _ENDINGS)
        )
        self._chosen = lay.add(
            "chosen", (2,), "one-hot characteristic chosen (phase roll): charisma, endurance"
        )
        self._aim = lay.add("aim_kind", (2,), "1 if the aim announced lower; 1 if by the Tuybe")
        self._counts = lay.add(
            "counts",
            (4,),
            "round over max_rounds (0 without a limit); cards left in the Replacement deck "
            "over its size; discard pile and removed cards over all build and replacement "
            "cards",
        )
        self._unseen = lay.add(
            "unseen",
            (2, 14),
            "unseen cards by value 0-13: first the Build pool, then every Replacement pool "
            "together; each count over the most there can be (1 for value 0, the Red "
            "Joker; 4 per deck otherwise), averaged over the beliefs by weight",
        )
        self.layout = tuple(lay.segments)
        self._size = lay.size
        self._n = n

    # ------------------------------------------------------------ actions
    def encode_action(self, action: Any) -> int:
        """The decision's number (see the class docstring).

        Raises:
            EncodingError: not a decision of this game (a chance outcome, a cell off the
                layout, a Tuybe move without the Tuybe option...).
        """
        index = _looked_up(self._action_index, action)
        if index is None:
            raise EncodingError(f"{action!r} is not a decision of {self.game.name} here")
        return index

    def decode_action(self, index: int) -> Any:
        """The decision numbered ``index``.

        Raises:
            EncodingError: ``index`` is not in ``range(num_actions)``.
        """
        return self._actions[self._check_index(index, self.num_actions, "action")]

    def encode_chance(self, outcome: Any) -> int:
        """The chance outcome's number (see the class docstring).

        Raises:
            EncodingError: not a chance outcome of this game.
        """
        index = _looked_up(self._chance_index, outcome)
        if index is None:
            raise EncodingError(f"{outcome!r} is not a chance outcome of {self.game.name}")
        return index

    def decode_chance(self, index: int) -> Any:
        """The chance outcome numbered ``index``.

        Raises:
            EncodingError: ``index`` is not in ``range(num_chance_outcomes)``.
        """
        return self._chances[self._check_index(index, self.num_chance_outcomes, "chance outcome")]

    # -------------------------------------------------------- observation
    def compact(
        self, *, pools: int = 4, beliefs: int = 4, mixes: int = 4, known: int = 2
    ) -> HaydesCompact:
        """The compact observation (see :class:`~cardcrawl.haydes._compact.HaydesCompact`),
        with room for ``pools`` pools, ``beliefs`` beliefs and ``mixes`` mixes of up to
        ``known`` known cards each; an observation needing more is refused with an
        :class:`~cardcrawl.errors.EncodingError` that names the bound.

        Raises:
            EncodingError: the layout has more than 254 cells, or a bound is out of
                range (``pools`` from 1 to 100, the others from 1 to 255).
        """
        return HaydesCompact(self.game, pools=pools, beliefs=beliefs, mixes=mixes, known=known)

    def _entries(self, observation: Any) -> dict[int, float]:
        """The vector entries of a :class:`~cardcrawl.haydes.HaydesObservation`, from the
        observing player's seat.

        Raises:
            EncodingError: ``observation`` is not one of this game's.
        """
        if not isinstance(observation, HaydesObservation):
            raise EncodingError(f"expected a HaydesObservation, not {type(observation).__name__}")
        obs = observation
        n = self._n
        if obs.layout != self._cells or len(obs.seats) != self._players:
            raise EncodingError(f"this observation is not of {self.game.name} with these options")
        v: dict[int, float] = {}
        (
            down_at, value_at, bj_at, rj_at, cr_at, ch_at, en_at, mod_at, cost_at,
            joker_at, build_at, mixed_at, aim_at,
        ) = self._planes  # fmt: skip
        overcome = obs.overcome
        cells = self._cells
        for i, (card, pool) in enumerate(zip(obs.face_up, obs.pool_of, strict=True)):
            if card is None:
                v[down_at + i] = 1.0
                if pool == 0:
                    v[build_at + i] = 1.0
                elif pool == MIXED:
                    v[mixed_at + i] = 1.0
                continue
            k = card.index
            v[value_at + i] = self._value[k] / 13
            if card == Card.BLACK_JOKER:
                v[bj_at + i] = 1.0
            elif k == _RED_JOKER.index:
                v[rj_at + i] = 1.0
            creature = self._creature[k]
            if creature is not None and cells[i] not in overcome:
                v[cr_at + i] = 1.0
                v[ch_at + i], v[en_at + i], v[mod_at + i], v[cost_at + i] = creature
        index = {c: i for i, c in enumerate(cells)}
        for cell in _joker_cells(obs):
            v[joker_at + index[cell]] = 1.0
        if obs.aim is not None:
            v[aim_at + index[obs.aim.cell]] = 1.0
            v[self._aim] = float(obs.aim.guess is Guess.LOWER)
            v[self._aim + 1] = float(obs.aim.tuybe)
        p = self._players
        width = len(_SEAT_SCALARS)
        for slot in range(p):
            seat = (obs.player + slot) % p
            figure = obs.seats[seat]
            base = self._seats + slot * width
            if figure.cell is not None:
                v[self._figures + slot * n + index[figure.cell]] = 1.0
                v[base] = 1.0
            v[base + 1] = figure.charisma / self._top
            v[base + 2] = figure.endurance / self._top
            v[base + 3] = float(obs.current == seat)
            v[base + 4] = float(obs.first == seat)
            v[base + 5] = float(obs.winner == seat)
        v[self._phase + _PHASE_INDEX[obs.phase]] = 1.0
        if obs.ending is not None:
            v[self._ending + _ENDING_INDEX[obs.ending]] = 1.0
        if obs.chosen is not None:
            v[self._chosen + _CHARACTERISTICS.index(obs.chosen)] = 1.0
        counts = self._counts
        if self._max_rounds is not None:
            v[counts] = min(obs.round / self._max_rounds, 1.0)
        v[counts + 1] = obs.replacement_left / self._replacement_count
        v[counts + 2] = len(obs.discard) / self._total_cards
        v[counts + 3] = len(obs.removed) / self._total_cards
        self._unseen_counts(obs, v)
        return v

    def _unseen_counts(self, obs: HaydesObservation, v: dict[int, float]) -> None:
        total = sum(b.weight for b in obs.beliefs)
        counts = [0] * 28
        value = self._value
        for belief in obs.beliefs:
            for p, deck in enumerate(belief.unseen):
                row = 0 if p == 0 else 14
                for card in deck.cards:
                    counts[row + value[card.index]] += belief.weight
        cap = self._value_cap
        base = self._unseen
        for k, count in enumerate(counts):
            if count:
                v[base + k] = min(count / (total * cap[k % 14]), 1.0)


def _joker_cells(obs: HaydesObservation) -> tuple[Any, ...]:
    """The face-down cells that may hold the Red Joker (as ``HaydesState.joker_cells``)."""
    for mix in obs.mixes:
        if _RED_JOKER in mix.known:
            return mix.cells
    if obs.beliefs and _RED_JOKER in obs.beliefs[0].unseen[0]:
        return tuple(c for c, p in zip(obs.layout, obs.pool_of, strict=True) if p == 0)
    return ()


def _looked_up(numbers: Mapping[Any, int], value: Any) -> int | None:
    """The number of ``value``, or ``None`` for a value not numbered (or unhashable, as
    an action given from outside may be)."""
    try:
        return numbers.get(value)
    except TypeError:
        return None
