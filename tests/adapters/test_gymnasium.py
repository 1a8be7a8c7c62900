"""The Gymnasium adapter (cardcrawl.adapters.gymnasium): skipped without the extra."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from adapters.conftest import require

gym = require("gymnasium")
np = require("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import cardcrawl  # noqa: E402
from cardcrawl import IllegalActionError, OptionsError  # noqa: E402
from cardcrawl.adapters.gymnasium import ENV_IDS, CardcrawlEnv  # noqa: E402
from cardcrawl.encoding import EncodingError, encoding_for  # noqa: E402


def _random_episode(env: Any, seed: int, policy_seed: int) -> list[Any]:
    """Play one masked-random episode; return everything the environment said."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    trace: list[Any] = [obs.tobytes()]
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append((action, obs.tobytes(), reward, terminated, truncated))
        if terminated or truncated:
            return trace


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_registered_environments_pass_the_gymnasium_checker(env_id: str) -> None:
    env = gym.make(env_id, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures
        check_env(env.unwrapped)


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_same_seed_same_episode(env_id: str) -> None:
    first = _random_episode(gym.make(env_id), seed=11, policy_seed=5)
    again = _random_episode(gym.make(env_id), seed=11, policy_seed=5)
    assert first == again
    # The seed reaches the game: the games it deals differ. (Episodes may not: a game
    # registered by another test may show a random policy nothing it can tell apart.)
    dealt = []
    for seed in (11, 12, 13, 14):
        env = gym.make(env_id)
        env.reset(seed=seed)
        dealt.append(env.unwrapped.game_state)
    assert any(state != dealt[0] for state in dealt[1:]), "the seed does not reach the game"


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("mapless-house", {"max_turns": 30}),
        ("escape-from-haydes", {"max_rounds": 10}),
        ("escape-from-haydes-tuybe", {"max_rounds": 10}),
        ("escape-from-haydes-denizens", {"max_rounds": 10}),
    ],
)
def test_mask_observation_and_rewards_follow_the_game(name: str, options: dict[str, Any]) -> None:
    env = CardcrawlEnv(name, **options)
    game, enc = env.game, encoding_for(env.game)
    rng = np.random.default_rng(0)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        while True:
            state = env.game_state
            legal = {enc.encode_action(a) for a in game.legal_actions(state)}
            assert set(np.flatnonzero(info["action_mask"])) == legal
            assert set(np.flatnonzero(env.action_masks())) == legal
            assert obs.dtype == np.float32
            expected = np.array(enc.encode_observation(game.observe(state, 0)), np.float32)
            assert np.array_equal(obs, expected)
            assert env.observation_space.contains(obs)
            action = int(rng.choice(sorted(legal)))
            obs, reward, terminated, truncated, info = env.step(action)
            if not (terminated or truncated):
                assert reward == 0.0
                continue
            end = env.game_state
            assert reward == game.returns(end)[0]
            assert terminated != truncated
            assert truncated == (game.outcome(end).label in ("lost", "time-up"))
            assert info["outcome"] == game.outcome(end).label
            assert not env.action_masks().any()
            break


@pytest.mark.parametrize(
    ("name", "options", "label"),
    [
        ("mapless-house", {"max_turns": 1}, "lost"),
        ("escape-from-haydes", {"max_rounds": 1}, "time-up"),
    ],
)
def test_the_turn_or_round_limit_truncates(name: str, options: dict[str, Any], label: str) -> None:
    """An ending by the limit option is a truncation; any other ending a termination."""
    env = CardcrawlEnv(name, **options)
    seen = {True: 0, False: 0}
    for seed in range(30):
        trace = _random_episode(env, seed=seed, policy_seed=seed)
        _, _, _, terminated, truncated = trace[-1]
        assert truncated == (env.game.outcome(env.game_state).label == label)
        assert terminated == (not truncated)
        seen[truncated] += 1
    assert seen[True] > 0, "no game reached the limit: the test proves nothing"


def test_multiplayer_games_are_refused() -> None:
    with pytest.raises(OptionsError, match="pettingzoo"):
        CardcrawlEnv("escape-from-haydes", players=2)


def test_options_need_a_game_name() -> None:
    with pytest.raises(OptionsError, match="loaded already"):
        CardcrawlEnv(cardcrawl.load("mapless-house"), max_turns=5)
    env = CardcrawlEnv(cardcrawl.load("mapless-house", max_turns=5))
    assert env.game.options.max_turns == 5


def test_bad_settings_are_refused() -> None:
    with pytest.raises(OptionsError):
        CardcrawlEnv("mapless-house", render_mode="human")
    with pytest.raises(OptionsError):
        CardcrawlEnv("mapless-house", illegal_action="ignore")  # type: ignore[arg-type]
    with pytest.raises(cardcrawl.UnknownGameError):
        CardcrawlEnv("chess")


def _an_illegal_index(env: Any, info: dict[str, Any]) -> int:
    return int(np.flatnonzero(info["action_mask"] == 0)[0])


def test_illegal_action_terminates_with_a_penalty_by_default() -> None:
    env = CardcrawlEnv("mapless-house", max_turns=20)
    _, info = env.reset(seed=2)
    before = env.game_state
    _, reward, terminated, truncated, info = env.step(_an_illegal_index(env, info))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.game_state is before  # nothing was played
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)
    env.reset(seed=2)
    _, reward, terminated, _, info = env.step(10**7)  # outside the space: illegal too
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)


def test_illegal_action_raises_when_asked() -> None:
    env = CardcrawlEnv("escape-from-haydes", illegal_action="raise", illegal_reward=-5)
    _, info = env.reset(seed=2)
    with pytest.raises(IllegalActionError):
        env.step(_an_illegal_index(env, info))
    with pytest.raises(EncodingError):
        env.step(env.action_space.n)
    # Nothing happened: a legal action still plays.
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_render_is_the_games_text_picture() -> None:
    env = CardcrawlEnv("escape-from-haydes", render_mode="ansi")
    assert env.render() is None  # nothing to draw before reset
    env.reset(seed=4)
    assert env.render() == env.game.render(env.game_state)
    quiet = CardcrawlEnv("escape-from-haydes")
    quiet.reset(seed=4)
    assert quiet.render() is None


def test_reset_can_stack_the_deck() -> None:
    env = CardcrawlEnv("mapless-house")
    env.reset(seed=0, options={"stack": {"narrative": ["KS"]}})
    assert str(env.game_state.drawn) == "KS"
