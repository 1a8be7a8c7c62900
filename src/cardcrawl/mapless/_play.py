"""The rules of The Mapless House, stated once, over a working position.

:class:`Rules` holds the hooks of one game, bound when the game is built (the stock
hooks or a variant's overrides), and its methods are the steps of the rulebook's
procedure over a :class:`~cardcrawl.mapless._position.Position`, changed in place:
``step`` runs them on a position thawed from a state, the rollout kernel on one
position for a whole game. ``ev`` is the list the events of a step go to, or ``None``
when nobody will read them (a rollout keeping only the outcome): the game is the same
either way. The comments cite the rulings (``M-x``) of the project's normative reading,
RULINGS.md.

The compiled build makes :class:`Rules` an extension type (``_play.pxd``) whose steps
call one another, and read the position's fields, as C. A hook the game overrides is
called as the game's method; a stock hook is one call of the rule function it states
itself with (``_rules``), which the rules make directly, as C in the compiled build.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.mapless._position import thaw
    >>> game = cardcrawl.load("mapless-house")
    >>> state = game.initial_state(seed=1, stack={"narrative": ["KS", "5C"]})
    >>> rules = Rules(game)
    >>> position = thaw(state)
    >>> rules.decide(position, (1, 0), None)  # place the K♠; the 5♣ is drawn next
    >>> rules.resolve(position, None)
    >>> position.phase.value, position.choices  # pulled next to the king (M-7)
    ('place', [(1, -1), (1, 1), (2, 0)])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from cardcrawl.errors import HookError
from cardcrawl.kit._cards import Card, Suit
from cardcrawl.mapless._actions import Action, Draw
from cardcrawl.mapless._events import (
    CardDrawn,
    CardPlaced,
    CardRefused,
    Consumed,
    DeckRanDry,
    Encounter,
    Escaped,
    ExitPlaced,
    ExitShuffledBack,
    LostInTheHouse,
    Moved,
    MoveSkipped,
    StalkerArrived,
    StalkerStepped,
    StalkerWaited,
    TurnStarted,
)
from cardcrawl.mapless._position import (
    Position,
    WorkingDeck,
    WorkingGrid,
    close,
    put_card,
    reopen,
)
from cardcrawl.mapless._rules import (
    black_suit_exhausted,
    club_arrival,
    corridor_cells,
    encounter_threshold,
    encounter_total,
    exit_candidates,
    move_cells,
    newly_closed,
    room_cells,
    stalker_target,
)
from cardcrawl.mapless._state import CLUB_STALKER, EXIT, SPADE_STALKER, Ending, Phase

__all__ = ["Rules"]

Cell = tuple[int, int]
# A step's log of its events: the events, and for those made anew at almost every step a
# tuple of the event's class and values, made into the event only if it is read (see
# cardcrawl.core._engine.events_of_log).
Events = list[Any]

# Enum members as module constants: in Python 3.11 ``Phase.DRAW`` is a descriptor call,
# several times slower than reading a global, and the rules name phases constantly.
_DRAW, _PLACE, _PLACE_EXIT, _MOVE = Phase.DRAW, Phase.PLACE, Phase.PLACE_EXIT, Phase.MOVE
_DRAW_MIND, _DRAW_BODY, _OVER = Phase.DRAW_MIND, Phase.DRAW_BODY, Phase.OVER
_ESCAPED, _CONSUMED, _LOST = Ending.ESCAPED, Ending.CONSUMED, Ending.LOST
_EXIT_INDEX = EXIT.index
# Events that depend on the card only are made once, and so are the most common ones
# with one small number or nothing at all.
_CARDS_DRAWN = tuple(CardDrawn(Card(i)) for i in range(52))
_SHUFFLED_BACK = ExitShuffledBack()
_TURNS = 256
_TURNS_STARTED = tuple(TurnStarted(turn) for turn in range(_TURNS))
# Looked up by card index in every Encounter: which Aside pile a card goes to.
_IS_HEART = tuple(Card(i).suit is Suit.HEARTS for i in range(52))
_IS_DIAMOND = tuple(Card(i).suit is Suit.DIAMONDS for i in range(52))


class Rules:
    """The rule steps of one game of The Mapless House, its hooks bound.

    Made by the game when it is built, and again when one of its hooks is set on the
    instance (see ``MaplessHouse._bind_hooks``): a hook of a card alone is read from the
    game's tables of answers (``_values``, ``_corridor``, ``_room``), every other hook
    is the game's bound method, called with the working position. A hook that is the
    stock game's own (``MaplessHouse._stock_hooks``; a flag ``stock_...`` here) is one
    call of a rule function of ``_rules`` over the position's fields: the rules make
    that call themselves, with no method between.
    """

    __slots__ = (
        "club_arrival",
        "corridor",
        "corridor_cells",
        "encounter_threshold",
        "encounter_total",
        "exit_cells",
        "exit_may_open",
        "game",
        "max_turns",
        "move_cells",
        "placement_cells",
        "room",
        "room_cells",
        "score",
        "stalker_step",
        "stock_arrival",
        "stock_corridor",
        "stock_exits",
        "stock_may_open",
        "stock_moves",
        "stock_placement",
        "stock_room",
        "stock_step",
        "stock_threshold",
        "stock_total",
        "values",
    )

    game: Any
    corridor: tuple[bool, ...]
    room: tuple[bool, ...]
    max_turns: int | None
    values: tuple[int, ...]
    placement_cells: Callable[[Any, Card], list[Cell]]
    corridor_cells: Callable[[Any], list[Cell]]
    room_cells: Callable[[Any], list[Cell]]
    exit_may_open: Callable[[Any], bool]
    exit_cells: Callable[[Any], list[Cell]]
    move_cells: Callable[[Any], list[Cell]]
    encounter_threshold: Callable[[Any], int]
    encounter_total: Callable[[Any, tuple[Card, ...]], int]
    stalker_step: Callable[[Any, Card, Cell], Cell]
    club_arrival: Callable[[Any], Cell | None]
    score: Callable[[Any], int]
    stock_placement: bool
    stock_corridor: bool
    stock_room: bool
    stock_moves: bool
    stock_threshold: bool
    stock_total: bool
    stock_step: bool
    stock_arrival: bool
    stock_may_open: bool
    stock_exits: bool

    def __init__(self, game: Any) -> None:
        self.game = game
        self.corridor = game._corridor
        self.room = game._room
        self.max_turns = game.options.max_turns
        self.values = game._values
        # The hooks that read a state are given the working position (see _position):
        # to mypy, something that answers as a state does.
        self.placement_cells = game.placement_cells
        self.corridor_cells = game.corridor_cells
        self.room_cells = game.room_cells
        self.exit_may_open = game.exit_may_open
        self.exit_cells = game.exit_cells
        self.move_cells = game.move_cells
        self.encounter_threshold = game.encounter_threshold
        self.encounter_total = game.encounter_total
        self.stalker_step = game.stalker_step
        self.club_arrival = game.club_arrival
        self.score = game.score
        stock = game._stock_hooks()
        self.stock_placement = "placement_cells" in stock
        self.stock_corridor = "corridor_cells" in stock
        self.stock_room = "room_cells" in stock
        self.stock_moves = "move_cells" in stock
        self.stock_threshold = "encounter_threshold" in stock
        self.stock_total = "encounter_total" in stock
        self.stock_step = "stalker_step" in stock
        self.stock_arrival = "club_arrival" in stock
        self.stock_may_open = "exit_may_open" in stock
        self.stock_exits = "exit_cells" in stock

    def decision_cells(self, view: Any) -> list[Cell]:
        """The cells of the decision a state or position waits on, as the hooks give them."""
        phase = view.phase
        if phase is _MOVE:
            if self.stock_moves:
                return move_cells(view.table, view.player)
            return self.move_cells(view)
        if phase is _PLACE:
            assert view.drawn is not None
            if self.stock_placement:
                return self.placement(view, view.drawn)
            return self.placement_cells(view, view.drawn)
        if phase is _PLACE_EXIT:
            return self.exit_cells(view)
        return []

    def placement(self, view: Any, card: Card) -> list[Cell]:
        """Where ``card`` may go in a state or position, as the stock ``placement_cells``
        says (M-4, M-5): a corridor where the ``corridor_cells`` hook says, any other
        card where ``room_cells`` says."""
        return self.placement_at(view, card.index, view.table, view.closed, view.last_room)

    def placement_at(
        self, view: Any, index: int, table: Any, closed: AbstractSet[Cell], last_room: Cell | None
    ) -> list[Cell]:
        """:meth:`placement`, given the card's index and the fields of ``view`` that the
        stock hooks read (a position's, which the compiled rules read as C)."""
        if self.corridor[index]:
            if self.stock_corridor:
                return corridor_cells(table, closed, last_room)
            return self.corridor_cells(view)
        if self.stock_room:
            return room_cells(table, closed)
        return self.room_cells(view)

    def act(self, p: Position, action: Action, ev: Events | None) -> None:
        """A legal decision, or at a chance event one of its outcomes."""
        if isinstance(action, Draw):
            card = action.card
            p.choices = None
            p.drawing().take(card)
            self.drawn(p, card, ev)
        else:
            self.decide(p, action.cell, ev)

    def decide(self, p: Position, cell: Cell, ev: Events | None) -> None:
        """The decision the position waits on, by its cell: one of ``p.choices``."""
        phase = p.phase
        choices = p.choices
        p.choices = None
        if phase is _PLACE:
            self.place(p, cell, ev)
        elif phase is _MOVE:
            self.move(p, cell, ev)
        else:
            # M-11: the player's choice among the candidates, which the rules asked the
            # hook for when the Exit was drawn (a thawed state asks again).
            if choices is None:
                choices = self.exit_cells(p)
            self.open_exit(p, cell, choices, ev)

    def resolve(self, p: Position, ev: Events | None) -> None:
        """Play the chance events that follow: every one in sampled play, with the
        position's generator (as ``Deck.draw`` draws); in explicit-chance play only
        those with a single outcome, stopping at the first with several."""
        while True:
            phase = p.phase
            if phase is not _DRAW and phase is not _DRAW_MIND and phase is not _DRAW_BODY:
                return
            deck = p.drawing()
            if p.explicit_chance:
                outcomes = self.outcomes(p, deck)
                if len(outcomes) != 1:
                    return
                card = outcomes[0][0]
                deck.take(card)
            else:
                # Sampled play may draw the ♥A while the Exit may not open (M-10): the
                # rules shuffle it back, narrate it and draw again, so what comes out
                # is distributed exactly as the outcomes of explicit play say.
                card = deck.draw(p)
            self.drawn(p, card, ev)

    def outcomes(self, p: Position, deck: WorkingDeck) -> tuple[tuple[Card, int], ...]:
        """What the chance draw from ``deck`` can bring, each card with its weight."""
        outcomes = deck.outcomes()
        # M-10 folded: while the Exit may not open, drawing the ♥A only shuffles it back
        # and draws again, so what the draw brings is one of the other cards, each as
        # likely. Listing the ♥A would make the chance tree loop forever.
        if p.phase is not _DRAW or len(outcomes) <= 1:
            return outcomes
        others = [(c, w) for c, w in outcomes if c.index != _EXIT_INDEX]
        if len(others) < len(outcomes):
            # exit_may_open is asked as it is when the ♥A has just been drawn.
            rest = [c for c in deck.rest if c.index != _EXIT_INDEX]
            p.narrative = WorkingDeck(list(deck.stacked), rest, None)
            try:
                may_open = self.exit_may_open(p)
            finally:
                p.narrative = deck
            if not may_open:
                outcomes = tuple(others)
        return outcomes

    def drawn(self, p: Position, card: Card, ev: Events | None) -> None:
        """``card`` was drawn from the deck the position waits on, and taken from it."""
        phase = p.phase
        if phase is _DRAW_MIND:
            p.mind_card = card
            self.enter_body_draw(p, ev)
            return
        if phase is not _DRAW:
            self.encounter(p, card, ev)
            return
        # A Narrative card (M-8 to M-11): the most common draw, handled here rather
        # than in a method of its own, which would cost a call at every draw.
        index = card.index
        if ev is not None:
            ev.append(_CARDS_DRAWN[index])
        if index == _EXIT_INDEX:
            if self.stock_may_open:
                may_open = black_suit_exhausted(p.narrative)
            else:
                may_open = self.exit_may_open(p)
            if not may_open:
                # M-10: too early; back into the deck, and the next draw is chance again.
                if ev is not None:
                    ev.append(_SHUFFLED_BACK)
                p.drawing().shuffle_in(EXIT)
                return
            candidates = exit_candidates(p.table) if self.stock_exits else self.exit_cells(p)
            if not candidates:
                raise HookError(
                    f"{type(self.game).__name__}.exit_cells returned no cell: the Exit must "
                    "open somewhere once it may (M-11); return at least one empty cell"
                )
            p.drawn = EXIT
            if len(candidates) == 1:
                self.open_exit(p, candidates[0], candidates, ev)
            else:
                p.phase = _PLACE_EXIT  # M-11: the player breaks the tie
                p.choices = candidates
            return
        if self.stock_placement:
            cells = self.placement_at(p, index, p.table, p.closed_set, p.last_room)
        else:
            cells = self.placement_cells(p, card)
        if not cells:
            if ev is not None:
                ev.append(CardRefused(card))  # M-8
            p.refused += (card,)
            self.after_narrative(p, ev)
            return
        # M-8: a decision even when only one cell is legal.
        p.drawn = card
        p.phase = _PLACE
        p.choices = cells

    def place(self, p: Position, cell: Cell, ev: Events | None) -> None:
        card = p.drawn
        assert card is not None
        table = p.table
        if type(table) is not WorkingGrid:
            table = p.working_table()
        index = card.index
        put_card(table, cell, card, index)
        if ev is not None:
            ev.append((CardPlaced, card, cell, self.game._dread_lines[index]))
        closing = newly_closed(table, cell, self.corridor)  # M-6
        if closing:  # most placements close nothing
            close(p, closing)
        if self.room[index]:
            p.last_room = cell  # M-7
        p.drawn = None
        self.after_narrative(p, ev)

    def after_narrative(self, p: Position, ev: Events | None) -> None:
        """The drawn card is dealt with: go on to what follows."""
        if p.exit_cell is None:
            p.phase = _DRAW  # M-9: phase one draws again
        else:
            self.move_step(p, ev)  # M-12: step 2 follows

    def open_exit(
        self, p: Position, cell: Cell, candidates: Sequence[Cell], ev: Events | None
    ) -> None:
        table = p.working_table()
        put_card(table, cell, EXIT, _EXIT_INDEX)
        if ev is not None:
            ev.append(ExitPlaced(cell, tuple(candidates), self.game._dread_lines[_EXIT_INDEX]))
        # The Exit may lie on a closed cell, which it reopens; it may close others (M-6).
        reopen(p, cell)
        closing = newly_closed(table, cell, self.corridor)
        if closing:
            close(p, closing)
        p.drawn = None
        # M-11: the ♠A waits on the Exit; M-12: the hunt opens with a lone Move.
        p.exit_cell = p.spade = cell
        p.phase = _MOVE
        if self.stock_moves:
            p.choices = move_cells(p.table, p.player)
        else:
            p.choices = self.move_cells(p)

    # ------------------------------------------------------------- hunt
    def begin_turn(self, p: Position, ev: Events | None) -> None:
        turn = p.turn = p.turn + 1
        if ev is not None:
            ev.append(_TURNS_STARTED[turn] if turn < _TURNS else TurnStarted(turn))
        if p.narrative:
            p.phase = _DRAW  # M-13: Expand
        else:
            self.move_step(p, ev)  # M-13: no draw

    def move_step(self, p: Position, ev: Events | None) -> None:
        if p.held:
            if ev is not None:
                ev.append(MoveSkipped(p.player))  # M-16
            self.enter_mind_draw(p, ev)
        else:
            p.phase = _MOVE
            if self.stock_moves:
                p.choices = move_cells(p.table, p.player)
            else:
                p.choices = self.move_cells(p)

    def move(self, p: Position, cell: Cell, ev: Events | None) -> None:
        if ev is not None:
            ev.append((Moved, p.player, cell))
        p.player = cell
        # M-14, M-20: walking into a Stalker is fatal; the Exit is only safe when empty.
        if cell == p.spade:
            self.finish(p, _CONSUMED, ev, SPADE_STALKER)
        elif cell == p.club:
            self.finish(p, _CONSUMED, ev, CLUB_STALKER)
        elif cell == p.exit_cell:
            self.finish(p, _ESCAPED, ev, None)
        elif p.turn == 0:
            self.begin_turn(p, ev)  # M-12: a lone opening Move
        else:
            self.enter_mind_draw(p, ev)

    def enter_mind_draw(self, p: Position, ev: Events | None) -> None:
        if not self.enter_draw(p, True, ev):
            p.mind_card = None  # M-17: 0
            self.enter_body_draw(p, ev)

    def enter_body_draw(self, p: Position, ev: Events | None) -> None:
        if not self.enter_draw(p, False, ev):
            self.encounter(p, None, ev)  # M-17: 0

    def enter_draw(self, p: Position, mind: bool, ev: Events | None) -> bool:
        """Wait for a draw from the Mind deck (``mind``) or the Body deck; False if it
        has no card.

        M-17: an empty deck takes its shuffled Aside pile; an empty pile gives no card.
        """
        if mind:
            p.phase = _DRAW_MIND
            deck = p.mind
        else:
            p.phase = _DRAW_BODY
            deck = p.body
        if deck:
            return True
        aside = p.mind_aside if mind else p.body_aside
        if ev is not None:
            ev.append(DeckRanDry("Mind" if mind else "Body", len(aside)))
        refilled = WorkingDeck.shuffled(aside)
        if mind:
            p.mind = refilled
            p.mind_aside = ()
        else:
            p.body = refilled
            p.body_aside = ()
        p.ran_dry = True
        return bool(refilled)

    def encounter(self, p: Position, body_card: Card | None, ev: Events | None) -> None:
        # M-15: the turned cards plus every card already holding the player.
        mind_card, holding = p.mind_card, p.held
        turned: tuple[Card, ...]
        if mind_card is None:
            turned = () if body_card is None else (body_card,)
        else:
            turned = (mind_card,) if body_card is None else (mind_card, body_card)
        involved = holding + turned if holding else turned
        if self.stock_total:
            total = encounter_total(self.values, involved)
        else:
            total = self.encounter_total(p, involved)
        if self.stock_threshold:
            threshold = encounter_threshold(self.values, p.table, p.player)
        else:
            threshold = self.encounter_threshold(p)
        held = total < threshold
        if ev is not None:
            ev.append((Encounter, mind_card, body_card, holding, total, threshold, held))
        p.mind_card = None
        if held:
            p.held = involved  # M-16
        else:
            p.held = ()
            # Each card to its Aside pile by suit.
            for card in involved:
                index = card.index
                if _IS_HEART[index]:
                    p.mind_aside += (card,)
                elif _IS_DIAMOND[index]:
                    p.body_aside += (card,)
        self.stalkers(p, ev)

    def stalkers(self, p: Position, ev: Events | None) -> None:
        # M-18: each Stalker on the table steps, the ♠A first.
        player = p.player
        spade = p.spade
        if spade is not None:
            if self.stock_step:
                target = stalker_target(
                    SPADE_STALKER, spade, player, p.spade_left_exit, p.exit_cell
                )  # M-19 inside
            else:
                target = self.stalker_step(p, SPADE_STALKER, spade)
            if target == spade:
                if ev is not None:
                    ev.append(StalkerWaited(SPADE_STALKER, spade))
            else:
                if ev is not None:
                    ev.append((StalkerStepped, SPADE_STALKER, spade, target))
                p.spade = target
                p.spade_left_exit = True
            if target == player:
                self.finish(p, _CONSUMED, ev, SPADE_STALKER)
                return
        club = p.club
        if club is not None:
            if self.stock_step:
                target = stalker_target(CLUB_STALKER, club, player, p.spade_left_exit, p.exit_cell)
            else:
                target = self.stalker_step(p, CLUB_STALKER, club)
            if target == club:  # never in the standard rules: the ♣A always closes in
                if ev is not None:
                    ev.append(StalkerWaited(CLUB_STALKER, club))
            else:
                if ev is not None:
                    ev.append((StalkerStepped, CLUB_STALKER, club, target))
                p.club = target
            if target == player:
                self.finish(p, _CONSUMED, ev, CLUB_STALKER)
                return
        else:
            # M-17: the ♣A arrives at the end of the turn the first deck ran dry.
            arrival = club_arrival(p.ran_dry) if self.stock_arrival else self.club_arrival(p)
            if arrival is not None:
                if ev is not None:
                    ev.append(StalkerArrived(CLUB_STALKER, arrival))
                p.club = arrival
                if arrival == player:
                    self.finish(p, _CONSUMED, ev, CLUB_STALKER)
                    return
        limit = self.max_turns
        if limit is not None and p.turn >= limit:
            self.finish(p, _LOST, ev, None)  # M-22
        else:
            self.begin_turn(p, ev)

    def finish(self, p: Position, ending: Ending, ev: Events | None, stalker: Card | None) -> None:
        if ev is not None:
            score = self.score(p)  # M-21
            if ending is _ESCAPED:
                ev.append(Escaped(p.player, score))
            elif ending is _CONSUMED:
                assert stalker is not None
                ev.append(Consumed(stalker, p.player, score))
            else:
                ev.append(LostInTheHouse(p.turn, score))
        p.ending = ending
        p.phase = _OVER
        p.choices = None
