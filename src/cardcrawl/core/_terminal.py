"""What a game brings to play at the keyboard: its map view, its words, its hint bot.

``cardcrawl play`` is written once for every game. What it shows and explains beyond
the protocol (``render``, ``format_action``) comes from the game's
:class:`TerminalPlay`, declared in its :class:`~cardcrawl.GameTools`; a game without
one is still playable, with ``render`` as its map and ``describe`` as its help.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

__all__ = ["TerminalPlay", "action_word"]


def _frozen(value: Mapping[str, str] | None) -> Mapping[str, str]:
    return MappingProxyType(dict(value or {}))


def action_word(text: str) -> str:
    """The word an action's text form starts with, which ``TerminalPlay.actions`` explains.

    Examples:
        >>> from cardcrawl.core._terminal import action_word
        >>> action_word("place 1,0"), action_word("tuybe higher 2,0"), action_word("end")
        ('place', 'tuybe', 'end')
    """
    return text.split(maxsplit=1)[0] if text.strip() else ""


@attrs.frozen
class TerminalPlay:
    """How ``cardcrawl play`` shows a game and explains it to the person at the keyboard.

    Attributes:
        view: ``view(game, state, legal, width=..., focus=...)``, the state as text for a
            terminal: the map with its coordinates, the cells the ``legal`` actions name
            marked with their numbers (the first action is 1), cropped to ``width``
            columns around the action (or around the cell ``focus``) with a line saying
            what was left out; ``width=None`` shows the whole map. ``None``: the game's
            ``render``.
        actions: what each action means, by the first word of its text form
            (:func:`action_word`), each a sentence or two citing its rulings; the
            ``help`` command shows those of the legal actions.
        rules: the rules in short, a few lines with their ruling ids (the ``rules``
            command); empty: the command says there is no summary.
        hint_bot: the registered bot the ``hint`` command asks, the strongest that
            answers at once; ``None``: no hints.

    Examples:
        >>> import cardcrawl
        >>> terminal = cardcrawl.tools_for("escape-from-haydes").terminal
        >>> terminal.hint_bot, sorted(terminal.actions)[:3]
        ('heuristic', ['charisma', 'end', 'endurance'])
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=3, stack={"narrative": ["KS"]})
        >>> legal = game.legal_actions(state)
        >>> print(cardcrawl.tools_for("mapless-house").terminal.view(game, state, legal))
             -1     0     1
          1       (3)
          0 (1)   ENT@  (4)
         -1       (2)
        (N): where choice N below puts the card.
        Phase one: building · place K♠ · Narrative 24 left
        Mind 12 left, aside - · Body 12 left, aside - · Refused -
    """

    view: Callable[..., str] | None = None
    actions: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen)
    rules: str = ""
    hint_bot: str | None = None

    def show(
        self,
        game: Any,
        state: Any,
        legal: Sequence[Any],
        *,
        width: int | None = 80,
        focus: Any = None,
    ) -> str:
        """The view of ``state`` (the game's ``render`` when there is no view).

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.core._terminal import TerminalPlay
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=3)
            >>> TerminalPlay().show(game, state, ()) == game.render(state)
            True
        """
        if self.view is None:
            return str(game.render(state))
        return self.view(game, state, legal, width=width, focus=focus)

    def explain(self, game: Any, state: Any, legal: Sequence[Any]) -> list[str]:
        """What each kind of legal action means, one entry per word, in the order the
        actions come; the state's ``describe`` first.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("escape-from-haydes")
            >>> state = game.initial_state(seed=3)
            >>> terminal = cardcrawl.tools_for(game.name).terminal
            >>> lines = terminal.explain(game, state, game.legal_actions(state))
            >>> [line.split(":")[0] for line in lines[1:]]
            ['higher', 'lower', 'end']
        """
        lines = [f"Waiting for {game.describe(state)}."]
        seen: list[str] = []
        for action in legal:
            word = action_word(game.format_action(action))
            if word in seen:
                continue
            seen.append(word)
            meaning = self.actions.get(word)
            if meaning is not None:
                lines.append(f"{word}: {meaning}")
        return lines
