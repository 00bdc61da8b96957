"""The strict Content-Security-Policy blocks nothing our pages need: every kind of
page loads in Chromium without a single policy violation."""

import pytest
from playwright.sync_api import expect

from tests.factories import MembershipFactory, OrganizerFactory, start_party
from tournaments import registration, rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def violations(page) -> list[str]:
    found = []
    page.on(
        "console",
        lambda message: (
            found.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return found


def test_every_kind_of_page_runs_under_the_policy(phone, live_server):
    party = start_party()
    seat = party.seats.first()
    organizer = OrganizerFactory(club=party.club).player.user

    page = phone("/login/")
    refused = violations(page)
    page.get_by_label("Username").fill(organizer.username)
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    for path in ("/", f"/manage/parties/{party.pk}/", seat.get_absolute_url(), "/login/"):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")

    # The public tournament pages (polling their parts, the screen's clock), and the
    # organizer's API keys page.
    t = _tournament_in_play(party.club)
    entrant = t.entrants.first()
    for path in (
        f"/t/{t.slug}/",
        f"/t/{t.slug}/screen/",
        f"/t/{t.slug}/rounds/1/",
        f"/t/{t.slug}/crosstable/",
        f"/t/{t.slug}/players/{entrant.pk}/",
        f"/t/{t.slug}/print/standings/",
        party.club.get_absolute_url(),
        "/manage/api-keys/",
    ):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")

    # The table cards wire their Print button from a script file, not inline.
    page.goto(f"{live_server.url}/manage/parties/{party.pk}/cards/")
    page.wait_for_load_state("networkidle")

    # The API's docs page draws its operations with its own scripts (from the schema
    # of every endpoint, built and drawn: seconds on a busy machine).
    page.goto(live_server.url + "/api/docs")
    expect(page.locator(".opblock").first).to_be_visible(timeout=30_000)

    assert refused == []


def _tournament_in_play(club):
    tournament = registration.tournament_create(club=club, name="Autumn Cup", round_minutes=60)
    players = [MembershipFactory(club=club, player__name=n, listed=True).player for n in "ABCD"]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    rounds.round_start(tournament=tournament)  # paired on commit
    return tournament
