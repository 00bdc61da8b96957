"""The public's reads of tournaments: ``/api/tournaments…``. No login; only what
the organizer published (pairings, standings, results), checked here for each
answer, and a 404 for the rest, as on the pages."""

from django.http import Http404
from ninja import Query, Router, Schema
from pydantic import Field

from clubs.names import shown_names
from scoring.services.keeping import keeping_for
from tournaments import planned, published, stored_board
from tournaments.api.common import (
    Id,
    Number,
    Slug,
    bracket_body,
    plan_body,
    round_body,
    tournament_body,
)
from tournaments.api.schemas import (
    BracketOut,
    PlanOut,
    RoundDetailOut,
    StandingsOut,
    TournamentOut,
    TournamentPartyOut,
    TournamentRoundOut,
)
from tournaments.final import bracket
from web.api_errors import PUBLIC_READ, refusals

router = Router(tags=["public"])


class TournamentFilter(Schema):
    club: str | None = Field(None, max_length=60, pattern=r"^[-a-zA-Z0-9_]+$")


@router.get("/tournaments", response={200: list[TournamentOut], **refusals(422)})
def tournament_list(request, filters: Query[TournamentFilter]):
    """Published tournaments, newest first; ``club``: one club's, by its slug."""
    found = published.recent_tournaments(limit=500, club_slug=filters.club)
    return [tournament_body(t) for t in found]


@router.get("/tournaments/{slug}", response={200: TournamentOut, **PUBLIC_READ})
def tournament_detail(request, slug: Slug):
    return tournament_body(published.public_tournament(slug))


@router.get("/tournaments/{slug}/standings", response={200: StandingsOut, **PUBLIC_READ})
def tournament_standings(request, slug: Slug):
    """The standings; during a round, provisional: finished tables count at once.
    Once the final is decided, in its order, as on every page: its players first
    by how far they came (``reached``), then the rest as the rounds placed them.
    At tables of another game ``points`` are tournament points by place, ``score``
    the game score that breaks their ties, ``won`` the parties won."""
    tournament = published.public_tournament(slug)
    if not tournament.public_standings:
        raise Http404
    data = stored_board.board_for(tournament)
    lines = [
        {
            "place": line.place,
            "shared": line.shared,
            "entrant": line.entrant,
            "name": line.name,
            "played": line.played,
            "won": line.won,
            "points": line.points,
            "byes": line.byes,
            "withdrawn": line.withdrawn,
            "withdrawn_after": line.withdrawn_after,
            "reached": line.reached,
            "score": line.score,
        }
        for line in data.standings
    ]
    return {"after_round": data.after_round, "provisional": data.provisional, "lines": lines}


def _visible_rounds(tournament):
    """The rounds the public may see: the one in play with the pairings published,
    the others with the results; and the board they are read from."""
    data = stored_board.board_for(tournament)
    current = data.current
    return data, [
        r
        for r in data.rounds
        if (tournament.public_pairings if r is current else tournament.public_results)
        and r.status in ("playing", "closed")
    ]


@router.get("/tournaments/{slug}/rounds", response={200: list[TournamentRoundOut], **PUBLIC_READ})
def tournament_rounds(request, slug: Slug):
    tournament = published.public_tournament(slug)
    return [round_body(r) for r in _visible_rounds(tournament)[1]]


@router.get("/tournaments/{slug}/rounds/{number}", response={200: RoundDetailOut, **PUBLIC_READ})
def tournament_round(request, slug: Slug, number: Number):
    """A round's tables: who plays whom, and each table's points (the running hand
    points while it is played, each side's plus/minus once it is over). A table of
    another game lists all its players, each with the table's ``total``, and once
    over his margin (``points``), ``table_place`` and tournament points
    (``earned``)."""
    tournament = published.public_tournament(slug)
    data, visible = _visible_rounds(tournament)
    found = [r for r in visible if r.number == number]
    if not found:
        raise Http404
    ids = published.table_ids(tournament, round_number=number)
    return round_body(found[0], data.places(), ids)


@router.get("/tournaments/{slug}/plan", response={200: PlanOut, **PUBLIC_READ})
def tournament_plan(request, slug: Slug):
    """An evening planned ahead: every round's tables, fixed when round 1 was
    paired (re-planned for the rounds not yet played when the field changes), with
    the names the public may see; 404 for a tournament that plans nothing ahead,
    before round 1 is paired, or while its pairings are not public."""
    tournament = published.public_tournament(slug)
    view = planned.plan_view(tournament, public=True) if tournament.public_pairings else None
    if view is None:
        raise Http404
    return plan_body(view)


@router.get(
    "/tournaments/{slug}/parties/{party_id}", response={200: TournamentPartyOut, **PUBLIC_READ}
)
def tournament_party(request, slug: Slug, party_id: Id):
    """One party of the tournament, of any game, with every hand (results
    published): each side's column as its game keeps it, each hand's scores."""
    tournament = published.public_tournament(slug)
    if not tournament.public_results:
        raise Http404
    party = published.tournament_party(tournament, party_id)
    kept = keeping_for(party)(party)
    shown = shown_names(tournament.club_id, [seat.player for seat in kept.seats], public=True)
    names = {seat.pk: shown[seat.player_id] for seat in kept.seats}
    sides = [
        {
            "players": [names[s.pk] for s in kept.seats if s.side == side],
            "points": column.points,
            "boxes": column.boxes,
            "total": column.total,
        }
        for side, column in enumerate(kept.columns())
    ]
    return {
        "id": party.pk,
        "game": party.game,
        "label": party.label,
        "status": party.status,
        "target": party.target,
        "sides": sides,
        "hands": [
            {
                "number": h.number,
                "table": h.table,
                "status": h.status,
                "scores": h.scores,
                "facts": h.facts,
                "ending": h.ending,
                "kind": h.kind,
                "points": h.points,
                "winner": names.get(h.winner_id),
                "knocker": names.get(h.knocker_id),
                "knocker_deadwood": h.knocker_deadwood,
                "defender_deadwood": h.defender_deadwood,
            }
            for h in kept.hands
        ],
    }


@router.get("/tournaments/{slug}/final", response={200: BracketOut, **PUBLIC_READ})
def tournament_final(request, slug: Slug):
    """The knockout final's bracket, with the games each side has won (pairings
    published; 404 when the tournament has no final)."""
    tournament = published.public_tournament(slug)
    stage = bracket.final_stage_of(tournament)
    if stage is None or not tournament.public_pairings:
        raise Http404
    return bracket_body(stage, public=True)
