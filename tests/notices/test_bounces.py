"""Bounces and complaints a mail provider reports later, through django-anymail's
tracking webhook (here Postmark's, as the provider posts it): the notice is marked
bounced with the provider's reason, a complaint turns the player's e-mails off,
and without the operator's webhook secret the address is a 404."""

import base64
import json

import pytest
from django.core import mail
from django.urls import reverse

from notices import tasks
from notices.models import Channel, Kind, Notice
from notices.services import choices_set, wanted
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

SECRET = "provider:s3cret-hook"


def hook(provider="postmark"):
    return reverse("public:notices-provider-tracking", args=[provider])


@pytest.fixture
def configured(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}


@pytest.fixture
def sent():
    """A notice mailed to Ada (through the site's mail backend)."""
    member = MembershipFactory(player__email="ada@example.org")
    notice = Notice.objects.create(
        club=member.club,
        player=member.player,
        kind=Kind.TABLE,
        channel=Channel.EMAIL,
        key="party-1-table",
        subject="Your table",
        body="Table 3",
    )
    tasks.deliver_notice.delay(notice.pk)
    notice.refresh_from_db()
    assert notice.status == Notice.Status.SENT
    return notice


def post(client, event, secret=SECRET, provider="postmark"):
    auth = base64.b64encode(secret.encode()).decode()
    return client.post(
        hook(provider),
        data=json.dumps(event),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Basic {auth}",
    )


def bounce(notice, **more):
    return {
        "RecordType": "Bounce",
        "Type": "HardBounce",
        "ID": 4323372036854775807,
        "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483",
        "Email": "ada@example.org",
        "Description": "The server was unable to deliver your message (ex: unknown user).",
        "Details": "smtp;550 5.1.1 The email account does not exist",
        "BouncedAt": "2026-11-28T23:00:00Z",
        "Metadata": {"notice": str(notice.pk)},
        **more,
    }


def test_each_mail_names_its_notice_for_the_provider(sent):
    (message,) = mail.outbox
    assert message.metadata == {"notice": str(sent.pk)}


def test_a_bounce_reported_by_the_provider_marks_the_notice_bounced(client, configured, sent):
    answer = post(client, bounce(sent))

    assert answer.status_code == 200
    sent.refresh_from_db()
    assert sent.status == Notice.Status.BOUNCED
    assert sent.error.startswith("bounced (Postmark): The server was unable to deliver")


def test_a_complaint_turns_every_e_mail_to_the_player_off_and_keeps_push(client, configured, sent):
    choices_set(player=sent.player, chosen={Kind.SHEET: {Channel.EMAIL: True, Channel.PUSH: True}})
    answer = post(
        client, bounce(sent, RecordType="SpamComplaint", Type="SpamComplaint", TypeCode=512)
    )

    assert answer.status_code == 200
    sent.refresh_from_db()
    assert sent.status == Notice.Status.BOUNCED
    assert sent.error.startswith("marked as spam (Postmark)")
    chosen = wanted([sent.player_id], Kind.values)
    assert not any(chosen[sent.player_id, kind][Channel.EMAIL] for kind in Kind.values)
    assert chosen[sent.player_id, Kind.SHEET][Channel.PUSH] is True


def test_an_event_without_the_notice_finds_the_latest_sent_to_that_address(
    client, configured, sent
):
    post(client, bounce(sent, Metadata={}))
    sent.refresh_from_db()
    assert sent.status == Notice.Status.BOUNCED


def test_an_event_for_another_address_changes_nothing(client, configured, sent):
    post(client, bounce(sent, Email="eve@example.org"))
    sent.refresh_from_db()
    assert sent.status == Notice.Status.SENT


def test_a_delivery_or_an_open_changes_nothing(client, configured, sent):
    event = {"RecordType": "Delivery", "Recipient": "ada@example.org", "MessageID": "x"}
    assert post(client, {**event, "Metadata": {"notice": str(sent.pk)}}).status_code == 200
    sent.refresh_from_db()
    assert sent.status == Notice.Status.SENT


def test_the_webhook_wants_the_operator_s_secret(client, configured, sent):
    assert post(client, bounce(sent), secret="provider:guess").status_code == 400
    sent.refresh_from_db()
    assert sent.status == Notice.Status.SENT


def test_without_a_secret_there_is_no_webhook(client, sent):
    assert post(client, bounce(sent)).status_code == 404
    sent.refresh_from_db()
    assert sent.status == Notice.Status.SENT


def test_an_unknown_provider_or_a_body_that_is_no_event_is_refused_in_words(
    client, configured, sent
):
    assert post(client, bounce(sent), provider="carrier-pigeon").status_code == 404
    auth = base64.b64encode(SECRET.encode()).decode()
    answer = client.post(
        hook(), data="not json", content_type="application/json", HTTP_AUTHORIZATION=f"Basic {auth}"
    )
    assert answer.status_code == 400


@pytest.mark.parametrize(
    "body", [b"\x00\x01", b"[]", b'{"RecordType": 7}', b'{"RecordType": "Bounce", "Type": []}']
)
def test_a_hostile_body_is_refused_never_a_500(client, configured, sent, body):
    auth = base64.b64encode(SECRET.encode()).decode()
    answer = client.post(
        hook(), data=body, content_type="application/json", HTTP_AUTHORIZATION=f"Basic {auth}"
    )
    assert answer.status_code in (200, 400)
    sent.refresh_from_db()
    assert sent.status == Notice.Status.SENT
