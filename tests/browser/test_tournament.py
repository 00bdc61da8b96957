"""A 5-player Swiss event in a real browser, from registration to the final
standings: the organizer at a laptop, the players on their phones at the tables.
A Chinchón tournament of twelve at tables of four: created with its game and
players per table, one table plays on the players' phones (one enters the hand,
two of the three others confirm each), the round page shows each table's places
and tournament points, the public standings count them, round 2 is seated from
the standings, and the tournament is finished (registration and the other tables'
hands go through the services the pages call, so the walk stays short).

Set KNOCK_SCREENSHOTS to a folder to keep screenshots of the organizer's pages at
360 and 1280 pixels."""

import json
import os
import re
from pathlib import Path

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from playwright.sync_api import expect

from tests.browser.conftest import LAPTOP, PHONE, reload
from tests.browser.test_seat_phone import enter_chinchon
from tests.factories import MembershipFactory
from tests.tournaments.test_table_tournaments import play_chinchon
from tournaments import registration, tables
from tournaments.archive.export import tournament_export
from tournaments.models import Entrant, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("KNOCK_SCREENSHOTS")


def look(page, name):
    """Nothing sticks out sideways on a phone; screenshots at both widths if asked."""
    size = page.viewport_size
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}-360.png", full_page=True)
        page.set_viewport_size(LAPTOP)
        page.screenshot(path=f"{SHOTS}/{name}-1280.png", full_page=True)
    page.set_viewport_size(size)
    assert width <= PHONE["width"], f"{name} is {width} pixels wide on a phone"


def play_round(desk, phone, number):
    """Every game of the round is played on the seat pages, opened from the table
    cards: the first player's phone enters his gin against 90 (the party is over in
    one hand), the other phone confirms. The round page follows by itself.

    The tables play at once, as in a room: each step is taken at every table before
    the next is waited for, so the pages' polls (every three seconds here, where
    the test server holds no live stream) are waited out once a step, not once a
    table."""
    round_page = desk.url
    cards = desk.context.new_page()
    cards.goto(round_page + "cards/")
    seats = {}
    for card in cards.locator(".table-card").all():
        seats.setdefault(card.get_attribute("data-table"), []).append(
            (card.locator(".card-player").inner_text(), card.locator(".card-link").inner_text())
        )
    cards.close()
    assert seats, f"round {number} has no table cards"
    phones = {}
    for table, ((name, first), (_, second)) in sorted(seats.items()):
        a, b = phones[table] = phone(_path(first)), phone(_path(second))
        a.locator("#quick-entry input[name=ending][value=gin]").check()
        mine = a.locator("#quick-entry label").filter(has_text=re.compile(rf"^\s*{name}\s*$"))
        mine.locator("input[name=knocker]").check()
        a.locator("#id_defender_deadwood").fill("90")
        a.locator("#enter-hand").click()
    for _first, b in phones.values():
        expect(b.locator("#confirm")).to_be_visible()
        b.locator("#confirm").click()
    for table, pages in phones.items():
        for page in pages:
            expect(page.get_by_role("heading", name="Party over")).to_be_visible()
        # The round page shows the finished table without being reloaded.
        expect(desk.locator(f"#table-{table}")).to_have_attribute("data-state", "finished")


def _path(link):
    return "/" + link.split("/", 3)[3]


def test_a_five_player_swiss_event_from_registration_to_final_standings(desk, phone, live_server):
    organizer_club = Tournament._meta.get_field("club").related_model.objects.get()
    for name in ("Anna", "Ben", "Carl"):
        MembershipFactory(club=organizer_club, player__name=name, listed=True)

    # Create the tournament from the club's organizer page.
    desk.goto(live_server.url + f"/manage/clubs/{organizer_club.slug}/")
    desk.locator("#club-tournaments").click()
    desk.locator("#id_name").fill("Spring Open")
    desk.locator("#tournament-create").click()
    expect(desk.locator(".messages")).to_contain_text("Tournament “Spring Open” created")

    # Register three members and two pasted guests, typed at the door on the day and
    # so checked in at once; check the three members in at the door.
    for name in ("Anna", "Ben", "Carl"):
        desk.locator("#members-form").get_by_label(name).check()
    desk.locator("#register-members").click()
    expect(desk.locator(".messages")).to_contain_text("Entered: Anna, Ben, Carl.")
    desk.get_by_label("Guests, one name a line").fill("Dora\nEd\n")
    expect(desk.get_by_label("They are here: check them in")).to_be_checked()
    desk.locator("#register-guests").click()
    expect(desk.locator(".messages")).to_contain_text("Entered: Dora, Ed.")
    expect(desk.locator("#check-in-count")).to_contain_text("2 of 5 entrants checked in.")
    for name in ("Anna", "Ben", "Carl"):
        desk.get_by_role("button", name=f"Check in {name}").click()
        expect(desk.locator(".messages")).to_contain_text(f"{name} is checked in.")
    expect(desk.locator("#tournament-meta")).to_contain_text("3 rounds")
    look(desk, "desk")

    # Round 1 by lot: two tables and a bye; the table cards carry the card draw.
    desk.locator("#start").click()
    expect(desk.locator("#round-tables .board")).to_have_count(3)
    expect(desk.locator("[data-state=bye]")).to_have_count(1)
    expect(desk.locator("#explanation")).to_contain_text("drawn by lot")
    look(desk, "round-1")
    desk.locator("#round-cards").click()
    expect(desk.locator(".table-card")).to_have_count(4)
    expect(desk.locator(".table-card .card-draw").first).to_contain_text("deals first")
    look(desk, "cards")
    desk.go_back()

    play_round(desk, phone, 1)
    expect(desk.locator("#unfinished")).to_contain_text("Every table is finished")
    look(desk, "round-1-finished")
    desk.locator("#close").click()

    # Both winners won by the same margin: tied, until the cards drawn at the venue.
    expect(desk.get_by_role("heading", name="Standings")).to_be_visible()
    expect(desk.locator("#draws-shown")).to_contain_text("Knock's card draw")
    knocks = desk.locator("#draws-shown li[data-by=knock]")
    expect(knocks).to_have_count(2)  # the winners' tie and the losers' tie
    losers_draw = knocks.nth(1).inner_text()
    tie = desk.locator("#draws-form fieldset").first
    fields = tie.locator("input")
    expect(fields).to_have_count(2)
    fields.nth(0).fill("2C")
    fields.nth(1).fill("KH")
    desk.locator("#enter-draws").click()
    expect(desk.locator(".messages")).to_contain_text("The cards drawn at the venue order")
    expect(desk.locator("#draws-shown")).to_contain_text("K♥")
    # Tie by tie, who drew what and where: the losers' tie keeps Knock's cards.
    expect(desk.locator("#draws-shown li[data-by=venue]")).to_contain_text("drawn at the venue")
    expect(desk.locator("#draws-shown li[data-by=knock]")).to_have_text(losers_draw)
    rows = desk.locator("#standings tbody tr")
    expect(rows.nth(0).locator("td").nth(6)).to_have_text("K♥")
    expect(rows.nth(1).locator("td").nth(6)).to_have_text("2♣")
    expect(rows.nth(0).locator("td").nth(0)).to_have_text("1")
    look(desk, "standings")

    # Round 2, paired by the Swiss rule with its reasons.
    desk.locator("#pair").click()
    expect(desk.locator("#explanation li")).to_have_count(3)
    expect(desk.locator("#explanation")).to_contain_text("plays")
    bye = desk.locator("[data-state=bye] .who").inner_text()

    # Someone withdraws during round 2: he plays it out, then is not paired again.
    leaver = next(e for e in Entrant.objects.select_related("player") if str(e) != bye)
    desk.locator("nav.steps").get_by_role("link", name="Entrants").click()
    desk.get_by_role("link", name=f"Withdraw {leaver}").click()
    expect(desk.locator("#confirm-heading")).to_have_text(f"Withdraw {leaver}?")
    desk.locator("#confirm-button").click()
    expect(desk.locator(".messages")).to_contain_text(f"{leaver} has withdrawn")
    desk.locator("nav.steps").get_by_role("link", name="Round 2").click()
    play_round(desk, phone, 2)
    desk.locator("#close").click()
    desk.locator("#pair").click()
    expect(desk.locator("#round-tables .board")).to_have_count(2)
    expect(desk.locator("#round-tables")).not_to_contain_text(str(leaver))

    play_round(desk, phone, 3)
    desk.locator("#close").click()

    # The finish: one place each, by a final card draw where tied.
    desk.get_by_label("One place for every player").check()
    desk.locator("#finish").click()
    expect(desk.locator("#confirm")).to_contain_text("Tied players draw cards")
    desk.locator("#confirm-button").click()
    expect(desk.get_by_role("heading", name="Final standings")).to_be_visible()
    places = desk.locator("#standings tbody tr td:first-child").all_inner_texts()
    assert places == ["1", "2", "3", "4", "5"]
    expect(desk.locator("#standings")).to_contain_text(f"{leaver} (withdrawn)")
    look(desk, "final")


# --- A tournament at tables of four ----------------------------------------------

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
    look(public, "chinchon-public")  # nothing sticks out sideways on a 360-pixel phone
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


def test_an_organizer_imports_a_tournament_from_its_archive_file(desk, live_server):
    club = Tournament._meta.get_field("club").related_model.objects.get()
    members = [
        MembershipFactory(club=club, player__name=n, listed=True).player for n in ("Anna", "Ben")
    ]
    cup = registration.tournament_create(club=club, name="Autumn Cup")
    registration.entrant_register(tournament=cup, players=members)
    archived = json.dumps(tournament_export(cup), cls=DjangoJSONEncoder).encode()

    desk.goto(live_server.url + f"/manage/clubs/{club.slug}/tournaments/")
    desk.locator("#archive-import-link").click()
    upload = desk.get_by_label("Archive file")
    upload.set_input_files(files=[{"name": "cup.json", "mimeType": "text/plain", "buffer": b"{"}])
    desk.locator("#archive-import").click()
    expect(desk.locator("#archive-form")).to_contain_text("This file is not JSON")
    look(desk, "archive-import")

    upload.set_input_files(
        files=[{"name": "cup.json", "mimeType": "application/json", "buffer": archived}]
    )
    desk.locator("#archive-import").click()
    expect(desk.locator(".messages")).to_contain_text("Tournament “Autumn Cup” imported.")
    assert desk.url.endswith(f"/manage/tournaments/{cup.slug}-2/")
    expect(desk.locator("#entrants")).to_contain_text("Anna")
