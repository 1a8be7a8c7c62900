"""The native vector environment (cardcrawl.adapters.vector) and the compact observations:
skipped without the Gymnasium extra."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from adapters.conftest import require

gym = require("gymnasium")
np = require("numpy")

import cardcrawl  # noqa: E402
from cardcrawl import IllegalActionError, OptionsError  # noqa: E402
from cardcrawl.adapters.gymnasium import ENV_IDS  # noqa: E402
from cardcrawl.adapters.gymnasium import CardcrawlEnv as CardcrawlGymEnv  # noqa: E402
from cardcrawl.adapters.vector import CardcrawlVectorEnv  # noqa: E402
from cardcrawl.encoding import EncodingError, encoding_for  # noqa: E402
from cardcrawl.haydes import EscapeFromHaydes, Guess  # noqa: E402

PLAYED = ("cardcrawl/MaplessHouse-v0", "cardcrawl/EscapeFromHaydesSoloTimer-v0")


def _random_legal(mask: Any, rng: Any) -> Any:
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_every_id_declares_the_native_vector_environment(env_id: str) -> None:
    envs = gym.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, CardcrawlVectorEnv)
    obs, info = envs.reset(seed=0)
    assert obs.shape == envs.observation_space.shape
    assert envs.observation_space.contains(obs)
    assert info["action_mask"].shape == (3, envs.unwrapped.encoding.num_actions)


@pytest.mark.parametrize("observation", ["compact", "vector"])
@pytest.mark.parametrize("env_id", PLAYED)
def test_the_native_env_plays_the_games_of_sync_vector_env(env_id: str, observation: str) -> None:
    """Same seeds and actions: the same rewards, endings, masks and states, across
    autoresets; with flat observations, the same observations too."""
    native = gym.make_vec(
        env_id,
        num_envs=4,
        vectorization_mode="vector_entry_point",
        observation=observation,
        events=True,
    )
    sync = gym.make_vec(env_id, num_envs=4, vectorization_mode="sync")
    got, info = native.reset(seed=7)
    want, sync_info = sync.reset(seed=7)
    rng = np.random.default_rng(3)
    ends = 0
    for _ in range(160):
        actions = _random_legal(info["action_mask"], rng)
        got, rewards, terminated, truncated, info = native.step(actions)
        want, sync_rewards, sync_terminated, sync_truncated, sync_info = sync.step(actions)
        assert np.array_equal(info["action_mask"], sync_info["action_mask"])
        assert np.array_equal(rewards, sync_rewards)
        assert np.array_equal(terminated, sync_terminated)
        assert np.array_equal(truncated, sync_truncated)
        singles = [env.unwrapped.game_state for env in sync.unwrapped.envs]
        assert list(native.unwrapped.game_states) == singles
        if observation == "vector":
            assert np.array_equal(got, want)
        ends += int(terminated.sum() + truncated.sum())
    assert ends > 0, "no game ended: the autoreset was never tried"


def _normalised(observation: Any) -> Any:
    """What the compact row keeps: face-up piles as multisets, no events."""
    return attrs.evolve(
        observation,
        mind_aside=tuple(sorted(observation.mind_aside)),
        body_aside=tuple(sorted(observation.body_aside)),
        refused=tuple(sorted(observation.refused)),
        held=tuple(sorted(observation.held)),
        events=(),
    )


def test_the_mapless_compact_row_holds_the_observation_no_less() -> None:
    """Read back, a row gives the observation it was written from (M-2: every card in
    one place), in every state of many random games."""
    game = cardcrawl.load("mapless-house", max_turns=100)
    compact = encoding_for(game).compact()
    assert compact is not None
    seen = 0
    for seed in range(12):
        state, rng = game.initial_state(seed), random.Random(seed)
        while True:
            observation = game.observe(state, 0)
            assert compact.read(compact.encode(observation)) == _normalised(observation)
            seen += 1
            if game.is_terminal(state):
                break
            state = game.step(state, rng.choice(game.legal_actions(state)))
    assert seen > 300


def test_the_mapless_compact_row_holds_no_more_than_the_observation() -> None:
    """Two states that differ only in what the player cannot know (the decks' order,
    the generator) give the same row; and a row is written from the observation alone."""
    game = cardcrawl.load("mapless-house", max_turns=100)
    compact = encoding_for(game).compact()
    assert compact is not None
    state, rng = game.initial_state(4), random.Random(4)
    compared = 0
    while not game.is_terminal(state):
        other = game.determinize(state, 0, seed=rng.randrange(2**32))
        assert other != state
        assert compact.encode(game.observe(other, 0)) == compact.encode(game.observe(state, 0))
        compared += 1
        state = game.step(state, rng.choice(game.legal_actions(state)))
    assert compared > 10
    with pytest.raises(EncodingError, match="MaplessObservation"):
        compact.encode(state)
    with pytest.raises(EncodingError, match="178 bytes"):
        compact.read(b"\0" * 10)


@pytest.mark.parametrize(
    ("name", "options"),
    [("mapless-house", {"max_turns": 30}), ("escape-from-haydes", {"max_rounds": 20})],
)
def test_a_compact_row_is_written_in_place_into_the_batch_array(
    name: str, options: dict[str, Any]
) -> None:
    envs = CardcrawlVectorEnv(name, num_envs=3, copy=False, **options)
    obs, info = envs.reset(seed=2)
    compact = envs.compact
    assert compact is not None
    for i, state in enumerate(envs.game_states):
        assert obs[i].tobytes() == compact.encode(envs.game.observe(state, 0))
    again, *_ = envs.step(info["action_mask"].argmax(axis=1))
    assert again is obs, "copy=False hands out the batch's own array"
    assert not obs.flags.writeable, "a row written in part must not be changed by its reader"
    for i, state in enumerate(envs.game_states):
        assert obs[i].tobytes() == compact.encode(envs.game.observe(state, 0))


def test_an_illegal_action_ends_that_episode_and_the_next_step_resets_it() -> None:
    envs = CardcrawlVectorEnv("mapless-house", num_envs=2, max_turns=30)
    _, info = envs.reset(seed=1)
    legal = info["action_mask"].argmax(axis=1)
    illegal = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    _, rewards, terminated, _, info = envs.step(np.array([legal[0], illegal]))
    assert rewards.tolist() == [0.0, -1.0]
    assert terminated.tolist() == [False, True]
    assert info["illegal_action"].tolist() == [False, True]
    assert not info["action_mask"][1].any()
    before = envs.game_states[1]
    _, rewards, terminated, _, info = envs.step(np.array([0, 0]))  # env 1 resets
    assert envs.game_states[1] != before
    assert info["action_mask"][1].any()
    assert rewards[1] == 0.0
    assert not terminated[1]


@pytest.mark.parametrize("env_id", ["escape-from-haydes-solo-timer", "mapless-house"])
def test_numbers_outside_the_actions_are_illegal_or_typed_errors(env_id: str) -> None:
    # Negative, too large, or too large for a machine integer (uint64): an illegal
    # action that ends the episode, or an EncodingError in "raise" mode.
    outside = np.array([2**63, 10**6, 2**64 - 1], dtype=np.uint64)
    for actions in (np.array([-1, 10**6, 10**12]), outside):
        envs = CardcrawlVectorEnv(env_id, num_envs=3)
        envs.reset(seed=2)
        _, rewards, terminated, _, info = envs.step(actions)
        assert info["illegal_action"].tolist() == [True, True, True]
        assert rewards.tolist() == [-1.0, -1.0, -1.0]
        assert terminated.all()
        assert not info["action_mask"].any()
        strict = CardcrawlVectorEnv(env_id, num_envs=3, illegal_action="raise")
        strict.reset(seed=2)
        with pytest.raises(EncodingError, match="out of range"):
            strict.step(actions)


def test_raise_mode_and_bad_arguments_get_typed_errors() -> None:
    envs = CardcrawlVectorEnv("mapless-house", num_envs=2, illegal_action="raise")
    with pytest.raises(IllegalActionError, match="reset"):
        envs.step(np.array([0, 0]))
    _, info = envs.reset(seed=1)
    with pytest.raises(IllegalActionError):
        envs.step(np.array([0, int(np.flatnonzero(info["action_mask"][1] == 0)[0])]))
    with pytest.raises(EncodingError, match="one per environment"):
        envs.step(np.array([0, 0, 0]))
    with pytest.raises(EncodingError, match="one per environment"):
        envs.step(np.array([0.5, 1.0]))
    with pytest.raises(OptionsError, match="one seed per environment"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(OptionsError, match="num_envs"):
        CardcrawlVectorEnv("mapless-house", num_envs=0)
    with pytest.raises(OptionsError, match="observation"):
        CardcrawlVectorEnv("mapless-house", observation="pixels")
    with pytest.raises(OptionsError, match="single-player"):
        CardcrawlVectorEnv("escape-from-haydes", num_envs=2, players=2)


def test_each_environment_replays_alone_from_its_seed() -> None:
    """Environment i of reset(seed=s) plays the game of a single environment seeded s + i."""
    envs = CardcrawlVectorEnv("escape-from-haydes", num_envs=3, max_rounds=20, events=True)
    envs.reset(seed=[10, None, 12])
    single = gym.make("cardcrawl/EscapeFromHaydes-v0", max_rounds=20)
    single.reset(seed=12)
    assert envs.game_states[2] == single.unwrapped.game_state


class Generous(EscapeFromHaydes):
    """Every guess is right (H-7 changed): a hook whose answer differs from the stock one."""

    rules_version = f"{EscapeFromHaydes.rules_version}-generous.1"

    def guess_is_correct(self, guess: Guess, from_value: int, value: int) -> bool:
        return True


def test_a_variants_hooks_are_honoured_in_the_vector_env_as_in_single_envs() -> None:
    """The variant's games in the vector env are those of its single environments, and
    not those of the stock game: the hook is asked by the same rules."""
    options = cardcrawl.load("escape-from-haydes", max_rounds=30).options
    variant, stock = Generous(options), cardcrawl.load("escape-from-haydes", max_rounds=30)
    native = CardcrawlVectorEnv(variant, num_envs=3, events=True)
    plain = CardcrawlVectorEnv(stock, num_envs=3, events=True)
    singles = [CardcrawlGymEnv(variant) for _ in range(3)]
    _, info = native.reset(seed=5)
    plain.reset(seed=5)
    for i, env in enumerate(singles):
        env.reset(seed=5 + i)
    rng = np.random.default_rng(0)
    differ = 0
    for _ in range(60):
        actions = _random_legal(info["action_mask"], rng)
        _, rewards, terminated, truncated, info = native.step(actions)
        plain.step(actions)
        for i, env in enumerate(singles):
            if env.unwrapped.game.is_terminal(env.unwrapped.game_state):
                env.reset()
                continue
            _, reward, done, cut, _ = env.step(int(actions[i]))
            assert (reward, done, cut) == (rewards[i], terminated[i], truncated[i])
        assert list(native.game_states) == [env.unwrapped.game_state for env in singles]
        differ += native.game_states != plain.game_states
    assert differ > 0, "the variant played the stock game"
