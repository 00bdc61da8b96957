"""What players hit at the table: the dispute box says who entered what, entry
addresses lead back to the page, the knocker buttons keep the score cards' order,
messages name players, decisions carry their reason, and a player sitting out sees
who plays."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services import hands
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.demo.test_markup import faults
from tests.factories import OrganizerFactory, start_party

pytestmark = pytest.mark.django_db


def seats(party):
    return list(party.seats.select_related("player").order_by("position"))


def page(client, seat):
    return client.get(seat.get_absolute_url())


def test_the_dispute_box_names_who_knocked_and_who_entered_which_version(client):
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21))
    hand_enter(seat=b, number=1, entry=Result("knock", b.position, 3, 21))

    text = page(client, a).text

    box = text[text.index('id="dispute"') :]
    box = box[: box.index("</table>")]
    assert f"{a.player.name}'s entry" in box
    assert f"{b.player.name}'s entry" in box
    knocked = re.search(r"Knocked</td><td>(.*?)</td><td>(.*?)</td>", box)
    assert knocked.groups() == (a.player.name, b.player.name)


@pytest.mark.parametrize("name", ["table-enter", "table-enter-cards", "table-confirm"])
def test_a_get_on_an_entry_address_leads_back_to_the_seat_page(client, name):
    seat = seats(start_party())[0]
    response = client.get(reverse(f"seat:{name}", args=[seat.token]))
    assert response.status_code == 302
    assert response.url == seat.get_absolute_url()
    assert client.put(reverse(f"seat:{name}", args=[seat.token])).status_code == 405


def test_the_seat_page_reloads_itself_with_a_get_of_its_own_address(client):
    seat = seats(start_party())[0]
    assert f'data-page-url="{seat.get_absolute_url()}"' in page(client, seat).text


def knocker_buttons(text):
    form = text[text.index('id="quick-entry"') :]
    return re.findall(r'name="knocker" value="(\d+)"', form[: form.index("</form>")])


def test_who_knocked_buttons_keep_the_order_of_the_score_cards_whoever_deals(client):
    party = start_party()
    a, b = seats(party)
    first = knocker_buttons(page(client, a).text)
    # Hand 1 goes to b: b's opponent deals hand 2, the order of play turns round.
    hand_enter(seat=a, number=1, entry=Result("knock", b.position, 3, 21))
    hand_confirm(seat=b, number=1, version=1)
    second = knocker_buttons(page(client, a).text)
    by_side = [str(s.position) for s in sorted((a, b), key=lambda s: s.side)]
    assert first == second == by_side


def test_a_knocker_who_sat_out_is_named_never_numbered(client):
    party = start_party("rotation", players=3)
    a, b, c = seats(party)
    response = client.post(
        reverse("seat:table-enter", args=[a.token]),
        {"number": 1, "ending": "knock", "knocker": c.position, "knocker_deadwood": 3,
         "defender_deadwood": 21},
        follow=True,
    )  # fmt: skip
    message = str(next(iter(response.context["messages"])))
    assert message.startswith(f"Hand 1: {c.player.name} sat out that hand")
    assert a.player.name in message and b.player.name in message
    assert not party.hands.exists()


def test_a_chouette_partner_sitting_out_sees_who_plays_for_the_team(client):
    party = start_party("chouette", players=3)
    state_seats = seats(party)
    box = next(s for s in state_seats if s.side == 0)
    team = [s for s in state_seats if s.side == 1]
    out = page(client, team[1]).text
    playing = page(client, team[0]).text
    assert "You sit out this hand" in out
    assert "You sit out this hand" not in playing
    assert f"{team[0].player.name} plays for your team" in out
    assert box.player.name in out[out.index('id="sitting-out"') :]


def test_the_reason_of_a_decision_is_shown_on_the_hand(client):
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21))
    hand = hand_enter(seat=b, number=1, entry=Result("knock", a.position, 3, 12)).hand
    organizer = OrganizerFactory(club=party.club).player.user
    hands.hand_decide(
        hand=hand, user=organizer, entry=None, reason="Cards were misdealt", disputed=True
    )
    assert "Organizer: Cards were misdealt" in page(client, a).text
    desk = Client()
    desk.force_login(organizer)
    text = desk.get(reverse("manage:party-detail", args=[party.pk])).text
    assert "Reason: Cards were misdealt" in text


def test_a_refused_version_shows_its_message_beside_the_form_it_came_from():
    party = start_party()
    a, _ = seats(party)
    hand = hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21)).hand
    organizer = OrganizerFactory(club=party.club).player.user
    desk = Client()
    desk.force_login(organizer)
    # Not disputed: there is no other version to accept.
    response = desk.post(
        reverse("manage:hand-decide", args=[hand.pk]),
        {"decision": "counter", "reason": "their count"},
    )
    assert response.status_code == 400
    text = response.text
    article = text[text.index(f'id="hand-{hand.pk}"') :]
    void_form = article[article.index('data-action="void"') :]
    correct_form = article[
        article.index('data-action="correct"') : article.index('data-action="void"')
    ]
    assert "Only a disputed hand has two versions" in correct_form
    assert "two versions" not in void_form


def test_the_night_form_names_the_rules_in_german(client, organizer):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    text = client.get(reverse("manage:club-detail", args=[organizer.club.slug])).text
    assert "Klassische Clubregeln" in text
    assert "Classic club rules" not in text


def test_every_state_of_the_seat_page_has_one_h1(client):
    party = start_party()
    a, b = seats(party)
    assert faults(page(client, a).text) == []  # a hand to enter
    hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21))
    assert faults(page(client, b).text) == []  # one to confirm
    hand_enter(seat=b, number=1, entry=Result("knock", b.position, 3, 21))
    disputed = page(client, a).text
    assert "Hand 1 is disputed" in disputed
    assert faults(disputed) == []
    chouette = start_party("chouette", players=3)
    out = next(s for s in seats(chouette)[1:] if "You sit out" in page(client, s).text)
    assert faults(page(client, out).text) == []
