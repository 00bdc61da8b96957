"""The season digest: to each player who asked for it, where he stands in his
club's season table. Sent by `manage.py send_digests` (or the weekly task of
the beat, `notices.tasks.send_digests`); sent twice the same day, once."""

from __future__ import annotations

from datetime import date

from django.db.models import Q
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from clubs.models import Club, Player
from notices.events import Draft, draft, own_links
from notices.models import Choice, Kind
from notices.tokens import absolute
from seasons.selectors import current_season, season_lines


def season_digests(*, club: Club, today: date) -> list[Draft]:
    """The digests of the club's current season, for the players who chose one
    and have a line in its table."""
    season = current_season(club=club, public=False, today=today)
    if season is None:
        return []
    wanting = set(
        Choice.objects.filter(kind=Kind.DIGEST)
        .filter(Q(email=True) | Q(push=True))
        .values_list("player_id", flat=True)
    )
    table = season_lines(season)
    lines = [line for line in table if line.player in wanting]
    if not lines:
        return []
    players = Player.objects.in_bulk([line.player for line in lines])
    links = own_links(club, list(players))
    ranked = sum(line.place is not None for line in table)
    drafts = []
    with translation.override(club.language):
        for line in lines:
            player = players[line.player]
            if line.place is None:
                standing = gettext(
                    "%(events)s events played: %(needed)s more to get a place in the table."
                ) % {"events": line.events, "needed": line.needed}
            else:
                standing = gettext(
                    "Place %(place)s of %(count)s, %(total)s points from %(events)s events."
                ) % {
                    "place": line.place,
                    "count": ranked,
                    "total": line.total,
                    "events": line.events,
                }
            own = links.get(player.pk)
            link = absolute(reverse("public:player-own", args=[own])) if own else ""
            text = gettext("%(club)s, season %(season)s:") % {
                "club": club.name,
                "season": season.name,
            }
            drafts.append(
                draft(
                    club,
                    player,
                    Kind.DIGEST,
                    f"digest:{season.pk}:{player.pk}:{today.isoformat()}",
                    gettext("Your season: %(season)s") % {"season": season.name},
                    "\n".join([text, standing, link]).strip(),
                    link,
                    links,
                )
            )
    return drafts
