"""The reads of the notices: whether something has happened worth telling, a
player's choices, and what the club's players were sent."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from clubs.models import Club, Player
from notices.models import DEFAULTS, Channel, Choice, Kind, Notice
from scoring.models import Party
from tournaments.models import Round, Tournament


def party_finished(party_id: int) -> bool:
    return Party.objects.filter(pk=party_id, status=Party.Status.FINISHED).exists()


def tournament_tells(tournament_id: int) -> bool:
    """Whether the tournament is finished, or plays a round whose tables may change."""
    playing = Q(status=Tournament.Status.RUNNING, round_set__status=Round.Status.PLAYING)
    return Tournament.objects.filter(
        Q(status=Tournament.Status.FINISHED) | playing, pk=tournament_id
    ).exists()


@dataclass(frozen=True)
class ChoiceLine:
    kind: str
    label: str
    email: bool
    push: bool


def choices_of(player: Player) -> list[ChoiceLine]:
    """Each kind of notice and how the player chose to be told it (or the default)."""
    own = {c.kind: c for c in Choice.objects.filter(player=player)}
    lines = []
    for kind in Kind:
        choice = own.get(kind)
        default = DEFAULTS[kind]
        lines.append(
            ChoiceLine(
                kind=kind.value,
                label=kind.label,
                email=choice.email if choice else default[Channel.EMAIL],
                push=choice.push if choice else default[Channel.PUSH],
            )
        )
    return lines


def club_notices(club: Club, *, undelivered: bool = False):
    """What the club's players were sent, the latest first, with to whom; only
    those failed or bounced when ``undelivered``."""
    notices = Notice.objects.filter(club=club).select_related("player")
    if undelivered:
        notices = notices.filter(status__in=[Notice.Status.FAILED, Notice.Status.BOUNCED])
    return notices.order_by("-created_at", "-pk")


def club_notice_counts(club: Club) -> dict[str, int]:
    """How many of the club's notices were sent, wait, failed and bounced."""
    by_status = dict(
        Notice.objects.filter(club=club)
        .values_list("status")
        .annotate(count=Count("pk"))
        .values_list("status", "count")
    )
    waiting = by_status.get(Notice.Status.QUEUED, 0) + by_status.get(Notice.Status.SENDING, 0)
    return {
        "sent": by_status.get(Notice.Status.SENT, 0),
        "waiting": waiting,
        "failed": by_status.get(Notice.Status.FAILED, 0),
        "bounced": by_status.get(Notice.Status.BOUNCED, 0),
    }


def push_subscribed(player: Player) -> int:
    return player.push_subscriptions.count()
