"""Every kind of page, as axe-core measures it: no serious or critical violation, on
a phone (360 px) and on a desktop (1280 px). The pages are the demo's (a night, a
Swiss tournament in play, a finished round robin) with a dispute added, so each
page shows what it shows on a real evening."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import expect

from clubs.accounts import account_sign_up, address_tokens
from clubs.invitations import invitation_create, invitation_revoke
from clubs.models import Membership
from demo.games_night import BLUE
from demo.loader import CUP, ROUND_ROBIN, SWISS, load_demo
from notices.tokens import unsubscribe_token
from scoring.models import Hand, Party
from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from seasons.models import Season
from seasons.services import player_link_issue
from tests.factories import (
    MembershipFactory,
    OrganizerFactory,
    start_game_party,
    start_night_party,
    start_party,
)
from tournaments import registration
from tournaments.models import Entrant

User = get_user_model()

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 900}}
SERIOUS = {"serious", "critical"}
# Rated below serious by axe, but each keeps someone out: a column without a name
# for a screen reader, a page without a main landmark to jump to.
ALSO = {"empty-table-header", "landmark-one-main"}
# Experimental in axe, so off unless asked for: an accessible name that does not
# hold the visible label ("ace of spades" on a button that shows "A") cannot be
# reached by voice control ("click A").
OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}


@pytest.fixture
def evening():
    """The demo, plus a disputed hand at a club night: the paths of every page kind."""
    demo = load_demo()
    club = demo["club"]
    night = club.nights.get(name="Demo night")
    disputed = start_night_party(night, label="Table 9", seed=9)
    a, b = disputed.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21))
    hand_enter(seat=b, number=1, entry=Result("knock", b.position, 3, 21))
    waiting = Hand.objects.filter(status=Hand.Status.PENDING).select_related("party").first()
    # The seat that is asked to confirm: the one that did not enter the hand.
    asked = waiting.party.seats.exclude(pk=waiting.entered_by_id).first()
    fresh = start_night_party(night, label="Table 10", seed=10).seats.first()
    swiss, robin = SWISS["slug"], ROUND_ROBIN["slug"]
    player = Entrant.objects.filter(tournament__slug=swiss).first().pk
    season = Season.objects.filter(club=club, published=True).first()
    listed = Membership.objects.filter(club=club, listed=True).first().player
    own = player_link_issue(club=club, player=listed, user=None)
    # A cup still taking its entrants, with self check-in open at the door.
    cup = registration.tournament_create(club=club, name="Door Cup")
    registration.entrant_register(tournament=cup, players=[listed])
    cup = registration.door_link_issue(tournament=cup)
    leaver = Entrant.objects.filter(tournament__slug=swiss).last().pk
    # The other games' seat pages: a Chinchón hand waiting for the seat's
    # confirmation, and a fresh Canasta entry of two partnerships.
    games_party = Party.objects.filter(club=club, game="chinchon").first()
    chinchon = start_game_party("chinchon", 3).seats.order_by("position")
    hand_enter(seat=chinchon[0], number=1, entry={"closer": 0, "penalties": [0, 12, 7]})
    canasta = start_game_party("canasta", 4).seats.first()
    # A club from nothing: an invitation to organize the demo club, and a sign-up
    # waiting for its address to be confirmed.
    owner = User.objects.get(username=demo["username"])
    _invitation, key = invitation_create(club=club, by=owner)
    taken, _ = invitation_create(club=club, by=owner)
    invitation_revoke(invitation=taken, by=owner)
    account_sign_up(email="nora@example.org")
    waiting = User.objects.get(username="nora@example.org")
    confirm = f"/signup/{urlsafe_base64_encode(force_bytes(waiting.pk))}/"
    confirm += address_tokens.make_token(waiting) + "/"
    return {
        "public": [
            "/",
            club.get_absolute_url(),
            f"/t/{swiss}/",
            f"/t/{swiss}/rounds/2/",
            f"/t/{swiss}/crosstable/",
            f"/t/{swiss}/screen/",
            f"/t/{robin}/",
            f"/t/{robin}/crosstable/",
            # A tournament of another game: tables of four, points by place.
            f"/t/{BLUE['slug']}/",
            f"/t/{BLUE['slug']}/crosstable/",
            # The Autumn Cup's final, its final being played.
            f"/t/{CUP['slug']}/final/",
            f"/t/{CUP['slug']}/screen/",
            f"/t/{swiss}/players/{player}/",
            f"/clubs/{club.slug}/seasons/{season.pk}/",
            f"/clubs/{club.slug}/players/{listed.pk}/",
            "/login/",
            "/signup/",
            "/signup/sent/",
            confirm,
            "/password-reset/",
            "/password-reset/sent/",
            "/password-reset/done/",
            f"/invitations/{key}/",
        ],
        # Links that no longer work: a page that says so (404).
        "gone": ["/signup/MQ/wrong-token/", "/invitations/no-such-key/", "/password-reset/MQ/x-y/"],
        "seat": [
            asked.get_absolute_url(),
            fresh.get_absolute_url(),
            chinchon[1].get_absolute_url(),
            canasta.get_absolute_url(),
            # This phone told by push, from a seat page's link.
            f"/table/{fresh.token}/notices/",
        ],
        "links": [
            f"/me/{own.token}/",
            f"/door/{cup.door_token}/",
            # What the player is told, and the one-click unsubscribe of a message.
            f"/me/{own.token}/notices/",
            f"/notices/off/{unsubscribe_token(listed.pk, 'table')}/",
        ],
        "manage": [
            "/manage/",
            f"/manage/clubs/{club.slug}/",
            f"/manage/nights/{night.pk}/",
            f"/manage/nights/{night.pk}/results/",
            f"/manage/clubs/{club.slug}/members/",
            f"/manage/clubs/{club.slug}/members/import/",
            # The dispute is decided on its party's page, beside the audit log.
            f"/manage/parties/{disputed.pk}/",
            # Another game's party, its hands with their correction and void.
            f"/manage/parties/{games_party.pk}/",
            f"/manage/tournaments/{swiss}/",
            f"/manage/tournaments/{swiss}/rounds/2/",
            f"/manage/tournaments/{swiss}/standings/",
            f"/manage/tournaments/{robin}/",
            f"/manage/tournaments/{BLUE['slug']}/rounds/1/",
            # The new tournament's form, with every game's options.
            f"/manage/clubs/{club.slug}/tournaments/",
            f"/manage/tournaments/{CUP['slug']}/final/",
            f"/manage/tournaments/{cup.slug}/",
            f"/manage/tournaments/{cup.slug}/door/",
            # Questions asked before an action that changes results ("asking first").
            f"/manage/tournaments/{swiss}/entrants/{leaver}/withdraw/",
            f"/manage/tournaments/{swiss}/finish/",
            f"/manage/tournaments/{CUP['slug']}/final/remove/",
            f"/manage/seats/{fresh.pk}/link/",
            f"/manage/seasons/{season.pk}/close/",
            f"/manage/clubs/{club.slug}/players/",
            f"/manage/clubs/{club.slug}/players/{listed.pk}/",
            # A player's erasure asks for his name first.
            f"/manage/clubs/{club.slug}/players/{listed.pk}/erase/",
            f"/manage/clubs/{club.slug}/seasons/",
            f"/manage/seasons/{season.pk}/",
            f"/manage/clubs/{club.slug}/notices/",
            "/manage/new-club/",
            f"/manage/clubs/{club.slug}/invitations/",
            f"/manage/clubs/{club.slug}/organizers/",
        ],
        # Swagger UI, drawn by its script after the page loads.
        "docs": ["/api/docs"],
        "username": demo["username"],
        "password": demo["password"],
    }


def serious_violations(page) -> list[str]:
    # The pages are drawn by the server: what their scripts fetch after the load
    # event (a seat's state, a board's refresh) put back the same markup, so axe
    # measures them once loaded. Waiting for the network to be idle as well cost
    # half a second a page (its floor), for the same page: on all 66 paths the
    # markup at "load" and at "networkidle" was the same. A page drawn by its
    # script (the API's docs, the import preview) waits for what it draws.
    page.wait_for_load_state("load")
    results = Axe().run(page, options=OPTIONS)
    return [
        f"{rule['id']} ({rule['impact']}): "
        + "; ".join(" ".join(node["target"]) for node in rule["nodes"][:4])
        for rule in results.response["violations"]
        if rule["impact"] in SERIOUS or rule["id"] in ALSO
    ]


def visit(page, url, found, path):
    assert page.goto(url + path).ok, path
    found[path] = serious_violations(page)


@pytest.fixture
def axe_page(chromium, live_server, viewport):
    """A page of the test's viewport, and what axe found on each path visited. axe
    is put into the page by Playwright; the pages' policy refuses scripts that are
    not files of our own, so the context steps around it."""
    context = chromium.new_context(viewport=VIEWPORTS[viewport], locale="en-US", bypass_csp=True)
    yield context.new_page(), {}
    context.close()


def assert_none(found):
    """Every violation of every page visited, at once."""
    failing = [f"{path}: {rule}" for path, rules in found.items() for rule in rules]
    assert not failing, "\n".join(failing)


@pytest.fixture
def axe_pages(chromium, live_server):
    """A page at each viewport, for a test that visits its paths at both: the
    evening is loaded once for the two (a demo is most of such a test's time)."""
    contexts = [
        chromium.new_context(viewport=size, locale="en-US", bypass_csp=True)
        for size in VIEWPORTS.values()
    ]
    yield dict(zip(VIEWPORTS, (context.new_page() for context in contexts), strict=True))
    for context in contexts:
        context.close()


def test_no_page_a_visitor_or_player_opens_has_a_serious_violation(live_server, evening, axe_pages):
    found = {}
    for viewport, page in axe_pages.items():
        seen = {}
        for path in evening["public"] + evening["links"]:
            visit(page, live_server.url, seen, path)
        for path in evening["gone"]:
            page.goto(live_server.url + path)
            seen[path] = serious_violations(page)
        for path in evening["seat"]:
            visit(page, live_server.url, seen, path)
            # The card picker, as a player opens it to enter a hand from the cards.
            entry = page.get_by_text("Enter from the cards")
            if entry.count():
                entry.click()
                seen[path + " (cards)"] = serious_violations(page)
        for path in evening["docs"]:
            assert page.goto(live_server.url + path).ok, path
            # Swagger UI draws the operations from a script of some size: on a busy
            # machine that takes a while.
            page.wait_for_selector(".opblock", timeout=90_000)
            seen[path] = serious_violations(page)
        found |= {f"{path} [{viewport}]": rules for path, rules in seen.items()}
    assert_none(found)


def test_no_page_an_organizer_opens_has_a_serious_violation(live_server, evening, axe_pages):
    found = {}
    for viewport, page in axe_pages.items():
        page.goto(live_server.url + "/login/")
        page.get_by_label("Username").fill(evening["username"])
        page.get_by_label("Password").fill(evening["password"])
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url("**/manage/**")
        seen = {}
        for path in evening["manage"]:
            visit(page, live_server.url, seen, path)
        found |= {f"{path} [{viewport}]": rules for path, rules in seen.items()}
    assert_none(found)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_member_import_preview_has_no_serious_violation(live_server, axe_page, tmp_path):
    # The preview shows only after a file is sent, so it is reached by sending one.
    owner = OrganizerFactory(player__user__username="owner")
    MembershipFactory(club=owner.club, player__name="Ada King", role="guest")
    upload = tmp_path / "members.csv"
    upload.write_text("name,role\nAda King,member\nBo Kim,\nCy,captain\n")
    page, found = axe_page
    page.goto(f"{live_server.url}/manage/clubs/{owner.club.slug}/members/import/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    page.get_by_label("Member list (.csv, .xlsx or .ods)").set_input_files(str(upload))
    page.get_by_role("button", name="Show the preview").click()
    expect(page.get_by_role("heading", name="Import preview")).to_be_visible()
    found["import preview"] = serious_violations(page)
    assert_none(found)


def test_every_card_of_the_picker_is_named_by_what_it_shows_first(phone):
    # axe passes "ace of spades" on a button showing "A" (the name holds an "a"),
    # but voice control, told "tap A", looks for a name that begins with it.
    seat = start_party().seats.first()
    page = phone(seat.get_absolute_url())
    page.get_by_text("Enter from the cards").click()
    cards = page.locator("button.pick")
    expect(cards).to_have_count(52)
    for index in range(52):
        card = cards.nth(index)
        shown = card.evaluate("button => button.firstChild.textContent")
        expect(card).to_have_accessible_name(re.compile("^" + re.escape(shown) + " "))
    expect(page.locator("#card-QH")).to_have_accessible_name("Q — queen of hearts")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_first_page_of_a_site_without_a_club_has_no_serious_violation(
    live_server, axe_page, db
):
    page, found = axe_page
    visit(page, live_server.url, found, "/")
    expect(page.get_by_role("heading", name="Start your club")).to_be_visible()
    assert_none(found)
