"""From an empty database to round 1, every step in a real browser: Nora signs up
at a laptop (her confirmation link read from the mail the local SMTP server took),
creates her club, imports seven members from a CSV file through the preview, and
invites Cora, who signs up from the invitation on her phone and accepts it. Anna
and Ben let their phones be told by push from their own pages. Nora creates a
tournament, registers the seven, checks them in and starts round 1: each paired
player's mailbox holds his own seat link, the bye's a mail saying he sits out,
and each phone's push service an encrypted message that opens to its player's
link. Then Ben's data is downloaded and he is erased, and every page the others
use still answers, without his name; his own seat link is gone.

Headless Chromium has no push service: the page's own script asks for the
permission, registers the service worker and posts the subscription to the
site, but the subscription it posts is the one the local push service made
(`PushManager.subscribe` answers it), so that Knock pushes there."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import close
from tests.browser.test_club_from_nothing import sign_up
from tests.browser.test_tournament import _path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MEMBERS = {
    "Anna Adler": "anna@example.org",
    "Ben Brook": "ben@example.org",
    "Carl Cato": "carl@example.org",
    "Dora Dunn": "dora@example.org",
    "Ed Eliot": "ed@example.org",
    "Fay Fox": "fay@example.org",
    "Gus Grey": "gus@example.org",
}
PUSHED = ["Anna Adler", "Ben Brook"]
ROSTER = "name,email,listed publicly\n" + "".join(
    f"{name},{address},yes\n" for name, address in MEMBERS.items()
)

# Stands in for the browser's push service (see the module's text): resolves to a
# subscription whose toJSON() is the local push service's, as the Push API's does.
FAKE_SUBSCRIBE = """
PushManager.prototype.subscribe = function () {
  return Promise.resolve({ toJSON: function () { return %s; } });
};
"""


def subscribe(chromium, own_page, service_phone):
    """On a phone of its own, the player's page lets Knock push to it."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        context.grant_permissions(["notifications"], origin=own_page.split("/me/")[0])
        context.add_init_script(FAKE_SUBSCRIBE % json.dumps(service_phone.subscription()))
        page = context.new_page()
        page.goto(own_page)
        page.get_by_role("link", name="What you are told by e-mail and push").click()
        page.get_by_role("button", name="Tell this phone").click()
        expect(page.locator("#push-status")).to_have_text("This phone is told.")
        page.reload()
        expect(page.get_by_text("Push goes to 1 phone.")).to_be_visible()
    finally:
        close(context)


def mailed(inbox, to):
    """The plain texts of the mails the SMTP server took for ``to``, oldest first."""
    return [m.get_body(("plain",)).get_content() for m in inbox.to(to)]


def mailed_link(inbox, to, start):
    """The path of the link beginning with ``start`` in the last mail to ``to``."""
    text = mailed(inbox, to)[-1]
    return re.search(r"https?://[^/\s]+(" + re.escape(start) + r"\S*)", text).group(1)


def confirm_from_mail(page, base, inbox, address, name):
    """Opens the confirmation link of the mail, chooses the name and password
    there and confirms the address."""
    page.goto(base + mailed_link(inbox, address, "/signup/"))
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Password").fill("a long new secret 42")
    page.get_by_role("button", name="Confirm my address").click()


def seat_cards(desk):
    """Each seated player's name with his table and seat link, from the round's
    table cards."""
    cards = desk.context.new_page()
    cards.goto(desk.url.split("#")[0] + "cards/")
    found = {
        card.locator(".card-player").inner_text(): (
            int(card.get_attribute("data-table")),
            _path(card.locator(".card-link").inner_text()),
        )
        for card in cards.locator(".table-card").all()
    }
    cards.close()
    return found


def answers_without(page, url, name):
    """The page answers 200 itself (no redirect, to a login say) and does not say
    ``name`` anywhere."""
    answer = page.goto(url)
    assert (answer.status, answer.url) == (200, url)
    page.wait_for_load_state("load")
    assert name not in page.content(), url


def test_a_club_from_nothing_to_round_one_and_a_player_erased(
    laptop, phone, chromium, live_server, smtp, vapid, push_service, tmp_path
):
    base = live_server.url

    # Nora signs up at the first page and confirms her address from the mail.
    nora = laptop
    expect(nora.get_by_role("heading", name="Start your club")).to_be_visible()
    nora.get_by_role("link", name="Sign up").click()
    sign_up(nora, "nora@example.org")
    confirm_from_mail(nora, base, smtp, "nora@example.org", "Nora Nash")

    expect(nora.get_by_role("heading", name="A new club")).to_be_visible()
    nora.get_by_label("Club name").fill("Knock Club")
    nora.get_by_label("Time zone").select_option("Europe/Vienna")
    nora.get_by_role("button", name="Create the club").click()

    # She invites Cora by e-mail; Cora signs up from the invitation on her phone.
    expect(nora.get_by_role("heading", name="Invite co-organizers")).to_be_visible()
    nora.get_by_label("Their email").fill("cora@example.org")
    nora.get_by_role("button", name="Invite").click()
    expect(nora.locator(".messages")).to_contain_text("on its way")
    cora = phone(mailed_link(smtp, "cora@example.org", "/invitations/"))
    expect(cora.get_by_role("heading", name="Organize Knock Club")).to_be_visible()
    cora.get_by_role("link", name="Sign up").click()
    sign_up(cora, "cora@example.org")
    confirm_from_mail(cora, base, smtp, "cora@example.org", "Cora Clay")
    cora.get_by_role("button", name="Accept the invitation").click()
    expect(cora.locator(".messages")).to_contain_text("You organize Knock Club now")

    # The member list, from a CSV file: the preview first, nothing taken before.
    club_url = base + "/manage/clubs/knock-club/"
    nora.goto(club_url + "members/")
    nora.locator("#member-import").click()
    roster = tmp_path / "members.csv"
    roster.write_text(ROSTER)
    nora.get_by_label("Member list (.csv, .xlsx or .ods)").set_input_files(str(roster))
    nora.get_by_role("button", name="Show the preview").click()
    expect(nora.locator("#import-summary")).to_contain_text(
        "7 new, 0 changed, 0 unchanged, 0 refused"
    )
    nora.get_by_role("button", name="Take 7 rows").click()
    expect(nora.get_by_text("Member list imported: 7 added, 0 changed.")).to_be_visible()

    # Anna's and Ben's own pages, from the personal links Nora makes them: their
    # phones are told by push (two, so that one at least is not the bye).
    pushed_to = {name: push_service.phone(name.split()[0].lower()) for name in PUSHED}
    for name, service_phone in pushed_to.items():
        nora.goto(club_url)
        nora.locator("#club-players").click()
        nora.get_by_role("link", name=name).click()
        nora.locator("#player-link-issue").click()
        own = _path(nora.locator("#player-own-link").inner_text())
        subscribe(chromium, base + own, service_phone)

    # The tournament: the seven registered, checked in, round 1 started.
    nora.goto(club_url)
    nora.locator("#club-tournaments").click()
    nora.locator("#id_name").fill("Spring Open")
    nora.locator("#tournament-create").click()
    expect(nora.locator(".messages")).to_contain_text("Tournament “Spring Open” created")
    tournament_url = nora.url
    slug = tournament_url.rstrip("/").rsplit("/", 1)[1]
    for name in MEMBERS:
        nora.locator("#members-form").get_by_label(name, exact=True).check()
    nora.locator("#register-members").click()
    expect(nora.locator(".messages")).to_contain_text("Entered: Anna Adler")
    nora.locator("#check-in-all").click()
    expect(nora.locator("#check-in-count")).to_contain_text("7 of 7 entrants checked in.")
    nora.locator("#start").click()
    expect(nora.locator("#round-tables .board")).to_have_count(4)
    bye = nora.locator("[data-state=bye] .who").inner_text()
    round_url = nora.url.split("#")[0]
    cards = seat_cards(nora)
    seats = {name: link for name, (_, link) in cards.items()}
    assert sorted([*seats, bye]) == sorted(MEMBERS)

    # Each paired player's mailbox holds his table and his own seat link, no other.
    for name, link in seats.items():
        texts = [t for t in mailed(smtp, MEMBERS[name]) if "Your seat link" in t]
        assert len(texts) == 1, (name, texts)
        assert link in texts[0]
        assert [other for other in seats.values() if other in texts[0]] == [link]
    # The bye is told he sits out, with the round's public page: his second mail,
    # after the link to his own page he was sent when added with his address.
    own, text = mailed(smtp, MEMBERS[bye])
    assert "This is your own page at" in own and "/me/" in own
    assert "You have the bye" in text
    assert f"/t/{slug}/rounds/1/" in text
    assert not [link for link in seats.values() if link in text]

    # Each phone subscribed got one encrypted push, which opens to its player's
    # seat link (or, for the bye, to the round).
    for name, service_phone in pushed_to.items():
        sent = [(push_service.url + path, body) for path, _, body in push_service.received]
        bodies = [body for endpoint, body in sent if endpoint == service_phone.endpoint]
        assert len(bodies) == 1, (name, len(bodies))
        opened = _path(service_phone.read(bodies[0])["url"])
        assert opened == (f"/t/{slug}/rounds/1/" if name == bye else seats[name])

    # Ben's data, downloaded; then Ben erased, his name typed to confirm.
    erased = "Ben Brook" if bye != "Ben Brook" else "Carl Cato"
    cora.goto(f"{base}/t/{slug}/rounds/1/")
    expect(cora.locator("main")).to_contain_text(erased)
    nora.goto(club_url)
    nora.locator("#club-players").click()
    nora.get_by_role("link", name=erased).click()
    with nora.expect_download() as download:
        nora.locator("#player-data-download").click()
    data = json.loads(Path(download.value.path()).read_text())
    assert data["player"]["name"] == erased
    assert data["player"]["email"] == MEMBERS[erased]
    assert [e["tournament"] for e in data["tournament_entries"]] == ["Spring Open"]
    (seating,) = data["seatings"]
    assert (seating["round__number"], seating["table__number"]) == (1, cards[erased][0])
    nora.locator("#player-erase").click()
    nora.get_by_label("The player's name, to confirm").fill(erased)
    nora.get_by_role("button", name="Erase the player").click()
    expect(nora.get_by_role("heading", name="Former member 1", exact=True)).to_be_visible()

    # Every page still answers, and none names him; his own seat link is gone.
    for url in (
        base + "/clubs/knock-club/",
        base + f"/t/{slug}/",
        base + f"/t/{slug}/rounds/1/",
        base + f"/t/{slug}/crosstable/",
        club_url,
        tournament_url,
        round_url,
        round_url + "cards/",
        tournament_url + "standings/",
    ):
        answers_without(cora, url, erased)
    for name, link in seats.items():
        if name != erased:
            answers_without(cora, base + link, erased)
    answer = cora.goto(base + seats[erased])
    assert answer.status == 404
