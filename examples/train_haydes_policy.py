"""Train a small policy for solo Escape from Haydes on the native vector environment.

Shows learning at scale with nothing but numpy: a batch of games stepped by
``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``, whose compact
observation rows and action masks arrive as preallocated arrays. The policy is linear:
each legal action gets a score from 13 features read straight from the compact row (a
move's odds of a right guess, of the Red Joker and of a creature among the unseen cards
of the aimed-at cell's pool or mix; for ending the turn, the best move's odds and the
lower characteristic; for facing a creature, the characteristics), and the policy is the
softmax of the scores over the action mask. It learns by REINFORCE with a mean baseline
on the game's own reward (1 for an escape, H-9; 0 when trapped, H-11, or out of time,
H-13), with Adam.

It prints a learning curve (escape rate of the episodes finished in each update, also
written as CSV with --curve), then plays 1,000 fresh seeds (the same games for each
player) with the trained policy (its most likely action), the random bot and the
heuristic bot, and prints each escape rate with a 95% interval.

Run it from the repository root (needs the gymnasium extra):

    python examples/train_haydes_policy.py                         # 90 s of CPU or so
    python examples/train_haydes_policy.py --updates 3 --eval-games 20 --curve curve.csv

The numbers depend only on the arguments: the training and the games are seeded.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

import cardcrawl
import cardcrawl.adapters.gymnasium  # registers the environment ids
from cardcrawl.encoding import encoding_for
from cardcrawl.haydes import Choose, EndTurn, Guess, Move, Step
from cardcrawl.simulate import simulate

ENV_ID = "cardcrawl/EscapeFromHaydesSoloTimer-v0"
GAME = "escape-from-haydes-solo-timer"

# The features, by action kind; each kind's block of the weight vector is its own.
MOVE = 6  # the odds of a right guess, of the Red Joker (by lower, by higher), of a
#           creature; "lower" into a mix; a bias
END = 3  # the best odds of a right guess among the moves, the lower characteristic, a bias
CHOOSE = 2  # the characteristic chosen, the other one
STEP = 2  # the value stepped onto, a bias
SIZE = MOVE + END + CHOOSE + STEP
NAMES = (
    "move: odds the guess is right",
    "move: odds of the Red Joker, lower",
    "move: odds of the Red Joker, higher",
    "move: odds of a creature",
    "move: lower into a mix",
    "move: bias",
    "end turn: best odds of a right guess",
    "end turn: lower characteristic",
    "end turn: bias",
    "choose: the characteristic's value",
    "choose: the other one's",
    "step: value stepped onto",
    "step: bias",
)


class Features:
    """Per-action features of a batch of compact rows, all in numpy.

    The action numbering and the row layout are asked of the encoding and the compact
    form, never assumed: this is the encoding's own map from actions to integers.
    """

    def __init__(self, game: Any) -> None:
        encoding = encoding_for(game)
        compact = encoding.compact()
        assert compact is not None
        self.size = encoding.num_actions
        self.cells = len(game.options.cells)
        self.seg = {s.name: s for s in compact.layout}
        self.pools, self.mixes = compact.pools, compact.mixes
        cards = [cardcrawl.Card(i) for i in range(54)]
        values = np.array([min(max(game.card_value(c), 0), 13) for c in cards])
        # A card byte is 0 for face down, else 1 + the card's index.
        self.value_of_byte = np.concatenate([[0], values])
        self.value_onehot = np.eye(14)[values]  # (54, 14)
        self.creature = np.array([game.creature(c) is not None for c in cards], float)
        self.move_index = np.zeros((self.cells, 2), dtype=np.int64)
        self.step_index = np.zeros(self.cells, dtype=np.int64)
        self.choose_index = np.zeros(2, dtype=np.int64)
        for a in range(self.size):
            action = encoding.decode_action(a)
            if isinstance(action, Move):
                i = game.options.cells.index(action.cell)
                self.move_index[i, int(action.guess is Guess.LOWER)] = a
            elif isinstance(action, Step):
                self.step_index[game.options.cells.index(action.cell)] = a
            elif isinstance(action, EndTurn):
                self.end_index = a
            elif isinstance(action, Choose):
                self.choose_index[int(action.characteristic.value == "endurance")] = a

    def __call__(self, rows: Any, mask: Any) -> Any:
        """``(n, num_actions, SIZE)`` features of ``n`` compact rows and their action
        masks."""
        n, cells = rows.shape[0], self.cells
        seg = self.seg
        out = np.zeros((n, self.size, SIZE), dtype=np.float32)
        seats = rows[:, seg["seats"].start : seg["seats"].start + 3].astype(np.int64)
        charisma, endurance, at = seats[:, 0] / 9, seats[:, 1] / 9, seats[:, 2] - 1
        card = rows[:, seg["card"].start : seg["card"].start + cells]
        under = self.value_of_byte[card[np.arange(n), np.maximum(at, 0)]]  # (n,)
        # The unseen cards of each pool, first belief: by value, Red Jokers, creatures.
        unseen = rows[:, seg["unseen"].start : seg["unseen"].start + self.pools * 54]
        unseen = unseen.reshape(n, self.pools, 54).astype(np.float64)
        by_value = unseen @ self.value_onehot  # (n, pools, 14)
        jokers, creatures = unseen[..., 53], unseen @ self.creature
        source = rows[:, seg["source"].start : seg["source"].start + cells].astype(np.int64)
        pool = np.clip(source - 2, 0, self.pools - 1)
        picked = np.arange(n)[:, None]
        hist = by_value[picked, pool]  # (n, cells, 14): the aimed-at cell's pool
        # A cell of a mix is judged by all the unseen cards, and flagged.
        in_mix = source == 1
        hist[in_mix] = by_value.sum(axis=1)[np.nonzero(in_mix)[0]]
        total = np.maximum(hist.sum(axis=-1), 1)
        cumulative = np.cumsum(hist, axis=-1)
        below = np.take_along_axis(cumulative, np.maximum(under - 1, 0)[:, None, None], -1)
        below = np.where(under[:, None] > 0, below[..., 0], 0) / total
        above = 1 - np.take_along_axis(cumulative, under[:, None, None], -1)[..., 0] / total
        joker = jokers[picked, pool] / total
        # In a mix, the Red Joker is a known card (H-10): one chance in the mix's size.
        mix = rows[:, seg["mix"].start : seg["mix"].start + cells].astype(np.int64)
        mixes = np.arange(1, self.mixes + 1)
        sizes = np.maximum((mix[..., None] == mixes).sum(axis=1), 1)  # (n, mixes)
        known = rows[:, seg["known"].start : seg["known"].stop].reshape(n, self.mixes, -1)
        held = (known == 1 + 53).sum(axis=-1) / sizes  # (n, mixes)
        joker = np.where(mix > 0, held[picked, np.maximum(mix - 1, 0)], joker)
        creature = creatures[picked, pool] / total
        for g, right in ((0, above), (1, below)):
            block = out[:, self.move_index[:, g], :MOVE]  # (n, cells, MOVE)
            block[..., 0] = right
            block[..., 1] = joker * (g == 1)  # H-9: the Red Joker found by "lower"
            block[..., 2] = joker * (g == 0)
            block[..., 3] = creature
            block[..., 4] = in_mix * (g == 1)
            block[..., 5] = 1.0
            out[:, self.move_index[:, g], :MOVE] = block
        # Going on is worth the best move there is (H-7): ask it of the legal moves.
        legal = mask[:, self.move_index] > 0  # (n, cells, 2)
        best = np.where(legal, np.stack([above, below], axis=-1), 0.0).max(axis=(1, 2))
        out[:, self.end_index, MOVE : MOVE + END] = np.stack(
            [best, np.minimum(charisma, endurance), np.ones(n)], axis=1
        )
        base = MOVE + END
        for k, (mine, other) in enumerate(((charisma, endurance), (endurance, charisma))):
            out[:, self.choose_index[k], base : base + CHOOSE] = np.stack([mine, other], axis=1)
        base += CHOOSE
        out[:, self.step_index, base] = self.value_of_byte[card] / 13
        out[:, self.step_index, base + 1] = 1.0
        return out


def policy(weights: Any, features: Any, mask: Any) -> Any:
    """The softmax of the scores over the legal actions, ``(n, num_actions)``."""
    scores = features @ weights
    legal = mask > 0
    legal[~legal.any(axis=1)] = True  # a game just ended: its action is unused
    scores = np.where(legal, scores, -np.inf)
    scores -= scores.max(axis=1, keepdims=True)
    odds = np.exp(scores)
    return odds / odds.sum(axis=1, keepdims=True)


class Adam:
    """Adam, for one weight vector (ascent)."""

    def __init__(self, size: int, rate: float) -> None:
        self.rate, self.m, self.v, self.t = rate, np.zeros(size), np.zeros(size), 0

    def step(self, weights: Any, gradient: Any) -> None:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * gradient
        self.v = 0.999 * self.v + 0.001 * gradient**2
        m, v = self.m / (1 - 0.9**self.t), self.v / (1 - 0.999**self.t)
        weights += self.rate * m / (np.sqrt(v) + 1e-8)


def train(args: argparse.Namespace, features: Features) -> tuple[Any, list[dict[str, Any]]]:
    """REINFORCE on a batch of ``args.envs`` games; the weights and the curve."""
    envs = gymnasium.make_vec(
        ENV_ID, num_envs=args.envs, vectorization_mode="vector_entry_point", copy=False
    )
    rng = np.random.default_rng(args.seed)
    weights = np.zeros(SIZE)
    adam = Adam(SIZE, args.rate)
    rows, info = envs.reset(seed=args.seed)
    # Per environment, the sum of the score-function terms of its episode so far.
    running = np.zeros((args.envs, SIZE))
    resetting = np.zeros(args.envs, dtype=bool)
    curve: list[dict[str, Any]] = []
    steps = 0
    for update in range(1, args.updates + 1):
        finished: list[tuple[Any, float]] = []
        while len(finished) < args.episodes:
            mask = info["action_mask"]
            phi = features(rows, mask)
            odds = policy(weights, phi, mask)
            picks = (odds.cumsum(axis=1) > rng.random((args.envs, 1))).argmax(axis=1)
            chosen = phi[np.arange(args.envs), picks]
            expected = np.einsum("na,nad->nd", odds, phi)
            # The step after an episode's end resets it (NEXT_STEP): its action is unused.
            running[~resetting] += (chosen - expected)[~resetting]
            rows, rewards, terminated, truncated, info = envs.step(picks)
            steps += args.envs
            ended = terminated | truncated
            for i in np.flatnonzero(ended):
                finished.append((running[i].copy(), float(rewards[i])))
                running[i] = 0.0
            resetting = ended
        returns = np.array([r for _, r in finished])
        terms = np.array([g for g, _ in finished])
        gradient = ((returns - returns.mean())[:, None] * terms).mean(axis=0)
        adam.step(weights, gradient)
        point = {
            "update": update,
            "env_steps": steps,
            "episodes": len(finished),
            "escape_rate": float(returns.mean()),
        }
        curve.append(point)
        if update % args.every == 0 or update == args.updates:
            print(
                f"update {update:4d}  env-steps {steps:9,d}  escape rate "
                f"{point['escape_rate']:.3f} over {len(finished)} episodes",
                flush=True,
            )
    return weights, curve


def seeds(count: int, first: int) -> list[int]:
    """The seeds of ``simulate(game, games=count, seed=first)``'s games, in order."""
    return [cardcrawl.rng_derive(first, i) for i in range(count)]


def evaluate(weights: Any, features: Features, count: int, first: int) -> float:
    """The trained policy's escape rate on the games ``simulate`` plays with ``first``:
    at each decision, its most likely legal action."""
    game = cardcrawl.load(GAME)
    encoding = encoding_for(game)
    compact = encoding.compact()
    assert compact is not None
    escapes = 0
    for seed in seeds(count, first):
        state = game.initial_state(seed)
        while not game.is_terminal(state):
            row = np.frombuffer(compact.encode(game.observe(state, 0)), dtype=np.uint8)
            mask = np.array(encoding.action_mask(state))[None]
            scores = policy(weights, features(row[None], mask), mask)
            state = game.step(state, encoding.decode_action(int(scores.argmax())))
        escapes += game.outcome(state).label == "escaped"
    return escapes / count


def interval(rate: float, count: int) -> str:
    """The rate with a 95% Wilson interval."""
    z = 1.96
    centre = (rate + z * z / (2 * count)) / (1 + z * z / count)
    half = z * math.sqrt(rate * (1 - rate) / count + z * z / (4 * count * count))
    half /= 1 + z * z / count
    return f"{rate:.3f} [{max(centre - half, 0):.3f}, {min(centre + half, 1):.3f}]"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--envs", type=int, default=64, help="games stepped together")
    parser.add_argument("--updates", type=int, default=60, help="policy updates")
    parser.add_argument("--episodes", type=int, default=256, help="episodes per update")
    parser.add_argument("--rate", type=float, default=0.05, help="Adam's step size")
    parser.add_argument("--seed", type=int, default=1, help="the training's seed")
    parser.add_argument("--eval-games", type=int, default=1000, help="fresh seeds to play")
    parser.add_argument("--eval-seed", type=int, default=2026, help="their simulate seed")
    parser.add_argument("--every", type=int, default=5, help="print every N updates")
    parser.add_argument("--curve", help="write the learning curve to this CSV file")
    args = parser.parse_args(argv)
    if min(args.envs, args.updates, args.episodes, args.eval_games, args.every) < 1:
        parser.error("--envs, --updates, --episodes, --eval-games and --every are >= 1")
    game = cardcrawl.load(GAME)
    features = Features(game)
    weights, curve = train(args, features)
    if args.curve:
        with open(args.curve, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(curve[0]))
            writer.writeheader()
            writer.writerows(curve)
        print(f"learning curve: {args.curve}")
    print("learned weights, largest first:")
    for k in np.argsort(-np.abs(weights)):
        print(f"  {weights[k]:+.2f}  {NAMES[k]}")
    count = args.eval_games
    print(f"escape rate on {count:,} fresh seeds, with a 95% interval:")
    trained = evaluate(weights, features, count, args.eval_seed)
    print(f"  trained policy  {interval(trained, count)}")
    for bot in ("random", "heuristic"):
        result = simulate(game, bot, games=count, seed=args.eval_seed, workers=1)
        rate = sum(g.outcome == "escaped" for g in result.results) / count
        print(f"  {bot:<15} {interval(rate, count)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
