"""The seat page on a 360-pixel phone: the quick entry asks only what the chosen
ending needs, a hand once entered waits behind "Correct this hand", and names
without a space break instead of widening the page (the public standings too).
The other games on the same page: three play Chinchón, each on a phone, entering
and confirming hands; four play Canasta in two partnerships; nothing sticks out
sideways. Screenshots go to the test's temporary folder (and to KNOCK_SCREENSHOTS
when it is set)."""

import os

import pytest
from playwright.sync_api import expect

from scoring.models import Hand
from tests.browser.conftest import PHONE, paired_tables
from tests.factories import ClubFactory, MembershipFactory, start_game_party, start_party
from tournaments import registration, rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Maximilianewilhelminevonhohenzollernsigmaringen"


def fits(page):
    """Nothing sticks out sideways (measured once the style sheets are in)."""
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def shoot(page, tmp_path, name):
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
    if os.environ.get("KNOCK_SCREENSHOTS"):
        page.screenshot(path=f"{os.environ['KNOCK_SCREENSHOTS']}/{name}.png", full_page=True)


def seats_of(party):
    return list(party.seats.select_related("player").order_by("position"))


def enter_chinchon(page, closer, penalties):
    form = page.locator("#game-entry")
    form.locator(f"input[name=closer][value='{closer}']").check()
    for side, penalty in enumerate(penalties):
        form.locator(f"#id_penalty_{side}").fill(str(penalty))
    form.locator("#enter-hand").click()


def test_the_quick_entry_asks_only_what_the_ending_needs(phone):
    party = start_party()
    a = party.seats.order_by("position").first()
    page = phone(a.get_absolute_url())
    form = page.locator("#quick-entry")
    knocker_deadwood = form.locator("#quick-knocker-deadwood")
    defender_deadwood = form.locator("#quick-defender-deadwood")
    who = form.locator("#quick-knocker legend")

    form.locator("input[name=ending][value=knock]").check()
    expect(who).to_have_text("Who knocked?")
    expect(knocker_deadwood).to_be_visible()
    expect(defender_deadwood.locator("label")).to_have_text(
        "Opponent's deadwood (after laying off)"
    )
    # A number typed for a knock is not sent once the hand turns out to be gin.
    form.locator("#id_knocker_deadwood").fill("5")

    form.locator("input[name=ending][value=gin]").check()
    expect(who).to_have_text("Who went gin?")
    expect(knocker_deadwood).to_be_hidden()
    expect(defender_deadwood.locator("label")).to_have_text(
        "Opponent's deadwood (no laying off on gin)"
    )
    expect(page.get_by_text("after laying off")).to_have_count(0)

    form.locator("input[name=ending][value=no_game]").check()
    expect(form.locator("#quick-knocker")).to_be_hidden()
    expect(defender_deadwood).to_be_hidden()
    expect(form.locator("#quick-rulings")).to_be_hidden()

    form.locator("input[name=ending][value=gin]").check()
    form.locator(f"input[name=knocker][value='{a.position}']").check()
    form.locator("#id_defender_deadwood").fill("21")
    form.locator("#enter-hand").click()
    expect(page.locator(".messages")).to_contain_text("Hand 1 entered")
    hand = party.hands.get(number=1)
    assert (hand.ending, hand.knocker_deadwood, hand.defender_deadwood) == ("gin", 0, 21)

    # The same phone now shows what it entered and waits; a correction is a choice.
    expect(page.locator("#pending-hand")).to_contain_text("Waiting for the other side")
    expect(page.locator("#quick-entry")).to_be_hidden()
    correct = page.get_by_text("Correct this hand")
    expect(correct).to_be_visible()
    correct.click()
    expect(page.locator("#quick-entry")).to_be_visible()
    assert fits(page)


def test_a_name_without_a_space_breaks_on_the_seat_page_and_the_public_standings(phone):
    club = ClubFactory(name="Door Club")
    players = [
        MembershipFactory(club=club, player__name=name, listed=True).player
        for name in (LONG, "Bea Bo")
    ]
    tournament = registration.tournament_create(club=club, name="Autumn Cup", slug="autumn-cup")
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    views = paired_tables(rounds.round_start(tournament=tournament))
    seat = views[0].table.party.seats.get(player__name=LONG)

    page = phone(seat.get_absolute_url())
    expect(page.locator(".party-line")).to_contain_text("Autumn Cup · Round 1 · Table 1")
    assert fits(page)

    standings = phone(f"/t/{tournament.slug}/")
    expect(standings.locator("table.standings")).to_contain_text(LONG)
    assert fits(standings)


# --- The other games ------------------------------------------------------------


def test_three_phones_play_chinchon_with_confirmations(phone, tmp_path):
    party = start_game_party("chinchon", 3)
    a, b, c = seats_of(party)
    ana, ben, cleo = (phone(s.get_absolute_url()) for s in (a, b, c))
    assert fits(ana)
    shoot(ana, tmp_path, "chinchon-entry-360")

    # Hand 1: Ana closes with everything melded; the other two confirm it.
    enter_chinchon(ana, a.position, [0, 12, 7])
    expect(ana.locator(".messages")).to_contain_text("Hand 1 entered")
    names = f"{b.player.name} and {c.player.name}"
    expect(ana.locator("#confirmations-needed")).to_have_text(
        f"Waiting for 2 confirmations ({names})."
    )
    expect(ana.locator("#game-entry")).to_be_hidden()
    # Ben's page shows the entry by itself (the live stream or the poll).
    expect(ben.locator("#confirm")).to_be_visible()
    expect(ben.locator("#confirmations-needed")).to_contain_text("Waiting for 2 confirmations")
    assert fits(ben)
    shoot(ben, tmp_path, "chinchon-pending-360")
    ben.locator("#confirm").click()
    expect(ben.locator(".messages")).to_contain_text("your confirmation is counted")
    expect(ben.locator("#you-confirmed")).to_have_text("You confirmed this entry.")
    expect(cleo.locator("#confirmations-needed")).to_have_text(
        f"1 of 2 confirmations: waiting for 1 more from {c.player.name}."
    )
    cleo.locator("#confirm").click()
    expect(cleo.locator(".messages")).to_contain_text("Hand 1 confirmed")
    # Ana's page moves on without a tap.
    expect(ana.get_by_role("heading", name="Hand 2")).to_be_visible()
    expect(ana.locator("#game-sheet tfoot")).to_contain_text("-10")

    # Hand 2: Ben enters a mistake, corrects it, and Cleo and Ana confirm.
    enter_chinchon(ben, b.position, [20, 3, 30])
    expect(ben.locator(".messages")).to_contain_text("Hand 2 entered")
    ben.get_by_text("Correct this hand").click()
    ben.locator("#id_penalty_0").fill("25")
    ben.locator("#enter-hand").click()
    expect(ben.locator(".messages")).to_contain_text("Hand 2 entered")
    expect(cleo.locator("#entry-changed")).to_be_visible()
    expect(cleo.locator("#pending-hand")).to_contain_text("25")
    cleo.locator("#confirm").click()
    # Ana confirms what her phone shows: the corrected entry, once it has come.
    expect(ana.locator("#pending-hand")).to_contain_text("25")
    ana.locator("#confirm").click()
    expect(ana.locator(".messages")).to_contain_text("Hand 2 confirmed")
    hands = list(party.hands.order_by("number"))
    assert [h.status for h in hands] == [Hand.Status.CONFIRMED] * 2
    assert hands[1].scores == [25, 3, 30]
    assert fits(ana)
    shoot(ana, tmp_path, "chinchon-sheet-360")


def test_four_phones_play_a_hand_of_canasta_in_partnerships(phone, tmp_path):
    party = start_game_party("canasta", 4)
    seats = seats_of(party)
    phones = [phone(s.get_absolute_url()) for s in seats]
    first = phones[0]
    expect(first.locator("#hints")).to_contain_text("50")
    assert fits(first)
    shoot(first, tmp_path, "canasta-entry-360")

    form = first.locator("#game-entry")
    form.locator("#id_meld_points_0").fill("900")
    form.locator("#id_natural_canastas_0").fill("1")
    form.locator("#id_red_threes_0").fill("2")
    form.locator("#id_went_out_0").check()
    form.locator("#id_meld_points_1").fill("300")
    form.locator("#id_hand_points_1").fill("45")
    form.locator("#enter-hand").click()
    expect(first.locator(".messages")).to_contain_text("Hand 1 entered")

    opponent = next(p for p, s in zip(phones, seats, strict=True) if s.side != seats[0].side)
    partner = next(
        p for p, s in zip(phones, seats, strict=True) if s.side == seats[0].side and p != first
    )
    # The partner's phone waits with the entering one; an opponent confirms.
    others = " or ".join(s.player.name for s in seats if s.side != seats[0].side)
    expect(partner.locator("#confirmations-needed")).to_have_text(
        f"Waiting for 1 confirmation ({others})."
    )
    expect(opponent.locator("#confirm")).to_be_visible()
    opponent.locator("#confirm").click()
    expect(opponent.locator(".messages")).to_contain_text("Hand 1 confirmed")
    expect(first.locator("#game-sheet tfoot")).to_contain_text("1700")
    expect(first.locator("#hints")).to_contain_text("90")
    assert fits(first)
    shoot(first, tmp_path, "canasta-sheet-360")


def test_blaue_vierzehn_and_cruzo_pages_fit_a_phone(phone, tmp_path):
    for game, players in (("blaue_vierzehn", 6), ("cruzo", 7)):
        seat = seats_of(start_game_party(game, players))[0]
        page = phone(seat.get_absolute_url())
        assert fits(page), game
        shoot(page, tmp_path, f"{game}-entry-360")


def test_the_spanish_cards_picker_finds_the_least_penalty(phone, tmp_path):
    party = start_game_party("chinchon", 2)
    a, _b = seats_of(party)
    page = phone(a.get_absolute_url())
    picker = page.locator("#spanish-picker")
    expect(picker).to_be_visible()
    for card in ("1O", "2O", "3O", "5C", "5E", "5B", "12C"):
        picker.locator(f"#spanish-{card}").click()
    expect(page.locator("#id_cards_0")).to_have_value("1O 2O 3O 5C 5E 5B 12C")
    expect(page.locator("#found-0")).to_contain_text("Least penalty: 12")
    expect(page.locator("#id_penalty_0")).to_have_value("12")
    # A card in one hand cannot be tapped into the other.
    picker.locator("[data-target='1']").click()
    expect(picker.locator("#spanish-1O")).to_be_disabled()
    for card in ("4C", "4E", "4B", "7O", "7C", "7E", "1C"):
        picker.locator(f"#spanish-{card}").click()
    expect(page.locator("#id_penalty_1")).to_have_value("1")
    assert fits(page)
    shoot(page, tmp_path, "chinchon-picker-360")
    page.locator("#game-entry input[name=closer][value='1']").check()
    page.locator("#enter-hand").click()
    expect(page.locator(".messages")).to_contain_text("Hand 1 entered")
    hand = party.hands.get()
    assert hand.scores == [12, 1]
    assert hand.details["entry"]["cards"][1] == ["4C", "4E", "4B", "7O", "7C", "7E", "1C"]
