"""A spectator's phone and the screen on the wall follow a hand confirmed at a
table, without reloading."""

import time

import pytest
from playwright.sync_api import expect

from tests.factories import ClubFactory, MembershipFactory
from tournaments import registration, rounds, tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_standings_and_the_screen_show_a_confirmed_hand_without_reloading(phone):
    club = ClubFactory()
    tournament = registration.tournament_create(club=club, name="Autumn Cup", round_minutes=60)
    players = [MembershipFactory(club=club, player__name=n, listed=True).player for n in "ABCD"]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    round = rounds.round_start(tournament=tournament)  # paired on commit
    # With a real worker the pairing runs in another process: wait for its tables.
    for _ in range(150):
        views = [v for v in tables.round_tables(round) if v.table.number == 1]
        if views:
            break
        time.sleep(0.1)
    view = views[0]
    seats = list(view.table.party.seats.order_by("position"))
    winner = seats[0]
    entrant = next(e for e in view.entrants if e.player_id == winner.player_id)

    spectator = phone(f"/t/{tournament.slug}/")
    screen = phone(f"/t/{tournament.slug}/screen/")
    for page in (spectator, screen):
        page.evaluate("window.knockMarker = 1")  # gone if the page reloads
    expect(spectator.locator("#tables [data-table='1']")).to_contain_text("0 hands")

    at_table, other = phone(winner.get_absolute_url()), phone(seats[1].get_absolute_url())
    form = at_table.locator("#quick-entry")
    form.locator("input[name=ending][value=gin]").check()
    form.locator(f"input[name=knocker][value='{winner.position}']").check()
    form.locator("#id_defender_deadwood").fill("90")
    form.locator("#enter-hand").click()
    expect(other.locator("#confirm")).to_be_visible()
    other.locator("#confirm").click()
    expect(other.locator(".messages")).to_contain_text("Hand 1 confirmed")

    # Gin against 90: 110, the party is over; the winner is paid 110 + box 20 +
    # game 100 + shutout 100.
    expect(spectator.locator("#tables [data-table='1']")).to_contain_text("+330")
    expect(spectator.locator("#standings")).to_contain_text("+330")
    expect(screen.locator(f"[data-entrant='{entrant.pk}']")).to_contain_text("+330")
    expect(screen.locator("[data-table='1']")).to_contain_text("330")
    assert spectator.evaluate("window.knockMarker") == 1
    assert screen.evaluate("window.knockMarker") == 1
    # The round's clock runs on the screen: an hour, less the time played.
    expect(screen.locator(".screen-clock")).to_be_visible()
    expect(screen.locator("[data-deadline-show]")).to_contain_text("59:")
