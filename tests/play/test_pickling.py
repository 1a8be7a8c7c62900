"""Everything a user holds pickles and deep-copies: games, states, observations,
actions, records, matches, bots and simulation results.

Multiprocessing, caching and notebooks rely on it. Each object goes through
``pickle`` at every protocol and through ``copy.deepcopy``; the copy must be equal
(where the class defines equality) and behave the same: a copied game plays the same
seeded game, a copied match goes on as the original does, a copied bot chooses what
the original chooses.
"""

from __future__ import annotations

import copy
import itertools
import pickle
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl import CHANCE, Match, Record, rng_below, rng_from_seed
from cardcrawl.bots import bot_names, make_bot
from cardcrawl.core._registry import game_names
from cardcrawl.simulate import simulate

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)

# Every registered game and variant, each with a limit so random play ends quickly.
LIMITS = {"mapless-house": {"max_turns": 40}}
HAYDES_LIMIT = {"max_rounds": 30}


def loaded(name: str, **options: Any) -> Any:
    limit = LIMITS.get(name, HAYDES_LIMIT if name.startswith("escape-from-haydes") else {})
    return cardcrawl.load(name, **{**limit, **options})


GAMES = [name for name in game_names() if name in LIMITS or name.startswith("escape")]


def copies(value: Any) -> Iterator[tuple[str, Any]]:
    """``value`` through pickle at every protocol, and through copy.deepcopy."""
    for protocol in PROTOCOLS:
        yield f"pickle protocol {protocol}", pickle.loads(pickle.dumps(value, protocol))
    yield "deepcopy", copy.deepcopy(value)


def random_play(game: Any, seed: int, *, explicit: bool = False, steps: int = 400) -> list[Any]:
    """The states of a seeded random game (chance outcomes drawn too, when explicit)."""
    state = game.initial_state(seed, explicit_chance=explicit)
    states = [state]
    rng = rng_from_seed(seed)
    while not game.is_terminal(state) and len(states) < steps:
        if game.current_player(state) == CHANCE:
            options = [a for a, _ in game.chance_outcomes(state)]
        else:
            options = list(game.legal_actions(state))
        rng, i = rng_below(rng, len(options))
        state = game.step(state, options[i])
        states.append(state)
    return states


def test_the_games_tested_include_every_stock_game_and_variant() -> None:
    assert {"mapless-house", "escape-from-haydes"} <= set(GAMES)
    assert len(GAMES) >= 5


@pytest.mark.parametrize("name", GAMES)
def test_a_game_pickles_and_copies_to_an_equal_game_that_plays_alike(name: str) -> None:
    game = loaded(name)
    expected = random_play(game, 7)
    for how, again in copies(game):
        assert again == game, how
        assert type(again) is type(game), how
        assert again.name == game.name, how
        assert again.options == game.options, how
        # The copy plays the same seeded game, state for state.
        assert random_play(again, 7) == expected, how


def test_a_game_with_options_of_its_own_keeps_them() -> None:
    lines = {card.code: f"line {card.code}" for card in cardcrawl.mapless.PLACEABLE_CARDS}
    game = loaded("mapless-house", max_turns=12, dread_lines=lines)
    for how, again in copies(game):
        assert again == game, how
        assert dict(again.options.dread_lines) == lines, how
        assert again.options.max_turns == 12, how


@pytest.mark.parametrize("name", ["mapless-house", "escape-from-haydes"])
@pytest.mark.parametrize("explicit", [False, True], ids=["sampled", "explicit"])
def test_states_observations_and_actions_pickle_along_a_game(name: str, explicit: bool) -> None:
    """Every few states of a random game: the copy is equal, steps to the same state,
    and is seen alike; its observations and legal actions copy equal too."""
    game = loaded(name, players=2) if name.startswith("escape") else loaded(name)
    states = random_play(game, 3, explicit=explicit)
    assert len(states) > 10
    for state, after in list(itertools.pairwise(states))[::7]:
        action = next(a for a in [*game.legal_actions(state), *outcomes(game, state)]
                      if game.step(state, a) == after)  # fmt: skip
        for how, again in copies(state):
            assert again == state, how
            assert hash(again) == hash(state), how
            game.validate(again)
            assert game.step(again, action) == after, how
            assert game.legal_actions(again) == game.legal_actions(state), how
        for seat in range(game.num_players):
            seen = game.observe(state, seat)
            for how, again in copies(seen):
                assert again == seen, how
        for how, again in copies(game.legal_actions(state)):
            assert again == game.legal_actions(state), how
    final = states[-1]
    for how, again in copies(game.outcome(final)):
        assert again == game.outcome(final), how


def outcomes(game: Any, state: Any) -> list[Any]:
    return [a for a, _ in game.chance_outcomes(state)]


def test_a_copied_state_starts_its_cache_afresh() -> None:
    game = loaded("mapless-house")
    state = game.initial_state(seed=1)
    game.legal_actions(state)
    assert state._memo
    for how, again in copies(state):
        assert again._memo == {}, how
        assert game.legal_actions(again) == game.legal_actions(state), how


# ------------------------------------------------------------------ records
def records() -> list[Record]:
    game = loaded("mapless-house")
    states = random_play(game, 5)
    actions = [game.legal_actions(s)[0] for s in states[:1]]
    haydes = loaded("escape-from-haydes", players=2)
    first = haydes.initial_state(seed=2)
    return [
        Record.of(game, seed=5, actions=actions),
        Record.of(game, seed=1, actions=["place 1,0"], stack={"narrative": "KS 5C", "mind": "2H"}),
        Record.of(haydes, seed=2, actions=[haydes.legal_actions(first)[0]]),
        # A record without claims (format 1).
        Record(game="mapless-house", options={}, seed=4, actions=(), rules_version="2"),
    ]


@pytest.mark.parametrize("index", range(4))
def test_a_record_pickles_and_copies_to_an_equal_record_that_replays(index: int) -> None:
    record = records()[index]
    final = record.replay()
    for how, again in copies(record):
        assert again == record, how
        assert again.to_json() == record.to_json(), how
        assert again.verified == record.verified, how
        assert again.replay() == final, how
        # The copy is frozen like the original: its options and stack stay read-only.
        with pytest.raises(TypeError):
            again.options["seed"] = 1  # type: ignore[index]


def test_a_record_claims_copy_equal() -> None:
    claims = records()[0].claims
    assert claims is not None
    for how, again in copies(claims):
        assert again == claims, how


# ------------------------------------------------------------------ matches
def match_states(match: Match) -> tuple[Any, ...]:
    return (match.states, match.actions, match.can_undo, match.can_redo, match.fair_undo)


@pytest.mark.parametrize(
    "start",
    [
        lambda: Match.start(loaded("mapless-house"), seed=4, fair_undo=False),
        lambda: Match.start(
            loaded("mapless-house"), seed=1, stack={"narrative": ["KS", "5C"]}, explicit_chance=True
        ),
        lambda: Match.start(loaded("escape-from-haydes", players=3), seed=6),
    ],
    ids=["undo", "stacked-explicit", "haydes"],
)
def test_a_match_pickles_and_copies_and_goes_on_alike(start: Callable[[], Match]) -> None:
    match = start()
    for i in range(6):
        game = match.game
        state = match.state
        legal = game.legal_actions(state) or tuple(outcomes(game, state))
        match.play(legal[i % len(legal)])
    undone = match.undo() if match.can_undo else None
    for how, again in copies(match):
        assert match_states(again) == match_states(match), how
        assert again.game == match.game, how
        assert again.seed == match.seed, how
        assert again.to_record() == match.to_record(), how
        if undone is not None:
            redone = copy.deepcopy(again)
            assert redone.redo().state == undone.state, how
        # Both go on to the same states.
        twin = copy.deepcopy(match)
        for _ in range(3):
            if twin.game.is_terminal(twin.state):
                break
            legal = twin.game.legal_actions(twin.state) or tuple(outcomes(twin.game, twin.state))
            twin_after = twin.play(legal[0])
            again_legal = again.game.legal_actions(again.state) or tuple(
                outcomes(again.game, again.state)
            )
            assert again.play(again_legal[0]) == twin_after, how


def test_a_match_replayed_from_a_stacked_record_pickles() -> None:
    record = records()[1]
    match = Match.from_record(record)
    for how, again in copies(match):
        assert again.state == match.state, how
        assert again.to_record() == record, how


# --------------------------------------------------------------------- bots
BOTS = [
    (name, bot)
    for name in ("mapless-house", "escape-from-haydes")
    for bot in bot_names(loaded(name))
    if bot != "engine"  # a program started per copy: tests/engine/ checks its copies
]


@pytest.mark.parametrize(("name", "bot_name"), BOTS)
def test_a_bot_pickles_and_copies_and_chooses_as_the_original(name: str, bot_name: str) -> None:
    """A copy made mid-game (its generator part way) chooses what the original chooses."""
    game = loaded(name, players=2) if name.startswith("escape") else loaded(name)
    # IS-MCTS's default budget (1000 iterations a decision) would take minutes here.
    options = {"iterations": 10} if bot_name == "ismcts" else {}
    bot = make_bot(bot_name, game, seed=11, **options)
    state = game.initial_state(seed=11)

    def choose(player: Any, state: Any) -> Any:
        seat = game.current_player(state)
        return player.choose(game, game.observe(state, seat), game.legal_actions(state))

    # Play a few decisions with the bot on every seat, then copy it.
    for _ in range(3):
        state = game.step(state, choose(bot, state))
    for how, again in copies(bot):
        assert type(again) is type(bot), how
        mine, theirs, copied = state, state, again
        original = copy.deepcopy(bot)  # left as it was, for the next copy
        for _ in range(3):
            if game.is_terminal(mine):
                break
            action = choose(original, mine)
            assert choose(copied, theirs) == action, how
            mine = theirs = game.step(mine, action)


# ------------------------------------------------------------------ results
def test_simulation_results_pickle_and_copy_equal() -> None:
    result = simulate(loaded("mapless-house", max_turns=15), games=3, seed=2, workers=1)
    summary = result.summary()
    for value in (result, result.results[0], summary):
        for how, again in copies(value):
            assert again == value, how
    haydes = simulate(loaded("escape-from-haydes", players=2, max_rounds=10), games=2, seed=2)
    for how, again in copies(haydes):
        assert again == haydes, how
        assert again.to_json() == haydes.to_json(), how


# --------------------------------------------------------- the test can fail
def test_the_round_trip_check_sees_a_difference() -> None:
    """The checks above compare copies with ==: a changed copy would be seen."""
    game = loaded("mapless-house")
    state = game.initial_state(seed=1)
    changed = attrs.evolve(state, turn=state.turn + 1)
    assert all(again != changed for _, again in copies(state))
    assert loaded("mapless-house", max_turns=41) != game


# -------------------------------------------------------------------- reprs
@pytest.mark.parametrize("name", ["mapless-house", "escape-from-haydes"])
def test_a_state_repr_is_short_and_readable(name: str) -> None:
    """The repr of every state of a random game is its position notation (the Haydes
    state's was 6,265 characters long): a line of text ``game.position`` reads back,
    and an observation's repr is its observation notation."""
    game = loaded(name, players=3) if name.startswith("escape") else loaded(name)
    kind = type(game.initial_state(seed=1)).__name__
    for explicit in (False, True):
        states = random_play(game, 9, explicit=explicit)
        for state in states:
            shown = repr(state)
            assert shown == f"<{kind} {game.notation(state)!r}>"
            assert len(shown) < 1000
            observation = game.observe(state, 0)
            assert repr(observation) == f"<{type(observation).__name__} " + (
                f"{game.observation_notation(observation)!r}>"
            )
    junk = attrs.evolve(states[-1], phase=None)
    assert repr(junk).startswith(f"<{kind}")
