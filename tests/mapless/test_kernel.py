"""The rollout kernel of The Mapless House plays the public path's games, seed by seed."""

from __future__ import annotations

from typing import Any

import pytest

import cardcrawl
from cardcrawl.bots import RandomBot
from cardcrawl.core import _registry
from cardcrawl.errors import ConformanceError
from cardcrawl.mapless import MaplessHouse, _kernel
from cardcrawl.simulate import simulate
from cardcrawl.testing import check_kernel

# Where the kernel is compiled, its own calls to _run never look the name up again, so a
# patched _run would go unseen: these faults are planted in the pure-Python kernel only.
python_kernel_only = pytest.mark.skipif(
    "mapless-house" in cardcrawl.compiled_kernels(), reason="the kernel is compiled"
)


@pytest.mark.parametrize(("max_turns", "seeds"), [(200, 1200), (1, 300), (6, 300), (40, 300)])
def test_the_kernel_plays_the_public_games(max_turns: int, seeds: int) -> None:
    game = cardcrawl.load("mapless-house", max_turns=max_turns)
    assert check_kernel(game, seeds=range(seeds)) == seeds


def test_the_kernel_plays_the_public_games_without_a_turn_limit() -> None:
    game = cardcrawl.load("mapless-house")
    assert check_kernel(game, seeds=range(10_000, 10_300)) == 300


def test_games_cut_off_by_max_decisions_are_left_to_the_public_path() -> None:
    game = cardcrawl.load("mapless-house", max_turns=200)
    # Random games take about 35 decisions: with 30, many are cut off, some end.
    assert check_kernel(game, seeds=range(200), max_decisions=30) == 200
    outcomes = {_kernel.play_random(game, seed, 30) is None for seed in range(200)}
    assert outcomes == {True, False}


def test_dread_lines_of_its_own_word_the_last_events_as_the_public_path_does() -> None:
    from cardcrawl.mapless._dread import STANDARD_DREAD_LINES

    lines = {code: f"{code} creaks." for code in STANDARD_DREAD_LINES}
    game = cardcrawl.load("mapless-house", max_turns=30, dread_lines=lines)
    assert _kernel.kernel_for(game) is not None
    assert check_kernel(game, seeds=range(200)) == 200


class Patient(MaplessHouse):
    """The Stalkers never move (M-18 overridden)."""

    rules_version = f"{MaplessHouse.rules_version}-patient.1"

    def stalker_step(self, state: Any, stalker: Any, cell: Any) -> Any:
        return cell


class Heavy(MaplessHouse):
    """Every card is worth one more (M-1 overridden)."""

    def card_value(self, card: Any) -> int:
        return super().card_value(card) + 1


class Renamed(MaplessHouse):
    """The stock rules under another name: they may keep the kernel."""

    game_name = "mapless-house-renamed"
    title = "The Mapless House, renamed"


def _public(game: Any, seed: int) -> tuple[str, int, int]:
    """One random game through legal_actions and step: outcome, decisions, turns."""
    state, bot, decisions = game.initial_state(seed), RandomBot(game, seed, 0), 0
    while not game.is_terminal(state):
        state = game.step(state, bot.choose(game, None, game.legal_actions(state)))
        decisions += 1
    return game.outcome(state).label, decisions, state.turn


@pytest.mark.parametrize("variant", [Patient, Heavy])
def test_a_variant_that_overrides_a_hook_has_no_kernel(variant: type[MaplessHouse]) -> None:
    game = variant(cardcrawl.load("mapless-house", max_turns=25).options)
    assert _kernel.kernel_for(game) is None
    assert check_kernel(game, seeds=range(5)) == 0
    run = simulate(game, "random", games=40, seed=3, workers=1)
    assert [(r.outcome, r.decisions, r.figure("turns")) for r in run.results] == [
        _public(game, r.seed) for r in run.results
    ]


def test_the_variants_results_are_their_own() -> None:
    stock = cardcrawl.load("mapless-house", max_turns=25)
    patient = Patient(stock.options)
    ours = simulate(patient, "random", games=40, seed=3, workers=1).results
    theirs = simulate(stock, "random", games=40, seed=3, workers=1).results
    # The Stalkers that never move consume no one who keeps away from the Exit.
    assert [r.outcome for r in ours] != [r.outcome for r in theirs]


def test_an_instance_that_shadows_a_hook_has_no_kernel() -> None:
    game = cardcrawl.load("mapless-house", max_turns=25)
    game.stalker_step = lambda state, stalker, cell: cell  # type: ignore[method-assign]
    assert _kernel.kernel_for(game) is None


@pytest.fixture
def registry_kept() -> Any:
    """The registry as it was, once the test is over."""
    before = dict(_registry._REGISTRY)
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(before)


def test_a_class_that_only_renames_the_game_keeps_the_kernel(registry_kept: Any) -> None:
    game = Renamed(cardcrawl.load("mapless-house", max_turns=25).options)
    assert _kernel.kernel_for(game) is not None
    # Unregistered, it has no tools, so no kernel; registered with the game's, it has.
    assert check_kernel(game, seeds=range(5)) == 0
    cardcrawl.register_game(Renamed.game_name, Renamed, tools=cardcrawl.tools_for("mapless-house"))
    assert check_kernel(game, seeds=range(50)) == 50


def test_playing_a_game_keeps_the_kernel() -> None:
    # Playing fills in caches on the game (its dread lines): they are no rules.
    game = cardcrawl.load("mapless-house", max_turns=25)
    _public(game, 1)
    assert _kernel.kernel_for(game) is not None


def test_a_broken_kernel_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardcrawl.load("mapless-house", max_turns=200)
    # The Encounter's totals one higher: some player holds their nerve who should not.
    monkeypatch.setattr(
        _kernel, "_VALUE", tuple(v + (13 <= i <= 38) for i, v in enumerate(_kernel._VALUE))
    )
    with pytest.raises(ConformanceError, match="seed"):
        check_kernel(game, seeds=range(200))


def test_a_kernel_whose_last_events_differ_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardcrawl.load("mapless-house", max_turns=200)
    build = list(_kernel._BUILD)
    build[_kernel._E_MOVED] = lambda game, source, target: _kernel.Moved(
        _kernel._CELL[target], _kernel._CELL[source]
    )
    monkeypatch.setattr(_kernel, "_BUILD", tuple(build))
    with pytest.raises(ConformanceError, match="events differ"):
        check_kernel(game, seeds=range(50))


@python_kernel_only
def test_a_kernel_that_draws_in_another_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardcrawl.load("mapless-house", max_turns=200)
    # Drawing Mind and Body cards from a generator one step ahead changes the games.
    original = _kernel._run

    def shifted(game: Any, state: Any, seed: int, kind: int, max_decisions: int) -> Any:
        return original(
            game, state, (seed + 1) % (1 << 64) if state is None else seed, kind, max_decisions
        )

    monkeypatch.setattr(_kernel, "_run", shifted)
    with pytest.raises(ConformanceError, match="seed 0"):
        check_kernel(game, seeds=range(5))


@pytest.mark.parametrize("max_turns", [3, 200])
def test_simulate_gives_the_public_paths_results(
    monkeypatch: pytest.MonkeyPatch, max_turns: int
) -> None:
    game = cardcrawl.load("mapless-house", max_turns=max_turns)
    used = []

    def spy(*args: Any) -> Any:
        played = rollout(*args)
        used.append(played is not None)
        return played

    rollout = _kernel.random_rollout
    monkeypatch.setattr(_kernel, "random_rollout", spy)
    fast = simulate(game, "random", games=150, seed=9, workers=1).results
    assert used
    assert all(used)  # the kernel played every game
    monkeypatch.setattr(_kernel, "random_rollout", lambda *args: None)
    assert simulate(game, "random", games=150, seed=9, workers=1).results == fast


def test_simulate_with_another_bot_or_a_position_plays_the_public_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cardcrawl.load("mapless-house", max_turns=50)
    monkeypatch.setattr(_kernel, "random_rollout", _refuse)
    simulate(game, "heuristic", games=3, seed=1, workers=1)
    position = game.notation(game.initial_state(4))
    simulate(game, "random", games=3, seed=1, workers=1, position=position)


def _refuse(*args: Any) -> Any:
    raise AssertionError("the kernel was asked to play")


@python_kernel_only
def test_a_kernel_that_tells_simulate_other_figures_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cardcrawl.load("mapless-house", max_turns=200)
    original = _kernel._run

    def miscounted(*args: Any, **options: Any) -> Any:
        played = original(*args, **options)
        if options.get("build", True) or played is None:
            return played
        facts, decisions, house_at_exit = played
        return facts, decisions, house_at_exit + 1

    monkeypatch.setattr(_kernel, "_run", miscounted)
    with pytest.raises(ConformanceError, match="gives simulate"):
        check_kernel(game, seeds=range(5))


def test_a_class_patched_before_its_first_game_has_no_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(MaplessHouse, "stalker_step", Patient.stalker_step)

    class Later(MaplessHouse):
        """Made after the patch: it inherits the patched hook."""

    assert _kernel.kernel_for(Later()) is None
