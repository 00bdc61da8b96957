"""What the public may see of the tournaments: those with a part published,
their entrants, parties and tables (the public pages and the public API)."""

from __future__ import annotations

from django.db.models import Q
from django.shortcuts import get_object_or_404

from scoring.models import Party
from tournaments.models import (
    Entrant,
    Table,
    Tournament,
)


def published() -> Q:
    """A tournament the public may see: at least one of its parts is published."""
    return Q(public_pairings=True) | Q(public_standings=True) | Q(public_results=True)


def public_tournament(slug: str) -> Tournament:
    """A tournament by its slug, or a 404 when nothing of it is published."""
    # With its final, if any: the pages' tabs link to it without a query of their own.
    return get_object_or_404(
        Tournament.objects.select_related("club", "final_stage").filter(published()), slug=slug
    )


def public_entrant(tournament: Tournament, entrant_id: int) -> Entrant:
    return get_object_or_404(
        Entrant.objects.select_related("player"), tournament=tournament, pk=entrant_id
    )


def recent_tournaments(
    *, club_ids=None, club_slug=None, since=None, limit: int | None = None
) -> list[Tournament]:
    """Published tournaments, running ones and those since ``since``, newest first."""
    query = Tournament.objects.filter(published()).select_related("club")
    if club_ids is not None:
        query = query.filter(club_id__in=club_ids)
    if club_slug is not None:
        query = query.filter(club__slug=club_slug)
    if since is not None:
        query = query.filter(Q(date__gte=since) | Q(status=Tournament.Status.RUNNING))
    query = query.order_by("-date", "-pk")
    return list(query[:limit] if limit else query)


def entrant_parties(tournament: Tournament, entrant: Entrant) -> list[Table]:
    """The tables an entrant sat at, by round, with their rounds."""
    return list(
        Table.objects.filter(seatings__entrant=entrant, round__tournament=tournament)
        .select_related("round")
        .order_by("round__number")
    )


def tournament_party(tournament: Tournament, party_id: int) -> Party:
    """A party played at one of the tournament's tables, or a 404."""
    return get_object_or_404(
        Party.objects.select_related("club"),
        pk=party_id,
        tournament_table__round__tournament=tournament,
    )


def tournament_table(tournament: Tournament, table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round"), pk=table_id, round__tournament=tournament
    )


def table_ids(tournament: Tournament, *, round_number: int | None = None) -> dict:
    """Each table's id by its round's number and its own, ``(round, table) -> id``:
    the board (`board.TableLine`) names a table by its number, and the organizer's
    forfeit and its undo take its id. One query; ``round_number``: one round's."""
    tables = Table.objects.filter(round__tournament=tournament)
    if round_number is not None:
        tables = tables.filter(round__number=round_number)
    rows = tables.order_by().values_list("round__number", "number", "pk")
    return {(round, number): pk for round, number, pk in rows}
