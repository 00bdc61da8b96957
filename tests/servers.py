"""A real SMTP server (aiosmtpd) and a real push service over HTTP, both on free
local ports, for the tests that send mail and push (the notices', the account
mails', the browser's): what they took is read back as a person's mailbox and a
phone's browser would read it. The fixtures are in tests/conftest.py."""

import base64
import email
import json
import os
import socket
import threading
from email import policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02


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
