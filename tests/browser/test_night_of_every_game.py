"""A games night with one party of each game of seed 003, played to its end on
360-pixel phones: each hand entered on one phone and confirmed on the others as
the game asks (the other side; at three or more, most of the others), until each
phone says the party is over and who won. The organizer's results of the night
then list the four parties with their winners. Screenshots of each party's end go
to the test's temporary folder."""

import pytest
from playwright.sync_api import expect

from scoring.models import Party
from tests.factories import ClubNightFactory, OrganizerFactory, start_game_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seats_of(party):
    return list(party.seats.select_related("player").order_by("position"))


def play(phone, party, hands, tmp_path):
    """Each of ``hands`` entered on the first phone (``fill(form)``) and confirmed on
    the others that must; then every phone shows the party over. Returns the places
    the last phone shows.

    A generator: it gives way (``yield``) wherever its phones wait for a poll (every
    three seconds here, where the test server holds no live stream), and `together`
    plays the night's parties side by side, as the night's tables do, so those
    waits pass once for all of them, not once a party."""
    seats = seats_of(party)
    pages = [phone(seat.get_absolute_url()) for seat in seats]
    for number, fill in enumerate(hands, 1):
        # The first phone moves on to the hand by itself once the last is confirmed.
        expect(pages[0].get_by_role("heading", name=f"Hand {number}")).to_be_visible()
        fill(pages[0].locator("#game-entry"))
        pages[0].locator("#enter-hand").click()
        expect(pages[0].locator(".messages")).to_contain_text(f"Hand {number} entered")
        yield
        for page in pages[1:]:
            # A confirmation the game no longer needs is not asked for.
            confirm = page.locator("#confirm")
            expect(
                confirm.or_(page.get_by_role("heading", name=f"Hand {number + 1}")).or_(
                    page.locator("#party-over")
                )
            ).to_be_visible()
            if confirm.is_visible():
                confirm.click()
        yield
    for page in pages:
        expect(page.locator("#party-over")).to_be_visible()
    pages[0].screenshot(path=str(tmp_path / f"{party.game}-over.png"), full_page=True)
    places = pages[-1].locator("#places")
    text = places.inner_text()
    for page in pages:
        page.context.close()
    return text


def together(*parties):
    """Plays the parties (`play`'s generators) a step of each in turn; returns what
    each returned, in their order."""
    playing = dict(enumerate(parties))
    ended = {}
    while playing:
        for index, steps in list(playing.items()):
            try:
                next(steps)
            except StopIteration as end:
                ended[index] = end.value
                del playing[index]
    return [ended[index] for index in range(len(parties))]


def test_a_night_of_every_game_played_to_the_end_on_phones(phone, chromium, live_server, tmp_path):
    organizer = OrganizerFactory(player__name="Dora Desk", player__user__username="desk")
    night = ClubNightFactory(club=organizer.club, name="Games night")

    def party(game, players, options=None):
        started = start_game_party(game, players, options, night=night)
        return started, [seat.player.name for seat in seats_of(started)]

    # Chinchón, classic: the second player passes 100 in the second hand.
    chinchon, (ana, bea) = party("chinchon", 2)

    closer = seats_of(chinchon)[0].position

    def chinchon_hand(penalty):
        def fill(form):
            form.locator(f"input[name=closer][value='{closer}']").check()
            form.locator("#id_penalty_0").fill("0")
            form.locator("#id_penalty_1").fill(str(penalty))

        return fill

    # Canasta of two: two big hands take the first side past 5,000.
    canasta, (cai, dov) = party("canasta", 2)

    def canasta_hand(form):
        form.locator("#id_meld_points_0").fill("1000")
        form.locator("#id_natural_canastas_0").fill("4")
        form.locator("#id_red_threes_0").fill("4")
        form.locator("#id_went_out_0").check()
        form.locator("#id_meld_points_1").fill("100")
        form.locator("#id_hand_points_1").fill("50")

    # Blaue Vierzehn at three, one deal agreed: the fewest points win; two must confirm.
    blue, (eli, *_) = party("blaue_vierzehn", 3, {"deals": 1})

    def deal(form):
        for side, points in enumerate((6, 20, 30)):
            form.locator(f"#id_points_{side}").fill(str(points))

    # Cruzo at three, one game: placed by the order of going out.
    cruzo, (hal, ivy, jon) = party("cruzo", 3, {"games": 1})

    def game(form):
        form.locator("#id_out_1").select_option("1")
        form.locator("#id_out_2").select_option("2")
        form.locator("#id_left_0").fill("4")

    chinchon_places, canasta_places, blue_places, cruzo_places = together(
        play(phone, chinchon, [chinchon_hand(60), chinchon_hand(50)], tmp_path),
        play(phone, canasta, [canasta_hand, canasta_hand], tmp_path),
        play(phone, blue, [deal], tmp_path),
        play(phone, cruzo, [game], tmp_path),
    )
    assert f"{ana} · -20 · winner" in chinchon_places and f"{bea} · 110" in chinchon_places
    assert f"{cai} · " in canasta_places and "winner" in canasta_places.split(dov)[0]
    assert f"{eli} · 6 · winner" in blue_places
    assert cruzo_places.index(ivy) < cruzo_places.index(jon) < cruzo_places.index(hal)
    assert "winner" in cruzo_places.split(jon)[0]

    assert set(Party.objects.filter(night=night).values_list("status", flat=True)) == {"finished"}
    desk = chromium.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
    page = desk.new_page()
    page.goto(f"{live_server.url}/login/?next=/manage/nights/{night.pk}/results/")
    page.get_by_label("Username").fill("desk")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    results = page.locator("main")
    for name in (ana, cai, eli, ivy):
        expect(results).to_contain_text(name)
    for game in ("Chinchón", "Canasta", "Blaue Vierzehn", "Cruzo"):
        expect(results).to_contain_text(game)
    page.screenshot(path=str(tmp_path / "night-results.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    desk.close()
