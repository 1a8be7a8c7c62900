"""The language-model seat, tested offline with scripted fake models (no network).

A fake model reads the legal actions from the prompt and answers as scripted; the bot
plays whole games with it, in-process and over the engine protocol (the reference
engine serving it), retries a bounded number of times on replies that name no legal
action, and then raises :class:`~cardcrawl.bots.ModelReplyError`, or falls back.
"""

from __future__ import annotations

import io
import json
import socket
from collections.abc import Callable, Sequence
from typing import Any

import pytest

import cardcrawl
from cardcrawl.bots import (
    LanguageModelBot,
    ModelReplyError,
    make_bot,
    serve_engine,
)
from cardcrawl.bots._engine_bot import decide_message, hello_message
from cardcrawl.errors import OptionsError
from cardcrawl.simulate import play_game

MAPLESS = cardcrawl.load("mapless-house", max_turns=40)
HAYDES = cardcrawl.load("escape-from-haydes", players=2, max_rounds=6)


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any socket opened during a test fails it: the models here are all fakes."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a test of the language-model seat opened a socket")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def legal_in(prompt: str) -> list[str]:
    """The legal actions listed in a prompt, as a model would read them."""
    block = prompt.split("Your legal actions, one a line:\n", 1)[1].split("\n\n", 1)[0]
    return block.splitlines()


class ScriptedModel:
    """Answers each prompt with the next scripted reply; a reply is a string, or a
    function of the legal actions listed in the prompt. Keeps every prompt."""

    def __init__(self, *script: str | Callable[[list[str]], str], then: Any = None) -> None:
        self.script = list(script)
        self.then = then
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        step = self.script.pop(0) if self.script else self.then
        return step(legal_in(prompt)) if callable(step) else step


def last_action(legal: list[str]) -> str:
    return f"Thinking it over, the last one is best.\nACTION: {legal[-1]}"


class Last:
    __name__ = "last"

    def __init__(self, game: Any = None, seed: int = 0, seat: int = 0) -> None:
        pass

    def choose(self, game: Any, observation: Any, legal: Sequence[Any]) -> Any:
        return legal[-1]


@pytest.mark.parametrize("game", [MAPLESS, HAYDES], ids=["mapless", "haydes"])
def test_a_scripted_model_plays_whole_games_as_it_says(game: Any) -> None:
    models: list[ScriptedModel] = []

    def factory(game: Any, seed: int, seat: int) -> LanguageModelBot:
        models.append(ScriptedModel(then=last_action))
        return LanguageModelBot(game, seed, seat, model=models[-1])

    result = play_game(game, [factory] * game.num_players, seed=3)
    assert result == play_game(game, [Last] * game.num_players, seed=3)
    assert sum(len(m.prompts) for m in models) == result.decisions


def test_the_prompt_holds_the_narration_the_view_and_the_legal_actions() -> None:
    game = MAPLESS
    state = game.initial_state(seed=1, stack={"narrative": ["KS", "5C"]})
    model = ScriptedModel(then=last_action)
    bot = LanguageModelBot(game, 1, model=model)
    legal = game.legal_actions(state)
    state = game.step(state, bot.choose(game, game.observe(state, 0), legal))
    bot.choose(game, game.observe(state, 0), game.legal_actions(state))
    first, second = model.prompts
    assert first.startswith("You play The Mapless House (mapless-house), seat 0 of 1.")
    assert "- You draw K♠ from the Narrative deck." in first
    assert legal_in(first) == [game.format_action(a) for a in legal]
    assert 'drawn: "KS"' in first
    # The story goes on: the first decision's narration, then the step's.
    assert second.index("You draw K♠") < second.index("You draw 5♣")
    assert 'drawn: "5C"' in second
    assert legal_in(second) == [game.format_action(a) for a in game.legal_actions(state)]


def test_bad_replies_are_retried_with_the_reply_quoted_then_refused() -> None:
    game = MAPLESS
    state = game.initial_state(seed=2)
    seen, legal = game.observe(state, 0), game.legal_actions(state)
    model = ScriptedModel("I cannot decide.", "ACTION: jump", last_action)
    bot = LanguageModelBot(game, 2, model=model, retries=2)
    assert bot.choose(game, seen, legal) == legal[-1]
    assert len(model.prompts) == 3
    assert "Your last reply was:\nI cannot decide." in model.prompts[1]
    assert "Your last reply was:\nACTION: jump" in model.prompts[2]
    texts = [game.format_action(a) for a in legal]
    assert [reply for _, reply in bot.exchanges] == [
        "I cannot decide.",
        "ACTION: jump",
        last_action(texts),
    ]
    data = game.state_to_data(state)
    stubborn = ScriptedModel(then="no")
    bot = LanguageModelBot(game, 2, model=stubborn, retries=1)
    with pytest.raises(ModelReplyError, match="no legal action in 2 replies") as caught:
        bot.choose(game, seen, legal)
    assert caught.value.replies == ("no", "no")
    assert len(stubborn.prompts) == 2
    assert game.state_to_data(state) == data  # nothing was stepped


def test_with_fallback_a_stubborn_model_still_finishes_the_game() -> None:
    bots: list[LanguageModelBot] = []

    def factory(game: Any, seed: int, seat: int) -> LanguageModelBot:
        bots.append(
            LanguageModelBot(
                game, seed, seat, model=ScriptedModel(then="?"), retries=0, on_error="fallback"
            )
        )
        return bots[-1]

    result = play_game(MAPLESS, [factory], seed=6)
    assert result == play_game(MAPLESS, ["random"], seed=6)
    assert len(bots[0].faults) == result.decisions


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("ACTION: place 1,0", "place 1,0"),
        ("action = `place 0,1`.", "place 0,1"),
        ("**Action:** 'place -1,0'", "place -1,0"),
        ("First I said ACTION: place 0,1\nbut then\nACTION: place 1,0", "place 1,0"),
        ("  place 0,-1  ", "place 0,-1"),
        ("Options:\n- jump\n- place 0,-1\n", "place 0,-1"),
        ("I would place -1,0 here.", "place -1,0"),
        ("place 0,1 or place 1,0?", None),
        ("- place 0,1\n- place 1,0", None),
        ("ACTION: place 5,5", None),
        ("", None),
    ],
)
def test_parse_action_reads_what_a_model_says(reply: str, expected: str | None) -> None:
    game = MAPLESS
    state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
    legal = game.legal_actions(state)
    action = LanguageModelBot.parse_action(game, reply, legal)
    assert (None if action is None else game.format_action(action)) == expected
    if action is not None:
        assert any(action is a for a in legal)


def test_the_seat_plays_over_the_engine_protocol_too() -> None:
    """The reference engine serves the language-model seat: a program can host it."""
    game = MAPLESS
    state = game.initial_state(seed=4)
    seen, legal = game.observe(state, 0), game.legal_actions(state)
    model = ScriptedModel(then=last_action)

    def factory(game: Any, seed: int, seat: int) -> LanguageModelBot:
        return LanguageModelBot(game, seed, seat, model=model)

    messages = [hello_message(game, 0, seed=4), decide_message(game, seen, legal, seat=0)]
    stdin = io.StringIO("".join(json.dumps(m) + "\n" for m in messages))
    stdout = io.StringIO()
    assert serve_engine(factory, stdin, stdout) == 0
    answer = json.loads(stdout.getvalue().splitlines()[1])
    assert answer["action"] == game.format_action(legal[-1])
    assert len(model.prompts) == 1


def test_options_are_checked() -> None:
    with pytest.raises(OptionsError, match="model is a function"):
        LanguageModelBot(MAPLESS, 1, model="gpt")  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match="retries is an integer from 0"):
        LanguageModelBot(MAPLESS, 1, model=str, retries=-1)
    with pytest.raises(OptionsError, match="on_error"):
        LanguageModelBot(MAPLESS, 1, model=str, on_error="forfeit")
    bot = make_bot(LanguageModelBot, MAPLESS, 1, model=str, view=lambda game, seen: "VIEW")
    state = MAPLESS.initial_state(seed=1)
    seen, legal = MAPLESS.observe(state, 0), MAPLESS.legal_actions(state)
    prompt = bot.prompt(MAPLESS, seen, decide_message(MAPLESS, seen, legal, seat=0))
    assert "What you see:\nVIEW\n" in prompt
    briefed = LanguageModelBot(MAPLESS, 1, model=str, instructions="Rules: find the Exit.")
    prompt = briefed.prompt(MAPLESS, seen, decide_message(MAPLESS, seen, legal, seat=0))
    assert prompt.startswith("Rules: find the Exit.\n\nYou play The Mapless House")
    with pytest.raises(OptionsError, match="instructions is a string"):
        LanguageModelBot(MAPLESS, 1, model=str, instructions=None)  # type: ignore[arg-type]
