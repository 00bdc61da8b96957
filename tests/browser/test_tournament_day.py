"""A whole tournament day of 20 players, as an organizer runs it: registration,
self check-in at the door from the QR link, a forfeit recorded by mistake and
taken back, a tie settled by cards drawn at the venue (the other tie keeps
Knock's cards), a withdrawal reinstated, the wall screen at 1280×720 showing
every entrant, five Swiss rounds and the final standings.

Every organizer's step and every player's check-in happens in the browser. One
table a round is played on the players' phones; the other tables' hands go
through the same services the seat pages call, so the day stays a few minutes
long on a small machine.

Set KNOCK_SCREENSHOTS to a folder to keep screenshots."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import reload
from tests.browser.test_screen import ROWS_INSIDE
from tests.browser.test_tournament import _path
from tests.factories import MembershipFactory
from tests.tournaments.conftest import play_out
from tournaments import tables
from tournaments.models import Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("KNOCK_SCREENSHOTS")
NAMES = [
    "Anna", "Ben", "Carl", "Dora", "Ed", "Fay", "Gus", "Hilde", "Ida", "Jan",
    "Kurt", "Lena", "Max", "Nora", "Otto", "Paula", "Quirin", "Rosa", "Sepp", "Tina",
]  # fmt: skip


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/day-{name}.png", full_page=True)


def current_round(tournament):
    return Round.objects.filter(tournament=tournament).order_by("-number").first()


def play_at_the_table(desk, phone, view):
    """The table's two players on their phones: the first enters gin against 90,
    the other confirms; the organizer's round page follows by itself."""
    cards = desk.context.new_page()
    cards.goto(desk.url.split("#")[0] + "cards/")
    number = str(view.table.number)
    seats = [
        (card.locator(".card-player").inner_text(), card.locator(".card-link").inner_text())
        for card in cards.locator(f".table-card[data-table='{number}']").all()
    ]
    cards.close()
    (name, first), (_, second) = seats
    a, b = phone(_path(first)), phone(_path(second))
    a.locator("#quick-entry input[name=ending][value=gin]").check()
    mine = a.locator("#quick-entry label").filter(has_text=re.compile(rf"^\s*{name}\s*$"))
    mine.locator("input[name=knocker]").check()
    a.locator("#id_defender_deadwood").fill("90")
    a.locator("#enter-hand").click()
    b.locator("#confirm").click()
    expect(a.get_by_role("heading", name="Party over")).to_be_visible()
    expect(desk.locator(f"#table-{number}")).to_have_attribute("data-state", "finished")
    a.context.close()
    b.context.close()


def play_round(desk, phone, tournament, deadwoods):
    """Table 1 on the phones (gin against 90), every other table through the
    services, its first player winning gin against the next deadwood given."""
    views = sorted(tables.round_tables(current_round(tournament)), key=lambda v: v.table.number)
    playing = [v for v in views if not v.table.bye]
    play_at_the_table(desk, phone, playing[0])
    for view, deadwood in zip(playing[1:], deadwoods, strict=False):
        play_out(view.table, view.entrants[0], deadwood=deadwood)
    reload(desk)
    expect(desk.locator("#unfinished")).to_contain_text("Every table is finished")


def tie_lines(desk):
    return desk.locator("#draws-shown li").all_inner_texts()


def test_a_twenty_player_swiss_day_from_the_door_to_the_final_standings(
    desk,
    phone,
    chromium,
    live_server,
):
    club = Tournament._meta.get_field("club").related_model.objects.get()
    for name in NAMES:
        MembershipFactory(club=club, player__name=name, listed=True)

    desk.goto(live_server.url + f"/manage/clubs/{club.slug}/")
    desk.locator("#club-tournaments").click()
    desk.locator("#id_name").fill("Thursday Swiss")
    desk.locator("#tournament-create").click()
    expect(desk.locator(".messages")).to_contain_text("Tournament “Thursday Swiss” created")
    tournament = Tournament.objects.get(name="Thursday Swiss")

    # Registration: all twenty members, ticked on one form.
    for name in NAMES:
        desk.locator("#members-form").get_by_label(name, exact=True).check()
    desk.locator("#register-members").click()
    expect(desk.locator(".messages")).to_contain_text("Entered: Anna")
    expect(desk.locator("#check-in-count")).to_contain_text("0 of 20 entrants checked in.")
    expect(desk.locator("#start")).not_to_have_class("primary")

    # At the door: two players check themselves in from the QR link on their phones.
    desk.locator("#door-link").click()
    desk.locator("#door-open").click()
    link = desk.locator("#door-url").inner_text()
    door = "/" + link.split("://", 1)[1].split("/", 1)[1]
    for name in ("Anna", "Ben"):
        player = phone(door)
        player.get_by_label(name, exact=True).check()
        player.locator("#door-check-in").click()
        expect(player.locator("#door-me")).to_contain_text(f"You are checked in, {name}.")
        player.context.close()

    # The organizer checks in everyone else with one click.
    desk.goto(live_server.url + f"/manage/tournaments/{tournament.slug}/")
    expect(desk.locator("#check-in-count")).to_contain_text("2 of them on their own phones.")
    desk.locator("#check-in-all").click()
    expect(desk.locator("#check-in-count")).to_contain_text("20 of 20 entrants checked in.")
    expect(desk.locator("#tournament-meta")).to_contain_text("5 rounds")
    shot(desk, "entrants")

    desk.locator("#start").click()
    expect(desk.locator("#round-tables .board")).to_have_count(10)

    # A forfeit recorded by mistake — the player was only late — is taken back.
    board = desk.locator("#table-1")
    board.get_by_text("No-show?").click()
    board.get_by_role("link", name=re.compile("did not come")).first.click()
    desk.locator("#confirm-button").click()
    expect(board).to_have_attribute("data-state", "forfeit")
    board.get_by_role("link", name="Take back the forfeit").click()
    desk.locator("#confirm-button").click()
    expect(desk.locator(".messages")).to_contain_text("Table 1 plays again")
    expect(board).to_have_attribute("data-state", "playing")

    # Round 1: every margin differs but two: the winners of table 1 (on the phones)
    # and table 2 (both gin against 90) tie, and so do their opponents.
    play_round(desk, phone, tournament, [90, 75, 76, 77, 78, 79, 80, 81, 82])
    desk.locator("#close").click()
    expect(desk.get_by_role("heading", name="Standings")).to_be_visible()
    lines = tie_lines(desk)
    assert len(lines) == 2 and all("Knock's card draw" in line for line in lines), lines
    losers_before = next(line for line in lines if "−" in line or "-" in line.split("·")[0])

    # The winners' tie is settled by the cards they drew at the venue.
    tie = desk.locator("#draws-form fieldset").first
    tie.locator("input").nth(0).fill("2C")
    tie.locator("input").nth(1).fill("KH")
    desk.locator("#enter-draws").click()
    expect(desk.locator(".messages")).to_contain_text("The cards drawn at the venue order")
    lines = tie_lines(desk)
    assert any("drawn at the venue" in line and "K♥" in line for line in lines), lines
    # The other tie keeps Knock's cards, and says so.
    assert losers_before in lines, (losers_before, lines)
    places = desk.locator("#standings tbody tr td:first-child").all_inner_texts()
    assert places[:2] == ["1", "2"]
    shot(desk, "standings-after-venue-draw")

    # Carl is withdrawn by mistake before round 2 is paired, and reinstated.
    desk.locator("nav.steps").get_by_role("link", name="Entrants").click()
    desk.get_by_role("link", name="Withdraw Carl").click()
    desk.locator("#confirm-button").click()
    expect(desk.locator(".messages")).to_contain_text("Carl has withdrawn")
    desk.get_by_role("link", name="Reinstate Carl").click()
    desk.locator("#confirm-button").click()
    expect(desk.locator(".messages")).to_contain_text("Carl is reinstated")
    records = desk.locator("#record-list li")
    expect(records.nth(0)).to_contain_text("Carl is reinstated")

    desk.locator("nav.steps").get_by_role("link", name="Standings").click()
    desk.locator("#pair").click()
    expect(desk.locator("#round-tables .board")).to_have_count(10)
    expect(desk.locator("#round-tables")).to_contain_text("Carl")

    # The wall screen at 1280×720 shows all twenty entrants and all ten tables.
    screen = chromium.new_context(viewport={"width": 1280, "height": 720}, locale="en-US")
    wall = screen.new_page()
    wall.goto(f"{live_server.url}/t/{tournament.slug}/screen/?slide=1")
    box = wall.locator("#screen")
    expect(box).to_have_attribute("data-shown", "1")
    seen_entrants, seen_tables = set(), set()
    for k in range(1, int(box.get_attribute("data-slides")) + 1):
        expect(box).to_have_attribute("data-shown", str(k))
        for row in wall.evaluate(ROWS_INSIDE):
            assert row["inside"], f"slide {k}: a row is cut off"
            (seen_entrants if row["entrant"] else seen_tables).add(row["entrant"] or row["table"])
        shot(wall, f"screen-{k}")
        wall.keyboard.press("ArrowRight")
    screen.close()
    assert seen_entrants == {str(pk) for pk in tournament.entrants.values_list("pk", flat=True)}
    assert seen_tables == {str(n) for n in range(1, 11)}

    # Rounds 2 to 5, each closed and the next paired from the organizer's pages.
    for number in range(2, 6):
        play_round(desk, phone, tournament, [75 + (number + i) % 20 for i in range(9)])
        desk.locator("#close").click()
        if number < 5:
            desk.locator("#pair").click()
            expect(desk.locator("#round-tables .board")).to_have_count(10)

    desk.get_by_label("One place for every player").check()
    desk.locator("#finish").click()
    desk.locator("#confirm-button").click()
    expect(desk.get_by_role("heading", name="Final standings")).to_be_visible()
    places = desk.locator("#standings tbody tr td:first-child").all_inner_texts()
    assert places == [str(n) for n in range(1, 21)]
    shot(desk, "final")
