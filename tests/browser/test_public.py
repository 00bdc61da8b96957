"""A spectator's phone and the screen on the wall follow a hand confirmed at a
table, without reloading."""

import time

import pytest
from playwright.sync_api import expect

from tests.factories import ClubFactory, MembershipFactory
from tournaments import registration, rounds, tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def started(names: str):
    """A tournament of ``names`` with round 1 paired; its first table, the seat of
    the player who will win it, the other seat, and the winner's entrant."""
    club = ClubFactory()
    tournament = registration.tournament_create(club=club, name="Autumn Cup", round_minutes=60)
    players = [MembershipFactory(club=club, player__name=n, listed=True).player for n in names]
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
    winner, loser = view.table.party.seats.order_by("position")
    entrant = next(e for e in view.entrants if e.player_id == winner.player_id)
    return tournament, winner, loser, entrant


def gin_confirmed(phone, winner, loser) -> None:
    """The winner's phone enters gin against 90, the other phone confirms it:
    110, the party is over; the winner is paid 110 + box 20 + game 100 + shutout 100."""
    at_table, other = phone(winner.get_absolute_url()), phone(loser.get_absolute_url())
    form = at_table.locator("#quick-entry")
    form.locator("input[name=ending][value=gin]").check()
    form.locator(f"input[name=knocker][value='{winner.position}']").check()
    form.locator("#id_defender_deadwood").fill("90")
    form.locator("#enter-hand").click()
    expect(other.locator("#confirm")).to_be_visible()
    other.locator("#confirm").click()
    expect(other.locator(".messages")).to_contain_text("Hand 1 confirmed")


def test_the_standings_and_the_screen_show_a_confirmed_hand_without_reloading(phone):
    tournament, winner, loser, entrant = started("ABCD")

    spectator = phone(f"/t/{tournament.slug}/")
    screen = phone(f"/t/{tournament.slug}/screen/")
    for page in (spectator, screen):
        page.evaluate("window.knockMarker = 1")  # gone if the page reloads
    expect(spectator.locator("#tables [data-table='1']")).to_contain_text("0 hands")

    gin_confirmed(phone, winner, loser)

    expect(spectator.locator("#tables [data-table='1']")).to_contain_text("+330")
    expect(spectator.locator("#standings")).to_contain_text("+330")
    expect(screen.locator(f"[data-entrant='{entrant.pk}']")).to_contain_text("+330")
    expect(screen.locator("[data-table='1']")).to_contain_text("330")
    assert spectator.evaluate("window.knockMarker") == 1
    assert screen.evaluate("window.knockMarker") == 1
    # The round's clock runs on the screen: an hour, less the time played.
    expect(screen.locator(".screen-clock")).to_be_visible()
    expect(screen.locator("[data-deadline-show]")).to_contain_text("59:")


def test_the_last_table_of_a_round_confirmed_at_a_quiet_moment_reaches_every_page(phone):
    """Nothing happens after it: the pages hear of the board once, and the board
    they are then answered with already shows the hand."""
    tournament, winner, loser, entrant = started("AB")
    pages = [phone(f"/t/{tournament.slug}/") for _ in range(3)]
    screen = phone(f"/t/{tournament.slug}/screen/")

    gin_confirmed(phone, winner, loser)

    for page in pages:
        expect(page.locator("#tables [data-table='1']")).to_contain_text("finished")
        expect(page.locator("#standings")).to_contain_text("+330")
    expect(screen.locator(f"[data-entrant='{entrant.pk}']")).to_contain_text("+330")
