"""IS-MCTS (``"ismcts"``): reproducible, legal, from the observation alone, anytime, and
strong enough to find the exact best action of small positions.

The toy game Twenty-one (tests/core/twentyone.py) checks that it is generic; a toy
take-away game checks that each seat's choices in the tree maximise its own return.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import CHANCE, TERMINAL, Card, Outcome
from cardcrawl.bots import ISMCTSBot, SearchResult, UnknownBotError, bot_names, make_bot
from cardcrawl.errors import OptionsError, SamplingError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "core"))
import twentyone

twentyone.register()
TWENTY_ONE = cardcrawl.load(twentyone.NAME)
MAPLESS = cardcrawl.load("mapless-house", max_turns=200)
HAYDES_1 = cardcrawl.load("escape-from-haydes", players=1, max_rounds=6)
HAYDES_3 = cardcrawl.load("escape-from-haydes", players=3, max_rounds=4)


def play(game: Any, seed: int, bots: dict[int, Any], limit: int = 400) -> list[Any]:
    """The actions of a game played by ``bots`` (by seat; random elsewhere)."""
    players = [bots.get(s) or make_bot("random", game, seed, s) for s in range(game.num_players)]
    state = game.initial_state(seed=seed)
    actions = []
    for _ in range(limit):
        if game.is_terminal(state):
            break
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        action = players[seat].choose(game, game.observe(state, seat), legal)
        assert action in legal
        actions.append(action)
        state = game.step(state, action)
    return actions


# ----------------------------------------------------------------- registry
def test_ismcts_plays_every_game_and_takes_its_budget_through_make_bot() -> None:
    for game in (TWENTY_ONE, MAPLESS, HAYDES_1, HAYDES_3):
        assert "ismcts" in bot_names(game)
    bot = make_bot("ismcts", HAYDES_1, seed=3, iterations=7)
    assert isinstance(bot, ISMCTSBot)
    state = HAYDES_1.initial_state(seed=3)
    result = bot.search(HAYDES_1, HAYDES_1.observe(state, 0), HAYDES_1.legal_actions(state))
    assert result.iterations == bot.last_iterations == 7
    assert sum(s.visits for s in result.actions) == 7


@pytest.mark.parametrize(
    "options",
    [
        {"iterations": 0},
        {"seconds": 0},
        {"seconds": -1.0},
        {"exploration": -0.1},
        {"rollout_limit": 0},
        {"max_nodes": 0},
    ],
)
def test_budgets_and_constants_out_of_range_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(OptionsError):
        make_bot("ismcts", TWENTY_ONE, seed=1, **options)


def test_a_game_that_cannot_sample_a_state_is_refused_with_a_reason() -> None:
    class Blind(twentyone.TwentyOne):
        sample_state = cardcrawl.GameBase.sample_state

    game = Blind()
    state = game.initial_state(seed=1)
    with pytest.raises(SamplingError, match="does not override sample_state"):
        game.sample_state(game.observe(state, 0), 0, seed=1)
    with pytest.raises(UnknownBotError, match="sample_state"):
        make_bot("ismcts", game, seed=1)


# ----------------------------------------------------------- reproducibility
@pytest.mark.parametrize("game", [HAYDES_3, MAPLESS, TWENTY_ONE], ids=lambda g: g.name)
def test_the_same_seed_makes_the_same_choices(game: Any) -> None:
    def bots(seed: int) -> dict[int, Any]:
        return {
            s: make_bot("ismcts", game, seed, s, iterations=12) for s in range(game.num_players)
        }

    first = play(game, 5, bots(5), limit=40)
    assert play(game, 5, bots(5), limit=40) == first


def test_another_seed_searches_other_determinizations() -> None:
    """The seed reaches the search: the statistics of one decision differ between seeds
    (so the test above could fail)."""
    state = HAYDES_1.initial_state(seed=2)
    seen, legal = HAYDES_1.observe(state, 0), HAYDES_1.legal_actions(state)
    results = {
        make_bot("ismcts", HAYDES_1, seed=s, iterations=60).search(HAYDES_1, seen, legal)
        for s in range(4)
    }
    assert len(results) > 1


@settings(max_examples=6)
@given(seed=st.integers(0, 2**32), game=st.sampled_from([HAYDES_1, HAYDES_3, TWENTY_ONE]))
def test_its_choices_are_legal_to_the_end_of_the_game(seed: int, game: Any) -> None:
    bots = {s: make_bot("ismcts", game, seed, s, iterations=6) for s in range(game.num_players)}
    play(game, seed, bots)  # play() checks every choice


# ---------------------------------------------------------- observation only
@pytest.mark.slow
def test_states_alike_to_the_player_are_searched_alike() -> None:
    """Two Mapless states that differ only in the hidden order of the Narrative deck (and
    the generator) look the same to the player; the bot, shown the observation, makes
    the same search of both: it cannot read the hidden cards."""
    first = MAPLESS.initial_state(seed=1, stack={"narrative": ["KS", "2S", "3S", "4S"]})
    second = MAPLESS.initial_state(seed=99, stack={"narrative": ["KS", "QS", "JS", "10S"]})
    assert first != second
    seen = MAPLESS.observe(first, 0)
    assert MAPLESS.observe(second, 0) == seen
    legal = MAPLESS.legal_actions(first)
    assert MAPLESS.legal_actions(second) == legal
    one = make_bot("ismcts", MAPLESS, seed=4, iterations=40, rollout="heuristic")
    other = make_bot("ismcts", MAPLESS, seed=4, iterations=40, rollout="heuristic")
    assert one.search(MAPLESS, seen, legal) == other.search(MAPLESS, seen, legal)


def test_the_bot_only_ever_steps_states_drawn_from_the_observation() -> None:
    """Every state the search plays from is ``sample_state`` of the observation it was
    given, for its own seat, and looks like it."""
    drawn: list[tuple[Any, int]] = []

    class Watched(twentyone.TwentyOne):
        def sample_state(self, observation: Any, player: int, seed: int, **kw: Any) -> Any:
            state = super().sample_state(observation, player, seed, **kw)
            assert self.observe(state, player) == observation
            drawn.append((observation, player))
            return state

    game = Watched()
    state = game.initial_state(seed=8)
    seen = game.observe(state, 0)
    make_bot("ismcts", game, seed=1, iterations=25).search(game, seen, game.legal_actions(state))
    assert drawn == [(seen, 0)] * 25


# ------------------------------------------------------------------- budget
def test_a_time_budget_stops_and_plays_the_best_so_far() -> None:
    game = HAYDES_1
    state = game.initial_state(seed=6)
    seen, legal = game.observe(state, 0), game.legal_actions(state)
    bot = make_bot("ismcts", game, seed=6, seconds=0.02)
    result = bot.search(game, seen, legal)
    assert result.iterations >= 1
    assert result.best in legal
    # With both budgets, the first to end stops the search.
    capped = make_bot("ismcts", game, seed=6, seconds=3600.0, iterations=5)
    assert capped.search(game, seen, legal).iterations == 5


def test_ensure_visits_a_given_action_enough_to_value_it() -> None:
    state = HAYDES_1.initial_state(seed=2)
    seen, legal = HAYDES_1.observe(state, 0), HAYDES_1.legal_actions(state)
    bot = make_bot("ismcts", HAYDES_1, seed=2, iterations=30)
    result = bot.search(HAYDES_1, seen, legal, ensure=[legal[-1]], min_visits=20)
    assert result.stats(legal[-1]).visits >= 20
    assert result.iterations == sum(s.visits for s in result.actions) >= 30


# ----------------------------------------------------------------- strength
def exact_values(hand: tuple[Card, ...], left: tuple[Card, ...]) -> dict[str, float]:
    """Hit's and stand's exact values in Twenty-one, playing on at best."""

    @cache
    def best(hand: tuple[Card, ...], left: tuple[Card, ...]) -> float:
        total = sum(twentyone.value(c) for c in hand)
        if total > 21:
            return 0.0
        return max(exact_values(hand, left).values())

    total = sum(twentyone.value(c) for c in hand)
    values = {"stand": total / 21}
    if left:
        values["hit"] = sum(
            best(tuple(sorted((*hand, c))), tuple(x for x in left if x != c)) for c in left
        ) / len(left)
    return values


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(
    "hand",
    [("2S", "3S"), ("10S", "4S"), ("KS", "9S"), ("8S", "7S"), ("3S", "4S", "5S")],
)
def test_it_finds_the_exact_best_action_of_small_twenty_one_positions(
    hand: tuple[str, ...], seed: int
) -> None:
    """The last position is close: standing on 12 is worth 0.571, hitting 0.500."""
    cards = tuple(Card.parse(c) for c in hand)
    left = tuple(c for c in twentyone.SPADES if c not in cards)
    exact = exact_values(cards, left)
    best = max(exact, key=exact.__getitem__)
    seen = twentyone.TwentyOneObservation("decide", cards, left, ())
    legal = (twentyone.HIT, twentyone.STAND)
    bot = make_bot("ismcts", TWENTY_ONE, seed=seed, iterations=1500)
    result = bot.search(TWENTY_ONE, seen, legal)
    assert str(result.best) == best, (exact, result)
    # Standing is valued exactly; hitting is never valued above its best play.
    assert result.value(twentyone.STAND) == pytest.approx(exact["stand"])
    assert result.value(twentyone.HIT) <= exact["hit"] + 0.03, (exact, result)


# -------------------------------------------------------------- many seats
@attrs.frozen
class Pile:
    stones: int
    to_move: int
    rng: int = 0
    explicit_chance: bool = False
    events: tuple[str, ...] = ()
    _memo: dict[str, Any] = attrs.field(factory=dict, init=False, eq=False, repr=False)


class TakeAway(cardcrawl.GameBase[Pile, int, Pile]):
    """Two players take 1 or 2 stones in turn; who takes the last wins. From 5 stones
    the first player wins by taking 2 (leaving a multiple of 3), and only so."""

    game_name = "test-take-away"
    rules_version = "1"
    options_type = twentyone.TwentyOneOptions
    state_type = Pile
    action_type = int

    @property
    def num_players(self) -> int:
        return 2

    def _new_state(self, rng: int, explicit_chance: bool, stack: Any) -> Pile:
        return Pile(5, 0, rng, explicit_chance)

    def _to_move(self, state: Pile) -> int:
        return state.to_move if state.stones else TERMINAL

    def _decisions(self, state: Pile) -> tuple[int, ...]:
        return tuple(n for n in (1, 2) if n <= state.stones)

    def _chances(self, state: Pile) -> tuple[tuple[int, int], ...]:
        return ()

    def _apply(self, state: Pile, action: int, events: list[Any]) -> Pile:
        return Pile(state.stones - action, 1 - state.to_move, state.rng, state.explicit_chance)

    def _describe(self, state: Pile) -> str:
        return f"player {state.to_move} to take from {state.stones}"

    def outcome(self, state: Pile) -> Outcome | None:
        if state.stones:
            return None
        winner = 1 - state.to_move  # who took the last stone
        return Outcome("won", tuple(float(s == winner) for s in (0, 1)), winners=(winner,))

    def observe(self, state: Pile, player: int) -> Pile:
        return state

    def determinize(self, state: Pile, player: int, seed: int) -> Pile:
        return state

    def sample_state(self, observation: Pile, player: int, seed: int, **kw: Any) -> Pile:
        return observation

    def card_census(self, state: Pile) -> dict[str, tuple[Card, ...]]:
        return {}

    def render(self, state: Pile) -> str:
        return str(state.stones)

    def parse_action(self, text: str) -> int:
        return int(text)


def test_each_seat_in_the_tree_plays_for_its_own_return() -> None:
    """Taking 2 of 5 wins only if the tree's second player then answers for itself: were
    every node valued for the searching seat, taking 1 would look as good."""
    game = TakeAway()
    assert game.current_player(game.initial_state(seed=1)) == 0
    assert CHANCE not in (game.current_player(Pile(n, 0)) for n in range(6))
    for seed in range(3):
        result = ISMCTSBot(game, seed, 0, iterations=300).search(game, Pile(5, 0), (1, 2))
        assert isinstance(result, SearchResult)
        assert result.best == 2, result
        assert result.value(2) > 0.8 > result.value(1), result
    # The second seat, to move at 4 stones, wins by taking 1.
    result = ISMCTSBot(game, 1, 1, iterations=300).search(game, Pile(4, 1), (1, 2))
    assert result.best == 1, result


# --------------------------------------- advisors, kernel rollouts, common draws
HAYDES_TUYBE = cardcrawl.load("escape-from-haydes-tuybe", max_rounds=6)


def wide_decision(game: Any, least: int = 3) -> tuple[Any, list[Any]]:
    """A decision of seat 0 in ``game`` (random play from seed 1 on) with ``least``
    legal actions or more: its observation and its legal actions."""
    for seed in range(1, 50):
        state = game.initial_state(seed=seed)
        bots = [make_bot("random", game, seed, s) for s in range(game.num_players)]
        while not game.is_terminal(state):
            seat = game.current_player(state)
            legal = list(game.legal_actions(state))
            if seat == 0 and len(legal) >= least:
                return game.observe(state, 0), legal
            state = game.step(state, bots[seat].choose(game, game.observe(state, seat), legal))
    raise AssertionError("no wide decision")


class Fixed:
    """An advisor that always proposes the legal action at ``index`` (and counts its
    calls)."""

    calls = 0

    def __init__(self, index: int) -> None:
        self.index = index

    def factory(self, game: Any, seed: int, seat: int) -> Fixed:
        return self

    def choose(self, game: Any, observation: Any, legal_actions: Any) -> Any:
        Fixed.calls += 1
        return legal_actions[self.index]


def test_advisors_that_agree_are_followed_without_a_search() -> None:
    seen, legal = wide_decision(HAYDES_1)
    heuristic = make_bot("heuristic", HAYDES_1, seed=3).choose(HAYDES_1, seen, legal)
    bot = make_bot("ismcts", HAYDES_1, seed=3, iterations=40, advisors="heuristic, heuristic")
    assert isinstance(bot, ISMCTSBot)
    assert bot.choose(HAYDES_1, seen, legal) == heuristic
    assert (bot.advised, bot.searched, bot.last_iterations) == (1, 0, 0)
    # Without advisors, the same decision is searched.
    plain = make_bot("ismcts", HAYDES_1, seed=3, iterations=40)
    assert isinstance(plain, ISMCTSBot)
    plain.choose(HAYDES_1, seen, legal)
    assert (plain.advised, plain.searched, plain.last_iterations) == (0, 1, 40)


def test_advisors_that_disagree_restrict_the_search_to_their_proposals() -> None:
    seen, legal = wide_decision(HAYDES_1)
    first, last = Fixed(0), Fixed(-1)
    for seed in range(4):
        for common in (False, True):
            bot = ISMCTSBot(
                HAYDES_1,
                seed,
                iterations=30,
                advisors=[first.factory, last.factory],
                common_draws=common,
            )
            before = Fixed.calls
            assert bot.choose(HAYDES_1, seen, legal) in (legal[0], legal[-1])
            assert Fixed.calls == before + 2
            assert (bot.advised, bot.searched) == (0, 1)
            assert bot.last_iterations >= 30
    # The root's visits all go to the proposals.
    bot = ISMCTSBot(HAYDES_1, 1, iterations=30)
    result = bot._search(HAYDES_1, seen, legal, None, 0, [legal[0], legal[-1]])
    assert [s.action for s in result.actions] == [legal[0], legal[-1]]
    assert sum(s.visits for s in result.actions) == 30
    unrestricted = ISMCTSBot(HAYDES_1, 1, iterations=30).search(HAYDES_1, seen, legal)
    assert sum(s.visits for s in unrestricted.actions[1:-1]) > 0


def test_a_decision_with_one_legal_action_asks_no_advisor() -> None:
    before = Fixed.calls
    bot = ISMCTSBot(HAYDES_1, 1, iterations=5, advisors=[Fixed(0).factory, Fixed(0).factory])
    assert bot.choose(HAYDES_1, None, ["only"]) == "only"
    assert Fixed.calls == before
    assert (bot.advised, bot.searched) == (0, 0)


def test_common_draws_spend_the_budget_in_rounds_of_one_iteration_per_action() -> None:
    seen, legal = wide_decision(HAYDES_1)
    drawn: list[int] = []

    class Watched(type(HAYDES_1)):  # type: ignore[misc]
        def sample_state(self, observation: Any, player: int, seed: int, **kw: Any) -> Any:
            drawn.append(seed)
            return super().sample_state(observation, player, seed, **kw)

    game = Watched(HAYDES_1.options)
    bot = ISMCTSBot(game, 2, iterations=len(legal) + 1, common_draws=True)
    result = bot.search(game, seen, legal)
    # Two whole rounds: every action twice, each round on one determinization.
    assert result.iterations == 2 * len(legal)
    assert [s.visits for s in result.actions] == [2] * len(legal)
    assert drawn == [drawn[0]] * len(legal) + [drawn[-1]] * len(legal)
    assert drawn[0] != drawn[-1]
    drawn.clear()
    ISMCTSBot(game, 2, iterations=len(legal) + 1).search(game, seen, legal)
    assert len(set(drawn)) == len(drawn)  # without: a fresh determinization each time


def test_the_kernel_rollout_plays_on_the_kernel_where_the_game_has_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardcrawl.haydes._kernel import HaydesKernel

    calls: list[int] = []
    real = HaydesKernel.play

    def play(self: Any, seed: int, max_decisions: int, start: Any = None) -> Any:
        calls.append(seed)
        assert start is not None
        assert not HAYDES_1.is_terminal(start)
        return real(self, seed, max_decisions, start=start)

    monkeypatch.setattr(HaydesKernel, "play", play)
    seen, legal = wide_decision(HAYDES_1)
    bot = ISMCTSBot(HAYDES_1, 4, iterations=25, rollout="kernel")
    result = bot.search(HAYDES_1, seen, legal)
    assert 0 < len(calls) <= 25
    assert len(set(calls)) == len(calls)  # a seed of its own for each rollout
    assert min(s.value for s in result.actions) >= 0.0
    calls.clear()
    ISMCTSBot(HAYDES_1, 4, iterations=25).search(HAYDES_1, seen, legal)
    assert calls == []


def test_the_kernel_rollout_falls_back_to_random_play_without_a_kernel() -> None:
    from cardcrawl.core._registry import tools_for

    # Every Haydes game has its kernel, the Tuybe included; Twenty-one registers none.
    make_kernel = tools_for(HAYDES_TUYBE).rollout
    assert make_kernel is not None
    assert make_kernel(HAYDES_TUYBE) is not None
    assert tools_for(TWENTY_ONE).rollout is None
    seen21 = twentyone.TwentyOneObservation("decide", (), twentyone.SPADES, ())
    legal21 = (twentyone.HIT, twentyone.STAND)
    assert ISMCTSBot(TWENTY_ONE, 5, iterations=30, rollout="kernel").search(
        TWENTY_ONE, seen21, legal21
    ) == ISMCTSBot(TWENTY_ONE, 5, iterations=30).search(TWENTY_ONE, seen21, legal21)


def test_leaf_values_a_rollout_cut_off_by_the_limit() -> None:
    seen, legal = wide_decision(HAYDES_1)
    cut: list[Any] = []

    def leaf(game: Any, state: Any) -> tuple[float]:
        assert not game.is_terminal(state)
        cut.append(state)
        return (0.25,)

    for rollout in ("random", "kernel"):
        cut.clear()
        bot = ISMCTSBot(HAYDES_1, 6, iterations=20, rollout=rollout, rollout_limit=1, leaf=leaf)
        result = bot.search(HAYDES_1, seen, legal)
        assert cut
        assert any(s.value == pytest.approx(0.25) for s in result.actions)
        assert all(0.0 <= s.value <= 1.0 for s in result.actions)


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"rollout": "kernel"},
        {"rollout": "kernel", "common_draws": True},
        {"advisors": "heuristic,lookahead", "rollout": "kernel", "common_draws": True},
        {"advisors": ["random", "lookahead"], "rollout": "heuristic"},
    ],
    ids=str,
)
def test_the_new_options_keep_the_bot_reproducible(options: dict[str, Any]) -> None:
    def game_of(seed: int) -> list[Any]:
        return play(
            HAYDES_3, 5, {0: make_bot("ismcts", HAYDES_3, seed, 0, iterations=8, **options)}
        )

    first = game_of(5)
    assert game_of(5) == first
    seen, legal = wide_decision(HAYDES_1)
    results = {
        make_bot("ismcts", HAYDES_1, s, iterations=24, **options).search(HAYDES_1, seen, legal)
        for s in range(4)
    }
    assert len(results) > 1


def test_explicit_defaults_search_as_the_defaults_do() -> None:
    seen, legal = wide_decision(HAYDES_1)
    default = ISMCTSBot(HAYDES_1, 7, iterations=30).search(HAYDES_1, seen, legal)
    explicit = ISMCTSBot(
        HAYDES_1, 7, iterations=30, advisors=(), common_draws=False, leaf=None, rollout="random"
    )
    assert explicit.search(HAYDES_1, seen, legal) == default
    assert ISMCTSBot(HAYDES_1, 7, iterations=30, advisors="").search(HAYDES_1, seen, legal) == (
        default
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"common_draws": "yes"}, "common_draws is True or False"),
        ({"common_draws": 1}, "common_draws is True or False"),
        ({"leaf": 0.5}, "leaf is a function"),
        ({"advisors": "heuristic,,lookahead"}, "an empty name"),
        ({"advisors": 3}, "advisors is bot names"),
        ({"advisors": [3]}, "an advisor is a registered bot name or a factory"),
        ({"advisors": "ismcts"}, "cannot name ismcts"),
    ],
)
def test_malformed_new_options_are_refused_with_a_reason(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(OptionsError, match=message):
        make_bot("ismcts", HAYDES_1, seed=1, **options)


def test_an_unknown_advisor_is_refused_with_the_bots_that_play() -> None:
    with pytest.raises(UnknownBotError, match="heuristic"):
        make_bot("ismcts", HAYDES_1, seed=1, advisors="heuristic,nosuchbot")
