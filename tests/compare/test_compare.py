"""cardcrawl.compare: the same bots on the same seeds, each variant against the first."""

from __future__ import annotations

import math

import pytest

import cardcrawl
from cardcrawl.compare import (
    Measure,
    compare,
    load_arm,
    measure_keys,
    paired_difference,
    split_arm,
)
from cardcrawl.errors import OptionsError, UnknownGameError
from cardcrawl.haydes import EscapeFromHaydes
from cardcrawl.simulate import GameResult, simulate

STOCK = "escape-from-haydes(max_rounds=30)"


def test_identical_games_differ_by_zero_in_every_measure() -> None:
    found = compare([STOCK, STOCK], "random", games=60, seed=3, workers=1)
    assert found.games == 60
    assert found.measures
    for d in found.differences[0]:
        assert d.difference.estimate == 0.0
        assert not d.differs
        assert d.verdict == "not shown to differ at 60 games"


def test_a_shorter_game_is_found_different() -> None:
    """H-13: a round limit of 3 stops every game by round 3."""
    found = compare([STOCK, "escape-from-haydes(max_rounds=3)"], "random", games=60, workers=1)
    rounds = found.difference("rounds")
    assert rounds.differs
    assert rounds.verdict == "different"
    assert rounds.difference.high < 0
    assert found.difference("rate:time-up").difference.low > 0


class _EqualCounts(EscapeFromHaydes):
    """An equal value is a correct guess (against H-7)."""

    rules_version = f"{EscapeFromHaydes.rules_version}-test-equal.1"

    def guess_is_correct(self, guess, from_value, value):  # type: ignore[no-untyped-def]
        return value == from_value or super().guess_is_correct(guess, from_value, value)


def test_a_hook_variant_is_compared_game_by_game_on_the_same_deals() -> None:
    cardcrawl.register_variant(
        "escape-from-haydes-test-equal",
        base="escape-from-haydes",
        game_class=_EqualCounts,
        options={"max_rounds": 30},
        replace=True,
    )
    stock = cardcrawl.load("escape-from-haydes", max_rounds=30)
    equal = cardcrawl.load("escape-from-haydes-test-equal")
    found = compare([stock, equal], "random", games=300, seed=5, workers=1)
    # More guesses are right under the variant (H-7 changed): shown in 300 games.
    assert found.difference("correct").difference.low > 0
    base, variant = (arm.simulation.results for arm in found.arms)
    assert [r.seed for r in base] == [r.seed for r in variant]
    # The deal is shared: the games that never turn an equal value play out alike.
    alike = sum(b == v for b, v in zip(base, variant, strict=True))
    assert alike > 0


def test_pairs_are_games_of_the_same_seed_and_the_same_deal() -> None:
    """Common random numbers: a limit the games never reach changes none of them."""
    found = compare(
        ["mapless-house(max_turns=200)", "mapless-house(max_turns=150)"],
        "random",
        games=40,
        seed=2,
        workers=1,
    )
    base, variant = (arm.simulation.results for arm in found.arms)
    assert [b.figures for b in base] == [v.figures for v in variant]
    assert all(d.difference.estimate == 0 for d in found.differences[0])


def test_paired_difference_by_hand() -> None:
    m = Measure("x", "x", lambda r: r)
    d = paired_difference(m, [1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 5.0, 5.0])
    # differences 1, 0, 2, 1: mean 1, sample variance 2/3
    assert d.difference.estimate == 1.0
    half = 1.959963984540054 * math.sqrt((2 / 3) / 4)
    assert d.difference.low == pytest.approx(1.0 - half)
    assert d.difference.high == pytest.approx(1.0 + half)
    # var(base) = 5/3, var(variant) = 3: (5/3 + 3) / (2/3) = 7
    assert d.efficiency == pytest.approx(7.0)
    assert d.independent_games == pytest.approx(28.0)
    assert d.verdict == "different"


def test_pairs_without_a_value_are_left_out() -> None:
    m = Measure("x", "x", lambda r: r)
    d = paired_difference(m, [1.0, None, 3.0], [1.0, 5.0, None])
    assert d.games == 1
    assert math.isnan(d.difference.low)
    assert d.verdict == "not shown to differ at 1 games"


def test_a_rate_difference_stays_between_minus_and_plus_one() -> None:
    win = Measure("rate:win", "win rate", lambda r: r, percent=True)
    d = paired_difference(win, [1.0] * 5 + [0.0], [0.0] * 6)
    assert d.difference.low >= -1.0
    assert d.difference.high <= 1.0


def test_until_plays_on_until_the_interval_is_narrow_enough() -> None:
    arms = [STOCK, "escape-from-haydes-tuybe(max_rounds=30)"]
    short = compare(arms, "random", games=50, seed=1, workers=1)
    wide = short.difference("guesses").width
    found = compare(
        arms, "random", games=50, seed=1, workers=1, until=("guesses", wide / 2), max_games=800
    )
    assert found.games > 50
    assert found.difference("guesses").width < wide / 2 or found.games == 800
    # The first 50 games are the same games as before.
    assert found.arms[1].simulation.results[:50] == short.arms[1].simulation.results


def test_until_stops_at_max_games() -> None:
    found = compare(
        [STOCK, "escape-from-haydes(max_rounds=3)"],
        "random",
        games=20,
        workers=1,
        until=("rounds", 1e-9),
        max_games=70,
    )
    assert found.games == 70


def test_simulate_first_game_carries_a_run_on() -> None:
    game = cardcrawl.load("escape-from-haydes", max_rounds=30)
    whole = simulate(game, "random", games=10, seed=4, workers=1)
    rest = simulate(game, "random", games=5, seed=4, workers=1, first_game=5)
    assert rest.results == whole.results[5:]
    with pytest.raises(OptionsError, match="first_game"):
        simulate(game, "random", games=5, workers=1, first_game=-1)


@pytest.mark.parametrize(
    ("arms", "error", "match"),
    [
        ([STOCK], OptionsError, "two games or more"),
        (STOCK, OptionsError, "a list of two games"),
        ([STOCK, "escape-from-haydes(players=2, max_rounds=30)"], OptionsError, "seats"),
        ([STOCK, "mapless-house(30)"], OptionsError, "NAME=VALUE"),
        ([STOCK, "mapless-house(max_turns=30)"], OptionsError, "one game and its variants"),
        ([STOCK, "nowhere-house"], UnknownGameError, "nowhere-house"),
        ([STOCK, 42], OptionsError, "a name or a loaded game"),
    ],
)
def test_bad_arms_are_refused(arms: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        compare(arms, "random", games=5, workers=1)  # type: ignore[arg-type]


def test_bad_counts_and_targets_are_refused() -> None:
    arms = [STOCK, STOCK]
    with pytest.raises(OptionsError, match="games is an integer"):
        compare(arms, games=0, workers=1)
    with pytest.raises(OptionsError, match="max_games"):
        compare(arms, games=10, max_games=5, workers=1)
    with pytest.raises(OptionsError, match="no measure 'house_size'"):
        compare(arms, games=10, until=("house_size", 1.0), workers=1)
    with pytest.raises(OptionsError, match="width > 0"):
        compare(arms, games=10, until=("rounds", 0), workers=1)
    found = compare(arms, games=5, workers=1)
    with pytest.raises(OptionsError, match="no measure"):
        found.difference("nothing")
    with pytest.raises(OptionsError, match="variant is a number"):
        found.difference("rounds", 2)


def test_a_game_without_its_limit_is_refused() -> None:
    with pytest.raises(OptionsError, match="max_rounds"):
        compare(["escape-from-haydes", STOCK], games=5, workers=1)


def test_arm_texts() -> None:
    assert split_arm(" mapless-house ") == ("mapless-house", {})
    assert split_arm("escape-from-haydes(tuybe=true, name='x,y')")[1] == {
        "tuybe": True,
        "name": "'x,y'",
    }
    with pytest.raises(OptionsError, match="given twice"):
        split_arm("mapless-house(max_turns=3, max_turns=4)")
    with pytest.raises(OptionsError, match="not a game to compare"):
        split_arm("mapless house(")
    assert load_arm("mapless-house", max_turns=7).options.max_turns == 7


def test_seat_measures_of_a_two_player_game() -> None:
    arms = ["escape-from-haydes(players=2, max_rounds=20)"] * 2
    found = compare(arms, "random", games=20, workers=1)
    keys = [m.key for m in found.measures]
    assert {"return:0", "return:1", "advantage:0", "advantage:1"} <= set(keys)
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=20)
    assert "advantage:1" in measure_keys(game)
    result = GameResult(0, 0, "escaped", (1.0, 0.0), (1, 0), (0,), 3)
    advantage = next(m for m in found.measures if m.key == "advantage:0")
    assert advantage.read(result) == 0.5


def test_to_data_is_json() -> None:
    import json

    found = compare([STOCK, STOCK], games=5, workers=1)
    data = json.loads(json.dumps(found.to_data()))
    assert data["games"] == 5
    assert data["differences"][0]["measures"]["rounds"]["differs"] is False


def test_first_game_in_worker_processes() -> None:
    game = cardcrawl.load("escape-from-haydes", max_rounds=30)
    serial = simulate(game, "random", games=6, seed=4, workers=1, first_game=3)
    pooled = simulate(game, "random", games=6, seed=4, workers=2, batch_size=2, first_game=3)
    assert [r.index for r in pooled.results] == [3, 4, 5, 6, 7, 8]
    assert pooled.results == serial.results


def test_untrusted_arm_texts_are_refused_with_a_typed_error() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(OptionsError):
        load_arm(f"escape-from-haydes(max_rounds={deep})")
    with pytest.raises(OptionsError):
        load_arm("escape-from-haydes(max_rounds=abc)")
    with pytest.raises(OptionsError):
        load_arm("escape-from-haydes(colour=1)")
