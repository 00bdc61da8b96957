"""A player's personal link by mail: sent when he joins a club with an address, so
that his own page (and the phone he lets Knock push to from it) reaches him
before round 1; and again whenever someone asks for it by his address on the
public "send my link again" page, which answers the same for every address."""

from django.db import transaction

from clubs.mails import mail_send, site_link
from clubs.models import Membership
from seasons import services
from seasons.models import PlayerLink
from seasons.services import SeasonRefused


@transaction.atomic
def player_link_kept(*, membership: Membership) -> PlayerLink | None:
    """The player's link at the club, made when he has none; None for an erased
    player. A link he has is kept, not replaced: anyone may ask for it to be sent
    again, and a new one would stop the link he uses."""
    services.club_locked_for_a_link(membership.club_id)
    Membership.objects.select_for_update().filter(pk=membership.pk).first()
    link = PlayerLink.objects.filter(club=membership.club, player=membership.player).first()
    if link is not None:
        return link
    try:
        return services.player_link_issue(club=membership.club, player=membership.player, user=None)
    except SeasonRefused:
        return None


def player_link_mail(*, membership_id: int) -> bool:
    """Mails the member his link at the club, in the club's language; False when
    there is nobody to send it to (no address, left the club, erased)."""
    membership = (
        Membership.objects.select_related("club", "player").filter(pk=membership_id).first()
    )
    if membership is None or not membership.active or not membership.player.email:
        return False
    link = player_link_kept(membership=membership)
    if link is None:
        return False
    club = membership.club
    return mail_send(
        to=membership.player.email,
        template="player_link",
        context={
            "club": club.name,
            "name": membership.player.name,
            "link": site_link("public:player-own", token=link.token),
            "again": site_link("public:player-link-again"),
        },
        language=club.language,
    )


def player_links_mail_again(*, email: str) -> int:
    """Every active membership of a player with this address (any case), each sent
    its link; how many were sent."""
    email = email.strip()
    if not email:
        return 0
    memberships = Membership.objects.filter(player__email__iexact=email, active=True)
    return sum(
        player_link_mail(membership_id=pk)
        for pk in memberships.order_by("pk").values_list("pk", flat=True)
    )
