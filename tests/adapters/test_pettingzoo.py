"""The PettingZoo adapter (cardcrawl.adapters.pettingzoo): skipped without the extra."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from adapters.conftest import require

require("pettingzoo")
np = require("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import cardcrawl  # noqa: E402
from cardcrawl import IllegalActionError, OptionsError  # noqa: E402
from cardcrawl.adapters.pettingzoo import CardcrawlAECEnv, env, raw_env  # noqa: E402
from cardcrawl.encoding import EncodingError, encoding_for  # noqa: E402

CASES: list[tuple[str, dict[str, Any]]] = [
    ("mapless-house", {"max_turns": 30}),
    ("escape-from-haydes", {"max_rounds": 20}),
    ("escape-from-haydes", {"players": 2, "max_rounds": 20}),
    ("escape-from-haydes", {"players": 4, "max_rounds": 20}),
    ("escape-from-haydes-tuybe", {"players": 3, "max_rounds": 10}),
    ("escape-from-haydes-denizens", {"players": 2, "max_rounds": 10}),
]
IDS = [f"{name}-{opts.get('players', 1)}p" for name, opts in CASES]
# PettingZoo's checker advises plain Box observations; masked classic games use a Dict.
EXPECTED_WARNINGS = ("Observation space for each agent probably", "Observation is not a NumPy")


def _checked(call: Any) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert not unexpected


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_pettingzoo_api_test(name: str, options: dict[str, Any]) -> None:
    _checked(lambda: api_test(env(name, **options), num_cycles=300, verbose_progress=False))


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_pettingzoo_seed_test(name: str, options: dict[str, Any]) -> None:
    _checked(lambda: seed_test(lambda: env(name, **options), num_cycles=300))


def _play(e: Any, seed: int, policy_seed: int) -> tuple[list[Any], dict[str, float]]:
    """Play one masked-random game through agent_iter; return the trace and total rewards."""
    rng = np.random.default_rng(policy_seed)
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    trace: list[Any] = []
    for agent in e.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        trace.append((agent, obs["observation"].tobytes(), reward, terminated, truncated))
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
    return trace, totals


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_random_games_pay_the_games_returns(name: str, options: dict[str, Any]) -> None:
    """Each agent collects exactly its player's return; truncation means the limit."""
    e = CardcrawlAECEnv(name, **options)
    game = e.game
    for seed in range(4):
        _, totals = _play(e, seed, seed)
        end = e.game_state
        assert game.is_terminal(end)
        assert not e.agents  # every agent was stepped out
        returns = game.returns(end)
        assert totals == {f"player_{p}": returns[p] for p in range(game.num_players)}


def test_observations_are_fair_and_written_from_each_seat() -> None:
    """An agent's vector is the encoding of its own observation; only the mover has a mask."""
    e = CardcrawlAECEnv("escape-from-haydes", players=3, max_rounds=10)
    enc = encoding_for(e.game)
    e.reset(seed=3)
    state = e.game_state
    mover = e.agent_selection
    for p, agent in enumerate(e.possible_agents):
        obs = e.observe(agent)
        expected = np.array(enc.encode_observation(e.game.observe(state, p)), np.float32)
        assert np.array_equal(obs["observation"], expected)
        assert e.observation_space(agent).contains(obs)
        if agent == mover:
            legal = {enc.encode_action(a) for a in e.game.legal_actions(state)}
            assert set(np.flatnonzero(obs["action_mask"])) == legal
        else:
            assert not obs["action_mask"].any()
    assert e.agent_selection == f"player_{e.game.current_player(state)}"


def test_a_trapped_player_is_terminated_at_once() -> None:
    """H-11: a player out of the game is done (reward 0) while the others play on."""
    e = CardcrawlAECEnv("escape-from-haydes", players=3, max_rounds=200)
    for seed in range(40):
        trace, _ = _play(e, seed, seed)
        ends = [i for i, (_, _, _, term, trunc) in enumerate(trace) if term or trunc]
        first_end = ends[0]
        if first_end < len(trace) - len(e.possible_agents):
            # Someone finished well before the game did: they were trapped, reward 0.
            agent, _, reward, terminated, _ = trace[first_end]
            assert terminated
            assert reward == 0.0
            later = {a for a, *_ in trace[first_end + 1 :]}
            assert later - {agent}, "the others play on"
            return
    pytest.fail("no game in 40 had a player trapped before the end: the test proves nothing")


def test_who_is_out_is_asked_of_the_games_tools(monkeypatch: pytest.MonkeyPatch) -> None:
    """The adapter ends an agent's episode early where the game's tools say its player
    is out (``players_out``), and nowhere else: it reads no game's state itself."""
    import attrs

    import cardcrawl.adapters.pettingzoo as adapter

    stock = cardcrawl.tools_for("escape-from-haydes")
    stock_out = stock.players_out
    assert stock_out is not None
    game = cardcrawl.load("escape-from-haydes", players=3, max_rounds=200)
    assert stock_out(game, game.initial_state(seed=1)) == frozenset()

    def ends(players_out: Any) -> list[tuple[str, float]]:
        """Who ended before the game did, with what reward, in games played with
        ``players_out`` as the game's tools' answer."""
        tools = attrs.evolve(stock, players_out=players_out)
        monkeypatch.setattr(adapter, "tools_for", lambda _game: tools)
        e = CardcrawlAECEnv("escape-from-haydes", players=3, max_rounds=200)
        early = []
        for seed in range(40):
            trace, _ = _play(e, seed, seed)
            last = len(trace) - len(e.possible_agents)
            early += [
                (agent, reward)
                for i, (agent, _, reward, term, trunc) in enumerate(trace)
                if (term or trunc) and i < last
            ]
        return early

    asked: list[frozenset[int]] = []

    def players_out(game: Any, state: Any) -> frozenset[int]:
        out = frozenset(stock_out(game, state))
        asked.append(out)
        return out

    # The game's answer: trapped players (H-11) are done at once, with nothing won.
    early = ends(players_out)
    assert early, "no game in 40 had a player trapped before the end: this proves nothing"
    assert all(reward == 0.0 for _, reward in early)
    assert any(asked), "the adapter asked the tools"
    # Tools that say nothing: no one ends early, trapped or not.
    assert ends(None) == []


def test_truncation_is_the_round_limit() -> None:
    e = CardcrawlAECEnv("escape-from-haydes", players=2, max_rounds=1)
    trace, _ = _play(e, 0, 0)
    label = e.game.outcome(e.game_state).label
    last_flags = {(term, trunc) for _, _, _, term, trunc in trace[-2:]}
    if label == "time-up":
        assert last_flags == {(False, True)}
    else:
        assert last_flags == {(True, False)}


def test_illegal_action_ends_the_game_with_a_penalty() -> None:
    e = CardcrawlAECEnv("escape-from-haydes", players=2, max_rounds=10)
    e.reset(seed=1)
    offender = e.agent_selection
    mask = e.observe(offender)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[offender] == -1.0
    assert e.infos[offender]["illegal_action"]
    _, reward, terminated, _, _ = e.last()
    assert terminated
    assert reward == -1.0


def test_illegal_action_raises_when_asked() -> None:
    e = CardcrawlAECEnv("mapless-house", illegal_action="raise")
    e.reset(seed=1)
    mask = e.observe("player_0")["action_mask"]
    with pytest.raises(IllegalActionError):
        e.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(EncodingError):
        e.step(-3)
    e.step(int(np.flatnonzero(mask)[0]))  # nothing happened: a legal action still plays


def test_settings_and_helpers() -> None:
    assert raw_env is CardcrawlAECEnv
    with pytest.raises(OptionsError):
        CardcrawlAECEnv("mapless-house", render_mode="human")
    with pytest.raises(OptionsError):
        CardcrawlAECEnv("mapless-house", illegal_action="skip")  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match="loaded already"):
        CardcrawlAECEnv(cardcrawl.load("mapless-house"), max_turns=4)
    e = CardcrawlAECEnv(cardcrawl.load("escape-from-haydes", players=4), render_mode="ansi")
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert e.observation_space("player_1") is e.observation_space("player_1")
    assert e.render() is None
    e.reset(seed=0, options={"stack": {"first_player": [2]}})
    assert e.agent_selection == "player_2"
    assert e.render() == e.game.render(e.game_state)
    e.close()
