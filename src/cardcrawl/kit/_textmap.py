"""A grid of cells as text with its coordinates, cropped to a terminal's width.

The games' terminal views (``render_terminal`` in each game's ``_render``) fill in what
each cell shows; this lays the cells out, north (larger y) at the top, with the x
coordinates above and the y coordinates on the left, and keeps the columns around the
action when the whole map would not fit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardcrawl.kit._grid import Cell

__all__ = ["crop_note", "text_map"]

#: The left margin: the y coordinate, right-aligned, then a space.
_AXIS = 4


def _window(widths: Mapping[int, int], room: int | None, focus: Sequence[Cell], pin: bool) -> range:
    """The columns to show: all when they fit in ``room`` characters; else, of the runs
    of columns that fit, the one centred on the first focus cell when ``pin``, else the
    one showing the most focus cells (the first one if it can), centred on them as best
    it can."""
    xs = sorted(widths)
    low, high = xs[0], xs[-1]
    if room is None or sum(widths.values()) - 1 <= room:
        return range(low, high + 1)
    runs = []
    for start in xs:
        end, used = start, widths[start]
        while end < high and used + widths[end + 1] - 1 <= room:
            end += 1
            used += widths[end]
        runs.append(range(start, end + 1))
    focus_xs = [c[0] for c in focus] or [(low + high) // 2]
    middle = focus_xs[0] if pin else (min(focus_xs) + max(focus_xs)) / 2

    def merit(run: range) -> tuple[int, bool, float, int]:
        shown = [x in run for x in focus_xs]
        return 0 if pin else sum(shown), shown[0], -abs((run[0] + run[-1]) / 2 - middle), len(run)

    return max(runs, key=merit)


def text_map(
    contents: Mapping[Cell, str],
    area: tuple[int, int, int, int],
    *,
    width: int | None = None,
    focus: Sequence[Cell] = (),
    pin: bool = False,
    slot: int = 3,
    min_cell: int = 6,
) -> tuple[list[str], range]:
    """The lines of a map, and the x coordinates it shows.

    Each column is as wide as its widest cell and one space, and at least
    ``min_cell``.

    Args:
        contents: what each cell shows; cells not given are blank.
        area: ``(min_x, min_y, max_x, max_y)``, the cells to lay out.
        width: the most characters a line may have; ``None``: no limit.
        focus: cells to keep in view, as many as fit, the first one if it can.
        pin: centre the view on the first focus cell alone.
        slot: the x coordinate is right-aligned over this many first characters of a
            cell (where its card is).
        min_cell: the narrowest a column is.

    Examples:
        >>> from cardcrawl.kit._textmap import text_map
        >>> lines, shown = text_map(
        ...     {(0, 0): " A", (5, 0): " B"}, (0, 0, 5, 0), width=20, focus=[(0, 0)])
        >>> print("\\n".join(lines))
              0     1
          0  A
        >>> shown
        range(0, 2)
    """
    min_x, min_y, max_x, max_y = area
    widths = dict.fromkeys(range(min_x, max_x + 1), min_cell)
    for (x, _), text in contents.items():
        if x in widths:
            widths[x] = max(widths[x], len(text) + 1)
    # The last column needs only its text, not the space after it.
    xs = _window(widths, None if width is None else width - _AXIS, focus, pin)
    lines = [(" " * _AXIS + "".join(f"{x:>{slot}}".ljust(widths[x]) for x in xs)).rstrip()]
    for y in range(max_y, min_y - 1, -1):
        row = "".join(contents.get((x, y), "").ljust(widths[x]) for x in xs)
        lines.append((f"{y:>3} " + row).rstrip())
    return lines, xs


def crop_note(shown: range, area: tuple[int, int, int, int], hidden: Sequence[int] = ()) -> str:
    """A line on what a cropped map left out: its columns, and the numbered choices
    (``hidden``) on them; the empty string when nothing was left out.

    Examples:
        >>> from cardcrawl.kit._textmap import crop_note
        >>> crop_note(range(-1, 11), (-1, -1, 23, 1), [10, 11, 12, 14])
        'Shown: x -1 to 10 of -1 to 23, more to the east (choices 10 to 12, 14 are there).'
        >>> crop_note(range(0, 6), (0, 0, 5, 0))
        ''
    """
    min_x, _, max_x, _ = area
    sides = [side for side, cut in (("west", shown[0] > min_x), ("east", shown[-1] < max_x)) if cut]
    if not sides:
        return ""
    there = ""
    if hidden:
        runs: list[list[int]] = []
        for n in sorted(hidden):
            if runs and n == runs[-1][-1] + 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        numbers = ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]} to {r[-1]}" for r in runs)
        verb = "is" if len(hidden) == 1 else "are"
        there = f" (choice{'s' if len(hidden) > 1 else ''} {numbers} {verb} there)"
    return (
        f"Shown: x {shown[0]} to {shown[-1]} of {min_x} to {max_x}, "
        f"more to the {' and the '.join(sides)}{there}."
    )
