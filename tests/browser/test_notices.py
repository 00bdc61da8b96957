"""A player chooses what he is told on his phone, from his own page; a message's
unsubscribe link turns its kind off; the organizer sees what was sent. Under the
Content-Security-Policy, at phone size. Screenshots go to the test's temporary
folder (and to KNOCK_SCREENSHOTS, when set)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from clubs.models import Membership
from notices import services
from notices.events import Draft
from notices.models import Choice
from notices.tokens import unsubscribe_token
from seasons.models import PlayerLink
from tests.factories import MembershipFactory
from tests.servers import vapid_key

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shoot(page, tmp_path, name):
    page.screenshot(path=str(tmp_path / name), full_page=True)
    if os.environ.get("KNOCK_SCREENSHOTS"):
        Path(os.environ["KNOCK_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=os.environ["KNOCK_SCREENSHOTS"] + "/" + name, full_page=True)


def policy_refusals(page) -> list[str]:
    found = []
    page.on(
        "console",
        lambda m: found.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return found


@pytest.fixture
def anna(db):
    player = MembershipFactory(
        player__name="Anna Oberhuber-Schwarzenbach", player__email="anna@example.org"
    ).player
    link = PlayerLink.objects.create(
        club=player.memberships.get().club, player=player, token="a" * 43
    )
    return player, link


def test_a_player_chooses_what_he_is_told_from_his_own_page(phone, anna, tmp_path, settings):
    settings.VAPID_PRIVATE_KEY = ""
    player, link = anna
    page = phone(f"/me/{link.token}/")
    refused = policy_refusals(page)
    page.get_by_role("link", name="What you are told by e-mail and push").click()
    expect(page.get_by_role("heading", name="What you are told")).to_be_visible()
    expect(page.get_by_text("Push is off at this site")).to_be_visible()
    expect(page.get_by_text("anna@example.org")).to_have_count(0)
    table_mail = page.get_by_label(
        "My table and seat link when a round is paired or a party starts: e-mail"
    )
    expect(table_mail).to_be_checked()
    table_mail.uncheck()
    page.get_by_label("A season digest: e-mail").check()
    shoot(page, tmp_path, "notices-choices.png")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Your choices are saved.")).to_be_visible()
    expect(table_mail).not_to_be_checked()
    assert Choice.objects.get(player=player, kind="table").email is False
    assert Choice.objects.get(player=player, kind="digest").email is True
    assert refused == []


def test_the_push_button_is_offered_when_the_site_has_a_key(phone, anna, settings):
    settings.VAPID_PRIVATE_KEY = vapid_key()
    _, link = anna
    page = phone(f"/me/{link.token}/notices/")
    refused = policy_refusals(page)
    page.reload()
    expect(page.get_by_role("button", name="Tell this phone")).to_be_visible()
    expect(page.get_by_text("Push goes to 0 phones.")).to_be_visible()
    assert refused == []


def test_the_unsubscribe_link_of_a_message_turns_its_kind_off(phone, anna, tmp_path):
    player, _ = anna
    page = phone(f"/notices/off/{unsubscribe_token(player.pk, 'sheet')}/")
    expect(page.get_by_text("No more messages of this kind: my party's sheet")).to_be_visible()
    assert not Choice.objects.exists()
    page.get_by_role("button", name="Turn it off").click()
    expect(page.get_by_role("heading", name="Turned off")).to_be_visible()
    shoot(page, tmp_path, "notices-off.png")
    choice = Choice.objects.get(player=player)
    assert (choice.kind, choice.email, choice.push) == ("sheet", False, False)


def test_the_organizer_finds_what_was_sent(desk, live_server, tmp_path):
    club = Membership.objects.get(player__name="Olga").club
    player = MembershipFactory(
        club=club, player__name="Ben", player__email="ben@example.org"
    ).player
    draft = Draft(club, player, "table", "table:1:ben", "Your table: Thursday", "Text", "")
    services.notices_write(drafts=[draft], deliver=lambda pk: None)
    refused = policy_refusals(desk)
    desk.goto(f"{live_server.url}/manage/clubs/{club.slug}/")
    desk.get_by_role("link", name="Notices sent").click()
    expect(desk.get_by_role("heading", name="Notices sent")).to_be_visible()
    row = desk.get_by_role("row").filter(has_text="Your table: Thursday")
    expect(row).to_contain_text("Ben")
    expect(row).to_contain_text("waiting")
    expect(desk.get_by_text("ben@example.org")).to_have_count(0)
    desk.set_viewport_size({"width": 390, "height": 844})
    shoot(desk, tmp_path, "notices-sent.png")
    assert refused == []


def test_a_player_at_the_table_finds_push_from_the_seat_page(phone, anna, settings):
    from scoring.services.parties import party_start

    settings.VAPID_PRIVATE_KEY = vapid_key()
    player, link = anna
    other = MembershipFactory(club=link.club, player__name="Ben").player
    seat = party_start(club=link.club, format="two", players=[player, other]).seats.get(
        player=player
    )
    page = phone(seat.get_absolute_url())
    refused = policy_refusals(page)
    page.reload()
    page.get_by_role("link", name="Tell me on this phone").click()
    expect(page.get_by_role("heading", name="Push to this phone")).to_be_visible()
    expect(page.get_by_role("button", name="Tell this phone")).to_be_visible()
    assert refused == []
