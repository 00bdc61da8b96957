"""The pictures the guides show (docs/images/), taken by the browser tests: a page as
a phone (390 × 844) or a desktop (1280 × 800) shows it, written as
``<name>-<size>.png``. With KNOCK_SCREENSHOTS set (`make screenshots` sets it to
docs/images/) they go there; otherwise into the test's temporary folder, and the
test checks them all the same, so the way the guides' pictures are taken runs in
every pass of the suite and cannot rot unnoticed."""

import os
import struct
from pathlib import Path

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def device(size: str) -> dict:
    """The options of a browser context of that size; the phone one acts as a phone
    (touch, the mobile viewport rules)."""
    phone = size == "phone"
    return {
        "viewport": SIZES[size],
        "device_scale_factor": 1,
        "is_mobile": phone,
        "has_touch": phone,
        "locale": "en-US",
    }


def folder(tmp_path: Path) -> Path:
    """Where the pictures go: KNOCK_SCREENSHOTS when set, else ``tmp_path``."""
    chosen = Path(os.environ.get("KNOCK_SCREENSHOTS") or tmp_path)
    chosen.mkdir(parents=True, exist_ok=True)
    return chosen


def take(page, name: str, into: Path) -> Path:
    """Writes the page's visible part as ``<name>-<size>.png``, the size being the
    one of SIZES the page's viewport has."""
    size = next(s for s, viewport in SIZES.items() if viewport == page.viewport_size)
    picture = into / f"{name}-{size}.png"
    page.screenshot(path=str(picture))
    return picture


def png_size(picture: Path) -> tuple[int, int]:
    """Width and height read from a PNG's header (its IHDR chunk comes first);
    (0, 0) for a file that is not a PNG."""
    head = picture.read_bytes()[:24]
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return (0, 0)
    return struct.unpack(">II", head[16:24])
