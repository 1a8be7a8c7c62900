"""A solved tree drawn: an SVG picture and a self-contained page that folds."""

from __future__ import annotations

import html
from fractions import Fraction

from cardcrawl.tree._solver_tree import CHANCE_NODE, CUT, DECISION, END, POLICY, TreeNode

__all__ = ["tree_html", "tree_svg"]

_ROW = 22
_INDENT = 26
_CHAR = 7.2  # the width of a character of the 12 px monospace font, about
_BEST = "#1a7f37"
_SHAPES = {DECISION: "decision", POLICY: "policy", CHANCE_NODE: "chance", END: "end", CUT: "cut"}
_KIND_WORDS = {
    DECISION: "decision",
    POLICY: "fixed policy",
    CHANCE_NODE: "chance",
    END: "end of the game",
    CUT: "not drawn below",
}


def fraction_text(value: Fraction) -> str:
    """A value as a fraction, with its decimal: ``13/18 (0.722)``; ``1`` and ``0`` alone.

    Examples:
        >>> from fractions import Fraction
        >>> from cardcrawl.tree._render import fraction_text
        >>> fraction_text(Fraction(13, 18)), fraction_text(Fraction(1))
        ('13/18 (0.722)', '1')
    """
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value} ({float(value):.3f})"


def _on_best_line(root: TreeNode) -> set[int]:
    return {id(node) for node in root.best_line()}


def _label(node: TreeNode) -> str:
    parts = []
    if node.edge:
        parts.append(node.edge)
    if node.probability is not None:
        parts.append(f"p={node.probability}")
    return "  ".join(parts)


def tree_svg(root: TreeNode, *, title: str = "") -> str:
    """The tree as an SVG picture: one row per node, indented by depth.

    Each row shows the edge that leads to the node (the action, or the chance outcome
    with its probability), the node's shape (a square for a decision, a hollow square
    for a seat with a fixed policy, a circle for chance, a diamond for the end, a
    dashed square for a node not drawn below) and its exact value. Best actions are
    bold; the best line (:meth:`TreeNode.best_line`) is green. Each node's ``<title>``
    holds what the game says of its state.

    Args:
        root: the tree, from :func:`~cardcrawl.tree.solver_tree`.
        title: a line above the tree.

    Returns:
        The SVG document.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.tree import solver_tree, tree_svg
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=1)
        >>> state = game.initial_state(
        ...     seed=1, explicit_chance=True, stack={"build": ["5S", "QH", "2C", "RJ"]})
        >>> for text in ("higher 1,0", "higher 2,0"):
        ...     state = game.step(state, game.parse_action(text))
        >>> svg = tree_svg(solver_tree(game, state, hidden=True, depth=2))
        >>> svg.startswith("<svg"), svg.count('class="node '), "p=1/6" in svg
        (True, 25, True)
    """
    best_line = _on_best_line(root)
    rows = list(root.walk())
    top = 30 if title else 8
    width = 0.0
    parts: list[str] = []
    # Where each node's row is, for the lines from parent to child.
    row_of: dict[int, int] = {}
    parent_of: dict[int, TreeNode] = {}
    for _, node in rows:
        for child in node.children:
            parent_of[id(child)] = node
    for index, (depth, node) in enumerate(rows):
        row_of[id(node)] = index
        x = 10.0 + depth * _INDENT
        y = top + index * _ROW + _ROW / 2
        on_line = id(node) in best_line
        colour = _BEST if on_line else "#444"
        parent = parent_of.get(id(node))
        if parent is not None:
            px = 10 + (depth - 1) * _INDENT + 6
            py = top + row_of[id(parent)] * _ROW + _ROW / 2 + 6
            parts.append(
                f'<path d="M{px:.0f},{py:.0f} V{y:.0f} H{x:.0f}" fill="none" '
                f'stroke="{colour}" stroke-width="{2 if on_line else 1}"/>'
            )
        shape = _shape(node, x + 6, y, colour)
        label = _label(node)
        weight = ' font-weight="bold"' if node.best and node.edge else ""
        text_x = x + 18
        value = f"= {fraction_text(node.value)}"
        texts = []
        if label:
            texts.append(
                f'<text x="{text_x:.0f}" y="{y + 4:.0f}" fill="{colour}"{weight}>'
                f"{html.escape(label)}</text>"
            )
            text_x += (len(label) + 2) * _CHAR
        texts.append(
            f'<text x="{text_x:.0f}" y="{y + 4:.0f}" fill="{colour}">{html.escape(value)}</text>'
        )
        width = max(width, text_x + len(value) * _CHAR + 10)
        tip = html.escape(f"{_KIND_WORDS[node.kind]}: {node.text}")
        parts.append(
            f'<g class="node {_SHAPES[node.kind]}{" best" if on_line else ""}">'
            f"<title>{tip}</title>{shape}{''.join(texts)}</g>"
        )
    height = top + len(rows) * _ROW + 8
    head = ""
    if title:
        head = f'<text x="10" y="18" font-weight="bold">{html.escape(title)}</text>'
        width = max(width, 20 + len(title) * _CHAR)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}" '
        f'viewBox="0 0 {width:.0f} {height}" font-family="monospace" font-size="12">'
        f'<rect width="100%" height="100%" fill="white"/>{head}{"".join(parts)}</svg>'
    )


def _shape(node: TreeNode, x: float, y: float, colour: str) -> str:
    if node.kind == CHANCE_NODE:
        return f'<circle cx="{x:.0f}" cy="{y:.0f}" r="6" fill="{colour}"/>'
    if node.kind == END:
        return (
            f'<path d="M{x:.0f},{y - 7:.0f} L{x + 7:.0f},{y:.0f} L{x:.0f},{y + 7:.0f} '
            f'L{x - 7:.0f},{y:.0f} Z" fill="{colour}"/>'
        )
    fill = colour if node.kind == DECISION else "white"
    dash = ' stroke-dasharray="2,2"' if node.kind == CUT else ""
    return (
        f'<rect x="{x - 6:.0f}" y="{y - 6:.0f}" width="12" height="12" fill="{fill}" '
        f'stroke="{colour}" stroke-width="1.5"{dash}/>'
    )


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
details { margin-left: 1.4em; }
details > summary { cursor: pointer; list-style-position: outside; padding: 1px 0; }
.leaf { margin-left: 2.6em; padding: 1px 0; }
.edge { font-family: monospace; }
.best > summary .edge, .leaf.best .edge { font-weight: bold; }
.line > summary, .leaf.line { color: #1a7f37; }
.kind { color: #666; font-size: 0.9em; }
.value { font-family: monospace; }
.text { color: #666; font-size: 0.85em; }
"""


def tree_html(root: TreeNode, *, title: str = "The solver's tree") -> str:
    """The tree as a self-contained HTML page whose nodes fold and unfold.

    Each node is an HTML ``<details>`` element: a click on its line folds or unfolds
    what is below it, with no script and no outside file. The nodes of the best line
    are open and green, the others folded; best actions are bold.

    Args:
        root: the tree, from :func:`~cardcrawl.tree.solver_tree`.
        title: the page's title and heading.

    Returns:
        The page.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.tree import solver_tree, tree_html
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=1)
        >>> state = game.initial_state(
        ...     seed=1, explicit_chance=True, stack={"build": ["5S", "QH", "2C", "RJ"]})
        >>> for text in ("higher 1,0", "higher 2,0"):
        ...     state = game.step(state, game.parse_action(text))
        >>> page = tree_html(solver_tree(game, state, hidden=True, depth=2))
        >>> page.count("<details"), "http" in page.replace("http-equiv", "")
        (3, False)
    """
    best_line = _on_best_line(root)
    out: list[str] = []
    # An explicit stack (None closes a node's <details>): no recursion, however deep.
    stack: list[TreeNode | None] = [root]
    while stack:
        node = stack.pop()
        if node is None:
            out.append("</details>")
            continue
        on_line = id(node) in best_line
        classes = " ".join(
            c for c, on in (("best", node.best and bool(node.edge)), ("line", on_line)) if on
        )
        line = (
            f'<span class="edge">{html.escape(_label(node))}</span> '
            f'<span class="kind">{_KIND_WORDS[node.kind]}</span> '
            f'<span class="value">= {html.escape(fraction_text(node.value))}</span> '
            f'<span class="text">{html.escape(node.text)}</span>'
        )
        if not node.children:
            out.append(f'<div class="leaf {classes}">{line}</div>')
            continue
        opened = " open" if on_line else ""
        out.append(f'<details class="{classes}"{opened}><summary>{line}</summary>')
        stack.append(None)
        stack.extend(reversed(node.children))
    heading = html.escape(title)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{heading}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{heading}</h1>"
        f"<p>Value of the position for the solved seat: "
        f"<b>{html.escape(fraction_text(root.value))}</b>; {root.size} nodes. "
        "The best line is green; best actions are bold. Click a line to fold or unfold "
        "it.</p>" + "\n".join(out) + "</body></html>\n"
    )
