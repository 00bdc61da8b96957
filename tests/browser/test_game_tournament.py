"""A Chinchón tournament of twelve at tables of four, run in the browser: the
organizer creates it with its game and players per table, starts round 1, one
table plays its party on the players' phones (one enters the hand, two of the
three others confirm each), the round page shows each table's places and
tournament points, the public standings count them, round 2 is seated from the
standings, and the tournament is finished.

Registration and the other tables' hands go through the services the pages
call, so the walk stays short on a small machine."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import reload
from tests.browser.test_game_phones import enter_chinchon, fits
from tests.factories import MembershipFactory
from tests.tournaments.test_table_tournaments import play_chinchon
from tournaments import registration, tables
from tournaments.models import Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Bea", "Carmen", "Diego", "Elena", "Félix", "Gema", "Hugo", "Inés", "Jorge"]
NAMES += ["Lola", "Marta"]


def tables_of(tournament, number):
    round = Round.objects.get(tournament=tournament, number=number)
    return sorted(tables.round_tables(round), key=lambda v: v.table.number)


def test_twelve_play_a_chinchon_tournament_at_tables_of_four(desk, phone, live_server):
    club = Tournament._meta.get_field("club").related_model.objects.get()
    players = [MembershipFactory(club=club, player__name=n, listed=True).player for n in NAMES]

    # The organizer creates it: Chinchón, four to a table, two rounds.
    desk.goto(live_server.url + f"/manage/clubs/{club.slug}/tournaments/")
    desk.locator("#id_name").fill("Chinchón Night")
    desk.locator("#id_rounds").fill("2")
    desk.locator("input[name=game][value=chinchon]").check()
    desk.locator("#id_table_size").fill("4")
    desk.locator("#tournament-create").click()
    expect(desk.locator(".messages")).to_contain_text("Tournament “Chinchón Night” created")
    tournament = Tournament.objects.get(name="Chinchón Night")
    assert (tournament.game, tournament.table_size) == ("chinchon", 4)
    assert tournament.game_options == {"deck": 40, "conga": False}

    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    reload(desk)
    expect(desk.locator("#check-in-count")).to_contain_text("12 of 12 entrants checked in.")
    desk.locator("#start").click()
    expect(desk.locator("#round-tables .board")).to_have_count(3)
    for board in desk.locator("#round-tables .board").all():
        expect(board.locator(".board-seats tbody tr")).to_have_count(4)

    # Table 1 plays on the phones: two hands, seat 1 closing clean each time, until
    # seat 4 is over 100 (a hand leaves at most 96 penalty points).
    first, *others = tables_of(tournament, 1)
    seats = list(first.table.party.seats.order_by("position"))
    entering, *confirming = (phone(s.get_absolute_url()) for s in seats[:3])
    for number in (1, 2):
        expect(entering.get_by_role("heading", name=f"Hand {number}")).to_be_visible()
        enter_chinchon(entering, seats[0].position, [0, 20, 40, 60])
        expect(entering.locator(".messages")).to_contain_text(f"Hand {number} entered")
        # At a table of four two of the three others confirm.
        for page in confirming:
            expect(page.locator("#confirm")).to_be_visible()
            page.locator("#confirm").click()
            expect(page.locator(".messages")).to_contain_text(f"Hand {number}")
    expect(entering.locator("#game-sheet tfoot")).to_contain_text("120")
    board = desk.locator("#table-1")
    expect(board).to_have_attribute("data-state", "finished")
    expect(board.locator("[data-place]")).to_have_text(["1.", "2.", "3.", "4."])
    expect(board.locator("[data-earned]")).to_have_text(["6", "4", "2", "0"])

    # Table 2 is still at its first hand: the round page says so.
    expect(desk.locator("#table-2")).to_contain_text("0 hands")
    for view in others:
        play_chinchon(view.table.party, [0, 20, 40, 100])
    reload(desk)
    expect(desk.locator("#unfinished")).to_contain_text("Every table is finished")

    # The public page: each table's players with their place and points, the
    # standings by tournament points.
    public = phone(f"/t/{tournament.slug}/")
    standings = public.locator("table.standings")
    expect(standings.locator("thead")).to_contain_text("Tournament points")
    expect(standings.locator("thead")).to_contain_text("Game score")
    expect(standings.locator("thead")).not_to_contain_text("Plus/minus")
    expect(standings.locator("tbody tr").first).to_contain_text("6")
    expect(public.locator("table.at-table[data-table='1'] tbody tr")).to_have_count(4)
    assert fits(public)  # nothing sticks out sideways on a 360-pixel phone
    expect(public.locator("table.at-table[data-table='1'] [data-earned]")).to_have_text(
        ["6", "4", "2", "0"]
    )

    # Round 2 is seated from the standings: the three who won their tables first.
    desk.locator("#close").click()
    expect(desk.get_by_role("heading", name="Standings")).to_be_visible()
    expect(desk.locator("#standings thead")).to_contain_text("Tournament points")
    desk.locator("#pair").click()
    expect(desk.locator("#round-tables .board")).to_have_count(3)
    winners = {view.entrants[0].pk for view in tables_of(tournament, 1)}
    assert {e.pk for e in tables_of(tournament, 2)[0].entrants[:3]} == winners
    expect(desk.locator("#explanation")).to_contain_text("(1st)")

    for view in tables_of(tournament, 2):
        play_chinchon(view.table.party, [0, 20, 40, 100])
    reload(desk)
    desk.locator("#close").click()
    desk.locator("#finish").click()
    desk.locator("#confirm-button").click()
    expect(desk.get_by_role("heading", name="Final standings")).to_be_visible()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
