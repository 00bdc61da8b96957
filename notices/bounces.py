"""Bounces and complaints a mail provider reports after it took a mail: django-
anymail's tracking webhooks, where the site sends through a provider (an anymail
``EMAIL_BACKEND`` and its ``ANYMAIL_*`` settings; with SMTP, the default, a
refusal is known only when the server refuses at once, `delivery.send_email`).

Each mail carries its notice's id in the provider's metadata, which the provider
sends back with the event. A bounce marks the notice bounced with the provider's
reason, as a refusal at send time does; a complaint ("this is spam") does the
same and turns off every e-mail to that player: what he asked to stop, he is not
sent again. Push he chose stays as chosen."""

from __future__ import annotations

from anymail.signals import EventType
from django.db import transaction

from notices.models import Channel, Kind, Notice
from notices.services import choices_set, wanted

#: The provider's events Knock acts on, and the word its reason is shown after.
REPORTED = {
    EventType.BOUNCED: "bounced",
    EventType.REJECTED: "refused by the mail provider",
    EventType.COMPLAINED: "marked as spam",
}


def tracking_received(sender, event, esp_name, **kwargs) -> None:
    """anymail's ``tracking`` signal: one event from a provider's webhook."""
    what = REPORTED.get(event.event_type)
    if what is None:
        return
    detail = event.description or event.mta_response or ""
    notice_reported(
        notice_id=(event.metadata or {}).get("notice"),
        recipient=event.recipient or "",
        reason=f"{what} ({esp_name}): {detail}".rstrip(": "),
        complaint=event.event_type == EventType.COMPLAINED,
    )


@transaction.atomic
def notice_reported(*, notice_id, recipient: str, reason: str, complaint: bool) -> Notice | None:
    """The e-mail notice the provider reports on marked bounced with ``reason``;
    found by its id, else as the latest sent to ``recipient``. One whose player's
    address is not the recipient is left as it is. A complaint turns the player's
    e-mails off."""
    emails = Notice.objects.filter(channel=Channel.EMAIL).select_related("player")
    notice = None
    if str(notice_id or "").isdigit():
        notice = emails.filter(pk=int(notice_id)).first()
    if notice is None and recipient:
        notice = (
            emails.filter(player__email__iexact=recipient, status=Notice.Status.SENT)
            .order_by("-sent_at", "-pk")
            .first()
        )
    if notice is None:
        return None
    if recipient and notice.player.email.casefold() != recipient.casefold():
        return None
    Notice.objects.filter(pk=notice.pk).update(status=Notice.Status.BOUNCED, error=reason[:2000])
    if complaint:
        chosen = wanted([notice.player_id], Kind.values)
        push = {kind: chosen[notice.player_id, kind][Channel.PUSH] for kind in Kind.values}
        choices_set(
            player=notice.player,
            chosen={kind: {Channel.EMAIL: False, Channel.PUSH: push[kind]} for kind in Kind.values},
        )
    notice.refresh_from_db()
    return notice
