"""The pictures the guides show, taken from the demo (`make screenshots`).

A fresh SQLite database in a temporary folder gets the demo club; Knock serves it
on a free port of 127.0.0.1 (uvicorn, as `make run` does), and Debian's Chromium,
driven by Playwright, opens each page on a phone (390 × 844) and a desktop
(1280 × 800) and writes it into docs/images/ as `<page>-<size>.png`. A changed page
changes its picture the next time this runs; the pictures are committed with it.

Run from the checkout: `.venv/bin/python docs/screenshots.py`.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
LOGIN = ("organizer", "knock-1909")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def manage(env: dict, *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def wait_for(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def pages() -> dict[str, tuple[str, bool]]:
    """Each picture's name: (its path, whether the organizer must be logged in),
    found in the demo's database."""
    import django

    django.setup()
    from django.db.models import Count
    from django.urls import reverse

    from clubs.models import ClubNight
    from scoring.models import Party
    from tournaments.models import Tournament

    night = ClubNight.objects.get(name="Demo night")
    # The running party of Gin Rummy with the most hands: a seat page with a sheet.
    running = (
        Party.objects.filter(status="running", game="gin_rummy", format="two")
        .annotate(played=Count("hands"))
        .order_by("-played", "id")
        .first()
    )
    party = Party.objects.filter(night=night, status="finished").order_by("id").first()
    tournament = Tournament.objects.get(slug="knickerbocker-spring-open")
    seat = running.seats.order_by("position").first()
    return {
        "seat": (reverse("seat:table", args=[seat.token]), False),
        "party": (reverse("manage:party-detail", args=[party.pk]), True),
        "standings": (reverse("public:tournament-detail", args=[tournament.slug]), False),
        "screen": (reverse("public:tournament-screen", args=[tournament.slug]), False),
        "night": (reverse("manage:night-detail", args=[night.pk]), True),
    }


def shoot(base: str, wanted: dict[str, tuple[str, bool]]) -> None:
    from playwright.sync_api import sync_playwright

    IMAGES.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
        )
        for size, viewport in SIZES.items():
            options = {
                "viewport": viewport,
                "is_mobile": size == "phone",
                "has_touch": size == "phone",
                "device_scale_factor": 1,
                "locale": "en-GB",
            }
            anyone = browser.new_context(**options).new_page()
            organizer = browser.new_context(**options).new_page()
            organizer.goto(f"{base}/login/")
            organizer.fill("input[name=username]", LOGIN[0])
            organizer.fill("input[name=password]", LOGIN[1])
            organizer.click("form:has(input[name=password]) button[type=submit]")
            organizer.wait_for_url(lambda url: "/login/" not in url)
            for name, (path, organizers_only) in wanted.items():
                page = organizer if organizers_only else anyone
                page.goto(base + path)
                page.wait_for_load_state("networkidle")
                # The wall screen measures itself before its first slide.
                page.wait_for_timeout(1500 if name == "screen" else 300)
                target = IMAGES / f"{name}-{size}.png"
                page.screenshot(path=str(target))
                print(f"{target.relative_to(ROOT)}  {target.stat().st_size // 1024} KiB")
            anyone.context.close()
            organizer.context.close()
        browser.close()


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="knock-screenshots-") as folder:
        env = {
            **os.environ,
            "SQLITE_PATH": str(Path(folder) / "demo.sqlite3"),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        for name in ("DATABASE_URL", "REDIS_URL"):
            env.pop(name, None)
        os.environ.update(env)
        for name in ("DATABASE_URL", "REDIS_URL"):
            os.environ.pop(name, None)
        manage(env, "migrate", "--noinput")
        manage(env, "load_demo")
        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_for(f"{base}/health/")
            sys.path.insert(0, str(ROOT))
            shoot(base, pages())
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
