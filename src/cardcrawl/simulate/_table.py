"""Plain-text tables that fit a terminal: columns aligned, never wider than 100."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["TABLE_WIDTH", "format_table"]

#: The widest line a table may have.
TABLE_WIDTH = 100


def format_table(
    head: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    width: int = TABLE_WIDTH,
    keep: int = 1,
    right: Sequence[int] = (),
) -> str:
    """Rows as an aligned table, a rule under the head, no line wider than ``width``.

    Columns that do not fit go to a table of their own under the first, each part
    repeating the first ``keep`` columns, so that every row can still be read by its
    name. A single column wider than ``width`` still overflows: it is never cut.

    Args:
        head: the columns' titles.
        rows: the cells, one sequence per row, as long as ``head``.
        width: the widest line allowed.
        keep: the columns every part repeats (the row's name).
        right: the columns aligned right (numbers); the others are aligned left.

    Returns:
        The table, its parts separated by an empty line.

    Examples:
        >>> from cardcrawl.simulate._table import format_table
        >>> print(format_table(["bot", "games"], [["random", "10"]], right=[1]))
        bot     games
        ------  -----
        random     10
        >>> print(format_table(["bot", "a" * 8, "b" * 8], [["x", "1", "2"]], width=15))
        bot  aaaaaaaa
        ---  --------
        x    1
        <BLANKLINE>
        bot  bbbbbbbb
        ---  --------
        x    2
    """
    table = [list(head), *(list(r) for r in rows)]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    keep = min(keep, len(head))
    parts: list[list[int]] = []
    part: list[int] = list(range(keep))
    used = sum(widths[:keep]) + 2 * (keep - 1)
    for i in range(keep, len(head)):
        extra = widths[i] + (2 if part else 0)
        if len(part) > keep and used + extra > width:
            parts.append(part)
            part = list(range(keep))
            used = sum(widths[:keep]) + 2 * (keep - 1)
            extra = widths[i] + (2 if part else 0)
        part.append(i)
        used += extra
    parts.append(part)
    blocks = []
    for columns in parts:

        def line(cells: Sequence[str], columns: list[int] = columns) -> str:
            text = "  ".join(
                cells[i].rjust(widths[i]) if i in right else cells[i].ljust(widths[i])
                for i in columns
            )
            return text.rstrip()

        lines = [line(table[0]), "  ".join("-" * widths[i] for i in columns)]
        lines += [line(r) for r in table[1:]]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
