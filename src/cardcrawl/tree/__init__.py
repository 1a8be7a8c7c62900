"""See the tree: the exact solver's tree of a small position, and IS-MCTS's search.

:func:`solver_tree` lays out the tree the exact solver (:mod:`cardcrawl.solve`) values:
decision and chance nodes, each node's exact value, each chance outcome's probability,
the best actions marked. :func:`tree_svg` draws it as an SVG picture, :func:`tree_html`
as a self-contained page whose nodes fold and unfold (no script, no outside file).
For a position of any size, :func:`search_position` runs IS-MCTS from what the seat to
move sees and keeps its principal variation; :func:`search_text`, :func:`search_svg` and
:func:`search_html` show its root statistics and that line.
"""

from typing import TYPE_CHECKING

from cardcrawl.core._deprecation import moved_names
from cardcrawl.tree._render import tree_html, tree_svg
from cardcrawl.tree._search_view import search_html, search_position, search_svg, search_text
from cardcrawl.tree._solver_tree import TreeNode, solver_tree

__all__ = [
    "TreeNode",
    "search_html",
    "search_position",
    "search_svg",
    "search_text",
    "solver_tree",
    "tree_html",
    "tree_svg",
]

# The names this package no longer promises, each with where it lives now: they still
# answer, with a DeprecationWarning, for one release. Type checkers are not shown this
# __getattr__: with it, they would accept any name of the package.
if not TYPE_CHECKING:
    __getattr__ = moved_names(
        __name__,
        {
            "DEFAULT_TREE_NODES": "cardcrawl.tree._solver_tree",
            "fraction_text": "cardcrawl.tree._render",
        },
    )
