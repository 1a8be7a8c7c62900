"""The compact observation of Escape from Haydes: cell by cell, then the unseen cards.

Haydes is played on a fixed layout (H-4), so a cell is its index in ``options.cells``
and most of the row is one byte per cell: the face-up card, the pool or mix a face-down
card came from, when a face-up card was turned, whether its creature is overcome (H-8).
Seats are written from the observer's seat, as the flat encoding writes them. The
public knowledge of the face-down cards (see :mod:`cardcrawl.haydes._unseen`) is written
whole: each belief's weight, its unseen cards as counts by card and pool, and how many
cells of each mix each pool fills; the mixes' known cards come with them.

A row has room for a fixed number of pools, beliefs and mixes (the arguments of
``HaydesEncoding.compact``; the defaults hold several times what long random games reach).
An observation that needs more is refused with an
:class:`~cardcrawl.errors.EncodingError` naming the bound: a row never drops a fact.

What the row leaves out: the last step's events, which narrate what the rest shows.
"""

from __future__ import annotations

from array import array
from typing import Any

from cardcrawl.encoding._compact import CompactObservation, RowWriter
from cardcrawl.encoding._layout import LayoutBuilder
from cardcrawl.errors import EncodingError
from cardcrawl.haydes._actions import Guess
from cardcrawl.haydes._creatures import Characteristic
from cardcrawl.haydes._state import (
    DOWN,
    POOL_MASK,
    POOL_SHIFT,
    Aim,
    Belief,
    Ending,
    Figure,
    HaydesObservation,
    Mix,
    Phase,
)
from cardcrawl.kit._cards import Card
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell

__all__ = ["HaydesCompact", "HaydesRowWriter"]

_CARDS = tuple(Card(i) for i in range(54))
_PHASES = tuple(Phase)
_PHASE_NUMBER = {p: i for i, p in enumerate(_PHASES)}
_ENDINGS = tuple(Ending)
_ENDING_NUMBER = {e: i + 1 for i, e in enumerate(_ENDINGS)}
_GUESSES = (Guess.HIGHER, Guess.LOWER)
_CHARACTERISTICS = (Characteristic.CHARISMA, Characteristic.ENDURANCE)
#: A cell is written as 1 + its index (0 for none), so a layout may hold 254 cells.
MAX_CELLS = 254
_WEIGHT_BYTES = 4
_MEMO_SIZE = 4096


#: The most pools a row may have room for: ``pool_of`` is packed as signed bytes.
MAX_POOLS = 100
# From a ``pool_of`` entry as a signed byte to the ``source`` segment's byte: a face-up
# cell (-1) is 0, a cell of a mix (-2) is 1, pool p is 2 + p; and back.
_TO_SOURCE = bytes({0xFF: 0, 0xFE: 1}.get(b, min(b + 2, 255)) for b in range(256))
_FROM_SOURCE = bytes((0xFF, 0xFE, *range(254)))


class HaydesCompact(CompactObservation):
    """The compact observation of Escape from Haydes (see the module's text).

    With ``n`` the cells of the layout (106 in the standard game, in the order of
    ``options.cells``), ``p`` the players, and ``P``, ``B``, ``M``, ``K`` the bounds
    below, the segments are:

    * ``header`` (8): the observing seat; the phase (in the order of
      :class:`~cardcrawl.haydes.Phase`); 0 while playing, else 1 + the ending (in the
      order of :class:`~cardcrawl.haydes.Ending`); the seat to play, the first player
      and the winner, each 0 for none, else 1 + the seat counted from the observer;
      the characteristic chosen (0 none, 1 Charisma, 2 Endurance); the cards left in
      the Replacement deck;
    * ``round`` (4): the round, big-endian;
    * ``seats`` (p x 3): from the observer's seat on, Charisma, Endurance and 1 + the
      figure's cell (0 once out, H-11);
    * ``aim`` (3): 1 + the cell aimed at (0 for none), 1 if announced lower, 1 if by the
      Tuybe;
    * ``card`` (n): 0 for a face-down cell, else 1 + the card's index;
    * ``source`` (n): 0 for a face-up cell, 1 for a cell of a mix, else 2 + the pool
      its card came from;
    * ``shown`` (n): 1 + the cell's rank in ``shown`` (the order cards were turned),
      0 if not there;
    * ``mix`` and ``mix_rank`` (n each): 1 + the mix holding the cell and 1 + its
      rank among that mix's cells (dealing order), 0 for none;
    * ``overcome`` (n): 1 where a creature was overcome (H-8);
    * ``piles`` (cards + 2): the discard pile's size (2 bytes, big-endian), then the
      discard pile in the order the cards came, then the removed cards, each 1 + the
      card's index, 0 after the last;
    * ``counts`` (3): the pools, the mixes and the beliefs;
    * ``known`` (M x K): each mix's known cards, 1 + the index, 0 after the last;
    * ``weight`` (B x 4): each belief's weight, big-endian;
    * ``unseen`` (B x P x 54): each belief's unseen cards of each pool, as counts by
      card index;
    * ``mixed`` (B x M x P): each belief's count of each mix's cells filled by each
      pool.

    Args:
        game: a game of Escape from Haydes (or a variant) with at most 254 cells.
        pools: room for this many pools (the Build deck, and each shuffle of the
            Replacement deck).
        beliefs: room for this many beliefs.
        mixes: room for this many mixes.
        known: room for this many known cards in each mix.

    Raises:
        EncodingError: the layout has more than 254 cells, or a bound is out of range
            (``pools`` from 1 to 100, the others from 1 to 255).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> game = cardcrawl.load("escape-from-haydes")
        >>> compact = encoding_for(game).compact()
        >>> row = compact.encode(game.observe(game.initial_state(seed=1), 0))
        >>> centre = game.options.cells.index((0, 0))  # the Black Joker's cell (H-4)
        >>> compact.size, row[compact.segment("card").start + centre]  # 1 + its index
        (1820, 53)
        >>> compact.read(row).face_up[centre]
        Card.parse('BJ')
    """

    def __init__(
        self, game: Any, *, pools: int = 4, beliefs: int = 4, mixes: int = 4, known: int = 2
    ) -> None:
        if type(pools) is not int or not 1 <= pools <= MAX_POOLS:
            raise EncodingError(f"pools is an integer from 1 to {MAX_POOLS}, not {pools!r}")
        for name, bound in (("beliefs", beliefs), ("mixes", mixes)):
            if type(bound) is not int or not 1 <= bound <= 255:
                raise EncodingError(f"{name} is an integer from 1 to 255, not {bound!r}")
        if type(known) is not int or not 1 <= known <= 255:
            raise EncodingError(f"known is an integer from 1 to 255, not {known!r}")
        opts = game.options
        cells: tuple[Cell, ...] = opts.cells
        if len(cells) > MAX_CELLS:
            raise EncodingError(
                f"the compact observation holds layouts of at most {MAX_CELLS} cells; "
                f"this one has {len(cells)}"
            )
        self._cells = cells
        self._cell_index = {c: i for i, c in enumerate(cells)}
        self._players: int = opts.players
        self.pools, self.beliefs, self.mixes, self.known = pools, beliefs, mixes, known
        self._card_room = opts.build_count + opts.replacement_count + 2
        self._memo: dict[int, tuple[tuple[Card, ...], bytes]] = {}
        n, p = len(cells), self._players
        layout = LayoutBuilder()
        self._header = layout.add(
            "header",
            (8,),
            "the observer; phase; ending; seat to play, first, winner (1 + from the "
            "observer); chosen; Replacement cards left",
        )
        self._round = layout.add("round", (4,), "the round, big-endian")
        self._seats = layout.add(
            "seats", (p, 3), "from the observer on: Charisma, Endurance, 1 + figure's cell"
        )
        self._aim = layout.add("aim", (3,), "1 + cell aimed at; lower; by the Tuybe")
        self._card = layout.add("card", (n,), "0 face down, else 1 + the card's index")
        self._source = layout.add("source", (n,), "0 face up, 1 mix, 2 + the pool")
        self._shown = layout.add("shown", (n,), "1 + the rank in the order turned")
        self._mix = layout.add("mix", (n,), "1 + the mix holding the cell")
        self._mix_rank = layout.add("mix_rank", (n,), "1 + the rank among the mix's cells")
        self._overcome = layout.add("overcome", (n,), "1 where a creature was overcome")
        self._piles = layout.add(
            "piles",
            (self._card_room,),
            "the discard's size (2 bytes), then the discard and removed cards, 1 + index",
        )
        self._counts = layout.add("counts", (3,), "pools, mixes, beliefs")
        self._known = layout.add("known", (mixes, known), "each mix's known cards, 1 + index")
        self._weight = layout.add("weight", (beliefs, _WEIGHT_BYTES), "big-endian")
        self._unseen = layout.add(
            "unseen", (beliefs, pools, 54), "unseen cards by belief, pool and card index"
        )
        self._mixed = layout.add(
            "mixed", (beliefs, mixes, pools), "cells of each mix filled by each pool"
        )
        super().__init__(game, layout)

    # ----------------------------------------------------------------- write
    def row_writer(self, working: Any, seat: int) -> RowWriter:
        """A writer of one row straight from the working positions of ``working``
        (:class:`HaydesRowWriter`), where they are this game's; else the default.

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.encoding import encoding_for
            >>> game = cardcrawl.load("escape-from-haydes", max_rounds=20)
            >>> compact = encoding_for(game).compact()
            >>> working = cardcrawl.working_for(game)
            >>> position, row = working.begin(1), bytearray(compact.size)
            >>> writer = compact.row_writer(working, 0)
            >>> writer.write_position(position, row)
            >>> bytes(row) == compact.encode(game.observe(game.initial_state(1), 0))
            True
        """
        from cardcrawl.haydes._working import HaydesWorking

        game: Any = getattr(working, "game", None)
        if (
            type(working) is HaydesWorking
            and game.options.cells == self._cells
            and game.options.players == self._players
            and 0 <= seat < self._players
        ):
            return HaydesRowWriter(self, working, seat)
        return super().row_writer(working, seat)

    def write(self, observation: Any, out: bytearray | memoryview, offset: int = 0) -> None:
        """Write a :class:`~cardcrawl.haydes.HaydesObservation` into ``out`` at
        ``offset``.

        Raises:
            EncodingError: ``observation`` is not one of this game's, or it needs more
                pools, beliefs, mixes or known cards than the row has room for (the
                message names the bound).
        """
        if not isinstance(observation, HaydesObservation):
            raise EncodingError(f"expected a HaydesObservation, not {type(observation).__name__}")
        obs = observation
        if obs.layout != self._cells or len(obs.seats) != self._players:
            raise EncodingError(f"this observation is not of {self.game.name} with these options")
        self._check_bounds(obs)
        row = bytearray(self.size)
        try:
            self._write_unseen(obs, row)  # first: the table's check reads its counts
            self._write_table(obs, row)
            self._write_piles(obs, row)
        except (KeyError, ValueError) as error:
            # A cell off the layout, or a number beyond a byte: an observation that no
            # state of this game can have, whatever its options.
            raise EncodingError(
                f"this observation does not fit {self.game.name}'s compact row: {error}"
            ) from None
        out[offset : offset + self.size] = row

    def _check_bounds(self, obs: HaydesObservation) -> None:
        pools = len(obs.beliefs[0].unseen) if obs.beliefs else 0
        for what, count, bound, argument in (
            ("pools", pools, self.pools, "pools"),
            ("beliefs", len(obs.beliefs), self.beliefs, "beliefs"),
            ("mixes", len(obs.mixes), self.mixes, "mixes"),
            ("known cards in a mix", max((len(m.known) for m in obs.mixes), default=0),
             self.known, "known"),
        ):  # fmt: skip
            if count > bound:
                raise EncodingError(
                    f"this observation has {count} {what}; the compact row has room for "
                    f"{bound} (ask for encoding.compact({argument}={count}) or more)"
                )
        if not 0 <= obs.round < 2**32 or not 0 <= obs.replacement_left <= 255:
            raise EncodingError("the round or the Replacement deck's count is out of range")
        if len(obs.discard) + len(obs.removed) > self._card_room - 2:
            raise EncodingError(
                f"the discard pile and the removed cards hold {self._card_room - 2} cards "
                f"at most, not {len(obs.discard) + len(obs.removed)}"
            )

    def _counts_of(self, cards: tuple[Card, ...]) -> bytes:
        """A pool's unseen cards as counts by card index, remembered for as long as the
        tuple lives: a state shares its unchanged pools with the state it came from, so
        most steps of a batch write the same pools again."""
        hit = self._memo.get(id(cards))
        if hit is not None and hit[0] is cards:
            return hit[1]
        counts = bytearray(54)
        for card in cards:
            counts[card.index] += 1
        if len(self._memo) >= _MEMO_SIZE:
            self._memo.clear()
        # The entry holds ``cards`` itself, so its id cannot be reused while it lasts.
        self._memo[id(cards)] = (cards, bytes(counts))
        return self._memo[id(cards)][1]

    def _write_table(self, obs: HaydesObservation, row: bytearray) -> None:
        index, p, n = self._cell_index, self._players, len(self._cells)

        def seat(number: int | None) -> int:
            if number is None or number < 0:
                return 0
            return 1 + (number - obs.player) % p

        def cell(at: Cell | None) -> int:
            return 0 if at is None else 1 + index[at]

        chosen = 0 if obs.chosen is None else 1 + _CHARACTERISTICS.index(obs.chosen)
        row[self._header : self._header + 8] = bytes(
            (
                obs.player,
                _PHASE_NUMBER[obs.phase],
                0 if obs.ending is None else _ENDING_NUMBER[obs.ending],
                seat(obs.current),
                seat(obs.first),
                seat(obs.winner),
                chosen,
                obs.replacement_left,
            )
        )
        row[self._round : self._round + 4] = obs.round.to_bytes(4, "big")
        for slot in range(p):
            figure = obs.seats[(obs.player + slot) % p]
            at = self._seats + 3 * slot
            row[at : at + 3] = bytes((figure.charisma, figure.endurance, cell(figure.cell)))
        aim = obs.aim
        if aim is not None:
            row[self._aim : self._aim + 3] = bytes(
                (cell(aim.cell), _GUESSES.index(aim.guess), aim.tuybe)
            )
        row[self._card : self._card + n] = bytes(
            [0 if c is None else c.index + 1 for c in obs.face_up]
        )
        if max(obs.pool_of) >= row[self._counts]:
            raise EncodingError("a cell's pool is not one of the observation's pools")
        source = array("b", obs.pool_of).tobytes().translate(_TO_SOURCE)
        row[self._source : self._source + n] = source
        if len(set(obs.shown)) != len(obs.shown):
            raise EncodingError("a cell is twice in the observation's shown cells")
        for rank, at_cell in enumerate(obs.shown):
            row[self._shown + index[at_cell]] = 1 + rank
        for m, mix in enumerate(obs.mixes):
            for rank, at_cell in enumerate(mix.cells):
                i = index[at_cell]
                if row[self._mix + i]:
                    raise EncodingError(f"cell {at_cell} is in two mixes")
                row[self._mix + i] = 1 + m
                row[self._mix_rank + i] = 1 + rank
        for at_cell in obs.overcome:
            row[self._overcome + index[at_cell]] = 1

    def _write_piles(self, obs: HaydesObservation, row: bytearray) -> None:
        at = self._piles
        row[at : at + 2] = len(obs.discard).to_bytes(2, "big")
        cards = bytes(1 + c.index for c in (*obs.discard, *obs.removed))
        row[at + 2 : at + 2 + len(cards)] = cards
        for m, mix in enumerate(obs.mixes):
            start = self._known + m * self.known
            row[start : start + len(mix.known)] = bytes(1 + c.index for c in mix.known)

    def _write_unseen(self, obs: HaydesObservation, row: bytearray) -> None:
        pools, mixes = self.pools, self.mixes
        pool_count = len(obs.beliefs[0].unseen) if obs.beliefs else 0
        row[self._counts : self._counts + 3] = bytes((pool_count, len(obs.mixes), len(obs.beliefs)))
        for b, belief in enumerate(obs.beliefs):
            if not 0 < belief.weight < 2 ** (8 * _WEIGHT_BYTES):
                raise EncodingError(
                    f"a belief's weight is from 1 to 2**32 - 1, not {belief.weight}"
                )
            if len(belief.unseen) != pool_count or len(belief.mixed) != len(obs.mixes):
                raise EncodingError("the observation's beliefs disagree on the pools or mixes")
            at = self._weight + b * _WEIGHT_BYTES
            row[at : at + _WEIGHT_BYTES] = belief.weight.to_bytes(_WEIGHT_BYTES, "big")
            base = self._unseen + b * pools * 54
            for q, deck in enumerate(belief.unseen):
                if deck.stacked:
                    raise EncodingError("an observation's pools are never stacked")
                start = base + q * 54
                row[start : start + 54] = self._counts_of(deck.rest)
            base = self._mixed + b * mixes * pools
            for m, counts in enumerate(belief.mixed):
                if len(counts) != pool_count:
                    raise EncodingError("a belief's mix counts disagree with its pools")
                start = base + m * pools
                row[start : start + pool_count] = bytes(counts)

    # ------------------------------------------------------------------ read
    def read(self, row: bytes | bytearray | memoryview) -> HaydesObservation:
        """The observation ``row`` was written from, without its events (see the
        module's text).

        Raises:
            EncodingError: ``row`` is not a row of this layout.
        """
        self._check_row(row)
        row = bytes(row)
        cells, p, n = self._cells, self._players, len(self._cells)
        try:
            header = row[self._header : self._header + 8]
            player, phase, ending, current, first, winner, chosen, left = tuple(header)

            def seat(number: int) -> int | None:
                return None if number == 0 else (player + number - 1) % p

            def cell(number: int) -> Cell | None:
                return None if number == 0 else cells[number - 1]

            seats: list[Figure] = [Figure(0, 0, None)] * p
            for slot in range(p):
                start = self._seats + 3 * slot
                charisma, endurance, at = tuple(row[start : start + 3])
                seats[(player + slot) % p] = Figure(charisma, endurance, cell(at))
            aim_cell, lower, tuybe = tuple(row[self._aim : self._aim + 3])
            aim = None
            if aim_cell:
                aimed = cell(aim_cell)
                assert aimed is not None
                aim = Aim(aimed, _GUESSES[lower], bool(tuybe))
            face_up = tuple(
                None if c == 0 else _CARDS[c - 1] for c in row[self._card : self._card + n]
            )
            signed = row[self._source : self._source + n].translate(_FROM_SOURCE)
            pool_of = tuple(array("b", signed))
            ranks = row[self._shown : self._shown + n]
            shown = tuple(cells[i] for i in sorted(range(n), key=ranks.__getitem__) if ranks[i])
            overcome = frozenset(
                c
                for c, flag in zip(cells, row[self._overcome : self._overcome + n], strict=True)
                if flag
            )
            mixes, beliefs = self._read_unseen(row)
            at = self._piles
            discarded = int.from_bytes(row[at : at + 2], "big")
            piles = tuple(_CARDS[c - 1] for c in row[at + 2 : at + self._card_room] if c)
            first_seat = seat(first)
            return HaydesObservation(
                player=player,
                phase=_PHASES[phase],
                seats=tuple(seats),
                current=-1 if current == 0 else (player + current - 1) % p,
                first=-1 if first_seat is None else first_seat,
                round=int.from_bytes(row[self._round : self._round + 4], "big"),
                layout=cells,
                face_up=face_up,
                pool_of=pool_of,
                shown=shown,
                mixes=mixes,
                beliefs=beliefs,
                replacement_left=left,
                discard=piles[:discarded],
                removed=piles[discarded:],
                overcome=overcome,
                aim=aim,
                chosen=None if chosen == 0 else _CHARACTERISTICS[chosen - 1],
                ending=None if ending == 0 else _ENDINGS[ending - 1],
                winner=seat(winner),
                events=(),
            )
        except (IndexError, AssertionError) as error:
            raise EncodingError(f"this is not a compact row of {self.game.name}") from error

    def _read_unseen(self, row: bytes) -> tuple[tuple[Mix, ...], tuple[Belief, ...]]:
        cells, n = self._cells, len(self._cells)
        pools, mixes = self.pools, self.mixes
        pool_count, mix_count, belief_count = tuple(row[self._counts : self._counts + 3])
        if pool_count > pools or mix_count > mixes or belief_count > self.beliefs:
            raise EncodingError(f"this is not a compact row of {self.game.name}")
        members: list[list[tuple[int, Cell]]] = [[] for _ in range(mix_count)]
        for i in range(n):
            m = row[self._mix + i]
            if m:
                members[m - 1].append((row[self._mix_rank + i], cells[i]))
        mix_list: list[Mix] = []
        for m in range(mix_count):
            start = self._known + m * self.known
            known = tuple(_CARDS[c - 1] for c in row[start : start + self.known] if c)
            mix_list.append(Mix(tuple(c for _, c in sorted(members[m])), known))
        beliefs: list[Belief] = []
        for b in range(belief_count):
            at = self._weight + b * _WEIGHT_BYTES
            weight = int.from_bytes(row[at : at + _WEIGHT_BYTES], "big")
            unseen: list[Deck] = []
            for q in range(pool_count):
                start = self._unseen + (b * pools + q) * 54
                counts = row[start : start + 54]
                unseen.append(Deck.of(_CARDS[k] for k in range(54) for _ in range(counts[k])))
            base = self._mixed + b * mixes * pools
            mixed = tuple(
                tuple(row[base + m * pools : base + m * pools + pool_count])
                for m in range(mix_count)
            )
            beliefs.append(Belief(weight, tuple(unseen), mixed))
        return tuple(mix_list), tuple(beliefs)


class HaydesRowWriter(RowWriter):
    """One compact row of Escape from Haydes, written straight from a working position.

    It reads of the position only what the seat may know, the fields the observation
    is made of (never the generator, a stacked order or a face-down card), and writes
    the bytes :meth:`HaydesCompact.write` writes from ``game.observe(freeze(position),
    seat)``. Given the same position again, it rewrites the few bytes of the header,
    the seats and the aim, and of the rest only what changed since: the cells whose
    face-up card changed, the shown cells, and each of the mixes, overcome creatures,
    piles and unseen cards only when the rules replaced it (they replace these values
    rather than change them, but for the lists of a pool's unseen cards, which only
    ever lose cards). It writes in place when given the same ``bytearray`` and offset
    as last time, which must then hold the row it wrote (a batch's rows, which nobody
    else writes); given any other place, it writes the whole row there.

    Args:
        compact: the compact form.
        working: the :class:`~cardcrawl.haydes._working.HaydesWorking` of its game.
        seat: the observing player.
    """

    def __init__(self, compact: HaydesCompact, working: Any, seat: int) -> None:
        super().__init__(compact, working, seat)
        self._c = compact
        # The offsets every step writes at, read once (C ints in the compiled build).
        self._size: int = compact.size
        self._header: int = compact._header
        self._round: int = compact._round
        self._seats: int = compact._seats
        self._aim: int = compact._aim
        self._card: int = compact._card
        self._source: int = compact._source
        self._counts_at: int = compact._counts
        self._unseen_at: int = compact._unseen
        self._n = len(compact._cells)
        self._p: int = compact._players
        self._shown_at: int = compact._shown
        self._overcome_at: int = compact._overcome
        self._piles_at: int = compact._piles
        # Zeros to clear parts of a row with (a bytearray: copied in without a conversion).
        self._zero = bytearray(compact.size)
        self._row = bytearray(compact.size)
        self._out: Any = None  # where the last row went, and at which offset
        self._offset = -1
        self._pos: Any = None  # the position written last, and what it held then:
        self._up_cells: list[int] = []  # the cells written face up
        self._faces = bytearray([DOWN]) * self._n  # and their cards, by cell
        self._shown: list[int] = []
        self._pools: Any = None
        self._mixes: Any = None
        self._overcome: Any = None
        self._discard: Any = None
        self._discard_len = -1
        self._piled = 0  # cards in the discard and removed piles
        self._taken: list[int] = []  # the pool and card of each card turned this step
        self._removed: Any = None
        self._unseen: Any = None  # the list of pools, or the beliefs
        self._pool_cards: list[Any] = []
        self._pool_lens: list[int] = []
        self._mixed: Any = None

    def write_position(self, position: Any, out: bytearray | memoryview, offset: int = 0) -> None:
        """Write what the seat may know of ``position`` into ``out`` at ``offset``.

        Raises:
            EncodingError: the position needs more pools, beliefs, mixes or known
                cards than the row has room for (the message names the bound).
        """
        if type(out) is bytearray:
            # The row is written where it lies, and only what changed since the last
            # one, when that went to the same place: a batch's rows are its own, which
            # nobody else writes. Anywhere else, the whole row is written anew.
            if out is not self._out or offset != self._offset:
                self._pos = None
                self._out, self._offset = out, offset
            self._write(position, out, offset)
        else:
            # A memoryview, say: the row is kept whole here, and copied out.
            if self._out is not None:
                self._pos = None
                self._out, self._offset = None, -1
            self._write(position, self._row, 0)
            out[offset : offset + self._size] = self._row

    def _write(self, pos: Any, out: bytearray, o: int) -> None:
        """The row of ``pos`` into ``out`` at ``o``, where the last row (of
        ``self._pos``) lies."""
        if pos is not self._pos:
            out[o : o + self._size] = self._zero
            self._forget()
            self._pos = pos
        self._bounds(pos)
        _write_small(
            out,
            pos,
            self.seat,
            self._p,
            o + self._header,
            o + self._round,
            o + self._seats,
            o + self._aim,
        )
        self._write_cells(pos, out, o)
        self._piled = len(pos.discard) + len(pos.removed)
        if pos.mixes is not self._mixes:
            self._write_mixes(pos, out, o)
        overcome = pos.overcome
        if overcome is not self._overcome:
            start = o + self._overcome_at
            if self._overcome is not None:  # else a new row, all zeros
                out[start : start + self._n] = self._zero[: self._n]
            index = self._c._cell_index
            for cell in overcome:
                out[start + index[cell]] = 1
            self._overcome = overcome
        discard, removed = pos.discard, pos.removed
        if (
            discard is not self._discard
            or len(discard) != self._discard_len
            or (removed is not self._removed)
        ):
            self._write_piles(pos, out, o)
        self._write_unseen(pos, out, o)

    def _forget(self) -> None:
        self._up_cells = []
        self._faces = bytearray([DOWN]) * self._n
        self._shown = []
        self._pools = self._mixes = self._overcome = self._discard = None
        self._removed = self._unseen = self._mixed = None
        self._discard_len = -1
        self._piled = 0
        self._taken = []
        self._pool_cards = []
        self._pool_lens = []

    def _bounds(self, pos: Any) -> None:
        c = self._c
        unseen = pos._unseen
        mixes = pos.mixes
        # Checked again only when what they count was replaced since the last row.
        if (unseen if unseen is not None else pos._beliefs) is self._unseen and (
            mixes is self._mixes
        ):
            pass
        elif (
            (len(unseen) if unseen is not None else len(pos._beliefs[0].unseen)) > c.pools
            or (1 if unseen is not None else len(pos._beliefs)) > c.beliefs
            or len(mixes) > c.mixes
            or (mixes and max([len(m.known) for m in mixes]) > c.known)
        ):
            # The state's observation names the bound, as write does.
            self._c._check_bounds(self.compact.game.observe(self.working.freeze(pos), self.seat))
            raise EncodingError("this position needs more room than the compact row has")
        if not 0 <= pos.round < 2**32 or not 0 <= pos.replacement_left <= 255:
            raise EncodingError("the round or the Replacement deck's count is out of range")
        piled = len(pos.discard) + len(pos.removed)
        if piled != self._piled and piled > c._card_room - 2:
            raise EncodingError(
                f"the discard pile and the removed cards hold {c._card_room - 2} cards "
                f"at most, not {piled}"
            )

    def _write_cells(self, pos: Any, out: bytearray, o: int) -> None:
        """The cards face up, the pools of the face-down cards, the shown cells."""
        card, source = o + self._card, o + self._source
        # The card on each cell, as an index (DOWN where face down), and the face-up
        # cells: the Black Joker's (``_unshown``), then ``shown`` (see Position).
        card_at = pos._card_at
        unshown, shown = pos._unshown, pos.shown
        pools = pos._pools
        taken: list[int] = []
        gone = 0
        for i in self._up_cells:
            if card_at[i] == DOWN:
                gone += 1
        # The cards that went to the piles at the end of a turn (H-12) are those of the
        # cells no longer face up, unless a cell was turned and replaced within the
        # step, face down before and after it, from another pool: then, or when the
        # pools were set anew (a first write, a deal, a mix resolved), every cell's
        # pool is written again.
        piled = len(pos.discard) + len(pos.removed) - self._piled
        faces = self._faces
        # The pools by cell are read in their parts (see Position).
        if pools is not self._pools or piled != gone:
            i = 0
            for part in pools:
                for pool in part:
                    out[source + i] = _source_of(pool)
                    out[card + i] = 0
                    faces[i] = DOWN
                    i += 1
            cells = []
            for up in (unshown, shown):
                for i in up:
                    k = card_at[i]
                    out[card + i] = k + 1
                    out[source + i] = 0
                    faces[i] = k
                    cells.append(i)
            self._pools = pools
            self._up_cells = cells
        else:
            cells = self._up_cells
            if gone:
                shift, mask = POOL_SHIFT, POOL_MASK
                for i in cells:
                    if card_at[i] == DOWN:  # turned face down: its pool is known
                        out[card + i] = 0
                        out[source + i] = _source_of(pools[i >> shift][i & mask])
                        faces[i] = DOWN
                cells = self._up_cells = [i for i in cells if card_at[i] != DOWN]
            for up in (unshown, shown):
                for i in up:
                    k = card_at[i]
                    if faces[i] == k:  # written already
                        continue
                    faces[i] = k
                    if out[card + i] != k + 1:
                        if out[card + i] == 0:
                            # Turned this step: its card left the pool it came from.
                            taken.append(out[source + i] - 2)
                            taken.append(k)
                            out[source + i] = 0
                            cells.append(i)
                        out[card + i] = k + 1
        self._taken = taken
        shown = pos.shown
        if shown != self._shown:
            at = o + self._shown_at
            for i in self._shown:
                out[at + i] = 0
            rank = 1
            for i in shown:
                out[at + i] = rank
                rank += 1
            self._shown = shown.copy()

    def _write_mixes(self, pos: Any, out: bytearray | memoryview, o: int) -> None:
        c, n = self._c, self._n
        mix, mix_rank, known = o + c._mix, o + c._mix_rank, o + c._known
        if self._mixes is not None:  # else a new row, all zeros
            out[mix : mix + n] = self._zero[:n]
            out[mix_rank : mix_rank + n] = self._zero[:n]
            room = c.mixes * c.known
            out[known : known + room] = self._zero[:room]
        index = c._cell_index
        for m, one in enumerate(pos.mixes):
            for rank, cell in enumerate(one.cells):
                i = index[cell]
                out[mix + i] = 1 + m
                out[mix_rank + i] = 1 + rank
            start = known + m * c.known
            for k, face in enumerate(one.known):
                out[start + k] = 1 + face.index
        self._mixes = pos.mixes

    def _write_piles(self, pos: Any, out: bytearray, o: int) -> None:
        at = o + self._piles_at
        discard, removed = pos.discard, pos.removed
        size = len(discard)
        start = 0
        if discard is self._discard and removed is self._removed and size > self._discard_len:
            # The same pile, more cards on it (the rules extend it in place): the new
            # ones, then the removed cards after them.
            start = self._discard_len
        elif self._discard is not None:  # else a new row, all zeros
            room = self._c._card_room
            out[at : at + room] = self._zero[:room]
        out[at] = size >> 8  # below 2**16 (see _bounds): two bytes, big-endian
        out[at + 1] = size & 255
        k = at + 2 + start
        for j in range(start, size):
            out[k] = 1 + discard[j].index
            k += 1
        for face in removed:
            out[k] = 1 + face.index
            k += 1
        self._discard, self._discard_len, self._removed = discard, size, removed

    def _write_unseen(self, pos: Any, out: bytearray | memoryview, o: int) -> None:
        """The counts, and each belief's weight, unseen cards and mix counts."""
        unseen = pos._unseen
        counts = o + self._counts_at
        out[counts + 1] = len(pos.mixes)
        if unseen is None:
            beliefs = pos._beliefs
            if beliefs is self._unseen:
                return
            self._clear_unseen(out, o)
            out[counts] = len(beliefs[0].unseen) if beliefs else 0
            out[counts + 2] = len(beliefs)
            for b, belief in enumerate(beliefs):
                if not 0 < belief.weight < 2 ** (8 * _WEIGHT_BYTES):
                    raise EncodingError(
                        f"a belief's weight is from 1 to 2**32 - 1, not {belief.weight}"
                    )
                self._write_belief(
                    out, o, b, belief.weight, [d.cards for d in belief.unseen], belief.mixed
                )
            self._unseen = beliefs
            return
        # A single belief, its pools kept as the position keeps them (see Unseen).
        if unseen is not self._unseen or len(unseen) != len(self._pool_cards):
            self._clear_unseen(out, o)
            out[counts] = len(unseen)
            out[counts + 2] = 1
            self._write_belief(out, o, 0, 1, [_cards(u) for u in unseen], pos._mixed)
            self._unseen = unseen
            self._pool_cards = list(unseen)
            self._pool_lens = [len(u) for u in unseen]
            self._mixed = pos._mixed
            return
        base = o + self._unseen_at
        kept, lens = self._pool_cards, self._pool_lens
        for q, cards in enumerate(unseen):
            size = len(cards)
            if cards is kept[q] and size == lens[q]:
                continue
            start = base + q * 54
            # A list of a pool's cards only ever loses the cards turned from it: those
            # of this step are counted out, if they are all that it lost.
            taken = self._taken
            out_of = [taken[j + 1] for j in range(0, len(taken), 2) if taken[j] == q]
            if cards is kept[q] and type(cards) is list and len(out_of) == lens[q] - size:
                for k in out_of:
                    out[start + k] -= 1
            else:
                out[start : start + 54] = _counts(_cards(cards))
            kept[q], lens[q] = cards, size
        if pos._mixed is not self._mixed:
            self._write_mixed(out, o, 0, pos._mixed)
            self._mixed = pos._mixed

    def _clear_unseen(self, out: bytearray | memoryview, o: int) -> None:
        if self._unseen is None:  # a new row, all zeros
            return
        c = self._c
        start, stop = o + c._weight, o + c._mixed + c.beliefs * c.mixes * c.pools
        out[start:stop] = self._zero[: stop - start]

    def _write_belief(
        self,
        out: bytearray | memoryview,
        o: int,
        b: int,
        weight: int,
        pools: list[Any],
        mixed: tuple[tuple[int, ...], ...],
    ) -> None:
        c = self._c
        at = o + c._weight + b * _WEIGHT_BYTES
        out[at : at + _WEIGHT_BYTES] = weight.to_bytes(_WEIGHT_BYTES, "big")
        base = o + c._unseen + b * c.pools * 54
        # The belief's counts are all zero here (a new row, or cleared just before).
        for q, cards in enumerate(pools):
            start = base + q * 54
            if type(cards) is list:
                for k in cards:
                    out[start + k] += 1
            else:
                out[start : start + 54] = _counts(cards)
        self._write_mixed(out, o, b, mixed)

    def _write_mixed(
        self, out: bytearray | memoryview, o: int, b: int, mixed: tuple[tuple[int, ...], ...]
    ) -> None:
        c = self._c
        base = o + c._mixed + b * c.mixes * c.pools
        room = c.mixes * c.pools
        out[base : base + room] = self._zero[:room]
        for m, counts in enumerate(mixed):
            start = base + m * c.pools
            out[start : start + len(counts)] = bytes(counts)


def _write_small(
    row: bytearray,
    pos: Any,
    player: int,
    p: int,
    header: int,
    round_: int,
    seats: int,
    aim: int,
) -> None:
    """The header, the round, the seats and the aim of ``pos`` (see
    :class:`HaydesCompact`), into ``row`` (the compiled build types this one)."""
    ending = pos.ending
    current, first, winner = pos.current, pos.first, pos.winner
    chosen = pos.chosen
    h = header
    row[h] = player
    row[h + 1] = _number_of(_PHASES, pos.phase)
    row[h + 2] = 0 if ending is None else 1 + _number_of(_ENDINGS, ending)
    row[h + 3] = 0 if current < 0 else 1 + (current - player) % p
    row[h + 4] = 0 if first < 0 else 1 + (first - player) % p
    row[h + 5] = 0 if winner is None else 1 + (winner - player) % p
    row[h + 6] = 0 if chosen is None else 1 + _number_of(_CHARACTERISTICS, chosen)
    row[h + 7] = pos.replacement_left
    r = pos.round  # below 2**32 (see _bounds): four bytes, big-endian
    row[round_] = r >> 24
    row[round_ + 1] = r >> 16 & 255
    row[round_ + 2] = r >> 8 & 255
    row[round_ + 3] = r & 255
    at, charisma, endurance = pos.at, pos.charisma, pos.endurance
    s = seats
    for slot in range(p):
        seat = (player + slot) % p
        row[s] = charisma[seat]
        row[s + 1] = endurance[seat]
        row[s + 2] = at[seat] + 1  # -1 once out: 0
        s += 3
    aimed = pos.aimed
    if aimed < 0:
        row[aim] = row[aim + 1] = row[aim + 2] = 0
    else:
        row[aim] = (aimed >> 3) + 1
        row[aim + 1] = aimed & 1
        row[aim + 2] = aimed >> 1 & 1


def _number_of(members: tuple[Any, ...], member: Any) -> int:
    """Where ``member`` is among ``members`` (enum members, found by identity)."""
    for k in range(len(members)):
        if members[k] is member:
            return k
    raise ValueError(f"{member!r} is not one of {members!r}")


def _source_of(pool: int) -> int:
    """The ``source`` byte of a ``pool_of`` entry: 0 face up, 1 in a mix, else 2 + the
    pool (as ``_TO_SOURCE`` translates them)."""
    if pool < 0:
        return 0 if pool == -1 else 1
    return pool + 2  # a pool is below MAX_POOLS


def _cards(unseen: Any) -> Any:
    """A pool's unseen cards (see :data:`cardcrawl.haydes._position.Unseen`), in no
    order: cards, or card indices."""
    if type(unseen) is Deck:
        return unseen.cards
    return unseen


_COUNTS: dict[int, tuple[Any, bytes]] = {}


def _counts(cards: Any) -> bytes:
    """Counts by card index of ``cards`` (cards or card indices); an immutable tuple's
    remembered while it lives."""
    if type(cards) is tuple:
        hit = _COUNTS.get(id(cards))
        if hit is not None and hit[0] is cards:
            return hit[1]
    counts = bytearray(54)
    tally = memoryview(counts)  # written at C indices in the compiled build
    if type(cards) is list:
        for k in cards:
            tally[k] += 1
    else:
        for face in cards:
            k = face.index
            tally[k] += 1
    result = bytes(counts)
    if type(cards) is tuple:
        if len(_COUNTS) >= _MEMO_SIZE:
            _COUNTS.clear()
        _COUNTS[id(cards)] = (cards, result)
    return result
