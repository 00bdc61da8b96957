"""The API of a club's organizers: ``/api/parties/<id>…`` (look, decide a hand of
any game at ``…/decide``, ``…/decide-entry`` an alias for a whole table's, and the
night's housekeeping: cancel, swap a player, rematch) and their nights under
``/api/manage/…`` (list, open, start a party of any game, close; the results, the
payments that settle them and the stake). A personal API key
(`clubs.permissions.TokenAuth`) or Django's session login (`OrganizerAuth`, which
checks the CSRF token on unsafe methods), and the user must organize the club.

Each action calls the service the organizer's page calls, with the key's owner as
the user and the client's address, so its record reads as the page's does."""

from collections import Counter
from typing import Annotated

from django.utils.translation import gettext
from ninja import Body, Path, Router, Status
from pydantic import Discriminator, Tag

from clubs import selectors as clubs
from clubs.permissions import OrganizerAuth, TokenAuth, require_organizer
from scoring import errors, selectors
from scoring.api.common import Id, audit_body
from scoring.api.keepings import kept
from scoring.api.schemas import (
    AuditOut,
    CancelIn,
    DecideIn,
    DecideOut,
    GameDecideIn,
    GameDecideOut,
    GamePartyForOrganizerOut,
    NightIn,
    NightOut,
    NightPaymentsOut,
    NightResultsOut,
    NightStakeIn,
    NightStakeOut,
    PartyDetailOut,
    PartyStartIn,
    SwapIn,
)
from scoring.engine.games import GAMES
from scoring.night_results import night_results
from scoring.services import hands, nights, parties
from scoring.services.parties import party_start
from web.api_errors import ORGANIZER_ACTION, ORGANIZER_READ, ORGANIZER_WRITE, refusals
from web.client import client_address

#: A party of any game: Gin Rummy's detail, or another game's.
AnyPartyOut = PartyDetailOut | GamePartyForOrganizerOut

router = Router(auth=[TokenAuth(), OrganizerAuth()], tags=["organizer"])

Slug = Annotated[str, Path(..., max_length=60, pattern=r"^[-a-zA-Z0-9_]+$")]
# A seat as the party's body names it: its place in the draw (six at most).
Position = Annotated[int, Path(..., ge=0, le=5)]


def _night(night) -> dict:
    return {
        "id": night.pk,
        "club": night.club.slug,
        "name": night.name,
        "date": night.date,
        "ruleset": night.ruleset,
        "confirmation_required": night.confirmation_required,
        "closed_at": night.closed_at,
        "stake": night.stake,
        "currency": night.club.currency,
    }


@router.get("/manage/clubs/{slug}/nights", response={200: list[NightOut], **ORGANIZER_READ})
def night_list(request, slug: Slug):
    """The club's nights, newest first."""
    club = clubs.club_by_slug(slug)
    require_organizer(request.auth, club)
    return [_night(n) for n in clubs.recent_nights(club_ids=[club.pk])]


@router.post(
    "/manage/clubs/{slug}/nights",
    response={201: NightOut, **refusals(400, 401, 403, 404, 413, 422)},
)
def night_create(request, slug: Slug, night: NightIn):
    """Open a club night; its rules and confirmation setting go onto each party."""
    club = clubs.club_by_slug(slug)
    require_organizer(request.auth, club)
    created = nights.night_create(
        club=club,
        name=night.name,
        date=night.date,
        ruleset=night.ruleset,
        confirmation_required=night.confirmation_required,
        user=request.auth,
        address=client_address(request),
    )
    return Status(201, _night(created))


@router.post(
    "/manage/nights/{night_id}/parties",
    response={201: AnyPartyOut, **ORGANIZER_WRITE},
)
def night_party_start(request, night_id: Id, party: PartyStartIn):
    """Start a party at a night between members of its club (player ids from
    ``/api/manage/clubs/{slug}/players``). Gin Rummy (``game`` left out): the seats
    are drawn as at the table, the night's rules. Another game: its ``options``,
    the players in seat order; a table the game is not played at, or an option it
    does not have, is refused (422). The answer holds each seat's link. A player
    already seated at a running party of the night is refused (409
    ``already_seated``) unless ``anyway`` is true."""
    night = selectors.night_by_id(night_id)
    require_organizer(request.auth, night.club)
    members = clubs.club_players(club=night.club).filter(pk__in=party.players)
    found = {p.pk: p for p in members}
    missing = [pk for pk in party.players if pk not in found]
    if missing:
        raise errors.EntryError(
            gettext("Player %(id)s is not a member of this club.") % {"id": missing[0]}
        )
    players = [found[pk] for pk in party.players]
    common = {
        "club": night.club,
        "night": night,
        "label": party.label,
        "user": request.auth,
        "address": client_address(request),
        "anyway": party.anyway,
    }
    game = GAMES[party.game]
    if game.formats and party.options is not None:
        raise errors.EntryError(
            gettext("%(game)s takes its rules from the night: it has no options here.")
            % {"game": game.name}
        )
    # A format said in so many words is the service's to refuse for a game seated
    # in order; the schema's default format is no choice.
    chosen = party.format if game.formats or "format" in party.model_fields_set else None
    started = party_start(
        game=party.game, format=chosen, options=party.options, players=players, **common
    )
    return Status(201, _party_body(request, selectors.party_by_id(started.pk)))


@router.post("/manage/nights/{night_id}/close", response={200: NightOut, **ORGANIZER_ACTION})
def night_close(request, night_id: Id):
    """Close the night once every party is over or cancelled: it takes no new
    parties, and its results are final. Goes into the club's record."""
    night = selectors.night_by_id(night_id)
    require_organizer(request.auth, night.club)
    nights.night_close(night=night, user=request.auth, address=client_address(request))
    return _night(selectors.night_by_id(night_id))


@router.get("/manage/nights/{night_id}/results", response={200: NightResultsOut, **ORGANIZER_READ})
def night_result_list(request, night_id: Id):
    """The night's results, the numbers of its results page and results.csv: every
    player with a finished party (whatever the game), best first, with his place,
    the games he played, parties played and won, his plus/minus and, with a stake,
    its amount. A party still running is not counted yet (``running``)."""
    night = _organized_night(request, night_id)
    results = night_results(night=night)
    return {
        "night": _night(night),
        "stake": results["stake"],
        "currency": night.club.currency,
        "running": results["running"],
        "lines": _lines(results["rows"]),
    }


@router.get(
    "/manage/nights/{night_id}/payments", response={200: NightPaymentsOut, **ORGANIZER_READ}
)
def night_payment_list(request, night_id: Id):
    """Who pays whom to settle the night at its stake: the fewest payments, as the
    results page lists them (none without a stake, or when nobody owes anything)."""
    night = _organized_night(request, night_id)
    results = night_results(night=night)
    return {
        "stake": results["stake"],
        "currency": night.club.currency,
        "running": results["running"],
        "payments": [
            {
                "payer": _player(payment["payer"]),
                "payee": _player(payment["payee"]),
                "points": payment["points"],
                "amount": payment["amount"],
            }
            for payment in results["payments"]
        ],
    }


@router.get("/manage/nights/{night_id}/stake", response={200: NightStakeOut, **ORGANIZER_READ})
def night_stake_detail(request, night_id: Id):
    """What a point is worth at the night (null: not played for money)."""
    night = _organized_night(request, night_id)
    return {"stake": night.stake, "currency": night.club.currency}


@router.post("/manage/nights/{night_id}/stake", response={200: NightStakeOut, **ORGANIZER_WRITE})
def night_stake_set(request, night_id: Id, body: NightStakeIn):
    """Set what a point is worth at the night, as on the night's page (into the
    club's record); null or 0: not played for money. A closed night's stake is
    final: 409 ``night_closed``."""
    night = _organized_night(request, night_id)
    nights.night_set_stake(
        night=night, stake=body.stake, user=request.auth, address=client_address(request)
    )
    # As stored (0.1 sent is 0.10 kept), as the results will show it.
    stored = selectors.night_by_id(night_id)
    return {"stake": stored.stake, "currency": stored.club.currency}


def _organized_night(request, night_id: int):
    night = selectors.night_by_id(night_id)
    require_organizer(request.auth, night.club)
    return night


def _player(player) -> dict:
    return {"id": player.pk, "name": player.name}


def _lines(rows: list[dict]) -> list[dict]:
    """The results' rows (best first) with their places: equal plus/minus share one."""
    ties = Counter(row["plus_minus"] for row in rows)
    lines = []
    for index, row in enumerate(rows):
        tied = index > 0 and rows[index - 1]["plus_minus"] == row["plus_minus"]
        lines.append(
            {
                "place": lines[-1]["place"] if tied else index + 1,
                "shared": ties[row["plus_minus"]] > 1,
                "player": _player(row["player"]),
                "games": row["games"],
                "played": row["played"],
                "won": row["won"],
                "plus_minus": row["plus_minus"],
                "amount": row.get("amount"),
            }
        )
    return lines


@router.get("/parties/{party_id}", response={200: AnyPartyOut, **ORGANIZER_READ})
def party_detail(request, party_id: Id):
    """The whole party for its organizer: seats with their links, the sheet, and
    every hand with who entered, confirmed or decided it (another game's party:
    its sides, totals, places and margins, `GamePartyForOrganizerOut`)."""
    return _party_body(request, _organized_party(request, party_id))


@router.get("/parties/{party_id}/audit", response={200: list[AuditOut], **ORGANIZER_READ})
def party_audit(request, party_id: Id):
    """Every entry, confirmation, dispute, correction and void, oldest first."""
    party = _organized_party(request, party_id)
    return [audit_body(record) for record in selectors.party_audit(party)]


def _decision_kind(value) -> str:
    # A decision on a hand played at one whole table carries the game's ``entry``;
    # one on Gin Rummy's its ``result``. Without either (a void, a version
    # accepted) both read alike, and the party says which it is.
    return "Whole" if isinstance(value, dict) and "entry" in value else "Tables"


#: A decision on a hand of either kind of table.
AnyDecideIn = Annotated[
    Annotated[DecideIn, Tag("Tables")] | Annotated[GameDecideIn, Tag("Whole")],
    Discriminator(_decision_kind),
]


@router.post(
    "/parties/{party_id}/hands/{hand_id}/decide",
    response={200: DecideOut | GameDecideOut, **ORGANIZER_WRITE},
)
def party_hand_decide(request, party_id: Id, hand_id: Id, decision: Body[AnyDecideIn]):
    """Correct, resolve or void a hand of any game, with a reason that goes into the
    record. A dispute is resolved with the right result, or by accepting one of its
    versions (``version``). The right result is Gin Rummy's ``result`` (counts or
    cards), or the ``entry`` of a game played at one whole table, as its players
    enter it; one of the other kind than the party's is refused (422) before
    anything is written, as is an entry the game refuses, in its words."""
    party = _organized_party(request, party_id)
    keeping = kept(party, decision)
    hand = selectors.party_hand(party, hand_id)
    hand = hands.hand_decide(
        hand=hand,
        user=request.auth,
        entry=keeping.decided(decision, hand, party),
        reason=decision.reason,
        address=client_address(request),
        # A correction of a disputed hand must look at both versions: resolve it.
        disputed={"resolve": True, "correct": False}.get(decision.action),
    )
    body = keeping.party(request, selectors.party_by_id(party_id))
    decided = next(h for h in body["hands"] if h["id"] == hand.pk)
    # A whole table's answer (`GameDecideOut`) leaves the action out.
    return {"action": decision.action, "hand": decided, "party": body}


@router.post(
    "/parties/{party_id}/hands/{hand_id}/decide-entry",
    response={200: GameDecideOut, **ORGANIZER_WRITE},
)
def party_game_hand_decide(request, party_id: Id, hand_id: Id, decision: GameDecideIn):
    """An alias of ``…/decide`` for a hand played at one whole table, kept for the
    clients that decide here; a Gin Rummy hand is refused."""
    return party_hand_decide(request, party_id, hand_id, decision)


@router.post("/parties/{party_id}/cancel", response={200: AnyPartyOut, **ORGANIZER_WRITE})
def party_cancel(request, party_id: Id, body: CancelIn):
    """Cancel a party of a club night started by mistake, with a reason for its
    record. Its hands stay in the record; it counts nowhere any more."""
    party = _organized_party(request, party_id)
    parties.night_party_cancel(
        party=party, user=request.auth, reason=body.reason, address=client_address(request)
    )
    return _party_body(request, selectors.party_by_id(party_id))


@router.post(
    "/parties/{party_id}/seats/{position}/swap", response={200: AnyPartyOut, **ORGANIZER_WRITE}
)
def party_seat_swap(request, party_id: Id, position: Position, body: SwapIn):
    """Put another member of the club in the seat at ``position``, before the first
    hand (the wrong player was ticked). The seat gets a new link: the old one stops
    opening the table."""
    party = _organized_party(request, party_id)
    seat = selectors.party_seat(party, position)
    # Only the club's own players: another club's player id is not even named.
    player = clubs.club_players(club=party.club).filter(pk=body.player).first()
    if player is None:
        raise errors.EntryError(
            gettext("Player %(id)s is not a member of this club.") % {"id": body.player}
        )
    parties.party_seat_swap(
        seat=seat, player=player, user=request.auth, address=client_address(request)
    )
    return _party_body(request, selectors.party_by_id(party_id))


@router.post(
    "/parties/{party_id}/rematch",
    response={201: AnyPartyOut, 200: AnyPartyOut, **ORGANIZER_ACTION},
)
def party_rematch(request, party_id: Id):
    """A new party at the same night, once this one is over (or cancelled): the same
    players and format, their seats drawn again; at another game the same game and
    options at the same table, the next seat dealing first. The answer is the new party (201);
    a party has one rematch, so asked again it answers with that one (200)."""
    party = _organized_party(request, party_id)
    rematch, started = parties.party_rematch(
        party=party, user=request.auth, address=client_address(request)
    )
    body = _party_body(request, selectors.party_by_id(rematch.pk))
    return Status(201 if started else 200, body)


def _party_body(request, party) -> dict:
    """The party as its organizer reads it, in its keeping's body."""
    return kept(party).party(request, party)


def _organized_party(request, party_id: int):
    party = selectors.party_by_id(party_id)
    require_organizer(request.auth, party.club)
    return party
