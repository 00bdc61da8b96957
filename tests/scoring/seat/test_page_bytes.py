"""The seat page's parts made once and kept (`scoring.seat.kept`) change no byte
of what a phone gets: every seat of parties in every state, in every language,
as the parts made afresh for each page would have it; and a party's change
shows at once."""

import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from demo.loader import load_demo
from scoring.engine.rules import RULESETS
from scoring.models import Seat
from scoring.seat import kept
from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_cancel
from tests.factories import FIRST_HANDS, OrganizerFactory, start_party, whole_table_party

pytestmark = pytest.mark.django_db

#: What differs between two readings of one page by design: the form's token and
#: the key that makes each sent form count once.
RANDOM = [
    (
        re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'),
        'name="csrfmiddlewaretoken" value=""',
    ),
    (re.compile(r'name="key" value="[0-9a-f]{32}"'), 'name="key" value=""'),
]


def normal(html: str) -> str:
    for pattern, plain in RANDOM:
        html = pattern.sub(plain, html)
    return html


def parties_in_every_state():
    """The demo's parties, and one of each state a seat page shows."""
    load_demo()
    named = start_party().seats.first().player
    named.name = "Ann O'Neil & <Co>"
    named.save()
    pending = start_party()
    hand_enter(seat=pending.seats.get(position=0), number=1, entry=Result("knock", 0, 3, 20))
    disputed = start_party()
    a, b = disputed.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 20))
    hand_enter(seat=b, number=1, entry=Result("knock", 0, 5, 20))
    over = start_party(rules=RULESETS["classic"].but(target=10), confirmation_required=False)
    hand_enter(seat=over.seats.get(position=0), number=1, entry=Result("gin", 0, 0, 30))
    rotation = start_party("rotation", players=3, confirmation_required=False)
    hand_enter(seat=rotation.seats.get(position=0), number=1, entry=Result("knock", 0, 3, 20))
    start_party("partners", players=4)
    start_party("chouette", players=3)
    party_cancel(party=start_party(), user=None, reason="Wrong players")
    forfeit = start_party()
    absent = forfeit.seats.first().player_id
    party_cancel(
        party=forfeit, user=None, reason="No show", forfeit={"absent": absent, "points": 100}
    )
    for game in FIRST_HANDS:
        whole_table_party(game, pending=True)
        whole_table_party(game)


def seat_pages(client) -> dict[str, str]:
    """Every seat's page in every language (normalised), by seat and language,
    and a refused entry's page."""
    pages = {}
    seats = Seat.objects.select_related("party").order_by("party_id", "position")
    for code, _ in settings.LANGUAGES:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
        for seat in seats:
            answer = client.get(seat.get_absolute_url())
            assert answer.status_code == 200
            pages[f"{seat.party_id}-{seat.position}-{code}"] = normal(answer.text)
        refused = seats.filter(party__status="running", party__format="two").first()
        answer = client.post(
            reverse("seat:table-enter", args=[refused.token]), {"number": 1, "ending": "knock"}
        )
        pages[f"refused-{code}"] = normal(answer.text)
    return pages


@pytest.fixture
def afresh(monkeypatch):
    """The parts made for each page again, kept nowhere."""
    monkeypatch.setattr(kept, "KEPT", False)


def test_every_seat_page_is_the_same_with_its_parts_kept_or_made_afresh(client, monkeypatch):
    parties_in_every_state()
    cache.clear()
    monkeypatch.setattr(kept, "KEPT", False)
    made = seat_pages(client)
    monkeypatch.setattr(kept, "KEPT", True)
    first = seat_pages(client)  # the parts made and kept
    again = seat_pages(client)  # the parts from where they are kept

    assert len(made) > 50
    for name, page in made.items():
        assert first[name] == page, name
        assert again[name] == page, name


def test_the_kept_frame_is_the_same_for_an_organizer_a_named_party_and_any_address(
    client, monkeypatch
):
    # What the frame shows but a phone's page seldom has: an organizer signed in
    # (the header's links), a party's own name before its game's, an address
    # with a query, one message and two.
    organizer = OrganizerFactory()
    client.force_login(organizer.player.user)
    party = start_party()
    party.label = "Finals <1> & more"
    party.save()
    seat = party.seats.first()
    page = seat.get_absolute_url() + "?from=<card>&x=1"

    def read(kept_on, told=0):
        monkeypatch.setattr(kept, "KEPT", kept_on)
        for number in range(told):
            # A refused confirmation is told on the page it leads back to.
            client.post(reverse("seat:table-confirm", args=[seat.token]), {"number": number})
        return normal(client.get(page).text)

    for told in (0, 1, 2):
        made = read(False, told)
        assert read(True, told) == made, told
        assert read(True, told) == made, told
        assert made.count('<li class="error">') == told
    assert "Log out" in made and "Finals &lt;1&gt; &amp; more" in made
    assert "from=%3Ccard%3E&amp;x=1" in made


def test_a_kept_part_gives_way_at_once_to_the_party_s_change(client):
    party = start_party()
    a, b = party.seats.order_by("position")
    before = client.get(b.get_absolute_url()).text
    assert "No hands yet." in before and 'id="enter-hand"' in before

    hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 20))
    after = client.get(b.get_absolute_url()).text

    assert "No hands yet." not in after
    assert 'id="confirm-hand"' in after
    assert 'name="version" value="1"' in after


def test_a_name_that_looks_like_a_mark_is_shown_as_written(client):
    # The marks' letters are drawn per process: a name cannot hold one, so no
    # part's value, the form's token or the key is ever written into a name.
    party = start_party()
    a, _ = party.seats.order_by("position")
    a.player.name = "zzkeptcsrfzz zzkeptname0zz zzkeptkeyzz"
    a.player.save()

    page = client.get(a.get_absolute_url()).text

    assert "zzkeptcsrfzz zzkeptname0zz zzkeptkeyzz" in page
    assert kept.mark("csrf") not in page and kept.mark("key") not in page
