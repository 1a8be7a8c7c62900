"""Bots: the protocol and registry, the Mapless House bots and their planner, the search bot.

Each test names the ruling (M-x) it leans on where one applies.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import Card, Grid, rng_below, rng_derive
from cardcrawl.bots import (
    Bot,
    RandomBot,
    SearchBot,
    UnknownBotError,
    bot_names,
    get_bot_spec,
    make_bot,
    register_bot,
    search_model,
)
from cardcrawl.bots._base import game_family
from cardcrawl.bots._search import chance_leaves, register_search_model
from cardcrawl.mapless import (
    BODY_CARDS,
    MIND_CARDS,
    MaplessHeuristicBot,
    Move,
    Phase,
    card_value,
    state_from_observation,
)
from cardcrawl.mapless._bot_model import EncounterOdds, HuntPlanner
from cardcrawl.mapless._bots import MaplessSearchModel, ShortestPathBot

GAME = cardcrawl.load("mapless-house", max_turns=200)
MAPLESS_BOTS = ("random", "shortest-path", "heuristic", "search")
seeds = st.integers(0, 2**64 - 1)


def play(game: Any, bot: Bot, seed: int) -> tuple[Any, list[Any]]:
    """Play a whole game with ``bot`` seeing only observations: (final state, actions)."""
    state = game.initial_state(seed)
    actions = []
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        action = bot.choose(game, game.observe(state, 0), legal)
        assert action in legal
        state = game.step(state, action)
        actions.append(action)
    return state, actions


def grid(cells: dict[tuple[int, int], str]) -> Grid:
    return Grid({cell: Card.parse(code) for cell, code in cells.items()})


# ------------------------------------------------------------- registry
def test_the_mapless_house_has_the_four_bots_and_random_plays_every_game() -> None:
    assert set(MAPLESS_BOTS) <= set(bot_names(GAME))
    assert get_bot_spec("random", GAME).games is None
    assert get_bot_spec("heuristic", GAME).games == frozenset({"mapless-house"})


def test_an_unknown_bot_is_a_lookup_error_listing_the_bots() -> None:
    with pytest.raises(UnknownBotError, match="no bot is named 'nobody'") as info:
        make_bot("nobody", GAME, seed=0)
    assert isinstance(info.value, LookupError)
    assert "heuristic" in str(info.value)


def test_a_variant_plays_with_its_base_games_bots() -> None:
    cardcrawl.register_variant(
        "mapless-house-test-bots", base="mapless-house", options={"max_turns": 50}, replace=True
    )
    variant = cardcrawl.load("mapless-house-test-bots")
    assert game_family(variant) == "mapless-house"
    assert isinstance(make_bot("heuristic", variant, seed=1), MaplessHeuristicBot)


def test_register_bot_refuses_duplicates_and_bad_names_but_replaces_on_request() -> None:
    register_bot("test-first", ShortestPathBot, games=["mapless-house"], replace=True)
    with pytest.raises(ValueError, match="already registered"):
        register_bot("test-first", ShortestPathBot, games=["mapless-house"])
    with pytest.raises(ValueError, match="without spaces"):
        register_bot("two words", RandomBot)
    register_bot("test-first", RandomBot, games=["mapless-house"], replace=True)
    assert isinstance(make_bot("test-first", GAME, seed=0), RandomBot)


def test_make_bot_takes_a_factory_as_well_as_a_name() -> None:
    made: list[tuple[int, int]] = []

    def factory(game: Any, seed: int, seat: int) -> Bot:
        made.append((seed, seat))
        return RandomBot(game, seed, seat)

    assert isinstance(make_bot(factory, GAME, seed=9, seat=0), RandomBot)
    assert made == [(9, 0)]


def test_the_search_bot_needs_a_search_model() -> None:
    class Other:
        name = "no-such-game"

    with pytest.raises(UnknownBotError, match="no search model"):
        search_model(Other())


# ------------------------------------------------------------ every bot
@pytest.mark.parametrize("name", MAPLESS_BOTS)
def test_every_bot_plays_legally_to_the_end_and_the_same_seed_replays(name: str) -> None:
    for seed in (0, 1):
        state, actions = play(GAME, make_bot(name, GAME, seed), seed)
        again, actions_again = play(GAME, make_bot(name, GAME, seed), seed)
        assert actions == actions_again
        assert again == state
        assert GAME.outcome(state) is not None


@given(seed=seeds, data=st.data())
def test_bots_choose_legal_actions_from_random_positions(seed: int, data: st.DataObject) -> None:
    """Wherever random play leads (phase one, the Exit, the hunt, held), every bot answers
    with a legal action."""
    state = GAME.initial_state(seed)
    steps = data.draw(st.integers(0, 60), label="random steps first")
    for _ in range(steps):
        if GAME.is_terminal(state):
            return
        legal = GAME.legal_actions(state)
        state = GAME.step(state, legal[data.draw(st.integers(0, len(legal) - 1))])
    if GAME.is_terminal(state):
        return
    legal = GAME.legal_actions(state)
    for name in MAPLESS_BOTS:
        bot = make_bot(name, GAME, seed)
        assert bot.choose(GAME, GAME.observe(state, 0), legal) in legal


def test_the_command_lines_random_bot_is_this_bot() -> None:
    """``--bot random`` in ``cardcrawl play`` is this bot, playing from observations."""
    import io

    from cardcrawl.cli._main import main

    for seed in (3, 4):
        bot = RandomBot(GAME, seed, 0)
        state = GAME.initial_state(seed)
        expected = [str(e) for e in state.events]
        while not GAME.is_terminal(state):
            legal = GAME.legal_actions(state)
            state = GAME.step(state, bot.choose(GAME, GAME.observe(state, 0), legal))
            expected.extend(str(e) for e in state.events)
        out = io.StringIO()
        assert (
            main(["play", "mapless-house", "--bot", "random", "--seed", str(seed)], stdout=out) == 0
        )
        assert out.getvalue().splitlines()[: len(expected)] == expected


def test_random_bot_draws_from_its_own_splitmix_stream() -> None:
    bot = RandomBot(GAME, seed=11, seat=0)
    rng = rng_derive(11, 0)
    options = tuple(range(7))
    for _ in range(20):
        rng, i = rng_below(rng, 7)
        assert bot.choose(GAME, None, options) == i


# ------------------------------------------------------- shortest path
def test_shortest_path_bot_places_first_and_walks_straight_to_the_exit() -> None:
    bot = ShortestPathBot(GAME, seed=0)
    state = GAME.initial_state(5)
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        obs = GAME.observe(state, 0)
        action = bot.choose(GAME, obs, legal)
        if obs.phase is Phase.MOVE:
            steps = _steps(obs.table, obs.exit_cell)
            assert steps[action.cell] == min(steps[a.cell] for a in legal)
            assert steps[action.cell] < steps[obs.player]
        else:
            assert action == legal[0]
        state = GAME.step(state, action)


def _steps(table: Grid, goal: tuple[int, int]) -> dict[tuple[int, int], int]:
    steps = {goal: 0}
    frontier = [goal]
    while frontier:
        nxt = []
        for cell in frontier:
            for n in table.touching_cards(cell):
                if n not in steps:
                    steps[n] = steps[cell] + 1
                    nxt.append(n)
        frontier = nxt
    return steps


# ------------------------------------------------------------- beliefs
@given(seed=seeds, steps=st.integers(0, 80), sample=seeds)
def test_a_state_rebuilt_from_the_observation_is_the_determinized_state(
    seed: int, steps: int, sample: int
) -> None:
    """The observation hides only the decks' order, which a cardcrawl deck does not hold,
    so rebuilding is exact: the same as ``determinize`` on the real state (M-6 closed
    cells recomputed included)."""
    state = GAME.initial_state(seed)
    bot = RandomBot(GAME, seed)
    for _ in range(steps):
        if GAME.is_terminal(state):
            break
        legal = GAME.legal_actions(state)
        state = GAME.step(state, bot.choose(GAME, None, legal))
    rebuilt = state_from_observation(GAME.observe(state, 0), sample)
    assert rebuilt == GAME.determinize(state, 0, sample)
    assert rebuilt.closed == state.closed
    assert GAME.legal_actions(rebuilt) == GAME.legal_actions(state)


# ----------------------------------------------------------------- odds
def test_encounter_odds_are_exact_over_the_unseen_cards() -> None:
    """M-15: hold your nerve when Mind + Body + held >= threshold."""
    mind, body = MIND_CARDS[:5], BODY_CARDS[3:]
    odds = EncounterOdds(mind, body)
    pairs = [(card_value(m), card_value(b)) for m in mind for b in body]
    for threshold in range(14):
        for held in (0, 3, 9):
            wins = sum(m + b + held >= threshold for m, b in pairs)
            assert odds.success(threshold, held) == pytest.approx(wins / len(pairs))
    # Falling short of a King with nothing held: on average the cards that then hold you.
    short = [m + b for m, b in pairs if m + b < 13]
    assert odds.held_total(13, 0) == round(sum(short) / len(short))
    assert EncounterOdds.of(mind, body) is EncounterOdds.of(mind, body)


def test_encounter_odds_with_empty_decks_count_zero() -> None:
    """M-17: with a deck and its Aside pile both empty, a draw counts 0."""
    odds = EncounterOdds((), ())
    assert odds.success(0, 0) == 1.0
    assert odds.success(2, 0) == 0.0
    assert odds.success(2, 2) == 1.0


# --------------------------------------------------------------- planner
FULL = EncounterOdds(MIND_CARDS, BODY_CARDS)
LANE = grid({(0, 0): "AD", (0, 1): "2S", (0, 2): "3S", (0, 3): "4S", (1, 3): "AH"})


def planner(table: Grid, exit_cell: tuple[int, int], **kw: Any) -> HuntPlanner:
    options: dict[str, Any] = {"club_arrives": 13, "max_turns": 200, "horizon": 6} | kw
    return HuntPlanner(table, exit_cell, FULL, **options)


def test_planner_walks_up_the_lane_beside_the_exit() -> None:
    """M-18, M-19: the ♠A comes down the Exit's column, mirrors the player up the lane and
    must turn aside rather than step back onto the Exit: out in three turns, two
    Encounters (discounted 0.99 a turn), on cards too low to hold anyone."""
    assert planner(LANE, (1, 3)).opening_values((0, 0), spade=(1, 3)) == {
        (0, 1): pytest.approx(0.99**2)
    }


def test_planner_sees_parity_an_exit_one_step_farther_is_hopeless() -> None:
    """With the Exit at an odd distance the player always ends up diagonal to the ♠A,
    never beside it; a straight walk is caught (M-18, M-20)."""
    table = grid({(0, 0): "AD", (0, 1): "2S", (0, 2): "3S", (0, 3): "4S", (0, 4): "5S"})
    table = table.place((1, 4), Card.parse("AH"))
    values = planner(table, (1, 4), horizon=10).opening_values((0, 0), spade=(1, 4))
    assert values[(0, 1)] < 0.01


def test_planner_never_steps_next_to_a_stalker() -> None:
    """M-18, M-20: a Stalker one step away after the Move steps onto the player."""
    table = grid(
        {(0, 0): "AD", (1, 0): "2S", (2, 0): "3S", (-1, 0): "4S", (-2, 0): "5S", (-3, 0): "AH"}
    )
    values = planner(table, (-3, 0)).move_values(
        (1, 0), spade=(3, 0), left=True, club=None, encounters=3
    )
    assert values[(2, 0)] == 0.0
    assert values[(0, 0)] > 0.9  # away from it, and on to the Exit ahead of it


def test_planner_walking_onto_a_stalker_or_the_exit() -> None:
    """M-14: onto a Stalker is consumed, onto the empty Exit escaped."""
    table = grid({(0, 0): "AD", (1, 0): "AH", (-1, 0): "2S"})
    values = planner(table, (1, 0)).move_values(
        (0, 0), spade=(5, 5), left=True, club=(-1, 0), encounters=4
    )
    assert values == {(-1, 0): 0.0, (1, 0): 1.0}


def test_planner_knows_when_the_club_stalker_arrives() -> None:
    """M-17: the ♣A appears on the Entrance at the end of the first dry turn; standing
    there then is fatal."""
    table = grid({(0, 0): "AD", (0, 1): "2S", (-1, 0): "3S", (-2, 0): "AH"})
    for arrives, expected_zero in ((1, True), (2, False)):
        value = planner(table, (-2, 0), club_arrives=arrives).move_values(
            (0, 1), spade=(-2, 9), left=True, club=None, encounters=0
        )[(0, 0)]
        assert (value == 0.0) is expected_zero


def test_planner_respects_the_turn_limit() -> None:
    """M-22: past max_turns the game is lost, whatever the position."""
    values = planner(LANE, (1, 3), max_turns=2).opening_values((0, 0), spade=(1, 3))
    assert values == {(0, 1): 0.0}


def test_planner_values_a_hold() -> None:
    """M-16: a held player does not move; the held cards count again next time."""
    table = grid({(0, 0): "AD", (0, 1): "KS", (0, 2): "2S", (9, 9): "AH"})
    p = planner(table, (9, 9))
    far = p.held_value((0, 1), spade=(9, 8), left=True, club=None, encounters=2, held=0)
    near = p.held_value((0, 1), spade=(0, 3), left=True, club=None, encounters=2, held=0)
    assert near == 0.0  # the ♠A steps beside, then onto, a player stuck on a King
    assert 0.0 <= far <= 1.0


# ------------------------------------------------------------- heuristic
def test_heuristic_builds_the_spine_and_an_exit_at_an_even_distance() -> None:
    """M-11: the Exit opens at D + 1; the plan keeps D odd and the spine up the y axis."""
    even = spine_tops = 0
    for seed in range(12):
        bot = MaplessHeuristicBot(GAME, seed)
        state = GAME.initial_state(seed)
        while state.exit_cell is None:
            legal = GAME.legal_actions(state)
            state = GAME.step(state, bot.choose(GAME, GAME.observe(state, 0), legal))
        x, y = state.exit_cell
        even += (abs(x) + abs(y)) % 2 == 0
        spine_tops += abs(x) == 1 and all((0, k) in state.table for k in range(1, y + 1))
    assert even >= 10
    assert spine_tops >= 9


def test_heuristic_escapes_far_more_often_than_the_baselines() -> None:
    """A fixed set of seeds (the bots are deterministic given the seed)."""
    escaped = dict.fromkeys(("random", "shortest-path", "heuristic"), 0)
    for seed in range(30):
        for name in escaped:
            state, _ = play(GAME, make_bot(name, GAME, seed), seed)
            escaped[name] += state.ending.value == "escaped"
    assert escaped["heuristic"] >= 22
    assert escaped["random"] <= 1
    assert escaped["shortest-path"] <= 1


def test_heuristic_takes_a_winning_move() -> None:
    """M-14: a Move onto the empty Exit is taken at once."""
    state = GAME.initial_state(0)
    bot = MaplessHeuristicBot(GAME, 0)
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        obs = GAME.observe(state, 0)
        action = bot.choose(GAME, obs, legal)
        if obs.phase is Phase.MOVE and Move(obs.exit_cell) in legal and obs.spade != obs.exit_cell:
            assert action == Move(obs.exit_cell)
        state = GAME.step(state, action)


# ---------------------------------------------------------------- search
def test_search_bot_follows_its_base_outside_the_hunt() -> None:
    search = SearchBot(GAME, seed=2)
    base = MaplessHeuristicBot(GAME, 2)
    state = GAME.initial_state(2)
    while state.exit_cell is None:
        legal = GAME.legal_actions(state)
        obs = GAME.observe(state, 0)
        action = search.choose(GAME, obs, legal)
        assert action == base.choose(GAME, obs, legal)
        state = GAME.step(state, action)


class CoinGame:
    """A one-coin game: a chance event (heads 1/4, tails 3/4), then the end."""

    name = "coin"
    num_players = 1

    def current_player(self, state: str) -> int:
        return -1 if state == "start" else cardcrawl.TERMINAL

    def chance_outcomes(self, state: str) -> tuple[tuple[str, Fraction], ...]:
        return (("heads", Fraction(1, 4)), ("tails", Fraction(3, 4)))

    def step(self, state: str, action: str) -> str:
        return action

    def returns(self, state: str) -> tuple[float]:
        return (1.0 if state == "heads" else 0.0,)


def test_chance_leaves_are_exact_when_the_chance_tree_is_small() -> None:
    """Explicit chance: every outcome with its probability, within the budget."""
    assert chance_leaves(CoinGame(), "start", budget=2) == [
        ("heads", Fraction(1, 4)),
        ("tails", Fraction(3, 4)),
    ]
    assert chance_leaves(CoinGame(), "start", budget=1) is None
    assert chance_leaves(CoinGame(), "heads", budget=0) == [("heads", Fraction(1))]


class GambleGame:
    """One decision, ``"safe"`` (return 1/2) or ``"gamble"`` (a coin that pays 1 with
    probability ``win``, else 0). A state is (stage, explicit chance, generator)."""

    name = "gamble-test"
    num_players = 1

    def __init__(self, win: Fraction) -> None:
        self.win = win

    def current_player(self, state: tuple[str, bool, int]) -> int:
        stage = state[0]
        return {"decide": 0, "coin": cardcrawl.CHANCE}.get(stage, cardcrawl.TERMINAL)

    def legal_actions(self, state: tuple[str, bool, int]) -> tuple[str, ...]:
        return ("safe", "gamble") if state[0] == "decide" else ()

    def chance_outcomes(self, state: tuple[str, bool, int]) -> tuple[tuple[str, Fraction], ...]:
        return (("won", self.win), ("lost", 1 - self.win))

    def step(self, state: tuple[str, bool, int], action: str) -> tuple[str, bool, int]:
        _, explicit, rng = state
        if action == "gamble" and not explicit:
            rng, r = rng_below(rng, self.win.denominator)
            return ("won" if r < self.win.numerator else "lost", explicit, rng)
        return ("coin" if action == "gamble" else action, explicit, rng)

    def observe(self, state: tuple[str, bool, int], player: int) -> str:
        return state[0]

    def returns(self, state: tuple[str, bool, int]) -> tuple[float]:
        return ({"won": 1.0, "safe": 0.5}.get(state[0], 0.0),)


class GambleModel:
    """Everything is public; every decision is searched."""

    def sample_state(
        self, game: Any, observation: str, seat: int, seed: int, *, explicit_chance: bool
    ) -> tuple[str, bool, int]:
        return (observation, explicit_chance, seed)

    def evaluate(self, game: Any, observation: str, seat: int) -> float:
        return 0.0

    def candidates(self, game: Any, observation: str, legal_actions: Any) -> list[str]:
        return list(legal_actions)

    def rollout_bot(self, game: Any, seed: int, seat: int) -> Bot:
        return RandomBot(game, seed, seat)


@pytest.mark.parametrize(("win", "exact_limit", "choice"), [
    (Fraction(3, 4), 2, "gamble"),  # exact: 3/4 > 1/2
    (Fraction(1, 4), 2, "safe"),  # exact: 1/4 < 1/2
    (Fraction(3, 4), 0, "gamble"),  # sampled: 64 rollouts tell 3/4 from 1/2
    (Fraction(1, 4), 0, "safe"),
])  # fmt: skip
def test_search_takes_the_action_of_highest_expectation(
    win: Fraction, exact_limit: int, choice: str
) -> None:
    # A game not registered can only be given a model the deprecated way.
    with pytest.warns(DeprecationWarning, match=r"GameTools\(search_model=\.\.\.\)"):
        register_search_model("gamble-test", GambleModel())
    game = GambleGame(win)
    bot = SearchBot(game, seed=7, base=RandomBot, rollouts=64, exact_limit=exact_limit)
    state = ("decide", False, 0)
    if exact_limit:
        assert bot.action_value(game, "decide", "gamble", seed=1) == float(win)
    assert bot.choose(game, "decide", game.legal_actions(state)) == choice
    assert bot.searched == 1


def test_search_bot_with_samples_only_still_plays_legally() -> None:
    bot = SearchBot(GAME, seed=3, rollouts=2, exact_limit=0)
    state, _ = play(GAME, bot, 3)
    assert GAME.outcome(state) is not None


def test_search_departs_from_the_heuristic_only_to_a_candidate() -> None:
    """Where the planner's values settle the decision the search bot plays the heuristic's
    move; elsewhere it picks among the planner's close candidates."""
    model = MaplessSearchModel()
    searched = 0
    for seed in range(6):
        bot = SearchBot(GAME, seed=seed, rollouts=4)
        base = MaplessHeuristicBot(GAME, seed)
        state = GAME.initial_state(seed)
        while not GAME.is_terminal(state):
            legal = GAME.legal_actions(state)
            obs = GAME.observe(state, 0)
            action = bot.choose(GAME, obs, legal)
            candidates = model.candidates(GAME, obs, legal)
            if len(candidates) < 2:
                assert action == base.choose(GAME, obs, legal)
            else:
                assert action in candidates
            state = GAME.step(state, action)
        searched += bot.searched
    assert searched > 0


def test_search_values_a_move_onto_the_open_exit_at_one_without_rollouts() -> None:
    """M-14: stepping onto the Exit with no Stalker on it wins; no chance follows."""
    bot = SearchBot(GAME, seed=0, rollouts=1)
    for seed in range(20):
        state = GAME.initial_state(seed)
        heuristic = MaplessHeuristicBot(GAME, seed)
        while not GAME.is_terminal(state):
            obs = GAME.observe(state, 0)
            legal = GAME.legal_actions(state)
            if obs.phase is Phase.MOVE and Move(obs.exit_cell) in legal:
                value = bot.action_value(GAME, obs, Move(obs.exit_cell), seed=1)
                assert value == (0.0 if obs.spade == obs.exit_cell else 1.0)
                return
            state = GAME.step(state, heuristic.choose(GAME, obs, legal))
    pytest.fail("no game reached a Move onto the Exit")


def test_search_bot_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="rollouts"):
        SearchBot(GAME, seed=0, rollouts=0)
    with pytest.raises(ValueError, match="exact_limit"):
        SearchBot(GAME, seed=0, exact_limit=-1)


# ------------------------------------------------------------ Escape from Haydes
def _haydes() -> Any:
    pytest.importorskip("cardcrawl.haydes")
    return cardcrawl.load("escape-from-haydes", max_rounds=20)


@given(seed=seeds, data=st.data())
def test_haydes_state_rebuilt_from_the_observation_is_the_determinized_state(
    seed: int, data: st.DataObject
) -> None:
    """Haydes deals lazily, so the observation holds all but the generator (H-12)."""
    from cardcrawl.haydes._bots import haydes_state_from_observation

    game = _haydes()
    state = game.initial_state(seed)
    for _ in range(data.draw(st.integers(0, 40), label="random steps first")):
        if game.is_terminal(state):
            break
        legal = game.legal_actions(state)
        state = game.step(state, legal[data.draw(st.integers(0, len(legal) - 1))])
    player = game.current_player(state) if not game.is_terminal(state) else 0
    rebuilt = haydes_state_from_observation(game.observe(state, player), 5)
    assert rebuilt == game.determinize(state, player, 5)


def test_haydes_heuristic_plays_legally_and_replays() -> None:
    game = _haydes()
    for players in (1, 2):
        game = cardcrawl.load("escape-from-haydes", max_rounds=15, players=players)
        for seed in (1, 2):
            runs = []
            for _ in range(2):
                bots = [make_bot("heuristic", game, seed, s) for s in range(players)]
                state = game.initial_state(seed)
                actions = []
                while not game.is_terminal(state):
                    seat = game.current_player(state)
                    legal = game.legal_actions(state)
                    action = bots[seat].choose(game, game.observe(state, seat), legal)
                    assert action in legal
                    actions.append(action)
                    state = game.step(state, action)
                runs.append(actions)
            assert runs[0] == runs[1]


def test_haydes_heuristic_guesses_lower_onto_a_possible_red_joker() -> None:
    """H-9: only *lower* from a card worth 1 or more escapes onto the Red Joker; H-7:
    otherwise the likelier announcement."""
    pytest.importorskip("cardcrawl.haydes")
    from cardcrawl.haydes import Figure, Guess
    from cardcrawl.haydes._bots import HaydesHeuristicBot

    game = cardcrawl.load("escape-from-haydes")
    bot = HaydesHeuristicBot(game, seed=0)

    me = Figure(8, 8, (0, 0))

    def _score(cards: Any, guess: Any, from_value: int, creature: float) -> float:
        return bot._score(game, bot._weighed(game, cards), guess, from_value, creature, me)

    joker = [(_Reveal(Card.RED_JOKER), Fraction(1, 10))]
    high = [(_Reveal(Card.parse(c)), Fraction(1, 10)) for c in ("9S", "9H", "10S")]
    low = [(_Reveal(Card.parse(c)), Fraction(1, 10)) for c in ("2S", "3S", "4S", "5S", "6S", "AS")]
    cards = joker + high + low
    assert _score(cards, Guess.LOWER, 8, 0.6) > _score(cards, Guess.HIGHER, 8, 0.6)
    assert _score(high + low, Guess.LOWER, 8, 0.6) > _score(high + low, Guess.HIGHER, 8, 0.6)
    assert _score(high + low, Guess.HIGHER, 1, 0.6) > _score(high + low, Guess.LOWER, 1, 0.6)
    court = [
        (_Reveal(Card.parse("KS")), Fraction(1, 2)),
        (_Reveal(Card.parse("2S")), Fraction(1, 2)),
    ]
    assert _score(court, Guess.LOWER, 5, 0.6) == pytest.approx(0.5 - 0.3)


class _Reveal:
    def __init__(self, card: Card) -> None:
        self.card = card


def test_haydes_heuristic_faces_a_creature_with_the_higher_characteristic() -> None:
    """H-8: overcome when 2D6 <= the chosen value, so the higher value is the better bet."""
    game = _haydes()
    from cardcrawl.haydes import Choose, Phase

    bot = make_bot("heuristic", game, 0)
    for seed in range(40):
        state = game.initial_state(seed)
        while not game.is_terminal(state) and state.phase is not Phase.ENCOUNTER:
            legal = game.legal_actions(state)
            state = game.step(state, bot.choose(game, game.observe(state, 0), legal))
        if game.is_terminal(state):
            continue
        legal = game.legal_actions(state)
        action = bot.choose(game, game.observe(state, 0), legal)
        assert isinstance(action, Choose)
        me = state.seats[state.current]
        assert me.value(action.characteristic) == max(me.value(a.characteristic) for a in legal)
        return
    pytest.fail("no encounter in 40 games")


def test_a_variant_unknown_to_this_process_still_finds_its_family() -> None:
    """A variant registered in another process (a worker started by spawn) keeps its
    game class, whose ``game_name`` names the family."""
    from cardcrawl.mapless import MaplessHouse

    game = MaplessHouse(GAME.options, name="registered-elsewhere")
    assert game_family(game) == "mapless-house"
    assert isinstance(make_bot("heuristic", game, seed=1), MaplessHeuristicBot)
