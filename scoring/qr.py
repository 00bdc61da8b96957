"""QR codes for seat links, as inline SVG: sharp at any print size, no image files."""

import segno
from django.utils.safestring import mark_safe

# No width or height: the page's CSS sizes the code (small on screen, big on the
# table card); the viewBox keeps it square. A border of two modules is enough
# quiet zone on a white card.
SVG_OPTIONS = {"border": 2, "omitsize": True, "svgclass": "qr", "lineclass": "qr-line"}


def qr_svg(data: str) -> str:
    """The QR code for ``data`` as an ``<svg>`` element. Error correction at least
    M (segno raises it when the code stays the same size), so a creased or
    coffee-stained table card still scans."""
    svg = segno.make(data, micro=False, error="m").svg_inline(**SVG_OPTIONS)
    # segno writes only paths and numbers; the link itself is not in the markup.
    return mark_safe(svg)


def seat_codes(seats, absolute) -> list[dict]:
    """Each seat with its link as an absolute URL (``absolute`` is
    ``request.build_absolute_uri``) and that link's QR code."""
    codes = []
    for seat in seats:
        link = absolute(seat.get_absolute_url())
        codes.append({"seat": seat, "link": link, "svg": qr_svg(link)})
    return codes
