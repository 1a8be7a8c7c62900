"""IS-MCTS's view of a position: its root statistics and its principal variation."""

from __future__ import annotations

import html
from typing import Any

from cardcrawl.bots._ismcts import ISMCTSBot, SearchResult
from cardcrawl.errors import OptionsError

__all__ = ["search_html", "search_position", "search_svg", "search_text"]

_CHAR = 7.2


def search_position(
    game: Any,
    state: Any,
    *,
    seat: int | None = None,
    iterations: int = 1000,
    seed: int = 0,
    rollout: str = "random",
) -> SearchResult:
    """An IS-MCTS search of one decision of any position, with its principal variation.

    The search sees what the seat to move observes, never the state itself, as
    :class:`~cardcrawl.bots.ISMCTSBot` does when it plays.

    Args:
        game: the game (its class overrides ``sample_state``).
        state: a state where a seat decides.
        seat: the seat that searches (default: the seat to move, the only one allowed).
        iterations: the iterations of the search.
        seed: the search's seed (the same seed, the same search).
        rollout: the rollout bot (see :class:`~cardcrawl.bots.ISMCTSBot`).

    Returns:
        The :class:`~cardcrawl.bots.SearchResult`, its ``principal_variation`` kept.

    Raises:
        OptionsError: no seat decides in ``state``, or ``seat`` is another.
        UnknownBotError: the game cannot draw a state from an observation.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.tree import search_position, search_text
        >>> game = cardcrawl.load("escape-from-haydes", players=1, max_rounds=5)
        >>> result = search_position(game, game.initial_state(seed=2), iterations=200)
        >>> result.iterations, result.principal_variation[0].action == result.best
        (200, True)
    """
    to_move = game.current_player(state)
    if to_move < 0:
        raise OptionsError("no seat decides in this state (chance is to move, or the game is over)")
    if seat is not None and seat != to_move:
        raise OptionsError(f"seat {to_move} decides here, not seat {seat}")
    bot = ISMCTSBot(game, seed, to_move, iterations=iterations, rollout=rollout)
    observation = game.observe(state, to_move)
    return bot.search(game, observation, game.legal_actions(state), principal_variation=True)


def _format(game: Any, action: Any) -> str:
    try:
        return str(game.format_action(action))
    except Exception:  # an action the game's notation does not write
        return str(action)


def search_text(game: Any, result: SearchResult) -> list[str]:
    """The search as lines of text: each root action's visits and mean return, then
    the principal variation.

    Examples:
        >>> from cardcrawl.bots import ActionStats, LineStep, SearchResult
        >>> from cardcrawl.tree import search_text
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=5)
        >>> end, stay = game.parse_action("end"), game.parse_action("step 0,0")
        >>> result = SearchResult(0, 30, (ActionStats(end, 20, 0.5), ActionStats(stay, 10, 0.2)),
        ...                       (LineStep(0, end, 20, 0.5),))
        >>> print("\\n".join(search_text(game, result)))
        IS-MCTS, seat 0, 30 iterations
        action    visits  mean return
        end           20        0.500  best
        step 0,0      10        0.200
        Principal variation: end (seat 0, 20 visits, 0.500)
    """
    rows = [(_format(game, s.action), s.visits, s.value) for s in result.actions]
    width = max([len("action"), *(len(r[0]) for r in rows)])
    lines = [f"IS-MCTS, seat {result.seat}, {result.iterations:,} iterations"]
    lines.append(f"{'action':<{width}}  visits  mean return")
    for (text, visits, value), stats in zip(rows, result.actions, strict=True):
        best = "  best" if stats.action == result.best else ""
        lines.append(f"{text:<{width}}  {visits:>6,}  {value:>11.3f}{best}")
    if result.principal_variation:
        steps = []
        for step in result.principal_variation:
            share = "" if step.share == 1.0 else f", {step.share:.0%} of the way"
            steps.append(
                f"{_format(game, step.action)} (seat {step.seat}, {step.visits:,} visits, "
                f"{step.value:.3f}{share})"
            )
        lines.append("Principal variation: " + " -> ".join(steps))
    return lines


def search_svg(game: Any, result: SearchResult, *, title: str = "") -> str:
    """The root statistics as an SVG bar chart: one bar per action, as long as its
    visits, with its mean return; the best action in green.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.tree import search_position, search_svg
        >>> game = cardcrawl.load("escape-from-haydes", players=1, max_rounds=5)
        >>> result = search_position(game, game.initial_state(seed=2), iterations=100)
        >>> svg = search_svg(game, result)
        >>> svg.startswith("<svg"), svg.count("<rect class=")
        (True, 9)
    """
    labels = [_format(game, s.action) for s in result.actions]
    left = 12 + max([6, *(len(t) for t in labels)]) * _CHAR
    bar = 260.0
    most = max([1, *(s.visits for s in result.actions)])
    top = 30 if title else 10
    parts = []
    if title:
        parts.append(f'<text x="10" y="18" font-weight="bold">{html.escape(title)}</text>')
    for k, (text, stats) in enumerate(zip(labels, result.actions, strict=True)):
        y = top + 22 * k
        colour = "#1a7f37" if stats.action == result.best else "#777"
        length = bar * stats.visits / most
        parts.append(
            f'<text x="10" y="{y + 13}">{html.escape(text)}</text>'
            f'<rect class="visits" x="{left:.0f}" y="{y + 3}" width="{length:.1f}" '
            f'height="14" fill="{colour}"/>'
            f'<text x="{left + length + 6:.0f}" y="{y + 13}">'
            f"{stats.visits:,} visits, {stats.value:.3f}</text>"
        )
    height = top + 22 * len(labels) + 8
    width = left + bar + 160
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}" '
        f'viewBox="0 0 {width:.0f} {height}" font-family="monospace" font-size="12">'
        f'<rect width="100%" height="100%" fill="white"/>{"".join(parts)}</svg>'
    )


def search_html(game: Any, result: SearchResult, *, title: str = "IS-MCTS's search") -> str:
    """The search as a self-contained HTML page: the root statistics (a table and the
    bar chart of :func:`search_svg`) and the principal variation.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.tree import search_html, search_position
        >>> game = cardcrawl.load("escape-from-haydes", players=1, max_rounds=5)
        >>> result = search_position(game, game.initial_state(seed=2), iterations=100)
        >>> page = search_html(game, result)
        >>> page.startswith("<!DOCTYPE html>"), "<svg" in page, "Principal variation" in page
        (True, True, True)
    """
    rows = "".join(
        f"<tr{' class=best' if s.action == result.best else ''}>"
        f"<td><code>{html.escape(_format(game, s.action))}</code></td>"
        f"<td>{s.visits:,}</td><td>{s.value:.3f}</td></tr>"
        for s in result.actions
    )
    line = "".join(
        f"<li><code>{html.escape(_format(game, step.action))}</code>: seat {step.seat}, "
        f"{step.visits:,} visits, mean return {step.value:.3f}"
        + ("" if step.share == 1.0 else f", reached by {step.share:.0%} of the iterations")
        + "</li>"
        for step in result.principal_variation
    )
    heading = html.escape(title)
    style = (
        "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}"
        "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right}"
        "td:first-child,th:first-child{text-align:left}.best{color:#1a7f37;font-weight:bold}"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{heading}</title><style>{style}</style></head><body><h1>{heading}</h1>"
        f"<p>Seat {result.seat}, {result.iterations:,} iterations. A value is the mean "
        "return of the iterations through the action, for the seat to move there: an "
        "estimate.</p>"
        f"<table><tr><th>action</th><th>visits</th><th>mean return</th></tr>{rows}</table>"
        f"{search_svg(game, result)}"
        f"<h2>Principal variation</h2><ol>{line or '<li>(the search went no deeper)</li>'}"
        "</ol></body></html>\n"
    )
