"""Sending one notice: an e-mail through Django's mail framework, or a web push
to each phone the player subscribed (VAPID, the Push API's encryption). What
went wrong is told apart: the address refused for good (a bounce) or the server
not reached (tried again later)."""

from __future__ import annotations

import base64
import json
import logging
import smtplib
from dataclasses import dataclass
from functools import lru_cache

import requests
from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.cache import cache
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPSConnection
from urllib3.connectionpool import HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError

from notices import endpoints
from notices.models import Notice
from notices.tokens import unsubscribe_url
from web.mail import mail_build

log = logging.getLogger(__name__)


class Refused(Exception):
    """The receiving server refused the message for good: sending again is useless."""


class Unreachable(Exception):
    """The server was not reached or refused for now: worth trying again later."""


#: How long a mail server that was not reached is not asked again: the notices
#: meanwhile wait for their next try (or, run eagerly, are recorded as failed) at
#: once, so a server that swallows connections costs one timeout, not one per player.
DOWN_SECONDS = 60


def down_key() -> str:
    return f"notices:smtp-down:{settings.EMAIL_HOST}:{settings.EMAIL_PORT}"


def send_email(notice: Notice) -> None:
    """The notice by e-mail, as text and as HTML headed by the club's name
    (`web.mail`), with the headers mail programs show as "unsubscribe" and use for
    it in one click (RFC 2369 and RFC 8058)."""
    if _cache_get(down_key()):
        raise Unreachable("the mail server was not reached a moment ago")
    message = mail_build(
        subject=notice.subject,
        text=notice.body,
        to=[notice.player.email],
        heading=notice.club.name,
        language=notice.club.language,
        headers={
            "List-Unsubscribe": f"<{unsubscribe_url(notice.player_id, notice.kind)}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    # A mail provider (django-anymail) sends this back with a bounce or complaint,
    # naming the notice (notices/bounces.py); SMTP ignores it.
    message.metadata = {"notice": str(notice.pk)}
    try:
        message.send()
    except smtplib.SMTPRecipientsRefused as error:
        codes = [code for code, _ in error.recipients.values()]
        reason = "; ".join(
            f"{code} {text.decode(errors='replace')}" for code, text in error.recipients.values()
        )
        if codes and all(code >= 500 for code in codes):
            raise Refused(reason) from error
        raise Unreachable(reason) from error
    except smtplib.SMTPResponseException as error:
        reason = f"{error.smtp_code} {_text(error.smtp_error)}"
        if error.smtp_code >= 500:
            raise Refused(reason) from error
        raise Unreachable(reason) from error
    except (OSError, smtplib.SMTPException) as error:
        if not isinstance(error, smtplib.SMTPException):  # not reached at all
            _cache_set(down_key(), True, DOWN_SECONDS)
        raise Unreachable(str(error) or error.__class__.__name__) from error


def _cache_get(key):
    try:
        return cache.get(key)
    except Exception:  # the cache away (Redis): every notice tries the server itself
        return None


def _cache_set(key, value, timeout) -> None:
    try:
        cache.set(key, value, timeout)
    except Exception:
        log.warning("cache unavailable: the mail server's outage not kept", exc_info=True)


def _text(value) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def push_enabled() -> bool:
    """Push needs the site's VAPID key; without it Knock pushes nothing (and the
    player's page says so)."""
    return bool(settings.VAPID_PRIVATE_KEY)


@lru_cache(maxsize=4)
def _vapid(private_key: str) -> Vapid02:
    return Vapid02.from_string(private_key)


def public_key() -> str:
    """The key a phone's browser subscribes with (``applicationServerKey``): the
    public half of the site's VAPID key, as the Push API reads it."""
    if not push_enabled():
        return ""
    point = _vapid(settings.VAPID_PRIVATE_KEY).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


class _PublicPeer(HTTPSConnection):
    """A connection to a push service that, once connected, refuses a peer inside
    the site's network: the name was checked before the send (`endpoints`), but it
    is resolved again to connect and may point elsewhere by then. Through an
    operator's proxy the peer is the proxy, which is left alone."""

    def _new_conn(self):
        sock = super()._new_conn()
        if not self._tunnel_host and not endpoints.public(sock.getpeername()[0]):
            sock.close()
            raise NewConnectionError(self, "not a push service's address")
        return sock


class _PublicPool(HTTPSConnectionPool):
    ConnectionCls = _PublicPeer


class _PublicOnly(HTTPAdapter):
    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            **self.poolmanager.pool_classes_by_scheme,
            "https": _PublicPool,
        }


def _no_redirects() -> requests.Session:
    """A push service answers where it was asked: a redirect (elsewhere, maybe into
    the site's own network) is not followed, and a connection that reached the
    site's own network is dropped (`_PublicPeer`)."""
    session = requests.Session()
    session.max_redirects = 0
    if settings.PUSH_ENDPOINTS_HTTPS_ONLY:
        session.mount("https://", _PublicOnly())
    return session


@dataclass(frozen=True)
class PushOutcome:
    sent: int
    gone: list  # the subscriptions the push service says are gone (404, 410)
    problems: list[str]


def send_push(notice: Notice, subscriptions) -> PushOutcome:
    """The notice to every phone subscribed: how many took it, which are gone
    for good, and what went wrong with the others."""
    payload = json.dumps(
        {"title": notice.subject, "body": notice.body.split("\n\n")[0], "url": notice.link}
    )
    gone, problems, sent = [], [], 0
    for subscription in subscriptions:
        verdict = endpoints.endpoint_verdict(subscription.endpoint)
        if verdict is endpoints.Verdict.REFUSED:
            # Its name points into a private network now: never posted to again.
            gone.append(subscription)
            problems.append("not a push service's address")
            continue
        if verdict is endpoints.Verdict.UNKNOWN:
            problems.append("the push service's name was not found")
            continue
        try:
            webpush(
                subscription_info={
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=payload,
                vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                timeout=settings.EMAIL_TIMEOUT,
                ttl=24 * 3600,
                requests_session=_no_redirects(),
            )
            sent += 1
        except WebPushException as error:
            # Only the status is kept for the organizer's page: the text is the
            # push service's, or the network's (which says what listens where).
            status = getattr(error.response, "status_code", None)
            if status in (404, 410):
                gone.append(subscription)
            problems.append(f"{status} from the push service" if status else "not reached")
        except Exception:  # the network's errors: requests' own classes
            log.info("push to subscription %s not sent", subscription.pk, exc_info=True)
            problems.append("not reached")
    return PushOutcome(sent, gone, problems)
