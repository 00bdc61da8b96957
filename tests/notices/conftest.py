"""A real SMTP server (aiosmtpd) and a real push service over HTTP for the
notices' tests, both on free local ports; and the club, players and tournament
whose events they tell of."""

import base64
import email
import json
import os
import socket
import threading
from email import policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.cache import cache
from py_vapid import Vapid02

from notices import delivery
from scoring.services.hands import Result, hand_confirm, hand_enter
from tests.factories import ClubFactory, MembershipFactory
from tournaments import registration, rounds


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Inbox:
    """What the SMTP server took, as parsed messages; addresses in ``refuse`` are
    refused for good (550), as a server refuses an unknown mailbox."""

    def __init__(self):
        self.messages = []
        self.refuse = set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        self.messages.append(message)
        return "250 Message accepted"

    def to(self, address):
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def smtp(settings):
    """Django sends through a real SMTP server on a free port."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = 5
    # A dead server an earlier test left on this port number is not this one.
    cache.delete(delivery.down_key())
    yield inbox
    controller.stop()


@pytest.fixture
def dead_smtp(settings):
    """A mail server that is down: nothing listens on its port."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = free_port()
    settings.EMAIL_TIMEOUT = 5


class Phone:
    """A phone's browser subscribed to push: its own key pair and secret, as the
    Push API makes them, to read what the push service was given."""

    def __init__(self, endpoint):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def read(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth))


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class PushService:
    """A push service over HTTP: it takes the encrypted POSTs (201), or answers
    ``status`` for endpoints that are gone."""

    def __init__(self):
        self.received = []
        self.gone = set()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append(
                    (self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                self.send_response(410 if self.path in service.gone else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def phone(self, name: str) -> Phone:
        return Phone(f"{self.url}/push/{name}")

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def vapid_key() -> str:
    """A VAPID private key as the settings take it (base64url of the raw number)."""
    key = Vapid02()
    key.generate_keys()
    return b64(key.private_key.private_numbers().private_value.to_bytes(32, "big"))


@pytest.fixture
def vapid(settings):
    """The site's VAPID key, made for the test: push is on."""
    settings.VAPID_PRIVATE_KEY = vapid_key()
    settings.VAPID_SUBJECT = "mailto:club@example.org"
    return settings.VAPID_PRIVATE_KEY


@pytest.fixture
def push_service(settings):
    """The push service, over plain HTTP on this machine: allowed for the test."""
    settings.PUSH_ENDPOINTS_HTTPS_ONLY = False
    service = PushService()
    yield service
    service.stop()


@pytest.fixture
def club(db):
    return ClubFactory(name="Gin Club")


@pytest.fixture
def members(club):
    def make(*names):
        return [
            MembershipFactory(
                club=club, player__name=n, player__email=f"{n.lower()}@example.org"
            ).player
            for n in names
        ]

    return make


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Runs a service and what it schedules after its commit, as a request does:
    the hooks, and the notices' tasks (eager here)."""

    def call(service, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return call


@pytest.fixture
def paired(club, members, committed):
    """A one-round Swiss of Anna and Ben, round 1 paired (their party started)."""
    anna, ben = members("Anna", "Ben")
    tournament = registration.tournament_create(club=club, name="Spring Open", rounds=1)
    registration.entrant_register(tournament=tournament, players=[anna, ben])
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    round = committed(rounds.round_start, tournament=tournament)
    round.refresh_from_db()
    return tournament, round


def play_out(committed, party, winner):
    """``winner`` goes gin until the party is over, the other confirms each hand."""
    seats = {s.player_id: s for s in party.seats.all()}
    mine = seats[winner.pk]
    theirs = next(s for s in seats.values() if s.pk != mine.pk)
    number = 1
    party.refresh_from_db()
    while party.status == "running":
        result = Result("gin", knocker=mine.position, knocker_deadwood=0, defender_deadwood=90)
        entered = committed(hand_enter, seat=mine, number=number, result=result).hand
        committed(hand_confirm, seat=theirs, number=number, version=entered.version)
        number += 1
        party.refresh_from_db()
    return party
