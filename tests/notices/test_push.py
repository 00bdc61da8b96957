"""The players told by web push: the message encrypted for the phone, signed
with the site's VAPID key, posted to a real push service over HTTP."""

import base64
import json

import pytest

from notices import services
from notices.models import Channel, Notice, PushSubscription
from scoring.services.parties import party_start

pytestmark = pytest.mark.django_db


def subscribe(player, phone):
    sent = phone.subscription()
    return services.push_subscribe(
        player=player,
        endpoint=sent["endpoint"],
        p256dh=sent["keys"]["p256dh"],
        auth=sent["keys"]["auth"],
    )


def claims(headers) -> dict:
    """The VAPID token's claims, from the Authorization header the service got."""
    token = headers["authorization"].removeprefix("vapid t=").split(",")[0]
    body = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


def test_a_subscribed_phone_is_pushed_its_table_encrypted_for_it(
    vapid, push_service, club, members, committed, settings
):
    anna, ben = members("Anna", "Ben")
    phone = push_service.phone("anna")
    subscribe(anna, phone)

    party = committed(party_start, club=club, format="two", players=[anna, ben])

    (received,) = push_service.received
    path, headers, body = received
    assert path == "/push/anna"
    assert headers["content-encoding"] == "aes128gcm"
    assert claims(headers)["sub"] == "mailto:club@example.org"
    assert claims(headers)["aud"] == push_service.url
    shown = phone.read(body)
    assert shown["title"].startswith("Your table")
    assert shown["url"] == settings.SITE_URL + party.seats.get(player=anna).get_absolute_url()
    assert Notice.objects.get(player=anna, channel=Channel.PUSH).status == "sent"


def test_a_phone_the_push_service_says_is_gone_is_forgotten(
    vapid, push_service, club, members, committed
):
    anna, ben = members("Anna", "Ben")
    phone = push_service.phone("old")
    subscribe(anna, phone)
    push_service.gone.add("/push/old")

    committed(party_start, club=club, format="two", players=[anna, ben])

    notice = Notice.objects.get(player=anna, channel=Channel.PUSH)
    assert notice.status == Notice.Status.BOUNCED
    assert notice.error.startswith("410")
    assert not PushSubscription.objects.filter(player=anna).exists()


def test_a_player_who_turned_push_off_is_pushed_nothing(
    vapid, push_service, club, members, committed
):
    anna, ben = members("Anna", "Ben")
    subscribe(anna, push_service.phone("anna"))
    services.choices_set(player=anna, chosen={"table": {"email": True, "push": False}})

    committed(party_start, club=club, format="two", players=[anna, ben])

    assert push_service.received == []
    assert not Notice.objects.filter(channel=Channel.PUSH).exists()


def test_without_a_vapid_key_nothing_is_pushed(
    push_service, club, members, committed, vapid, settings
):
    anna, ben = members("Anna", "Ben")
    subscribe(anna, push_service.phone("anna"))
    settings.VAPID_PRIVATE_KEY = ""

    committed(party_start, club=club, format="two", players=[anna, ben])

    assert push_service.received == []
    assert not Notice.objects.filter(channel=Channel.PUSH).exists()
