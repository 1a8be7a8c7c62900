"""Twenty-one: a tiny solo game of the test suite, to show that a game gets every generic
tool (encoding, simulation figures, OpenSpiel, Gymnasium, PettingZoo, the command line's
shortcuts) from its one registration and its own package, with no generic code naming it.

The thirteen spades are shuffled; you draw one at a time and after each hit or stand.
Pass the target and you are bust. ``max_hits`` is its length limit.
"""

from __future__ import annotations

from typing import Any

import attrs

import cardcrawl
from cardcrawl import CHANCE, TERMINAL, Card, Deck, Outcome, Suit
from cardcrawl.core._options import optional_positive_int
from cardcrawl.encoding import Encoding, EncodingError, LayoutBuilder

NAME = "test-twenty-one"
SPADES = tuple(Card.of(rank, Suit.SPADES) for rank in range(1, 14))


def value(card: Card) -> int:
    return min(card.rank, 10)


@attrs.frozen(order=True)
class Act:
    verb: str
    card: Card | None = None

    def __str__(self) -> str:
        return self.verb if self.card is None else f"draw {self.card}"


HIT, STAND = Act("hit"), Act("stand")


@attrs.frozen
class TwentyOneOptions(cardcrawl.OptionsBase):
    target: int = 21
    max_hits: int | None = attrs.field(default=None, validator=optional_positive_int)


@attrs.frozen(slots=False)
class TwentyOneState:
    phase: str
    deck: Deck
    hand: tuple[Card, ...]
    rng: int
    explicit_chance: bool
    events: tuple[str, ...]
    _memo: dict[str, Any] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    @property
    def total(self) -> int:
        return sum(value(card) for card in self.hand)


@attrs.frozen
class TwentyOneObservation:
    phase: str
    hand: tuple[Card, ...]
    left: tuple[Card, ...]
    events: tuple[str, ...]


class TwentyOne(cardcrawl.GameBase[Any, Any, Any]):
    game_name = NAME
    rules_version = "1"
    options_type = TwentyOneOptions
    state_type = TwentyOneState
    action_type = Act

    @property
    def num_players(self) -> int:
        return 1

    def _new_state(self, rng: int, explicit_chance: bool, stack: Any) -> TwentyOneState:
        return TwentyOneState("decide", Deck.of(SPADES), (), rng, explicit_chance, ())

    def _to_move(self, state: TwentyOneState) -> int:
        return {"decide": 0, "draw": CHANCE, "over": TERMINAL}[state.phase]

    def _decisions(self, state: TwentyOneState) -> tuple[Act, ...]:
        limit = self.options.max_hits
        if state.deck and (limit is None or len(state.hand) < limit):
            return (HIT, STAND)
        return (STAND,)

    def _chances(self, state: TwentyOneState) -> tuple[tuple[Act, int], ...]:
        return tuple((Act("draw", card), n) for card, n in state.deck.outcomes())

    def _apply(self, state: TwentyOneState, action: Act, events: list[Any]) -> TwentyOneState:
        if action == STAND:
            events.append(f"You stand on {state.total}.")
            return attrs.evolve(state, phase="over")
        if action == HIT:
            return attrs.evolve(state, phase="draw")
        assert action.card is not None
        state = attrs.evolve(
            state, deck=state.deck.take(action.card), hand=(*state.hand, action.card)
        )
        events.append(f"You draw {action.card.symbol}.")
        return attrs.evolve(state, phase="over" if state.total > self.options.target else "decide")

    def _describe(self, state: TwentyOneState) -> str:
        return {"decide": "hit or stand", "draw": "the next card", "over": "nothing"}[state.phase]

    def outcome(self, state: TwentyOneState) -> Outcome | None:
        if state.phase != "over":
            return None
        if state.total > self.options.target:
            return Outcome("bust", (0.0,), (state.total,))
        return Outcome("stood", (state.total / self.options.target,), (state.total,))

    def observe(self, state: TwentyOneState, player: int) -> TwentyOneObservation:
        return TwentyOneObservation(state.phase, state.hand, state.deck.cards, state.events)

    def determinize(self, state: TwentyOneState, player: int, seed: int) -> TwentyOneState:
        return attrs.evolve(state, deck=state.deck.unstacked(), rng=cardcrawl.rng_from_seed(seed))

    def sample_state(
        self, observation: Any, player: int, seed: int, *, explicit_chance: bool = False
    ) -> TwentyOneState:
        o = observation
        rng = cardcrawl.rng_from_seed(seed)
        return TwentyOneState(o.phase, Deck.of(o.left), o.hand, rng, explicit_chance, o.events)

    def card_census(self, state: TwentyOneState) -> dict[str, tuple[Card, ...]]:
        return {"deck": state.deck.cards, "hand": state.hand}

    def render(self, state: TwentyOneState) -> str:
        return f"{' '.join(c.symbol for c in state.hand) or '-'} = {state.total}"

    def parse_action(self, text: str) -> Act:
        verb, _, card = text.strip().partition(" ")
        if verb in ("hit", "stand") and not card:
            return Act(verb)
        if verb == "draw" and card:
            return Act("draw", Card.parse(card))
        raise self._parse_error(text, "'hit', 'stand' or 'draw CARD'")


class TwentyOneEncoding(Encoding):
    """hit = 0, stand = 1; a draw is its spade's rank - 1; the observation: the hand and
    the deck, one entry per spade."""

    version = "1"

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.num_actions = 2
        self.num_chance_outcomes = 13
        layout = LayoutBuilder()
        self._hand = layout.add("hand", (13,), "1 for each spade in the hand")
        self._left = layout.add("left", (13,), "1 for each spade still in the deck")
        self.layout = tuple(layout.segments)

    def encode_action(self, action: Any) -> int:
        if action not in (HIT, STAND):
            raise EncodingError(f"{action!r} is not a decision of twenty-one")
        return 0 if action == HIT else 1

    def decode_action(self, index: int) -> Any:
        return (HIT, STAND)[self._check_index(index, 2, "action")]

    def encode_chance(self, outcome: Any) -> int:
        if not isinstance(outcome, Act) or outcome.card is None:
            raise EncodingError(f"{outcome!r} is not a draw")
        return outcome.card.rank - 1

    def decode_chance(self, index: int) -> Any:
        return Act("draw", SPADES[self._check_index(index, 13, "chance")])

    def _entries(self, observation: Any) -> dict[int, float]:
        entries = {self._hand + c.rank - 1: 1.0 for c in observation.hand}
        entries.update({self._left + c.rank - 1: 1.0 for c in observation.left})
        return entries


class TwentyOneFigures:
    """cards: how many cards the player drew."""

    def __init__(self, game: Any) -> None:
        pass

    def step(self, state: TwentyOneState) -> None:
        pass

    def figures(self, state: TwentyOneState) -> tuple[tuple[str, int], ...]:
        return (("cards", len(state.hand)),)


TOOLS = cardcrawl.GameTools(
    limit=("max_hits", 13),
    shortcuts={"max_hits": "--max-hits"},
    encoding=TwentyOneEncoding,
    figures=TwentyOneFigures,
    openspiel=cardcrawl.OpenSpielSettings(
        short_name="cardcrawl_test_twenty_one",
        long_name="cardcrawl test: Twenty-one",
        max_players=1,
        max_game_length=lambda options: int(options.max_hits) + 1,
        parameters={"target": 21},
    ),
    gymnasium={"cardcrawl/TestTwentyOne-v0": {"game": NAME, "max_hits": 13}},
)


def register() -> None:
    """The game's one registration."""
    cardcrawl.register_game(
        NAME, TwentyOne, description="Twenty-one (a test game).", tools=TOOLS, replace=True
    )
