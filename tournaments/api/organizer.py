"""The organizer's actions on tournaments: ``/api/manage/…``. A personal API key
(`clubs.permissions.TokenAuth`) or the logged-in session; every object is
checked against the clubs its user organizes (`require_organizer`)."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext
from ninja import Router, Status
from ninja.errors import HttpError
from pydantic import TypeAdapter

from clubs import selectors as clubs
from clubs.permissions import OrganizerAuth, TokenAuth, require_organizer
from scoring.selectors import night_by_id
from tournaments import (
    board,
    planned,
    published,
    records,
    registration,
    rounds,
    tables,
    withdrawals,
)
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
    CheckInIn,
    EntrantOut,
    EntrantsIn,
    FinalStageIn,
    FinishIn,
    ForfeitIn,
    ImportedOut,
    ManagedTournamentOut,
    MatchForfeitIn,
    NightArchiveOut,
    PairIn,
    PlanOut,
    TournamentArchiveOut,
    TournamentIn,
)
from tournaments.archive import export, restore
from tournaments.archive.refusals import ArchiveError, archive_loads
from tournaments.archive.schema import Archive
from tournaments.final import bracket, forfeits, setup
from tournaments.models import Tournament
from web.api_errors import ORGANIZER_ACTION, ORGANIZER_READ, ORGANIZER_WRITE
from web.client import client_address

router = Router(auth=[TokenAuth(), OrganizerAuth()], tags=["organizer"])


def _organized(request, slug: str):
    tournament = registration.tournament_by_slug(slug)
    require_organizer(request.auth, tournament.club)
    return tournament


def _detail(tournament) -> dict:
    data = board.build_board(tournament, public=False)
    problems = {r.number: r.problem for r in rounds.tournament_rounds(tournament)}
    places = data.places()
    ids = published.table_ids(tournament)
    return {
        **tournament_body(tournament),
        "entrants": [_entrant(e) for e in registration.tournament_entrants(tournament)],
        "rounds_played": [
            {**round_body(r, places, ids), "problem": problems.get(r.number, "")}
            for r in data.rounds
        ],
    }


def _entrant(entrant) -> dict:
    return {
        "id": entrant.pk,
        "player": entrant.player_id,
        "name": entrant.player.name,
        "checked_in": entrant.checked_in,
        "joined_round": entrant.joined_round,
        "withdrawn_after": entrant.withdrawn_after,
    }


def _fresh(tournament) -> dict:
    return _detail(registration.tournament_by_slug(tournament.slug))


@router.post(
    "/manage/clubs/{slug}/tournaments", response={201: ManagedTournamentOut, **ORGANIZER_WRITE}
)
def tournament_create(request, slug: Slug, body: TournamentIn):
    """A new tournament in registration: Gin Rummy, or another game (``game``) at
    tables of ``table_size`` with its ``options``, played in the Swiss system or
    as a round robin."""
    club = clubs.club_by_slug(slug)
    require_organizer(request.auth, club)
    fields = body.dict()
    fields["game_options"] = fields.pop("options")
    tournament = registration.tournament_create(club=club, **fields)
    return Status(201, _fresh(tournament))


@router.get("/manage/tournaments/{slug}", response={200: ManagedTournamentOut, **ORGANIZER_READ})
def tournament_detail(request, slug: Slug):
    """Everything the organizer runs the day from: entrants with their ids, every
    round with its tables (and each table's party id), published or not."""
    return _detail(_organized(request, slug))


@router.post(
    "/manage/tournaments/{slug}/entrants",
    response={201: list[EntrantOut], **ORGANIZER_WRITE},
)
def entrant_register(request, slug: Slug, body: EntrantsIn):
    """Enter members (player ids of the club) and guests (names). Members already
    entered are left as they are, and so are guests whose name is already entered
    or a member's (ignoring case and spacing), so the same request sent twice
    enters them once: the answer lists the entrants this request entered."""
    tournament = _organized(request, slug)
    members = {
        p.pk: p for p in clubs.club_players(club=tournament.club).filter(pk__in=body.players)
    }
    missing = [pk for pk in body.players if pk not in members]
    if missing:
        raise records.TournamentError(
            gettext("Player %(id)s is not a member of this club.") % {"id": missing[0]}
        )
    entered = registration.entrant_register(
        tournament=tournament, players=[members[pk] for pk in body.players]
    )
    if body.guests:
        entered += registration.entrant_register_guests(
            tournament=tournament, names="\n".join(body.guests), duplicates="skip"
        )
    ids = [e.pk for e in entered]
    return Status(
        201, [_entrant(e) for e in registration.tournament_entrants(tournament) if e.pk in ids]
    )


def _entrant_of(tournament, entrant_id):
    entrant = tournament.entrants.select_related("tournament").filter(pk=entrant_id).first()
    if entrant is None:
        raise Http404
    return entrant


@router.post(
    "/manage/tournaments/{slug}/entrants/{entrant_id}/check-in",
    response={200: EntrantOut, **ORGANIZER_WRITE},
)
def entrant_check_in(request, slug: Slug, entrant_id: Id, body: CheckInIn | None = None):
    """Checks the entrant in; a body of `{"checked_in": false}` takes it back. No body
    (or `{}`) is a check-in."""
    body = body or CheckInIn()
    tournament = _organized(request, slug)
    entrant = registration.entrant_check_in(
        entrant=_entrant_of(tournament, entrant_id), checked_in=body.checked_in
    )
    return _entrant(published.public_entrant(tournament, entrant.pk))


@router.post(
    "/manage/tournaments/{slug}/entrants/{entrant_id}/withdraw",
    response={200: EntrantOut, **ORGANIZER_ACTION},
)
def entrant_withdraw(request, slug: Slug, entrant_id: Id):
    """Not paired again; his results stay."""
    tournament = _organized(request, slug)
    entrant = withdrawals.entrant_withdraw(
        entrant=_entrant_of(tournament, entrant_id),
        user=request.auth,
        address=client_address(request),
    )
    return _entrant(published.public_entrant(tournament, entrant.pk))


@router.post(
    "/manage/tournaments/{slug}/entrants/{entrant_id}/reinstate",
    response={200: EntrantOut, **ORGANIZER_ACTION},
)
def entrant_reinstate(request, slug: Slug, entrant_id: Id):
    """Take back a withdrawal: paired again from the next pairing. Refused (409) once
    a round has been paired without him."""
    tournament = _organized(request, slug)
    entrant = withdrawals.entrant_reinstate(
        entrant=_entrant_of(tournament, entrant_id),
        user=request.auth,
        address=client_address(request),
    )
    return _entrant(published.public_entrant(tournament, entrant.pk))


@router.post(
    "/manage/tournaments/{slug}/start", response={200: ManagedTournamentOut, **ORGANIZER_ACTION}
)
def tournament_start(request, slug: Slug):
    """Close registration and pair round 1 by lot (the pairing runs as a task: the
    round shows ``pairing`` until it is done). A round robin at tables of another
    game starts only with a field its schedules cover: any other is refused, 409
    ``no_schedule``, naming the field sizes that work."""
    tournament = _organized(request, slug)
    rounds.round_start(tournament=tournament)
    return _fresh(tournament)


@router.post(
    "/manage/tournaments/{slug}/rounds/next",
    response={200: ManagedTournamentOut, **ORGANIZER_WRITE},
)
def round_pair_next(request, slug: Slug, body: PairIn):
    """Pair the round that waits (after a close)."""
    tournament = _organized(request, slug)
    rounds.round_pair_next(tournament=tournament, fewest_rematches=body.fewest_rematches)
    return _fresh(tournament)


@router.post(
    "/manage/tournaments/{slug}/rounds/{number}/close",
    response={200: ManagedTournamentOut, **ORGANIZER_ACTION},
)
def round_close(request, slug: Slug, number: Number):
    """Close a round once every table is finished."""
    tournament = _organized(request, slug)
    rounds.round_close(round=rounds.tournament_round(tournament, number))
    return _fresh(tournament)


@router.post(
    "/manage/tournaments/{slug}/tables/{table_id}/forfeit",
    response={200: ManagedTournamentOut, **ORGANIZER_WRITE},
)
def table_forfeit(request, slug: Slug, table_id: Id, body: ForfeitIn):
    """A no-show: ``absent`` is the entrant id of who did not come."""
    tournament = _organized(request, slug)
    table = published.tournament_table(tournament, table_id)
    tables.table_forfeit(
        table=table,
        absent=_entrant_of(tournament, body.absent),
        user=request.auth,
        address=client_address(request),
    )
    return _fresh(tournament)


@router.post(
    "/manage/tournaments/{slug}/tables/{table_id}/forfeit/undo",
    response={200: ManagedTournamentOut, **ORGANIZER_ACTION},
)
def table_forfeit_undo(request, slug: Slug, table_id: Id):
    """Take back a forfeit while its round is played: the table gets a new party
    (new seat links). Refused (409) once the round is closed."""
    tournament = _organized(request, slug)
    tables.table_forfeit_undo(
        table=published.tournament_table(tournament, table_id),
        user=request.auth,
        address=client_address(request),
    )
    return _fresh(tournament)


@router.post(
    "/manage/tournaments/{slug}/finish", response={200: ManagedTournamentOut, **ORGANIZER_WRITE}
)
def tournament_finish(request, slug: Slug, body: FinishIn):
    """End the tournament; ``final_draw``: tied entrants draw cards for one place each."""
    tournament = _organized(request, slug)
    rounds.tournament_finish(
        tournament=tournament,
        final_draw=body.final_draw,
        user=request.auth,
        address=client_address(request),
    )
    return _fresh(tournament)


@router.get("/manage/tournaments/{slug}/plan", response={200: PlanOut, **ORGANIZER_READ})
def tournament_plan(request, slug: Slug):
    """An evening planned ahead, with full names: every round's tables as planned
    (the rounds not yet played re-planned when the field changes). No rounds for
    a tournament that plans nothing ahead (``plans_ahead`` false) or before
    round 1 is paired."""
    return plan_body(planned.plan_view(_organized(request, slug)))


@router.get(
    "/manage/tournaments/{slug}/archive",
    response={200: TournamentArchiveOut, **ORGANIZER_READ},
)
def tournament_archive(request, slug: Slug):
    """The whole tournament as one JSON archive (a backup, or to move it to another
    Knock): every entrant, round, table, party, hand and audit record."""
    return export.tournament_export(_organized(request, slug))


@router.get(
    "/manage/nights/{night_id}/archive",
    response={200: NightArchiveOut, **ORGANIZER_READ},
)
def night_archive(request, night_id: Id):
    """A club night and its parties as one JSON archive."""
    night = night_by_id(night_id)
    require_organizer(request.auth, night.club)
    return export.night_export(night)


#: The body is an archive as the two GETs above give it. The archive's own reader and
#: schema (`tournaments.archive`) read it, not ninja's, so that a refusal names each
#: field and its rule in the reader's language (422 ``invalid_archive``). The document
#: gives that schema for the archive's head, its club, players and night (its models
#: named ``Archive…``; `config.api.KnockAPI` moves its ``$defs`` to the components);
#: the parties and the tournament's parts are objects as the export writes them, the
#: reader's rules not spelt out (a document of every nested field would have a
#: schema-driven client send thousands of requests). What one part says of another
#: (a hand's seat, a seating's table) only the reader checks in any case.
DOCUMENTED = {"TournamentArchive", "NightArchive", "ClubIn", "PlayerIn", "ArchivedNight"}


def _outline(schema):
    """``schema`` with each reference to a model not `DOCUMENTED` as a plain object."""
    if isinstance(schema, list):
        return [_outline(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref", "")
    if ref and ref.rsplit("/", 1)[-1].removeprefix("Archive") not in DOCUMENTED:
        return {"type": "object", "description": "As the export writes it."}
    if "prefixItems" in schema:
        # A pair of ids, said the way client generators read.
        items = schema["prefixItems"]
        if all(item == items[0] for item in items):
            schema = {k: v for k, v in schema.items() if k != "prefixItems"}
            schema["items"] = items[0]
    return {key: _outline(value) for key, value in schema.items()}


_ARCHIVE = TypeAdapter(Archive).json_schema(ref_template="#/components/schemas/Archive{model}")
ARCHIVE_SCHEMA = {
    **{key: value for key, value in _ARCHIVE.items() if key != "$defs"},
    "$defs": {f"Archive{name}": _outline(_ARCHIVE["$defs"][name]) for name in DOCUMENTED},
}
ARCHIVE_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": ARCHIVE_SCHEMA}},
    }
}


def _archive_body(request) -> bytes:
    """The archive posted, up to the import page's limit (`ARCHIVE_UPLOAD_MAX_BYTES`),
    not Django's smaller one for any request's body: the file the page takes, the
    API takes too."""
    limit = settings.ARCHIVE_UPLOAD_MAX_BYTES
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isdigit() or int(length) > limit:
        raise RequestDataTooBig("the archive is larger than ARCHIVE_UPLOAD_MAX_BYTES")
    body = request._body if hasattr(request, "_body") else request.read(limit + 1)
    if len(body) > limit:
        raise RequestDataTooBig("the archive is larger than ARCHIVE_UPLOAD_MAX_BYTES")
    return body


@router.post(
    "/manage/clubs/{slug}/archive",
    response={201: ImportedOut, **ORGANIZER_WRITE},
    openapi_extra=ARCHIVE_BODY,
)
def archive_import(request, slug: Slug):
    """Bring back an archive into one of the organizer's clubs."""
    club = clubs.club_by_slug(slug)
    require_organizer(request.auth, club)
    try:
        data = archive_loads(_archive_body(request))
    except ArchiveError:
        raise
    except (ValueError, RecursionError):
        raise HttpError(400, "not JSON") from None
    made = restore.archive_import(
        data=data, club=club, user=request.auth, address=client_address(request)
    )
    if isinstance(made, Tournament):
        return Status(201, {"kind": "tournament", "slug": made.slug, "id": made.pk})
    return Status(201, {"kind": "night", "slug": None, "id": made.pk})


# --------------------------------------------------------------------------- the final


def _final(tournament) -> dict:
    return bracket_body(bracket.final_stage_for_manage(tournament.slug), public=False, parties=True)


def _match_of(tournament, match_id: int):
    return bracket.match_for_manage(tournament.slug, match_id)


@router.get("/manage/tournaments/{slug}/final", response={200: BracketOut, **ORGANIZER_READ})
def final_detail(request, slug: Slug):
    """The final's bracket, with the party of each game being played."""
    return _final(_organized(request, slug))


@router.post("/manage/tournaments/{slug}/final", response={201: BracketOut, **ORGANIZER_WRITE})
def final_stage_add(request, slug: Slug, body: FinalStageIn):
    """Add a knockout final of the ``qualifiers`` best placed, before the tournament
    is finished; ``best_of``: 1 or 3 games a match."""
    tournament = _organized(request, slug)
    setup.final_stage_add(
        tournament=tournament, user=request.auth, address=client_address(request), **body.dict()
    )
    return Status(201, _final(tournament))


@router.post(
    "/manage/tournaments/{slug}/final/start", response={200: BracketOut, **ORGANIZER_ACTION}
)
def final_stage_start(request, slug: Slug):
    """Seed and draw the bracket, and start its first games: after the qualifying
    rounds are finished (a knockout tournament: from its registration)."""
    tournament = _organized(request, slug)
    setup.final_stage_start(
        tournament=tournament, user=request.auth, address=client_address(request)
    )
    return _final(tournament)


@router.post(
    "/manage/tournaments/{slug}/matches/{match_id}/forfeit",
    response={200: BracketOut, **ORGANIZER_WRITE},
)
def match_forfeit(request, slug: Slug, match_id: Id, body: MatchForfeitIn):
    """A no-show in the final: ``absent`` is the entrant id of who did not come;
    the other wins the match."""
    tournament = _organized(request, slug)
    forfeits.match_forfeit(
        match=_match_of(tournament, match_id),
        absent=_entrant_of(tournament, body.absent),
        user=request.auth,
        address=client_address(request),
    )
    return _final(tournament)


@router.post(
    "/manage/tournaments/{slug}/matches/{match_id}/forfeit/undo",
    response={200: BracketOut, **ORGANIZER_ACTION},
)
def match_forfeit_undo(request, slug: Slug, match_id: Id):
    """Take back a forfeit of the final; refused (409) once the next match has a hand."""
    tournament = _organized(request, slug)
    forfeits.match_forfeit_undo(
        match=_match_of(tournament, match_id),
        user=request.auth,
        address=client_address(request),
    )
    return _final(tournament)


@router.post(
    "/manage/tournaments/{slug}/final/remove",
    response={200: ManagedTournamentOut, **ORGANIZER_ACTION},
)
def final_stage_remove(request, slug: Slug):
    """Take back a final added by mistake, before it starts: the tournament as it is
    then."""
    tournament = _organized(request, slug)
    setup.final_stage_remove(
        tournament=tournament, user=request.auth, address=client_address(request)
    )
    return _fresh(tournament)


@router.post(
    "/manage/tournaments/{slug}/final/start/undo", response={200: BracketOut, **ORGANIZER_ACTION}
)
def final_stage_start_undo(request, slug: Slug):
    """Take back the start of the final while no game has a hand and no one has
    forfeited: the bracket goes, the final waits to be started again."""
    tournament = _organized(request, slug)
    setup.final_stage_start_undo(
        tournament=tournament, user=request.auth, address=client_address(request)
    )
    return _final(tournament)
