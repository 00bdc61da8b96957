"""The organizer's night and round pages, as their scripts poll them: while nothing
changed each poll is an empty 304; a change still shows without a reload."""

import pytest
from playwright.sync_api import expect

from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.factories import ClubNightFactory, MembershipFactory, OrganizerFactory, start_night_party
from tournaments import registration, rounds, tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page):
    page.get_by_label("Username").fill("desk")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()


def polls(page) -> list[int]:
    """The status of every poll of the page's tables, as they come."""
    statuses = []
    page.on("response", lambda r: statuses.append(r.status) if "/tables/" in r.url else None)
    return statuses


def wait_for_unchanged_polls(page, statuses):
    """Two polls answered 304: the script sent back the number it was given."""
    for _ in range(60):
        if statuses.count(304) >= 2:
            return
        page.wait_for_timeout(500)
    raise AssertionError(f"no 304 among the polls: {statuses}")


def test_the_night_page_gets_304_until_a_hand_changes_its_tables(phone):
    organizer = OrganizerFactory(player__user__username="desk")
    night = ClubNightFactory(club=organizer.club, name="Friday")
    party = start_night_party(night, label="Table 1")
    desk = phone(f"/login/?next=/manage/nights/{night.pk}/")
    log_in(desk)
    statuses = polls(desk)
    expect(desk.locator("#night-tables")).to_be_visible()
    wait_for_unchanged_polls(desk, statuses)

    a, _ = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("gin", a.position, 0, 30))
    expect(desk.locator(f"#table-{party.pk}")).to_have_attribute("data-state", "confirming")


def test_the_round_page_gets_304_until_a_hand_changes_its_tables(phone):
    organizer = OrganizerFactory(player__user__username="desk")
    club = organizer.club
    tournament = registration.tournament_create(club=club, name="Autumn Cup")
    players = [MembershipFactory(club=club, player__name=n, listed=True).player for n in "ABCD"]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    round = rounds.round_start(tournament=tournament)  # paired on commit
    desk = phone(f"/login/?next=/manage/tournaments/{tournament.slug}/rounds/1/")
    log_in(desk)
    statuses = polls(desk)
    expect(desk.locator("#round-tables .board")).to_have_count(2)
    wait_for_unchanged_polls(desk, statuses)

    table = tables.round_tables(round)[0].table
    seat = table.party.seats.order_by("position").first()
    hand_enter(seat=seat, number=1, entry=Result("gin", seat.position, 0, 30))
    expect(desk.locator('#round-tables [data-state="pending"]')).to_have_count(1)
