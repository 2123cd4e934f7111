"""The icon shapes the sheets draw, as inline SVG.

A game's ``reference.yaml`` names, for each icon of its rulebook's Icon Reference, one of these
shapes; the card text and the legend inline the shape by name. Shapes are drawn on a 24 x 24
grid with ``currentColor``, so they print in the text's colour and scale with its size.
"""

from __future__ import annotations

from markupsafe import Markup

#: Shape name -> SVG body (drawn on a 24 x 24 grid).
SHAPES: dict[str, str] = {
    "heart_x": '<path d="M12 21 3 12a5 5 0 0 1 9-6 5 5 0 0 1 9 6z" fill="none" stroke-width="2"/>'
    '<path d="M9 9l6 6M15 9l-6 6" stroke-width="2"/>',
    "hull_x": '<path d="M2 13h20l-3 7H5z" fill="none" stroke-width="2"/>'
    '<path d="M12 3v10M8 4l8 8M16 4l-8 8" stroke-width="2"/>',
    "anchor": '<circle cx="12" cy="5" r="2" fill="none" stroke-width="2"/>'
    '<path d="M12 7v14M6 11h12M4 14a8 7 0 0 0 16 0" fill="none" stroke-width="2"/>',
    "skull": '<path d="M5 11a7 7 0 0 1 14 0v3l-2 2v3H7v-3l-2-2z" fill="none" stroke-width="2"/>'
    '<circle cx="9" cy="11" r="1.6"/><circle cx="15" cy="11" r="1.6"/>',
    "die": '<rect x="3" y="3" width="18" height="18" rx="3" fill="none" stroke-width="2"/>'
    '<circle cx="8" cy="8" r="1.5"/><circle cx="16" cy="16" r="1.5"/>'
    '<circle cx="12" cy="12" r="1.5"/>',
    "die_high": '<rect x="2" y="6" width="12" height="12" rx="2" fill="none" stroke-width="2"/>'
    '<circle cx="8" cy="12" r="1.5"/><path d="M15 13l3 3 5-7" fill="none" stroke-width="2"/>',
    "die_sum": '<rect x="2" y="6" width="12" height="12" rx="2" fill="none" stroke-width="2"/>'
    '<circle cx="8" cy="12" r="1.5"/><path d="M19 8v8M15 12h8" stroke-width="2"/>',
    "plus_one": '<path d="M3 12h8M7 8v8M16 6l3-2v16" fill="none" stroke-width="2"/>',
    "scurvy": '<circle cx="12" cy="12" r="9" fill="none" stroke-width="2"/>'
    '<path d="M8 8l8 8M16 8l-8 8" stroke-width="2"/>',
    "cutlass": '<path d="M4 20 18 6l2-3-3 2L3 19z" fill="none" stroke-width="2"/>'
    '<path d="M6 14l4 4" stroke-width="2"/>',
    "card": '<rect x="6" y="3" width="12" height="18" rx="2" fill="none" stroke-width="2"/>'
    '<path d="M12 8v8M8 12h8" stroke-width="2"/>',
    "cards": '<rect x="3" y="5" width="11" height="15" rx="2" fill="none" stroke-width="2"/>'
    '<rect x="10" y="3" width="11" height="15" rx="2" fill="none" stroke-width="2"/>',
    "star": '<path d="M12 2l3 7h7l-6 4 2 8-6-5-6 5 2-8-6-4h7z" fill="none" stroke-width="2"/>',
    "coin": '<circle cx="12" cy="12" r="9" fill="none" stroke-width="2"/>'
    '<circle cx="12" cy="12" r="4" fill="none" stroke-width="2"/>',
    "chest": '<rect x="3" y="9" width="18" height="11" fill="none" stroke-width="2"/>'
    '<path d="M3 9a9 5 0 0 1 18 0M12 12v3" fill="none" stroke-width="2"/>',
    "sword": '<path d="M12 2v15M8 17h8M12 17v5" fill="none" stroke-width="2"/>',
    "half": '<circle cx="12" cy="12" r="9" fill="none" stroke-width="2"/>'
    '<path d="M12 3a9 9 0 0 1 0 18z"/>',
    "caravan": '<path d="M3 16h18M5 16V9h10v7M15 12h4l2 4" fill="none" stroke-width="2"/>'
    '<circle cx="8" cy="18" r="2"/><circle cx="17" cy="18" r="2"/>',
    "ship": '<path d="M3 15h18l-3 5H6zM12 3v12M12 4l6 8h-6" fill="none" stroke-width="2"/>',
    "menhir": '<path d="M8 21 9 5l3-3 3 3 1 16z" fill="none" stroke-width="2"/>',
    "city": '<path d="M3 21V10l4-3 4 3v11M11 21V5h8v16M3 21h18" fill="none" stroke-width="2"/>',
    "provisional": '<path d="M12 2 22 12 12 22 2 12z" fill="none" stroke-width="2"/>'
    '<path d="M12 7v6M12 16v1.5" stroke-width="2"/>',
}


def icon_svg(shape: str, label: str) -> Markup:
    """The inline SVG of ``shape``, titled ``label`` (escaped) for readers and search."""
    from markupsafe import escape

    body = SHAPES.get(shape)
    if body is None:
        raise KeyError(f"no icon shape '{shape}' (shapes: {', '.join(sorted(SHAPES))})")
    return Markup(
        '<svg class="icon" viewBox="0 0 24 24" stroke="currentColor" fill="currentColor" '
        'role="img" aria-label="{label}"><title>{label}</title>{body}</svg>'
    ).format(label=escape(label), body=Markup(body))
