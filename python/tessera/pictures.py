"""The pictures of ``tessera show`` (docs/show.md): ``tessera.pictures.show`` draws a layout, a
swizzled layout, a TV layout, an MMA atom, a tiled MMA or a tiled copy as SVG, an interactive HTML
page, an ASCII table or TikZ, exactly as the command does. ``tessera.show`` is the same function;
in Jupyter the values draw themselves (their ``_repr_svg_`` is this SVG).

    >>> from tessera.pictures import show
    >>> show("(_2,_2):(_2,_1)", "ascii").splitlines()[0]
    '(_2,_2):(_2,_1)'
    >>> show("(_2,_2):(_2,_1)").startswith("<?xml")
    True
"""

from . import _tessera

__all__ = ["show"]


def show(x, format="svg", *, tv=False, tile=None):  # noqa: A002
    """The picture ``tessera show`` draws (docs/show.md): ``format`` is "svg" (standalone SVG),
    "html" (the interactive page: hover, zoom, pan), "ascii" (print_layout's table) or "latex" (TikZ).

    ``x`` is a layout, a composed (swizzled) layout, make_layout_tv's pair, an MMA atom, a tiled MMA,
    a tiled copy, or an expression string. ``tv=True`` with ``tile=(M, N)`` draws a (thread, value)
    -> index layout on an M x N tile (``--tv --tile M,N``).

    Precondition: at most 65536 cells; tile only with tv (and not for atoms and tiled operations).
    Postcondition: the same text as ``tessera show EXPR --format FORMAT`` prints.

    Example:
        >>> print(tessera.show("(_2,(_2,_2)):(_4,(_2,_1))", "ascii"), end="")
        (_2,(_2,_2)):(_4,(_2,_1))
              0   1   2   3 
            +---+---+---+---+
         0  | 0 | 2 | 1 | 3 |
            +---+---+---+---+
         1  | 4 | 6 | 5 | 7 |
            +---+---+---+---+
    """
    return _tessera.show(x, format, tv, tile)
