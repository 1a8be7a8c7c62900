"""H-12 when the piles run out: the Replacement deck and the discard pile both empty.

With the card counts the options allow, a deal can never run out of cards (see the
package docstring of :mod:`cardcrawl.haydes`), so these tests build the starved
positions by hand: the cards off the table are set aside as if removed from the game,
and the result is checked to be a consistent, loadable state before the turn ends.

The case once crashed the deal (``assert old in removed``): the discard pile, this
turn's discards included, is shuffled into a new Replacement deck and dealt out, and a
later cell then finds both piles empty while its own old card, discarded, has already
been dealt onto an earlier cell. H-12 turns "the old card" face down where it lies; when
that card is gone into play again, a card removed from the game this turn is turned face
down instead (see ``EscapeFromHaydes._deal``).

The last test checks the game's fused step of sampled play against the engine's step,
on whole games in which the deck runs out and is reshuffled as well.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import Card, Deck, rng_below, rng_derive
from cardcrawl.haydes import (
    Belief,
    EscapeFromHaydes,
    HaydesState,
    Mix,
    Phase,
    ReplacementReshuffled,
    TurnedFaceDown,
    TurnEnded,
    TurnStarted,
)
from cardcrawl.testing import check_state

KS, FIVE = Card.parse("KS"), Card.parse("5S")


def load(**options: Any) -> EscapeFromHaydes:
    game: EscapeFromHaydes = cardcrawl.load("escape-from-haydes", **options)
    return game


def run(game: EscapeFromHaydes, state: HaydesState, *texts: str) -> HaydesState:
    """Step through each action or chance outcome given as text; check every state."""
    for text in texts:
        state = game.step(state, game.parse_action(text))
        check_state(game, state, text)
    return state


def starve(state: HaydesState, keep: Counter[Card] | None = None) -> HaydesState:
    """The same position with an empty Replacement deck and an empty discard pile: the
    last pool keeps only the cards under its face-down cells (``keep``'s, if given, else
    its first ones), and every other card off the table is set aside as removed."""
    belief = state.beliefs[0]
    last = len(belief.unseen) - 1
    cells = state.pool_of.count(last) + sum(row[last] for row in belief.mixed)
    cards = list(belief.unseen[last].cards)
    kept = list((keep or Counter()).elements())
    for card in kept:
        cards.remove(card)
    more = cells - len(kept)
    kept += cards[:more]
    del cards[:more]
    assert len(kept) == cells
    unseen = (*belief.unseen[:last], Deck.of(kept))
    return attrs.evolve(
        state,
        beliefs=(Belief(1, unseen, belief.mixed),),
        replacement_left=0,
        discard=(),
        removed=(*state.removed, *state.discard, *cards),
    )


def test_a_reshuffled_discard_runs_out_within_one_deal() -> None:
    """H-12: the old crash. Two cells are replaced: (1,-3), whose overcome creature's
    card leaves the game, and (2,-3), whose 5S is discarded. The discard pile (the 2C
    and the 5S) becomes the new Replacement deck and is dealt to (0,-3) and (1,-3); the
    5S is then no longer anywhere to be turned face down at (2,-3), so the KS removed
    from (1,-3) this turn is."""
    game = load()
    state = game.initial_state(
        0, explicit_chance=True, stack={"build": "3C 4C 2C KS 5S 9S", "rolls": [2]}
    )
    # Turn 1: two correct guesses and a wrong one; (0,-1) and (0,-2) are dealt anew.
    state = run(game, state, "higher 0,-1", "higher 0,-2", "higher 0,-3")
    assert state.pool_of.count(1) == 2
    # Turn 2: overcome the KS, then two correct guesses, and the piles are starved: the
    # Replacement deck's only cards left are the two 5S under (0,-1) and (0,-2), so no
    # 5S is among the cards set aside as removed.
    # (A stacked roll is certain: it is applied at once, with no outcome to give.)
    state = run(game, state, "higher 1,-3", "charisma", "lower 2,-3", "higher 3,-3")
    state = starve(state, keep=Counter([FIVE, FIVE]))
    assert FIVE not in state.removed
    set_aside = state.removed.count(KS)  # the Replacement deck's copies
    game.state_from_data(game.state_to_data(state))  # a consistent state
    state = run(game, state, "end")

    assert ReplacementReshuffled(2) in state.events
    assert TurnedFaceDown((2, -3), KS) in state.events
    assert state.mixes == (Mix(((2, -3),), (KS,)),)
    assert state.removed.count(KS) == set_aside  # the one removed this turn is back
    for cell in ((0, -3), (1, -3), (2, -3)):
        assert state.card_at(cell) is None  # every replaced cell holds a face-down card
    assert game.state_from_data(game.state_to_data(state)) == state
    # Everyone knows what lies at (2,-3): turned, it is the KS, a creature again.
    state = run(game, state, "higher 2,-3")
    assert state.phase is Phase.ENCOUNTER
    assert state.card_at((2, -3)) == KS
    assert state.mixes == ()


def test_the_own_removed_card_goes_back_where_it_lies() -> None:
    """H-12: a starved cell whose old card was removed from the game this turn gets that
    very card back, face down, even when an earlier cell's removed card is spare."""
    game = load()
    state = game.initial_state(
        0, explicit_chance=True, stack={"build": "KS QH 9S", "rolls": [2, 2]}
    )
    state = run(
        game,
        state,
        *("higher 1,0", "endurance"),  # (1,0): the KS, overcome (stacked roll)
        *("lower 2,0", "charisma"),  # (2,0): the QH, overcome
        "lower 3,0",  # (3,0): the 9S, correct; the figure stays there
    )
    state = starve(state)
    state = run(game, state, "end")
    # Both old cards left the game and there is nothing to deal: each is turned face down
    # where it lies.
    assert [e for e in state.events if isinstance(e, TurnedFaceDown)] == [
        TurnedFaceDown((1, 0), KS),
        TurnedFaceDown((2, 0), Card.parse("QH")),
    ]
    assert not any(isinstance(e, ReplacementReshuffled) for e in state.events)


@pytest.mark.slow
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 4), turns=st.integers(0, 6))
def test_a_starved_deal_keeps_every_card_and_every_cell(
    seed: int, players: int, turns: int
) -> None:
    """H-12, H-3: however starved the piles, the end of a turn never fails, every
    replaced cell gets a face-down card (so a turn begins with only the Black Joker and
    the figures' cards face up), and all the cards stay accounted for."""
    layout = [(x, y) for x in range(-4, 5) for y in range(-2, 4)]  # 54 cells: 2 decks
    game = load(players=players, deck_count=2, layout=layout, max_rounds=30)
    state = game.initial_state(seed)
    policy = rng_derive(seed, 1)
    ended = 0
    starved = False
    for _ in range(400):
        if game.is_terminal(state):
            break
        if not starved and ended >= turns and state.phase is Phase.TURN:
            state = starve(state)
            game.state_from_data(game.state_to_data(state))
            starved = True
        actions = game.legal_actions(state)
        policy, i = rng_below(policy, len(actions))
        state = game.step(state, actions[i])
        check_state(game, state, "after a starved deal" if starved else "before")
        ended += sum(isinstance(e, TurnEnded) for e in state.events)
        # The census of state_from_data: every one of the 106 cards exactly once.
        assert game.state_from_data(game.state_to_data(state)) == state
        if isinstance(state.events[-1], TurnStarted) and state.phase is Phase.TURN:
            figures = {f.cell for f in state.seats if f.cell is not None}
            face_up = {c for c in state.layout if state.card_at(c) is not None}
            assert face_up <= figures | {(0, 0)}


@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(1, 4),
    variant=st.sampled_from(["standard", "tuybe", "denizens", "small"]),
)
def test_the_fast_step_is_the_engines_step(seed: int, players: int, variant: str) -> None:
    """Sampled play (H-5 to H-13, reshuffles included): stepping with the very action
    objects listed as legal takes the game's fused path, and an equal action parsed from
    its text takes the engine's; both give the same state, generator and events."""
    options: dict[str, Any] = {"players": players, "max_rounds": 25}
    if variant == "tuybe":
        options["tuybe"] = True
    elif variant == "denizens":
        options["creatures"] = "denizens"
    elif variant == "small":
        options.update(deck_count=2, layout=[(x, y) for x in range(-4, 5) for y in range(-2, 4)])
    game = load(**options)
    state = game.initial_state(seed)
    policy = rng_derive(seed, 2)
    while not game.is_terminal(state):
        actions = game.legal_actions(state)
        policy, i = rng_below(policy, len(actions))
        fast = game.step(state, actions[i])
        slow = game.step(state, game.parse_action(str(actions[i])))
        assert fast == slow
        assert (fast.rng, fast.events) == (slow.rng, slow.events)
        assert game.legal_actions(fast) == game.legal_actions(slow)
        state = fast
