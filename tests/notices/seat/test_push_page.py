"""Push from the seat page: its link leads to this phone's subscription, kept
for the seat's player."""

import pytest
from django.urls import reverse

from notices.models import PushSubscription
from scoring.services.parties import party_start
from tests.notices.resolver import resolving
from tests.servers import Phone

pytestmark = pytest.mark.django_db


@pytest.fixture
def seat(club, members):
    anna, ben = members("Anna", "Ben")
    party = party_start(club=club, format="two", players=[anna, ben])
    return party.seats.get(player=anna)


@pytest.fixture(autouse=True)
def dns(monkeypatch):
    return resolving(monkeypatch)


def test_the_seat_page_leads_to_push(client, seat):
    text = client.get(seat.get_absolute_url()).text
    assert reverse("seat:notices", args=[seat.token]) in text


def test_the_push_page_offers_the_site_s_key(client, seat, vapid):
    response = client.get(reverse("seat:notices", args=[seat.token]))
    assert response.status_code == 200
    assert response.context["push_key"]
    assert "Tell this phone" in response.text
    assert "anna@example.org" not in response.text


def test_a_phone_at_the_table_subscribes_for_the_seat_s_player(client, seat, vapid):
    url = reverse("seat:notices-push", args=[seat.token])
    sent = Phone("https://push.example.org/send/table").subscription()
    response = client.post(url, sent, content_type="application/json")
    assert response.status_code == 201
    assert PushSubscription.objects.get().player == seat.player


def test_an_unknown_seat_subscribes_nothing(client, seat, vapid):
    url = reverse("seat:notices-push", args=["x" * 43])
    sent = Phone("https://push.example.org/send/table").subscription()
    assert client.post(url, sent, content_type="application/json").status_code == 404
    assert not PushSubscription.objects.exists()


def test_what_is_not_a_subscription_is_refused(client, seat, vapid):
    url = reverse("seat:notices-push", args=[seat.token])
    response = client.post(url, "{}", content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"detail": "This is not a push subscription."}
