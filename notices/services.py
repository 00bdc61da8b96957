"""The writes of the notices: which drafts become notices (the players' choices),
sending one (claimed first, so it goes once), a player's choices, the one-click
unsubscribe, and the phones a player lets Knock push to."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club, Player
from notices import delivery, endpoints
from notices.digests import season_digests
from notices.events import Draft
from notices.models import DEFAULTS, Channel, Choice, Kind, Notice, PushSubscription

log = logging.getLogger(__name__)


def wanted(player_ids, kinds) -> dict[tuple[int, str], dict[str, bool]]:
    """Each player's choice for each kind, by (player id, kind): his own, else the
    default."""
    chosen = {
        (c.player_id, c.kind): {Channel.EMAIL: c.email, Channel.PUSH: c.push}
        for c in Choice.objects.filter(player_id__in=list(player_ids), kind__in=list(kinds))
    }
    return {(p, k): chosen.get((p, k), DEFAULTS[Kind(k)]) for p in player_ids for k in kinds}


def notices_write(*, drafts: list[Draft], deliver) -> list[int]:
    """The notices of these drafts, by the channels each player chose and can be
    reached by (an address; a phone subscribed, with push on at the site), each
    sent by ``deliver(notice_id)`` after the commit. A draft told before (the same
    key) is not written again, and a notice still waiting is sent again: sending
    claims it, so it goes once."""
    if not drafts:
        return []
    players = {d.player.pk for d in drafts}
    choices = wanted(players, {d.kind for d in drafts})
    subscribed = set(
        PushSubscription.objects.filter(player_id__in=players).values_list("player_id", flat=True)
    )
    rows = []
    for draft in drafts:
        choice = choices[draft.player.pk, draft.kind]
        reachable = {
            Channel.EMAIL: bool(draft.player.email),
            Channel.PUSH: draft.player.pk in subscribed and delivery.push_enabled(),
        }
        rows += [
            Notice(
                club=draft.club,
                player=draft.player,
                kind=draft.kind,
                channel=channel,
                key=draft.key,
                subject=draft.subject[:200],
                body=draft.body,
                link=draft.link[:500],
            )
            for channel in Channel
            if choice[channel] and reachable[channel]
        ]
    if not rows:
        return []
    with transaction.atomic():
        Notice.objects.bulk_create(rows, ignore_conflicts=True)
        waiting = list(
            Notice.objects.filter(
                key__in={r.key for r in rows}, status=Notice.Status.QUEUED
            ).values_list("pk", flat=True)
        )
        for pk in waiting:
            transaction.on_commit(lambda pk=pk: deliver(pk), robust=True)
    return waiting


def notice_deliver(*, notice_id: int, last_try: bool) -> str:
    """Sends a waiting notice and records how it went: sent, bounced (refused for
    good), failed, or waiting again for another try (``last_try`` false and the
    server not reached). The notice is claimed first in its own write, so two
    tries at once send it once; no transaction is held while the server is asked,
    so a slow server holds up no other write."""
    claimed = Notice.objects.filter(pk=notice_id, status=Notice.Status.QUEUED).update(
        status=Notice.Status.SENDING, attempts=F("attempts") + 1, tried_at=timezone.now()
    )
    notice = Notice.objects.select_related("player").get(pk=notice_id)
    if not claimed:
        return notice.status
    try:
        if notice.channel == Channel.EMAIL:
            delivery.send_email(notice)
        else:
            _push(notice)
    except delivery.Refused as error:
        return _done(notice, Notice.Status.BOUNCED, str(error))
    except delivery.Unreachable as error:
        status = Notice.Status.FAILED if last_try else Notice.Status.QUEUED
        return _done(notice, status, str(error))
    except Exception as error:  # never a request broken by a notice
        log.exception("notice %s not sent", notice_id)
        return _done(notice, Notice.Status.FAILED, str(error) or error.__class__.__name__)
    return _done(notice, Notice.Status.SENT, "")


def _push(notice: Notice) -> None:
    subscriptions = list(notice.player.push_subscriptions.all())
    if not delivery.push_enabled():
        raise delivery.Refused("push is off at this site")
    outcome = delivery.send_push(notice, subscriptions)
    if outcome.gone:
        PushSubscription.objects.filter(pk__in=[s.pk for s in outcome.gone]).delete()
    if outcome.sent:
        return
    reason = "; ".join(outcome.problems) or "no phone subscribed"
    if len(outcome.gone) == len(subscriptions):
        raise delivery.Refused(reason)
    raise delivery.Unreachable(reason)


def _done(notice: Notice, status: str, error: str) -> str:
    Notice.objects.filter(pk=notice.pk).update(
        status=status,
        error=error[:2000],
        sent_at=timezone.now() if status == Notice.Status.SENT else None,
    )
    return status


def digests_send(*, today, deliver, clubs=None) -> int:
    """The season digests of every club (or of ``clubs``) for ``today``: how many
    are to be sent (a second run the same day finds those sent, and writes none)."""
    written = 0
    for club in clubs if clubs is not None else Club.objects.order_by("pk"):
        written += len(
            notices_write(drafts=season_digests(club=club, today=today), deliver=deliver)
        )
    return written


@transaction.atomic
def choices_set(*, player: Player, chosen: dict[str, dict[str, bool]]) -> None:
    """The player's choices, by kind and channel; a kind not named keeps his."""
    for kind, channels in chosen.items():
        Choice.objects.update_or_create(
            player=player,
            kind=Kind(kind),
            defaults={"email": channels[Channel.EMAIL], "push": channels[Channel.PUSH]},
        )


@transaction.atomic
def kind_turn_off(*, player_id: int, kind: str) -> Choice | None:
    """The one-click unsubscribe: that kind of notice no more, by any channel.
    None when the player is no more."""
    if not Player.objects.filter(pk=player_id).exists():
        return None
    choice, _ = Choice.objects.update_or_create(
        player_id=player_id, kind=Kind(kind), defaults={"email": False, "push": False}
    )
    return choice


#: The phones one player may have subscribed at once.
PHONES_PER_PLAYER = 10


class SubscriptionRefused(ValueError):
    """A push subscription Knock cannot use, with the reason."""


@transaction.atomic
def push_subscribe(*, player: Player, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """A phone's browser lets Knock push to the player. The same phone subscribed
    again (or handed to another player) keeps one subscription, the latest."""
    if not delivery.push_enabled():
        raise SubscriptionRefused(gettext("Push is off at this site."))
    if len(endpoint) > 1000:
        raise SubscriptionRefused(gettext("This phone gave no address to push to."))
    verdict = endpoints.endpoint_verdict(endpoint)
    if verdict is endpoints.Verdict.UNKNOWN:
        raise SubscriptionRefused(
            gettext("The push service of this phone was not found. Try again in a while.")
        )
    if verdict is not endpoints.Verdict.ALLOWED:
        raise SubscriptionRefused(gettext("This phone gave no address to push to."))
    if not (p256dh and auth) or len(p256dh) > 200 or len(auth) > 100:
        raise SubscriptionRefused(gettext("This phone gave no keys to push with."))
    # The player's row locked: two phones subscribing at once count each other.
    Player.objects.select_for_update().filter(pk=player.pk).first()
    subscription, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"player": player, "p256dh": p256dh, "auth": auth}
    )
    # A player's phones are few; past the limit the oldest goes (a phone replaced
    # or its browser reset), so no one fills the table through one link.
    kept = PushSubscription.objects.filter(player=player).order_by("-created_at", "-pk")
    stale = list(kept.values_list("pk", flat=True)[PHONES_PER_PLAYER:])
    PushSubscription.objects.filter(pk__in=stale).delete()
    return subscription


def push_change(*, player: Player, sent: dict) -> bool:
    """A phone subscribed (True) or unsubscribed (False), as `forms.subscription_from`
    read it."""
    if sent.get("off"):
        push_unsubscribe(player=player, endpoint=sent["endpoint"])
        return False
    push_subscribe(
        player=player, endpoint=sent["endpoint"], p256dh=sent["p256dh"], auth=sent["auth"]
    )
    return True


@transaction.atomic
def push_unsubscribe(*, player: Player, endpoint: str) -> int:
    deleted, _ = PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()
    return deleted
