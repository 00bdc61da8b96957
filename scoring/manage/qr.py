"""The seat links' QR codes live in `scoring.qr`: the tournament's table cards print them too."""

from scoring.qr import SVG_OPTIONS, qr_svg, seat_codes

__all__ = ["SVG_OPTIONS", "qr_svg", "seat_codes"]
