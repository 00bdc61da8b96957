"""A player's own page of notices, reached by his personal link: his choices,
saved; his address never shown; this phone's push subscription."""

import json

import pytest
from django.urls import reverse

from notices.models import Choice, PushSubscription
from seasons.models import PlayerLink
from tests.notices.resolver import resolving
from tests.servers import Phone

pytestmark = pytest.mark.django_db


@pytest.fixture
def own(club, members):
    (anna,) = members("Anna")
    return PlayerLink.objects.create(club=club, player=anna, token="anna-own-link-token")


@pytest.fixture(autouse=True)
def dns(monkeypatch):
    return resolving(monkeypatch)


def page(link):
    return reverse("public:notices-choose", args=[link.token])


def test_the_own_page_leads_to_the_choices(client, own):
    text = client.get(reverse("public:player-own", args=[own.token])).text
    assert page(own) in text


def test_the_choices_show_the_defaults_and_never_the_address(client, own):
    response = client.get(page(own))
    assert response.status_code == 200
    assert "anna@example.org" not in response.text
    form = response.context["form"]
    assert form["table-email"].value() is True
    assert form["digest-email"].value() is False
    assert "E-mails go to the address the club has for you." in response.text


def test_a_player_saves_his_choices(client, own):
    response = client.post(page(own), {"table-email": "on", "sheet-push": "on"})
    assert response.status_code == 302
    chosen = {(c.kind, c.email, c.push) for c in Choice.objects.filter(player=own.player)}
    assert ("table", True, False) in chosen
    assert ("sheet", False, True) in chosen
    assert ("standings", False, False) in chosen


def test_a_replaced_link_opens_no_choices(client, own):
    assert client.get(reverse("public:notices-choose", args=["not-a-link"])).status_code == 404


def test_without_a_vapid_key_the_page_says_push_is_off(client, own, settings):
    settings.VAPID_PRIVATE_KEY = ""
    text = client.get(page(own)).text
    assert "Push is off at this site" in text
    assert 'data-key=""' in text


def test_a_phone_subscribes_to_push(client, own, vapid):
    phone = Phone("https://push.example.org/send/abc")
    url = reverse("public:notices-push", args=[own.token])
    response = client.post(url, phone.subscription(), content_type="application/json")
    assert response.status_code == 201
    assert PushSubscription.objects.get().player == own.player
    assert vapid  # the page offers the site's public key
    assert client.get(page(own)).context["push_key"]

    off = {"endpoint": phone.endpoint, "off": True}
    response = client.post(url, off, content_type="application/json")
    assert response.json() == {"subscribed": False}
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "body", ["not json", json.dumps({"endpoint": "x"}), json.dumps([1]), json.dumps({})]
)
def test_what_is_not_a_subscription_is_refused_with_a_reason(client, own, vapid, body):
    url = reverse("public:notices-push", args=[own.token])
    response = client.post(url, body, content_type="application/json")
    assert response.status_code in (400, 409)
    assert response.json()["detail"]
    assert not PushSubscription.objects.exists()


def test_push_off_at_the_site_refuses_a_subscription(client, own, settings):
    settings.VAPID_PRIVATE_KEY = ""
    url = reverse("public:notices-push", args=[own.token])
    sent = Phone("https://push.example.org/send/abc").subscription()
    response = client.post(url, sent, content_type="application/json")
    assert response.status_code == 409
    assert response.json() == {"detail": "Push is off at this site."}


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example.org/send/abc",
        "https://127.0.0.1/send/abc",
        "https://[::1]/send/abc",
        "https://localhost/send/abc",
        "https://intranet/send/abc",
        "ftp://push.example.org/x",
        # Issue 44: the forms a resolver reads as the site's own machine.
        "https://127.1/send/abc",
        "https://0x7f.0.0.1/send/abc",
        "https://0177.0.0.1/send/abc",
        "https://127.000.000.001/send/abc",
        "https://user@127.1/send/abc",
        "https://user@push.example.org/send/abc",
        "https://169.254.43518/latest/meta-data",
        "https://localhost./send/abc",
        "https://localhost.localdomain/send/abc",
        "https://push.example.org:8080/send/abc",
        "https://metadata.example.org/send/abc",
        "https://metadata.example.org./send/abc",
        "https://mixed.example.org/send/abc",
        "https://mapped.example.org/send/abc",
        "https://nat64.example.org/send/abc",
        "https://group.example.org/send/abc",
        "https://nowhere.example.org/send/abc",
        "https://shared.example.org/send/abc",
        "https://[::ffff:7f00:1]/send/abc",
        "https://\x00push.example.org/send/abc",
    ],
)
def test_a_push_address_of_the_site_s_own_network_is_refused(client, own, vapid, endpoint):
    url = reverse("public:notices-push", args=[own.token])
    sent = {**Phone(endpoint).subscription(), "endpoint": endpoint}
    response = client.post(url, sent, content_type="application/json")
    assert response.status_code == 409
    assert response.json() == {"detail": "This phone gave no address to push to."}
    assert not PushSubscription.objects.exists()
