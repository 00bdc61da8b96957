"""Where Knock posts a push (notices.endpoints): only to a push service on the
public internet, checked when a phone subscribes and again before each send; a
player keeps a few phones, not the whole table; and what goes wrong is told to
the organizer without the network's own words."""

import socket

import pytest

from notices import delivery, endpoints, services
from notices.models import Channel, Notice, PushSubscription
from scoring.services.parties import party_start
from tests.notices.resolver import resolving
from tests.servers import Phone, free_port

pytestmark = pytest.mark.django_db

# The forms a resolver reads as an IPv4 address of the machine itself (or the
# cloud's metadata service): none is a name, and none resolves outside.
NUMBERS = ["127.1", "0x7f.0.0.1", "0177.0.0.1", "127.000.000.001", "169.254.43518", "2130706433"]


@pytest.mark.parametrize("number", NUMBERS)
def test_what_a_number_written_oddly_resolves_to_is_never_public(number):
    found = {entry[4][0] for entry in socket.getaddrinfo(number, 443, type=socket.SOCK_STREAM)}

    assert found and not any(endpoints.public(address) for address in found)
    assert endpoints.endpoint_verdict(f"https://{number}/push") is endpoints.Verdict.REFUSED


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "224.0.0.1",
        "240.0.0.1",
        "0.0.0.0",
        "100.64.0.1",
        "::1",
        "fe80::1",
        "fc00::1",
        "ff02::1",
        "::",
        "::ffff:10.0.0.1",
        "2002:7f00:1::",
        "64:ff9b::7f00:1",
    ],
)
def test_an_address_of_a_private_network_is_not_public(address):
    assert not endpoints.public(address)


def test_an_address_on_the_internet_is_public():
    assert endpoints.public("93.184.215.14")
    assert endpoints.public("2606:2800:220:1::")


def subscribe(player, endpoint):
    sent = Phone(endpoint).subscription()
    return services.push_subscribe(
        player=player, endpoint=endpoint, p256dh=sent["keys"]["p256dh"], auth=sent["keys"]["auth"]
    )


def test_a_name_not_found_is_refused_with_a_reason_to_try_later(monkeypatch, members, vapid):
    resolving(monkeypatch)
    (anna,) = members("Anna")

    with pytest.raises(services.SubscriptionRefused, match="not found"):
        subscribe(anna, "https://push.unknown.example/send/1")

    assert not PushSubscription.objects.exists()


def test_a_name_pointed_inside_after_it_was_taken_is_not_posted_to_and_forgotten(
    monkeypatch, club, members, vapid, committed
):
    names = resolving(monkeypatch)
    anna, ben = members("Anna", "Ben")
    subscribe(anna, "https://push.example.org/send/anna")
    names["push.example.org"] = ["10.0.0.5"]
    posted = []
    monkeypatch.setattr(delivery, "webpush", lambda **kwargs: posted.append(kwargs))

    committed(party_start, club=club, format="two", players=[anna, ben])

    notice = Notice.objects.get(player=anna, channel=Channel.PUSH)
    assert posted == []
    assert notice.status == Notice.Status.BOUNCED
    assert notice.error == "not a push service's address"
    assert not PushSubscription.objects.filter(player=anna).exists()


def test_a_push_service_not_reached_is_told_without_the_network_s_words(
    push_service, club, members, vapid, committed
):
    anna, ben = members("Anna", "Ben")
    subscribe(anna, f"http://127.0.0.1:{free_port()}/push/anna")

    committed(party_start, club=club, format="two", players=[anna, ben])

    notice = Notice.objects.get(player=anna, channel=Channel.PUSH)
    assert notice.error == "not reached"
    assert PushSubscription.objects.filter(player=anna).exists()


def test_a_player_keeps_at_most_ten_phones_the_oldest_going_first(monkeypatch, members, vapid):
    resolving(monkeypatch)
    (anna,) = members("Anna")
    for n in range(services.PHONES_PER_PLAYER + 2):
        subscribe(anna, f"https://push.example.org/send/{n}")

    kept = set(PushSubscription.objects.filter(player=anna).values_list("endpoint", flat=True))
    assert kept == {f"https://push.example.org/send/{n}" for n in range(2, 12)}


def test_a_name_that_resolves_inside_again_at_the_send_reaches_nothing(
    monkeypatch, club, members, vapid, committed
):
    """The name is checked before the send, then resolved again to connect: a name
    that answers a public address first and the site's own next (DNS rebinding)
    gets a connection that is dropped before a byte is sent."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(5)
    port = listener.getsockname()[1]
    real = socket.getaddrinfo
    asked = []

    def rebinding(host, *args, **kwargs):
        if host != "rebound.example.org":
            return real(host, *args, **kwargs)
        asked.append(host)
        address = "93.184.215.14" if len(asked) <= 2 else "127.0.0.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    anna, ben = members("Anna", "Ben")
    subscribe(anna, "https://rebound.example.org/send/anna")

    committed(party_start, club=club, format="two", players=[anna, ben])

    notice = Notice.objects.get(player=anna, channel=Channel.PUSH)
    assert notice.error == "not reached"
    connection, _ = listener.accept()
    connection.settimeout(5)
    assert connection.recv(1024) == b""
    connection.close()
    listener.close()
