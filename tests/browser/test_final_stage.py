"""A Swiss of 12 with a top-8 final, each match the best of three parties, from
registration to the champion: the organizer's every step in the browser (the
desk's forms, closing and pairing the rounds, the finish, starting the final, a
no-show taken back), the bracket on a phone and on the wall screen following the
games by themselves. The parties' hands go through the services the seat pages
call, so the day stays short on a small machine.

Set KNOCK_SCREENSHOTS to a folder to keep screenshots of the bracket at 360 and
1280 pixels."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import reload
from tests.browser.test_accessibility import serious_violations
from tests.factories import MembershipFactory
from tests.tournaments.conftest import play_out
from tournaments import tables
from tournaments.models import FinalStage, Match, MatchGame, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("KNOCK_SCREENSHOTS")
# Twelve: four Swiss rounds of six tables (9 to 16 entrants), and the best 8 go on.
NAMES = ["Anna", "Ben", "Carl", "Dora", "Ed", "Fay", "Gus", "Hilde", "Ida", "Jan", "Kurt", "Lena"]


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/final-{name}.png", full_page=True)


def play_the_round(tournament, number):
    """Every table of the round: its first player goes gin against a deadwood that
    differs by table, so the standings have few ties."""
    round = Round.objects.get(tournament=tournament, number=number)
    views = sorted(tables.round_tables(round), key=lambda v: v.table.number)
    for i, view in enumerate(v for v in views if not v.table.bye):
        play_out(view.table, view.entrants[(i + number) % 2], deadwood=60 + i)


def running_games():
    return list(
        MatchGame.objects.filter(party__status="running")
        .select_related("match__first", "match__second", "party")
        .order_by("match__round", "match__slot")
    )


def test_a_swiss_of_twelve_with_a_best_of_three_top_eight_final(desk, phone, chromium, live_server):
    club = Tournament._meta.get_field("club").related_model.objects.get()
    for name in NAMES:
        MembershipFactory(club=club, player__name=name, listed=True)

    desk.goto(live_server.url + f"/manage/clubs/{club.slug}/")
    desk.locator("#club-tournaments").click()
    desk.locator("#id_name").fill("Autumn Championship")
    desk.locator("#tournament-create").click()
    tournament = Tournament.objects.get(name="Autumn Championship")
    for name in NAMES:
        desk.locator("#members-form").get_by_label(name, exact=True).check()
    desk.locator("#register-members").click()
    desk.locator("#check-in-all").click()
    expect(desk.locator("#check-in-count")).to_contain_text("12 of 12 entrants checked in.")

    # The final is added on the desk before the first round.
    form = desk.locator("#final-form")
    form.get_by_label("Qualifiers").fill("8")
    form.get_by_label("the best of three parties").check()
    shot(desk, "desk-add-final")
    desk.locator("#final-add").click()
    expect(desk.locator(".messages")).to_contain_text("The best 8 play a knockout final")
    expect(desk.locator("#final")).to_contain_text("It starts once the tournament is finished")

    # Four Swiss rounds, each closed and the next paired from the organizer's pages.
    desk.locator("#start").click()
    for number in range(1, 5):
        expect(desk.locator("#round-tables .board")).to_have_count(6)
        play_the_round(tournament, number)
        reload(desk)
        expect(desk.locator("#unfinished")).to_contain_text("Every table is finished")
        desk.locator("#close").click()
        if number < 4:
            desk.locator("#pair").click()
    desk.get_by_label("One place for every player").check()
    desk.locator("#finish").click()
    desk.locator("#confirm-button").click()
    expect(desk.get_by_role("heading", name="Final standings")).to_be_visible()
    top = desk.locator("#standings tbody tr td:nth-child(2)").all_inner_texts()[:8]

    # The desk starts the final, asked first.
    desk.locator("nav.steps").get_by_role("link", name="Entrants").click()
    desk.locator("#final-start").click()
    expect(desk.locator("#confirm")).to_contain_text("The best 8 of the final standings")
    desk.locator("#confirm-button").click()
    expect(desk.get_by_role("heading", name="Final", exact=True, level=1)).to_be_visible()
    matches = desk.locator("#bracket .match")
    expect(desk.locator('#bracket .match[data-state="playing"]')).to_have_count(4)
    # Seed 1 against seed 8 in the first match, by the final standings.
    first = matches.first
    expect(first.locator(".match-side").nth(0)).to_contain_text(top[0].strip())
    expect(first.locator(".match-side").nth(1)).to_contain_text(top[7].strip())
    expect(first.get_by_role("link", name="Table cards")).to_be_visible()

    # A no-show recorded by mistake in the last quarter-final, and taken back.
    last = desk.locator("#bracket .bracket-round").first.locator(".match").nth(3)
    last.get_by_text("No-show?").click()
    shot(desk, "desk-bracket-playing")
    last.get_by_role("link", name="did not come").first.click()
    desk.locator("#confirm-button").click()
    expect(desk.locator(".messages")).to_contain_text("goes through")
    last = desk.locator("#bracket .bracket-round").first.locator(".match").nth(3)
    expect(last).to_have_attribute("data-state", "forfeit")
    last.get_by_role("link", name="Take back the no-show").click()
    desk.locator("#confirm-button").click()
    expect(desk.locator(".messages")).to_contain_text("the match is played")
    expect(desk.locator('#bracket .match[data-state="playing"]')).to_have_count(4)

    # A spectator follows on his phone, the wall screen on the projector.
    spectator = phone(f"/t/{tournament.slug}/")
    spectator.locator("#nav-final").click()
    expect(spectator.locator('#bracket .match[data-state="playing"]')).to_have_count(4)
    wall_context = chromium.new_context(viewport={"width": 1280, "height": 720}, locale="en-US")
    wall = wall_context.new_page()
    wall.goto(f"{live_server.url}/t/{tournament.slug}/screen/")

    # The quarter-finals: the better seed wins 2–1 (the other side takes game 2).
    for game_number in (1, 2, 3):
        for game in running_games():
            match = game.match
            winner = match.second if game.number == 2 else match.first
            play_out(game, winner)
        if game_number == 1:
            # The pages follow by themselves: game 2 is under way everywhere.
            expect(desk.locator("#bracket .match-playing").first).to_contain_text("Game 2")
            expect(spectator.locator("#bracket .match-playing").first).to_contain_text("Game 2")
    expect(desk.locator('#bracket .match[data-state="decided"]')).to_have_count(4)
    expect(spectator.locator('#bracket .match[data-state="decided"]')).to_have_count(4)
    semis = Match.objects.filter(stage__tournament=tournament, round=2)
    assert semis.count() == 2

    # The screen shows the bracket as one of its slides.
    box = wall.locator("#screen")
    slides = int(box.get_attribute("data-slides") or "1")
    for _ in range(slides):
        if wall.locator(".slide-final:not([hidden])").count():
            break
        wall.keyboard.press("ArrowRight")
    expect(wall.locator(".slide-final")).to_be_visible()
    expect(wall.locator('.slide-final .match[data-state="playing"]')).to_have_count(2)
    shot(wall, "screen-1280")

    # Semi-finals and the final, the better seed winning 2–0.
    while running_games():
        for game in running_games():
            play_out(game, game.match.first)
    stage = FinalStage.objects.get(tournament=tournament)
    assert stage.status == FinalStage.Status.FINISHED
    final = Match.objects.get(stage=stage, round=3)
    champion = str(final.winner)

    expect(spectator.locator('#bracket .match[data-state="decided"]')).to_have_count(7)
    final_box = spectator.locator('#bracket [data-key="final"] .match')
    expect(final_box.locator(".match-side.won")).to_contain_text(champion)
    shot(spectator, "bracket-360")
    # A phone's bracket fits its screen: the rounds stack, nothing is wider.
    width = spectator.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width

    reload(desk)
    expect(desk.locator('#bracket .match[data-state="decided"]')).to_have_count(7)
    expect(desk.locator("#final-places tbody tr").first).to_contain_text(champion)
    shot(desk, "bracket-1280")

    # The bracket's pages, as axe measures them: on the phone, the desk and the wall.
    found = {
        "public (360)": serious_violations(spectator),
        "desk (1280)": serious_violations(desk),
        "screen (1280)": serious_violations(wall),
    }
    assert found == {name: [] for name in found}
    wall_context.close()
