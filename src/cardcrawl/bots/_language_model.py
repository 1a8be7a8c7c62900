"""A seat played by a language model: an example built on the engine protocol's messages.

Each decision, the bot builds the engine protocol's ``decide`` message (the seat's
observation as JSON, the legal actions as text, the narration of what just happened),
renders it as a prompt, and asks the model, any function from a prompt to a reply. The
reply is read with :meth:`LanguageModelBot.parse_action`; a reply that names no legal
action is answered with a second prompt saying so, a bounded number of times. The model
is called by the bot and never sees the state: only what the seat may know.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from cardcrawl.bots._engine_bot import _legal_named, decide_message
from cardcrawl.core._random import rng_below, rng_derive
from cardcrawl.errors import CardcrawlError, OptionsError, short_repr

__all__ = ["LanguageModelBot", "ModelReplyError"]


class ModelReplyError(CardcrawlError, ValueError):
    """A language model's replies named no legal action, every retry used up.

    Attributes:
        replies: every reply the model gave for the decision, in order.

    Examples:
        >>> from cardcrawl.bots import ModelReplyError
        >>> error = ModelReplyError("no legal action in 2 replies", replies=("hm", "?"))
        >>> error.replies, isinstance(error, ValueError)
        (('hm', '?'), True)
    """

    # Named by its public path in tracebacks and pickles: cardcrawl.bots.ModelReplyError.
    __module__ = "cardcrawl.bots"

    def __init__(self, message: str, *, replies: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.replies = tuple(replies)


#: A model: a function from a prompt to its reply.
Model = Callable[[str], str]

_ACTION_LINE = re.compile(r"^[\s*_`>#-]*action\s*[:=]\s*(?P<text>.+?)\s*$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*•>]+|\d+[.)])\s*")


def _clean(text: str) -> str:
    """A candidate action text without quotes, code marks, emphasis or a final period."""
    text = text.strip().strip("`*_\"'").strip()
    return text[:-1].rstrip() if text.endswith(".") else text


class LanguageModelBot:
    """A bot whose choices a language model makes, from a prompt of what its seat knows.

    The prompt (:meth:`prompt`) holds the narration of the step that led to the decision
    and of those before the seat's earlier decisions (the last ``story_lines`` lines; the
    steps of other seats in between are not told), a view of the
    observation, and the legal actions one a line, and asks for one line
    ``ACTION: <action>``. :meth:`parse_action` reads the reply. A reply that names no
    legal action is followed by a prompt that quotes it and asks again, at most
    ``retries`` times; then :class:`ModelReplyError` is raised (or,
    with ``on_error="fallback"``, kept in :attr:`faults` and a random legal action is
    taken, drawn with the bot's own generator). Nothing is stepped before an action is
    chosen, so a failure never changes the game.

    Not registered by name (it needs a model): give the class itself as the factory,
    ``make_bot(LanguageModelBot, game, seed, model=...)``.

    Args:
        game: the game it plays.
        seed: its seed (for the fallback's choices).
        seat: the seat it plays.
        model: the model, ``model(prompt) -> reply``. It may call anything; the bot
            calls nothing else.
        retries: how many times a reply naming no legal action is followed by another
            prompt, an integer from 0.
        view: ``view(game, observation) -> str``, the observation as the prompt shows
            it; default: each field of the observation's JSON data on a line.
        story_lines: how many lines of narration the prompt keeps.
        instructions: text put at the top of every prompt: a summary of the rules, how
            to play, a persona (the library ships no rules text: write your own, or
            quote your copy of the rulebook).
        on_error: ``"raise"`` (the default) or ``"fallback"``.

    Raises:
        OptionsError: an option is malformed.

    Examples:
        A scripted stand-in for a model that answers with the last legal action listed:

        >>> import cardcrawl
        >>> from cardcrawl.bots import LanguageModelBot, make_bot
        >>> def model(prompt):
        ...     legal = prompt.split("Your legal actions, one a line:\\n")[1].split("\\n\\n")[0]
        ...     return "I go there.\\nACTION: " + legal.splitlines()[-1]
        >>> game = cardcrawl.load("mapless-house", max_turns=30)
        >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
        >>> bot = make_bot(LanguageModelBot, game, seed=1, model=model)
        >>> legal = game.legal_actions(state)
        >>> bot.choose(game, game.observe(state, 0), legal) == legal[-1]
        True
    """

    def __init__(
        self,
        game: Any,
        seed: int,
        seat: int = 0,
        *,
        model: Model,
        retries: int = 2,
        view: Callable[[Any, Any], str] | None = None,
        story_lines: int = 30,
        instructions: str = "",
        on_error: str = "raise",
    ) -> None:
        if not callable(model):
            raise OptionsError(f"model is a function from a prompt to a reply, not {model!r}")
        for name, value in (("retries", retries), ("story_lines", story_lines)):
            if type(value) is not int or value < 0:
                raise OptionsError(f"{name} is an integer from 0, not {value!r}")
        if on_error not in ("raise", "fallback"):
            raise OptionsError(f"on_error is 'raise' or 'fallback', not {on_error!r}")
        if not isinstance(instructions, str):
            raise OptionsError(f"instructions is a string, not {instructions!r}")
        self.instructions = instructions
        self.game = game
        self.seat = seat
        self.model = model
        self.retries = retries
        self.view = view
        self.story_lines = story_lines
        self.on_error = on_error
        #: The errors kept with ``on_error="fallback"``.
        self.faults: list[ModelReplyError] = []
        #: The prompts and replies of the last decision, in order.
        self.exchanges: list[tuple[str, str]] = []
        self._story: list[str] = []
        self._rng = rng_derive(seed, seat)

    # ---------------------------------------------------------------- prompt
    def render_view(self, game: Any, observation: Any, data: Any) -> str:
        """The observation as the prompt shows it: ``view(game, observation)`` if given,
        else one line per field of its JSON data (``data``), events left out (the
        narration tells them)."""
        if self.view is not None:
            return self.view(game, observation)
        body = data.get("observation", data) if isinstance(data, dict) else data
        if not isinstance(body, dict):
            return json.dumps(body)
        return "\n".join(
            f"{key}: {json.dumps(value, ensure_ascii=False)}"
            for key, value in body.items()
            if key not in ("type", "events")
        )

    def prompt(self, game: Any, observation: Any, message: dict[str, Any]) -> str:
        """The prompt for one decision, rendered from its ``decide`` message.

        Args:
            game: the game being played.
            observation: the seat's observation.
            message: the decision's ``decide`` message of the engine protocol, as
                :meth:`choose` makes it.

        Returns:
            The prompt: the game and seat, the narration, the view, the legal actions
            and how to answer.

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.bots import LanguageModelBot
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
            >>> seen, legal = game.observe(state, 0), game.legal_actions(state)
            >>> bot = LanguageModelBot(game, 1, model=lambda prompt: "ACTION: place 1,0")
            >>> bot.choose(game, seen, legal)
            Place(cell=(1, 0))
            >>> text, reply = bot.exchanges[0]
            >>> print(text.split("What you see:")[0])
            You play The Mapless House (mapless-house), seat 0 of 1.
            <BLANKLINE>
            What has happened, oldest first:
            - You draw K♠ from the Narrative deck.
            <BLANKLINE>
            <BLANKLINE>
        """
        title = getattr(game, "title", "") or game.name
        story = [*self._story, *message["narration"]]
        story = story[-self.story_lines :] if self.story_lines else []
        told = "\n".join(f"- {line}" for line in story) or "- (nothing yet)"
        view = self.render_view(game, observation, message.get("observation"))
        legal = "\n".join(message["legal"])
        top = f"{self.instructions.strip()}\n\n" if self.instructions.strip() else ""
        return top + (
            f"You play {title} ({game.name}), seat {message['seat']} of {game.num_players}.\n\n"
            f"What has happened, oldest first:\n{told}\n\n"
            f"What you see:\n{view}\n\n"
            f"Your legal actions, one a line:\n{legal}\n\n"
            "Answer with one line: ACTION: <one of the legal actions, exactly as written>"
        )

    @staticmethod
    def parse_action(game: Any, reply: str, legal_actions: Sequence[Any]) -> Any:
        """The legal action a model's reply names, or ``None``.

        Read in this order: the last line ``ACTION: <text>`` (any case, code marks and
        quotes allowed); else the whole reply; else the one line (a bullet allowed) that
        is a legal action; else the one legal action whose text appears in the reply.
        A text is a legal action if it is one's text form or parses to one.

        Args:
            game: the game being played.
            reply: the model's reply.
            legal_actions: the legal actions.

        Returns:
            The action, one of ``legal_actions``, or ``None`` when the reply names none
            or more than one without saying which.

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.bots import LanguageModelBot
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
            >>> legal = game.legal_actions(state)
            >>> read = lambda reply: LanguageModelBot.parse_action(game, reply, legal)
            >>> str(read("Hmm.\\n**Action:** `place 0,1`"))
            'place 0,1'
            >>> str(read("I would place -1,0 here."))
            'place -1,0'
            >>> print(read("place 0,1 or place 1,0?"))
            None
        """
        if not isinstance(reply, str):
            return None
        lines = reply.splitlines()
        for line in reversed(lines):
            match = _ACTION_LINE.match(line.replace("**", ""))
            if match:
                action = _legal_named(game, _clean(match["text"]), legal_actions)
                if action is not None:
                    return action
                break
        whole = _legal_named(game, _clean(reply), legal_actions)
        if whole is not None:
            return whole
        named = {
            id(action): action
            for line in lines
            if (action := _legal_named(game, _clean(_BULLET.sub("", line)), legal_actions))
            is not None
        }
        if len(named) == 1:
            return next(iter(named.values()))
        if named:
            return None
        mentioned = [
            action
            for action in legal_actions
            if re.search(rf"(?<![\w\-]){re.escape(game.format_action(action))}(?![\w])", reply)
        ]
        return mentioned[0] if len(mentioned) == 1 else None

    # --------------------------------------------------------------- deciding
    def choose(self, game: Any, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The model's choice among ``legal_actions``, asked at most ``1 + retries``
        times.

        Raises:
            ModelReplyError: no reply named a legal action (unless
                ``on_error="fallback"``).
        """
        message = decide_message(game, observation, legal_actions, seat=self.seat)
        first = self.prompt(game, observation, message)
        # What the prompt told stays in the story for the next decisions.
        self._story.extend(message["narration"])
        del self._story[: -max(self.story_lines, 1)]
        prompt = first
        self.exchanges = []
        replies: list[str] = []
        for _ in range(1 + self.retries):
            reply = self.model(prompt)
            text = reply if isinstance(reply, str) else repr(reply)
            replies.append(text)
            self.exchanges.append((prompt, text))
            action = self.parse_action(game, reply, legal_actions)
            if action is not None:
                return action
            prompt = (
                f"{first}\n\nYour last reply was:\n{text}\n\n"
                "It names no legal action. Answer with one line, ACTION: followed by one "
                "of the legal actions above, exactly as written."
            )
        error = ModelReplyError(
            f"the model named no legal action in {len(replies)} replies "
            f"(the last: {short_repr(replies[-1])})",
            replies=replies,
        )
        if self.on_error == "raise":
            raise error
        self.faults.append(error)
        self._rng, index = rng_below(self._rng, len(legal_actions))
        return legal_actions[index]
