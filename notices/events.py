"""What happened, and what each player concerned is told of it: drafts of the
notices, written in the club's language with the reason they came and the link
that turns their kind off. Which drafts become notices is the players' choice
(`services.notices_write`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from clubs.models import Club, Player
from notices.models import Kind
from notices.tokens import absolute, unsubscribe_url
from scoring.labels import party_title
from scoring.models import Party
from scoring.results import party_results
from seasons.models import PlayerLink
from tournaments.engine.formats import format_of
from tournaments.models import Round, Table, Tournament
from tournaments.standings import standings_for

#: Only what happened lately is told: a party corrected long after it ended, or a
#: tournament brought back from an archive, tells its players nothing.
RECENT = timedelta(days=2)


@dataclass(frozen=True)
class Draft:
    club: Club
    player: Player
    kind: str
    key: str
    subject: str
    body: str
    link: str


def party_started(party_id: int) -> list[Draft]:
    """Each player of a party just started is told his table and his seat link;
    at a tournament table started while its round was already played (players
    swapped by hand, a forfeit taken back), that his table changed."""
    party = Party.objects.select_related("club").filter(pk=party_id).first()
    if party is None or party.status != Party.Status.RUNNING:
        return []
    table = Table.objects.select_related("round").filter(party_id=party_id).first()
    changed = (
        table is not None
        and table.round.started_at is not None
        and party.started_at > table.round.started_at
    )
    kind = Kind.CHANGE if changed else Kind.TABLE
    seats = list(party.seats.select_related("player").order_by("position"))
    links = own_links(party.club, [s.player_id for s in seats])
    with translation.override(party.club.language):
        title = party_title(party)
        drafts = []
        for seat in seats:
            others = ", ".join(s.player.name for s in seats if s.pk != seat.pk)
            link = absolute(seat.get_absolute_url())
            subject = (
                gettext("Your table changed: %(title)s")
                if changed
                else gettext("Your table: %(title)s")
            ) % {"title": title}
            text = gettext(
                "%(club)s: %(title)s.\nYou play against %(others)s.\n"
                "Your seat link, to enter the hands on your phone:\n%(link)s"
            ) % {"club": party.club.name, "title": title, "others": others, "link": link}
            drafts.append(
                draft(
                    party.club,
                    seat.player,
                    kind,
                    f"table:{party.pk}:{seat.player_id}",
                    subject,
                    text,
                    link,
                    links,
                )
            )
    return drafts


def party_ended(party_id: int) -> list[Draft]:
    """Each player of a finished party is told its result and given its sheet
    (his seat page shows the settlement): at Gin Rummy each player's plus/minus,
    at another game each side's total and place (as the ratings and seasons take
    them: a Chinchón that won at once first, whatever the totals)."""
    party = Party.objects.select_related("club").filter(pk=party_id).first()
    if party is None or party.status != Party.Status.FINISHED:
        return []
    if party.finished_at is None or party.finished_at < timezone.now() - RECENT:
        return []
    seats = list(party.seats.select_related("player").order_by("position"))
    links = own_links(party.club, [s.player_id for s in seats])
    # Only the keeping of the party's game is asked.
    result = party_results([party.pk], game=party.game).get(party.pk)
    with translation.override(party.club.language):
        title = party_title(party)
        lines = []
        if result is not None and result.places:
            # A game that places its players tells each side's total and place.
            lines = [
                gettext("%(name)s: %(total)s points, place %(place)s")
                % {
                    "name": s.player.name,
                    "total": result.points[s.player_id],
                    "place": result.places[s.player_id],
                }
                for s in seats
            ]
        elif result is not None:
            lines = [f"{s.player.name}: {result.plus_minus.get(s.player_id, 0):+d}" for s in seats]
        drafts = []
        for seat in seats:
            link = absolute(seat.get_absolute_url())
            text = "\n".join(
                [
                    gettext("%(club)s: %(title)s is over.")
                    % {"club": party.club.name, "title": title},
                    *lines,
                    gettext("The whole sheet:\n%(link)s") % {"link": link},
                ]
            )
            drafts.append(
                draft(
                    party.club,
                    seat.player,
                    Kind.SHEET,
                    f"sheet:{party.pk}:{seat.player_id}",
                    gettext("Party over: %(title)s") % {"title": title},
                    text,
                    link,
                    links,
                )
            )
    return drafts


def tournament_finished(tournament_id: int) -> list[Draft]:
    """Each entrant of a finished tournament is told his place and where the
    final standings are."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None or tournament.status != Tournament.Status.FINISHED:
        return []
    if tournament.date < timezone.localdate() - RECENT:
        return []
    link = absolute(reverse("public:tournament-detail", args=[tournament.slug]))
    places = {}
    if format_of(tournament.format).plays_rounds:
        places = {line.entrant.pk: line for line in standings_for(tournament).lines}
    entrants = list(tournament.entrants.select_related("player").order_by("pk"))
    links = own_links(tournament.club, [e.player_id for e in entrants])
    with translation.override(tournament.club.language):
        drafts = []
        for entrant in entrants:
            line = places.get(entrant.pk)
            text = [
                gettext("%(club)s: %(name)s is over.")
                % {"club": tournament.club.name, "name": tournament.name}
            ]
            if line is not None:
                text.append(
                    gettext("You placed %(place)s of %(count)s, with %(points)s points.")
                    % {"place": line.place, "count": len(places), "points": line.points}
                )
            text.append(gettext("The final standings:\n%(link)s") % {"link": link})
            drafts.append(
                draft(
                    tournament.club,
                    entrant.player,
                    Kind.STANDINGS,
                    f"standings:{tournament.pk}:{entrant.player_id}",
                    gettext("Final standings: %(name)s") % {"name": tournament.name},
                    "\n".join(text),
                    link,
                    links,
                )
            )
    return drafts


def table_changes(tournament_id: int) -> list[Draft]:
    """At the tables of the round being played: whoever came to a table whose
    opponent did not is told it counts as a forfeit; whoever sits at a table with
    an entrant who withdrew during the round is told the organizer decides it.
    (Players swapped by hand, and a forfeit taken back, start a party: told as
    its start, `party_started`.)"""
    tournament, round = round_being_played(tournament_id)
    if round is None:
        return []
    seatings = list(
        round.seatings.select_related("table__party", "entrant__player").order_by(
            "table__number", "side"
        )
    )
    by_table = {}
    for seating in seatings:
        by_table.setdefault(seating.table_id, []).append(seating)
    links = own_links(tournament.club, [s.entrant.player_id for s in seatings])
    drafts = []
    with translation.override(tournament.club.language):
        for sitting in by_table.values():
            table = sitting[0].table
            title = gettext("%(tournament)s · Round %(round)s · Table %(table)s") % {
                "tournament": tournament.name,
                "round": round.number,
                "table": table.number,
            }
            absent = [s for s in sitting if s.side == table.absent]
            over = table.party is not None and table.party.status != Party.Status.RUNNING
            left = [s for s in sitting if s.entrant.withdrawn_after == round.number and not over]
            for seating in sitting:
                player = seating.entrant.player
                for gone in absent:
                    if gone is seating:
                        continue
                    text = gettext(
                        "%(club)s: %(title)s.\n%(name)s did not come: your table counts as "
                        "a forfeit, %(points)s points for you. No hands are played there."
                    ) % {
                        "club": tournament.club.name,
                        "title": title,
                        "name": gone.entrant,
                        "points": f"{tournament.forfeit_value:+d}",
                    }
                    drafts.append(
                        draft(
                            tournament.club,
                            player,
                            Kind.CHANGE,
                            f"forfeit:{table.pk}:{gone.entrant_id}:{player.pk}",
                            gettext("Your table changed: %(title)s") % {"title": title},
                            text,
                            "",
                            links,
                        )
                    )
                for gone in left:
                    if gone is seating or absent:
                        continue
                    text = gettext(
                        "%(club)s: %(title)s.\n%(name)s has withdrawn from the tournament: "
                        "play your party if %(name)s is there, else the organizer enters "
                        "a forfeit."
                    ) % {"club": tournament.club.name, "title": title, "name": gone.entrant}
                    drafts.append(
                        draft(
                            tournament.club,
                            player,
                            Kind.CHANGE,
                            f"withdrawn:{round.pk}:{gone.entrant_id}:{player.pk}",
                            gettext("Your table changed: %(title)s") % {"title": title},
                            text,
                            "",
                            links,
                        )
                    )
    return drafts


def round_byes(tournament_id: int) -> list[Draft]:
    """The entrant with the bye in the round being played starts no party, so
    `party_started` does not tell him: he is told here that he sits out, with the
    round's public page."""
    tournament, round = round_being_played(tournament_id)
    if round is None:
        return []
    byes = list(round.seatings.filter(table__bye=True).select_related("table", "entrant__player"))
    links = own_links(tournament.club, [s.entrant.player_id for s in byes])
    link = absolute(reverse("public:round-detail", args=[tournament.slug, round.number]))
    drafts = []
    with translation.override(tournament.club.language):
        title = gettext("%(tournament)s · Round %(round)s") % {
            "tournament": tournament.name,
            "round": round.number,
        }
        for seating in byes:
            text = gettext(
                "%(club)s: %(title)s.\nYou have the bye: you play no party this round.\n"
                "The round's tables:\n%(link)s"
            ) % {"club": tournament.club.name, "title": title, "link": link}
            player = seating.entrant.player
            drafts.append(
                draft(
                    tournament.club,
                    player,
                    Kind.TABLE,
                    f"bye:{round.pk}:{player.pk}",
                    gettext("Your bye: %(title)s") % {"title": title},
                    text,
                    link,
                    links,
                )
            )
    return drafts


def round_being_played(tournament_id: int):
    """The running tournament and its round being played, started lately; or
    (tournament or None, None)."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None or tournament.status != Tournament.Status.RUNNING:
        return tournament, None
    round = tournament.round_set.filter(status=Round.Status.PLAYING).order_by("-number").first()
    if round is None or round.started_at is None or round.started_at < timezone.now() - RECENT:
        return tournament, None
    return tournament, round


def own_links(club: Club, player_ids) -> dict[int, str]:
    """The personal links of these players at the club (player id -> token)."""
    links = PlayerLink.objects.filter(club=club, player_id__in=list(player_ids))
    return dict(links.values_list("player_id", "token"))


def draft(club, player, kind, key, subject, text, link, links) -> Draft:
    """A draft ending with why it came and how to stop it."""
    reason = why(club, player, kind, links.get(player.pk))
    return Draft(club, player, kind, key, subject, text + "\n\n" + reason, link)


def why(club: Club, player: Player, kind: str, own: str | None) -> str:
    """Why the message came, and how to stop it: every message ends so."""
    lines = [
        gettext("You get this because you play at %(club)s and have not turned off: %(kind)s.")
        % {"club": club.name, "kind": Kind(kind).label},
        gettext("Turn it off with one click:\n%(link)s")
        % {"link": unsubscribe_url(player.pk, kind)},
    ]
    if own:
        lines.append(
            gettext("Choose what you are told:\n%(link)s")
            % {"link": absolute(reverse("public:notices-choose", args=[own]))}
        )
    return "\n".join(lines)
