"""Escape from Haydes: 1-4 players guess higher or lower across face-down cards, meet the
creatures of Haydes, and look for the Red Joker, the way out.

Load it with ``cardcrawl.load("escape-from-haydes")`` (variants:
``"escape-from-haydes-solo-timer"``, ``"escape-from-haydes-tuybe"``,
``"escape-from-haydes-denizens"``). Everything public about the game is importable from
here; the rules follow rulings H-1 to H-13 of the project's RULINGS.md.

**Chance, and why it is exact.** Every chance event goes through the core's one
mechanism (sampled by the state's generator, or listed with exact probabilities in
explicit-chance play): the first player (H-5), each card turned, and each 2D6 roll.
Dealing needs no chance event of its own, because the deal is *lazy*: a shuffled deck
dealt face down puts, given everything seen so far, every unseen card of that deck
equally likely under every unturned cell. So a face-down cell keeps only the pool its
card came from (the Build deck at setup; the Replacement deck, one pool per shuffle of
the discard pile, at end of turn), and its card is drawn when it is turned, uniformly
from the pool's unseen cards. When a Red Joker move fails (H-10) the joker goes back
among the new cards dealt that turn: those cells become a *mix* whose parts (the joker,
and how many cards of which pool) are public and whose order is not; turning one of its
cells picks a part in proportion to its count. Shuffling the discard pile into a new
Replacement deck needs no event either: its randomness is spent as its cards are turned.

Hence the state holds nothing the players do not know, apart from its generator and any
stacked (forced) outcomes; :meth:`~EscapeFromHaydes.observe` shows it all without those,
and :meth:`~EscapeFromHaydes.determinize` is the exact posterior by construction (forget
the stacks, take a new generator). One rare case needs care, and is kept exact: if the
Replacement deck runs out while a Red Joker turn's new cards are dealt, its mix holds
cards of two pools, and a card turned there may have come from either; the state then
carries a weighted mixture of *beliefs* about how the unseen cards split between pools.

**Card conservation.** :meth:`~EscapeFromHaydes.card_census` accounts for all 210 cards
(the 209 of the Build and Replacement decks, and the Black Joker) in four places: face
up, unseen (as the pools' multisets, plus the joker in its mix), discard and removed.

**Running out of cards (H-12).** When a card is needed and the Replacement deck and the
discard pile are both empty, the cell's old card is turned face down where it lies, a
card everyone knows. Since discarding comes before dealing, that card is either one
removed from the game this turn (an overcome creature's), which is turned face down; or
it went to the discard pile, which was then shuffled into a new Replacement deck and
dealt out in this very deal, so it already lies face down on another cell. In that case
the card turned face down is one removed from the game this turn from a cell that did
get a new card, the first in dealing order. There is always one: a deal of ``n`` cells
whose ``g`` old cards leave the game can deal ``L + D + n - g`` cards (``L`` left in the
Replacement deck, ``D`` in the discard pile before the turn), so at most ``g`` cells
starve, and each starved cell whose own card was discarded pairs with a removed card
whose cell was dealt to. None of this can happen with the card counts the options allow:
at any deal, the cards off the table and not removed number at least 28 per pair of
decks more than the cells waiting, since only court cards (24 per pair) ever leave the
game; it is kept exact for states built or loaded otherwise.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.haydes import Ending
    >>> game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=30)
    >>> state = game.initial_state(seed=11)
    >>> while not game.is_terminal(state):
    ...     state = game.step(state, game.legal_actions(state)[0])
    >>> state.ending in set(Ending)
    True
"""

from typing import TYPE_CHECKING

from cardcrawl.core._deprecation import moved_names
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
    parse_action,
)
from cardcrawl.haydes._bots import HaydesHeuristicBot, haydes_state_from_observation
from cardcrawl.haydes._creatures import (
    CREATURE_TABLES,
    DENIZENS,
    STANDARD_CREATURES,
    Characteristic,
    Creature,
    creature_for,
)
from cardcrawl.haydes._encoding import HaydesEncoding
from cardcrawl.haydes._events import (
    AllTrapped,
    AlmostThere,
    Announced,
    CardsReplaced,
    EncounterBegan,
    Escaped,
    FirstPlayerDrawn,
    HaydesEvent,
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
from cardcrawl.haydes._game import RULES_VERSION, EscapeFromHaydes
from cardcrawl.haydes._render import render
from cardcrawl.haydes._rules import (
    card_value,
    guess_is_correct,
    is_court,
    is_escape,
    next_seat,
)
from cardcrawl.haydes._state import (
    ALLOWED_SPLITS,
    BLACK_JOKER_CELL,
    Belief,
    Ending,
    Figure,
    HaydesObservation,
    HaydesOptions,
    HaydesState,
    Mix,
    Phase,
    standard_layout,
)
from cardcrawl.haydes._svg import render_svg

__all__ = [
    "ALLOWED_SPLITS",
    "BLACK_JOKER_CELL",
    "CREATURE_TABLES",
    "DENIZENS",
    "RULES_VERSION",
    "STANDARD_CREATURES",
    "Action",
    "AllTrapped",
    "AlmostThere",
    "Announced",
    "Belief",
    "CardsReplaced",
    "Characteristic",
    "Choose",
    "Creature",
    "EncounterBegan",
    "EndTurn",
    "Ending",
    "EscapeFromHaydes",
    "Escaped",
    "Figure",
    "FirstPlayer",
    "FirstPlayerDrawn",
    "Guess",
    "HaydesEncoding",
    "HaydesEvent",
    "HaydesHeuristicBot",
    "HaydesObservation",
    "HaydesOptions",
    "HaydesState",
    "Held",
    "JokerShuffledIn",
    "Lowered",
    "Mix",
    "Move",
    "Moved",
    "Overcame",
    "Phase",
    "Released",
    "ReplacementReshuffled",
    "Reveal",
    "Revealed",
    "Roll",
    "Rolled",
    "Step",
    "TimeUp",
    "Trapped",
    "TurnEnded",
    "TurnStarted",
    "TurnedFaceDown",
    "Tuybe",
    "card_value",
    "creature_for",
    "guess_is_correct",
    "haydes_state_from_observation",
    "is_court",
    "is_escape",
    "next_seat",
    "parse_action",
    "render",
    "render_svg",
    "standard_layout",
]

# The names this package no longer promises, each with where it lives now: they still
# answer, with a DeprecationWarning, for one release. Type checkers are not shown this
# __getattr__: with it, they would accept any name of the package.
if not TYPE_CHECKING:
    __getattr__ = moved_names(
        __name__,
        {
            "ROLL_WEIGHTS": "cardcrawl.haydes._rules",
            "Aim": "cardcrawl.haydes._state",
            "TurnBegan": "cardcrawl.haydes:TurnStarted",
        },
    )
