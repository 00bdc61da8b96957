"""The guides' pictures (docs/images/) are the demo's pages as this test finds them:
each page is checked for what the guide says it shows, then taken on a phone and on
a desktop (tests/browser/pictures.py). `make screenshots` runs this module with
KNOCK_SCREENSHOTS=docs/images, so a changed page changes its picture; in the suite
the pictures go to a temporary folder and are checked there.

The demo is loaded into the test's database and served by the suite's live server
with the module's browser: about three seconds of a pass, where a separate script
migrating a database of its own, loading the demo with the site's password hashing
and starting a server and a browser of its own took about twenty."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clubs.models import ClubNight
from demo.loader import SWISS, load_demo
from scoring.models import Hand, Party
from tests.browser.conftest import close
from tests.browser.pictures import SIZES, device, folder, png_size, take

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seat(demo):
    """A player's phone at the Spring Open's table 4, asked to confirm the hand the
    opponent entered."""
    waiting = Hand.objects.select_related("party").get(
        status=Hand.Status.PENDING,
        party__tournament_table__round__tournament__slug=SWISS["slug"],
    )
    asked = waiting.party.seats.exclude(pk=waiting.entered_by_id).get()
    return reverse("seat:table", args=[asked.token]), lambda page: page.get_by_role(
        "button", name="Confirm"
    )


def party(demo):
    """The organizer's page of the demo night's finished party: the seats with their
    links and codes."""
    night = ClubNight.objects.get(club=demo["club"], name="Demo night")
    finished = Party.objects.filter(night=night, status="finished").order_by("id").first()
    return reverse("manage:party-detail", args=[finished.pk]), lambda page: page.get_by_role(
        "heading", name=finished.label
    )


def standings(demo):
    """The Spring Open's public page: round 2 in play, then the standings."""
    return reverse("public:tournament-detail", args=[SWISS["slug"]]), lambda page: page.get_by_role(
        "heading", name="Standings"
    )


def screen(demo):
    """The Spring Open's wall screen, held on its first slide once laid out."""
    path = reverse("public:tournament-screen", args=[SWISS["slug"]]) + "?slide=1"
    return path, lambda page: page.locator("#screen[data-shown='1']")


def night(demo):
    """The organizer's demo night: every table as it stands."""
    night = ClubNight.objects.get(club=demo["club"], name="Demo night")
    return reverse("manage:night-detail", args=[night.pk]), lambda page: page.get_by_role(
        "heading", name="Demo night"
    )


#: Each picture's name: what finds its page in the demo, and whether the organizer
#: must be logged in to see it.
PAGES = {"seat": (seat, False), "party": (party, True), "standings": (standings, False)}
PAGES |= {"screen": (screen, False), "night": (night, True)}


def log_in(page, base, demo):
    page.goto(base + "/login/")
    page.get_by_label("Username").fill(demo["username"])
    page.get_by_label("Password").fill(demo["password"])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/manage/**")


def test_the_guides_pictures_are_the_demo_pages_on_a_phone_and_on_a_desktop(
    chromium, live_server, tmp_path
):
    demo = load_demo()
    into = folder(tmp_path)
    pages = {name: (find(demo), organizers_only) for name, (find, organizers_only) in PAGES.items()}
    for size, viewport in SIZES.items():
        anyone = chromium.new_context(**device(size))
        organizer = chromium.new_context(**device(size))
        visitor, organizers = anyone.new_page(), organizer.new_page()
        log_in(organizers, live_server.url, demo)
        for name, ((path, shows), organizers_only) in pages.items():
            page = organizers if organizers_only else visitor
            assert page.goto(live_server.url + path).ok, path
            expect(shows(page)).to_be_visible()
            picture = take(page, name, into)
            assert png_size(picture) == (viewport["width"], viewport["height"]), picture
        close(anyone)
        close(organizer)
