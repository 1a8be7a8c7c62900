"""The OpenSpiel adapter (cardcrawl.adapters.openspiel): OpenSpiel's own game checks,
exact chance, information states, resampling, serialization, and bots playing it.

Skipped without ``open-spiel`` installed, unless ``CARDCRAWL_REQUIRE_EXTRAS=1`` (CI).
"""

from __future__ import annotations

import importlib
import itertools
import pickle
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import CHANCE, OptionsError, PlayerError, UnknownGameError
from cardcrawl.encoding import encoding_for

from .conftest import require

pyspiel = require("pyspiel")
np = require("numpy")
# With OpenSpiel present these must import: a failure is an error, never a skip.
osp = importlib.import_module("cardcrawl.adapters.openspiel")
mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
ismcts = importlib.import_module("open_spiel.python.algorithms.ismcts")

#: (OpenSpiel short name, parameters): every game, variant and Haydes seat count tested.
CASES = [
    ("cardcrawl_mapless_house", {}),
    ("cardcrawl_escape_from_haydes", {}),
    ("cardcrawl_escape_from_haydes", {"players": 2, "splits": "7/9;9/7"}),
    ("cardcrawl_escape_from_haydes", {"players": 4}),
    ("cardcrawl_escape_from_haydes", {"variant": "escape-from-haydes-solo-timer"}),
    ("cardcrawl_escape_from_haydes", {"variant": "escape-from-haydes-tuybe", "players": 2}),
    ("cardcrawl_escape_from_haydes", {"variant": "escape-from-haydes-denizens", "players": 3}),
]
IDS = ["mapless", "haydes", "haydes-2", "haydes-4", "solo-timer", "tuybe-2", "denizens-3"]
#: Short games for the tests that walk many states.
SHORT = [
    ("cardcrawl_mapless_house", {"max_turns": 30}),
    ("cardcrawl_escape_from_haydes", {"players": 2, "max_rounds": 4}),
    ("cardcrawl_escape_from_haydes", {"variant": "escape-from-haydes-tuybe", "max_rounds": 4}),
]
SHORT_IDS = ["mapless", "haydes-2", "haydes-tuybe"]


def random_states(game: Any, seed: int, limit: int = 10_000) -> list[Any]:
    """Every state of one random game (chance by its odds, decisions uniform)."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal() and len(states) < limit:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
        states.append(state.clone())
    return states


def finish(game: Any, state: Any, decide: Any, seed: int) -> Any:
    """Play ``state`` to the end: chance by its odds, decisions by ``decide(state)``."""
    rng = np.random.RandomState(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = decide(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


# ------------------------------------------------------------------ OpenSpiel's checks
@pytest.mark.parametrize("serialize", [False, True], ids=["plain", "serialize"])
@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_random_sim_test(name: str, params: dict[str, Any], serialize: bool) -> None:
    # OpenSpiel's own consistency checks: legal actions sorted and masked, chance
    # outcomes summing to 1, unique action strings, clones and (de)serialized states
    # printing alike, returns within the bounds, game length within max_game_length.
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=serialize, verbose=False)


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_game_info_matches_encoding_and_options(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    inner = game.cardcrawl_game
    enc = encoding_for(inner)
    assert game.num_distinct_actions() == enc.num_actions
    assert game.max_chance_outcomes() == enc.num_chance_outcomes
    assert game.num_players() == inner.num_players
    assert game.observation_tensor_shape() == [enc.observation_shape[0]]
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert not game_type.provides_information_state_tensor
    # The limit is always finite: the parameter, else the variant's, else the default.
    spec = cardcrawl.get_spec(inner.name)
    option, default = osp.DEFAULT_LIMITS[spec.base or spec.name]
    expected = params.get(option) or spec.preset.get(option) or default
    assert getattr(inner.options, option) == expected


def test_variant_limits_and_splits() -> None:
    solo = pyspiel.load_game("cardcrawl_escape_from_haydes(variant=escape-from-haydes-solo-timer)")
    assert solo.cardcrawl_game.options.max_rounds == 30  # the variant's own limit
    longer = osp.load_game("escape-from-haydes-solo-timer", max_rounds=50)
    assert longer.cardcrawl_game.options.max_rounds == 50  # the parameter wins
    plain = pyspiel.load_game("cardcrawl_escape_from_haydes")
    assert plain.cardcrawl_game.options.max_rounds == 100
    house = pyspiel.load_game("cardcrawl_mapless_house")
    assert house.cardcrawl_game.options.max_turns == 200
    assert house.max_game_length() == 226
    two = osp.load_game("escape-from-haydes", players=2, splits="7/9; 9/7")
    assert two.cardcrawl_game.options.splits == ((7, 9), (9, 7))
    assert osp.load_game("escape-from-haydes-tuybe").cardcrawl_game.options.tuybe
    assert (
        osp.load_game("escape-from-haydes-denizens").cardcrawl_game.options.creatures == "denizens"
    )


def test_user_variants_load(monkeypatch: pytest.MonkeyPatch) -> None:
    # A private copy of the registry, so the variants below leave with the test.
    registry = cardcrawl.core._registry
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    cardcrawl.register_variant(
        "mapless-house-openspiel-test", base="mapless-house", options={"max_turns": 40},
        replace=True,
    )  # fmt: skip
    game = osp.load_game("mapless-house-openspiel-test")
    assert game.cardcrawl_game.options.max_turns == 40
    assert game.max_game_length() == 66
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    # Registered again with other presets, it is another game.
    cardcrawl.register_variant(
        "mapless-house-openspiel-test", base="mapless-house", options={"max_turns": 45},
        replace=True,
    )  # fmt: skip
    assert osp.load_game("mapless-house-openspiel-test").cardcrawl_game.options.max_turns == 45


@pytest.mark.parametrize(
    ("name", "params", "error"),
    [
        ("cardcrawl_escape_from_haydes", {"variant": "no-such-game"}, UnknownGameError),
        ("cardcrawl_escape_from_haydes", {"variant": "mapless-house"}, OptionsError),
        ("cardcrawl_mapless_house", {"variant": "escape-from-haydes-tuybe"}, OptionsError),
        ("cardcrawl_escape_from_haydes", {"players": 5}, OptionsError),
        ("cardcrawl_escape_from_haydes", {"players": 0}, OptionsError),
        ("cardcrawl_escape_from_haydes", {"splits": "7-9"}, OptionsError),
        ("cardcrawl_escape_from_haydes", {"splits": "10/6"}, OptionsError),
        ("cardcrawl_escape_from_haydes", {"players": 2, "splits": "7/9"}, OptionsError),
        ("cardcrawl_escape_from_haydes", {"max_rounds": -1}, OptionsError),
        ("cardcrawl_mapless_house", {"max_turns": -5}, OptionsError),
    ],
)
def test_invalid_parameters_raise(name: str, params: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        pyspiel.load_game(name, params)


def test_unknown_parameters_and_names_raise() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'turns'"):
        pyspiel.load_game("cardcrawl_mapless_house", {"turns": 3})
    with pytest.raises(OptionsError, match="no parameter 'turns'"):
        osp.game_class("mapless-house")({"turns": 3})  # built directly, past the check
    with pytest.raises(OptionsError, match="the variant is the name given"):
        osp.load_game("mapless-house", variant="mapless-house")
    with pytest.raises(UnknownGameError):
        osp.load_game("chess")
    game = osp.load_game("mapless-house")
    with pytest.raises(OptionsError, match="no parameters"):
        game.make_py_observer(None, {"x": 1})
    with pytest.raises(OptionsError, match="public"):
        game.make_py_observer(
            pyspiel.IIGObservationType(public_info=False, perfect_recall=False), None
        )


def test_mapless_max_game_length_counts_each_kind_of_decision() -> None:
    # The bound is 24 placements + 1 Exit + 1 opening Move + 1 Move per turn: each part
    # is checked on its own over random games that last.
    from cardcrawl.mapless import Phase

    max_turns = 30
    game = osp.load_game("mapless-house", max_turns=max_turns)
    assert game.max_game_length() == 24 + 1 + 1 + max_turns
    for seed in range(4):
        states = random_states(game, seed)
        phases = [s.cardcrawl_state.phase for s in states if s.current_player() >= 0]
        assert phases.count(Phase.PLACE) <= 24
        assert phases.count(Phase.PLACE_EXIT) <= 1
        assert phases.count(Phase.MOVE) <= 1 + states[-1].cardcrawl_state.turn <= 1 + max_turns


# ------------------------------------------------------------------ chance
@pytest.mark.parametrize(("name", "params"), SHORT, ids=SHORT_IDS)
def test_chance_outcomes_are_the_games_exact_odds(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    inner, enc = game.cardcrawl_game, game.encoding
    checked = 0
    for state in random_states(game, seed=5):
        if not state.is_chance_node():
            assert state.chance_outcomes() == []
            continue
        exact = state.exact_chance_outcomes()
        assert sum(p for _, p in exact) == 1
        want = sorted(
            (enc.encode_chance(o), p) for o, p in inner.chance_outcomes(state.cardcrawl_state)
        )
        assert exact == want
        assert state.chance_outcomes() == [(i, float(p)) for i, p in want]
        assert state.legal_actions() == [i for i, _ in want]
        checked += 1
    assert checked > 0


# ------------------------------------------------------------------ information
def every_child(state: Any) -> list[Any]:
    children = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        children.append(child)
    return children


@pytest.mark.parametrize(("name", "params"), SHORT, ids=SHORT_IDS)
def test_every_move_comes_to_light(name: str, params: dict[str, Any]) -> None:
    # Why a player's information state may be the whole history: at every state, the
    # moves possible (decisions and chance outcomes alike) leave every player with
    # different observations, so the history can be read back from the observations.
    game = pyspiel.load_game(name, params)
    states = random_states(game, seed=2)
    for state in states[:: max(1, len(states) // 25)]:
        if state.is_terminal():
            continue
        for player in range(game.num_players()):
            seen = [c.observation_string(player) for c in every_child(state)]
            assert len(set(seen)) == len(seen)


@pytest.mark.parametrize(("name", "params"), SHORT, ids=SHORT_IDS)
def test_information_states_have_perfect_recall(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    states = random_states(game, seed=3)
    for player in range(game.num_players()):
        info = [s.information_state_string(player) for s in states]
        assert len(set(info)) == len(info)  # every history its own information state
        for before, after in itertools.pairwise(info):
            assert after.startswith(before + "\n")  # nothing is ever forgotten
        assert info[0] == f"player {player}"
    # Another game shares the start and parts at its first different move.
    other = random_states(game, seed=4)
    for a, b in zip(states, other, strict=False):
        assert (a.history() == b.history()) == (
            a.information_state_string(0) == b.information_state_string(0)
        )
    for state in states[:5]:
        with pytest.raises(pyspiel.SpielError):
            state.information_state_string(game.num_players())


@pytest.mark.parametrize(("name", "params"), SHORT, ids=SHORT_IDS)
def test_observations_come_from_observe(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    inner, enc = game.cardcrawl_game, game.encoding
    for state in random_states(game, seed=6)[::7]:
        for player in range(game.num_players()):
            observation = inner.observe(state.cardcrawl_state, player)
            tensor = np.asarray(state.observation_tensor(player), np.float32)
            want = np.asarray(enc.encode_observation(observation), np.float32)
            np.testing.assert_array_equal(tensor, want)
            # A state resampled for this player observes the same.
            other = state.resample_from_infostate(
                player, pyspiel.UniformProbabilitySampler(0.0, 1.0)
            )
            assert other.observation_string(player) == state.observation_string(player)
    # The observer's named pieces are the encoding's segments, in order.
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False), None)
    assert list(observer.dict) == [seg.name for seg in enc.layout]
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True), None)
    assert info.tensor is None


@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 10**6))
@pytest.mark.parametrize(("name", "params"), SHORT[1:], ids=SHORT_IDS[1:])
def test_resample_keeps_the_information_state(
    name: str, params: dict[str, Any], seed: int, pick: int
) -> None:
    # OpenSpiel's ResampleInfostateTest, as ISMCTS relies on it.
    game = pyspiel.load_game(name, params)
    states = [s for s in random_states(game, seed % 1000, limit=300) if not s.is_chance_node()]
    state = states[pick % len(states)]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for player in range(game.num_players()):
        other = state.resample_from_infostate(player, sampler)
        assert type(other) is type(state)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.current_player() == state.current_player()
        assert other.legal_actions() == state.legal_actions()
        assert other.history() == state.history()
        assert other.cardcrawl_state is not state.cardcrawl_state
    with pytest.raises(PlayerError):
        state.resample_from_infostate(game.num_players(), sampler)


# ------------------------------------------------------------------ serialization
@pytest.mark.parametrize(("name", "params"), SHORT, ids=SHORT_IDS)
def test_serialization_round_trips(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    states = random_states(game, seed=8)
    for state in (states[0], states[len(states) // 2], states[-1]):
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        for restored in (state2, pickle.loads(pickle.dumps(state))):
            assert restored.cardcrawl_state == state.cardcrawl_state
            assert restored.history() == state.history()
            for p in range(game.num_players()):
                assert restored.information_state_string(p) == state.information_state_string(p)
        assert str(game2) == str(game)
    # A restored state plays on exactly like the original.
    middle = states[len(states) // 3]
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, middle))
    a = finish(game, middle.clone(), lambda s: s.legal_actions()[-1], seed=1)
    b = finish(game, restored, lambda s: s.legal_actions()[-1], seed=1)
    assert a.cardcrawl_state == b.cardcrawl_state
    assert a.returns() == b.returns()


def test_pickled_games_load_alike() -> None:
    game = osp.load_game("escape-from-haydes-denizens", players=2, splits="9/7;8/8")
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    assert again.cardcrawl_game == game.cardcrawl_game


# ------------------------------------------------------------------ determinism
def test_same_actions_give_same_states() -> None:
    game = osp.load_game("escape-from-haydes", players=2, max_rounds=5)
    first = random_states(game, seed=11)
    replay = game.new_initial_state()
    for state in first[1:]:
        replay.apply_action(state.history()[-1])
        assert replay.cardcrawl_state == state.cardcrawl_state
        assert str(replay) == str(state)


def test_cardcrawl_state_never_changes() -> None:
    game = osp.load_game("mapless-house", max_turns=20)
    state = game.new_initial_state()
    inner = state.cardcrawl_state
    saved = game.cardcrawl_game.state_to_data(inner)
    clone = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert clone.cardcrawl_state is inner
    assert game.cardcrawl_game.state_to_data(inner) == saved
    assert state.cardcrawl_state is not inner


def test_illegal_actions_raise_and_change_nothing() -> None:
    game = osp.load_game("mapless-house", max_turns=20)
    state = game.new_initial_state()
    before = state.cardcrawl_state
    missing = next(i for i in range(game.max_chance_outcomes()) if i not in state.legal_actions())
    with pytest.raises(cardcrawl.IllegalActionError):
        state.apply_action(missing)
    assert state.cardcrawl_state is before
    assert state.history() == []


# ------------------------------------------------------------------ bots
def cc_mcts_play(game: Any, simulations: int, seed: int) -> Any:
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 50, False, seed, False)
    # step_with_policy, not step: step releases Python's lock, then calls back into the
    # Python game, which crashes OpenSpiel 2.0 (see the module's documentation).
    return finish(game, game.new_initial_state(), lambda s: bot.step_with_policy(s)[1], seed)


def test_cpp_mcts_finishes_mapless_games_deterministically() -> None:
    game = osp.load_game("mapless-house", max_turns=15)
    ends = []
    for seed in range(2):
        final = cc_mcts_play(game, simulations=8, seed=seed)
        outcome = game.cardcrawl_game.outcome(final.cardcrawl_state)
        assert final.is_terminal()
        assert outcome is not None
        assert final.returns() == list(outcome.returns)
        ends.append(final.history())
    assert cc_mcts_play(game, simulations=8, seed=0).history() == ends[0]


def test_python_mcts_finishes_mapless_games() -> None:
    game = osp.load_game("mapless-house", max_turns=15)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 8, evaluator, solve=False, random_state=np.random.RandomState(1))
    final = finish(game, game.new_initial_state(), bot.step, seed=0)
    assert final.is_terminal()
    outcome = game.cardcrawl_game.outcome(final.cardcrawl_state)
    assert outcome is not None
    assert outcome.label in {"escaped", "consumed", "lost"}


@pytest.mark.parametrize("players", [1, 2])
def test_ismcts_finishes_haydes_games(players: int) -> None:
    game = osp.load_game("escape-from-haydes", players=players, max_rounds=3)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(players))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(7))
    final = finish(game, game.new_initial_state(), lambda s: int(bot.step(s)), seed=players)
    outcome = game.cardcrawl_game.outcome(final.cardcrawl_state)
    assert final.is_terminal()
    assert outcome is not None
    assert final.returns() == list(outcome.returns)
    assert sum(final.returns()) <= 1


def test_ismcts_with_limited_world_samples_plays_tuybe() -> None:
    game = osp.load_game("escape-from-haydes-tuybe", max_rounds=2)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game, evaluator, 2.0, 6, max_world_samples=2, random_state=np.random.RandomState(0)
    )
    final = finish(game, game.new_initial_state(), lambda s: int(bot.step(s)), seed=0)
    assert final.is_terminal()


def test_players_and_chance_numbers_are_openspiels() -> None:
    assert int(pyspiel.PlayerId.CHANCE) == CHANCE
    assert int(pyspiel.PlayerId.TERMINAL) == cardcrawl.TERMINAL
    state = osp.load_game("mapless-house").new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    # 24 Narrative cards: the ♥A cannot come this early (M-10).
    assert {p for _, p in state.exact_chance_outcomes()} == {Fraction(1, 24)}


# ------------------------------------------------------------------ bounds
def _onward(game: Any) -> Any:
    """A Haydes policy that never ends its turn while it can go on: the most decisions a
    turn can hold (H-6, H-7)."""
    from cardcrawl.haydes import EndTurn

    def decide(state: Any, rng: Any) -> int:
        legal = state.legal_actions()
        moves = [a for a in legal if not isinstance(game.encoding.decode_action(a), EndTurn)]
        options = moves or legal
        return int(options[rng.randint(len(options))])

    return decide


def _evasive(game: Any) -> Any:
    """A Mapless House policy that keeps away from the Stalkers: long hunts (M-22)."""
    from cardcrawl.mapless import Move

    def decide(state: Any, rng: Any) -> int:
        inner = state.cardcrawl_state
        legal = state.legal_actions()
        actions = [game.encoding.decode_action(a) for a in legal]
        if isinstance(actions[0], Move):
            stalkers = [c for c in (inner.spade, inner.club) if c is not None]

            def room(move: Any) -> int:
                x, y = move.cell
                return min([4] + [abs(x - sx) + abs(y - sy) for sx, sy in stalkers])

            best = max(room(a) for a in actions)
            legal = [i for i, a in zip(legal, actions, strict=True) if room(a) == best]
        return int(legal[rng.randint(len(legal))])

    return decide


def _uniform(game: Any) -> Any:
    def decide(state: Any, rng: Any) -> int:
        legal = state.legal_actions()
        return int(legal[rng.randint(len(legal))])

    return decide


#: (cardcrawl name, OpenSpiel parameters, policy): games that run long for their bound.
BOUNDED = [
    ("mapless-house", {"max_turns": 20}, _evasive),
    ("mapless-house", {}, _uniform),
    ("escape-from-haydes", {"max_rounds": 3}, _onward),
    ("escape-from-haydes", {"players": 3, "max_rounds": 2}, _uniform),
    ("escape-from-haydes-tuybe", {"players": 2, "max_rounds": 2}, _onward),
    ("escape-from-haydes-denizens", {"players": 2, "max_rounds": 3}, _onward),
]
GAMES = 100
BOUNDED_IDS = ["mapless-20-evasive", "mapless", "haydes-onward", "haydes-3", "tuybe", "denizens"]


def _lengths(game: Any, policy: Any, seed: int) -> tuple[int, int]:
    """The decisions and chance nodes of one game: chance by its odds."""
    rng = np.random.RandomState(seed)
    decide = policy(game)
    state = game.new_initial_state()
    decisions = chances = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            chances += 1
        else:
            state.apply_action(decide(state, rng))
            decisions += 1
    return decisions, chances


@pytest.mark.parametrize(("name", "params", "policy"), BOUNDED, ids=BOUNDED_IDS)
def test_no_game_is_longer_than_max_game_length(name: str, params: Any, policy: Any) -> None:
    """M-22, H-13: with its limit (always set here) a game ends within max_game_length
    decisions, whoever plays it."""
    game = osp.load_game(name, **params)
    longest = max(_lengths(game, policy, seed)[0] for seed in range(GAMES))
    assert longest <= game.max_game_length()
    assert longest > 0


@pytest.mark.parametrize(("name", "params", "policy"), BOUNDED, ids=BOUNDED_IDS)
def test_no_game_has_more_chance_nodes_than_promised(name: str, params: Any, policy: Any) -> None:
    game = osp.load_game(name, **params)
    most = max(_lengths(game, policy, seed)[1] for seed in range(GAMES))
    assert most <= game.max_chance_nodes_in_history()
    assert game.max_history_length() >= game.max_game_length() + most
