"""The recipes of the race harness (tests/test_race_harness.py): for each
state-changing endpoint, the state it needs (a `World`), the request to send, and
what must hold after it was sent several times at once. A table, one line or two
an endpoint; the harness fails for an endpoint it finds without one here.

``done``: the answers of which at least one must come back, so that a recipe
that only ever got its form back with errors does not pass for a test (a page's
success is a redirect; None: a page without an action of its own)."""

import base64
import json
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.invitations import invitation_create
from clubs.models import Club, ClubRecord, Invitation, Membership
from notices.models import Choice, Kind, Notice
from scoring.models import AuditRecord, Party
from seasons.models import SeasonRecord
from tests.race_world import CHINCHON_HAND, World
from tournaments.archive.export import tournament_export
from tournaments.models import FinalStage, TournamentRecord


@dataclass(frozen=True)
class Shot:
    """One request: where, and what it carries (form fields for a page, JSON for the
    API; ``file``: a form's upload, as (field, name, bytes))."""

    path: str
    data: dict | None = None
    file: tuple | None = None
    # A body of JSON sent as it is, with headers of its own (a provider's webhook).
    json: dict | None = None
    headers: dict | None = None


@dataclass(frozen=True)
class Recipe:
    shot: Callable[[World], Shot]
    holds: Callable[[World], None] | None = None
    done: tuple | str | None = "default"
    # Run first with the organizer's logged-in test client, whose session the shots
    # then carry: a step before the page (the member list uploaded before its preview).
    before: Callable[[World, object], None] | None = None


def m(name: str, **kwargs) -> str:
    return reverse(f"manage:{name}", kwargs=kwargs)


def count_is(expected: int, query: Callable[[World], object]) -> Callable[[World], None]:
    def check(w: World):
        found = query(w).count()
        assert found == expected, f"{found} where {expected} must be"

    return check


one_nina = count_is(1, lambda w: w.club.memberships.filter(player__name__iexact="nina voss"))
one_gus = count_is(1, lambda w: w.club.memberships.filter(player__name__iexact="gus guest"))
one_running = count_is(1, lambda w: w.night.parties.filter(status=Party.Status.RUNNING))
one_rematch = count_is(1, lambda w: Party.objects.filter(rematch_of=w.over_party))
one_cancel = count_is(
    1, lambda w: AuditRecord.objects.filter(party=w.party, action=AuditRecord.Action.CANCEL)
)
one_closed = count_is(
    1, lambda w: ClubRecord.objects.filter(club=w.club, action=ClubRecord.Action.CLOSED)
)
one_merge = count_is(
    1, lambda w: SeasonRecord.objects.filter(club=w.club, action=SeasonRecord.Action.MERGED)
)
one_round = count_is(1, lambda w: w.tournament.round_set)
two_rounds = count_is(2, lambda w: w.tournament.round_set)
one_zoe = count_is(1, lambda w: w.tournament.entrants.filter(player__name="Zoe Quist"))
one_apart = count_is(1, lambda w: w.tournament.apart)
one_final = count_is(1, lambda w: FinalStage.objects.filter(tournament=w.tournament))
one_final_start = count_is(
    1, lambda w: w.knockout.records.filter(action=TournamentRecord.Action.FINAL_STARTED)
)


def _records(action):
    return count_is(1, lambda w: w.tournament.records.filter(action=action))


def _knockout_records(action):
    return count_is(1, lambda w: w.knockout.records.filter(action=action))


one_finish = _records(TournamentRecord.Action.FINISHED)
one_forfeit = _records(TournamentRecord.Action.FORFEIT)
one_forfeit_undone = _records(TournamentRecord.Action.FORFEIT_UNDONE)
one_withdrawal = _records(TournamentRecord.Action.WITHDRAWN)
one_reinstatement = _records(TournamentRecord.Action.REINSTATED)
one_round_undone = _records(TournamentRecord.Action.ROUND_UNDONE)
one_match_forfeit = _knockout_records(TournamentRecord.Action.MATCH_FORFEIT)


def _member_pk(w):
    return w.member().pk


NIGHT = {"name": "Friday", "date": "2024-05-03", "ruleset": "classic"}
TOURNAMENT = {"name": "Spring Open", "format": "swiss", "ruleset": "classic", "target": 100}
TOURNAMENT_FORM = {**TOURNAMENT, "date": "2024-05-04", "bye_value": 0, "forfeit_value": 100}
SEASON = {
    "name": "Summer",
    "starts": "2024-06-01",
    "ends": "2024-08-31",
    "counts": "both",
    "scheme": "plus_minus",
}


NEW_CLUB = {"name": "Harbour Club", "language": "en", "time_zone": "Europe/Berlin"}
ROSTER = ("file", "members.csv", b"name,email,role\nNina Voss,nina@example.org,member\n")


def _invitation(w) -> Invitation:
    return invitation_create(club=w.club, by=w.user, email="eve@example.org")[0]


def _roster_uploaded(w, client) -> None:
    """The member list uploaded in the organizer's session; the preview's fingerprint
    kept for the confirmation."""
    slug = w.club.slug
    field, name, content = ROSTER
    upload = SimpleUploadedFile(name, content, content_type="text/csv")
    client.post(m("member-import", slug=slug), {field: upload})
    w.seen = client.get(m("member-import-preview", slug=slug)).context["seen"]


def _archive(w) -> bytes:
    return json.dumps(tournament_export(w.tournament), default=str).encode()


MANAGE = {
    # clubs
    "club-list": Recipe(lambda w: Shot(m("club-list")), done=None),
    "member-list": Recipe(lambda w: Shot(m("member-list", slug=w.club.slug)), done=None),
    "member-add": Recipe(
        lambda w: Shot(m("member-add", slug=w.club.slug), {"name": "Nina Voss", "role": "member"}),
        one_nina,
    ),
    "member-edit": Recipe(
        lambda w: Shot(
            m("member-edit", slug=w.club.slug, pk=w.member().pk),
            {"name": "Nina Voss", "role": "member"},
        ),
        one_nina,
    ),
    "member-deactivate": Recipe(
        lambda w: Shot(m("member-deactivate", slug=w.club.slug, pk=_member_pk(w)))
    ),
    "member-reactivate": Recipe(
        lambda w: Shot(m("member-reactivate", slug=w.club.slug, pk=_member_pk(w)))
    ),
    "guest-add": Recipe(
        lambda w: Shot(m("guest-add", slug=w.club.slug), {"name": "Gus Guest"}), one_gus
    ),
    # The club's language and currency: changed once, recorded once.
    "club-settings": Recipe(
        lambda w: Shot(m("club-settings", slug=w.club.slug), {"language": "de", "currency": "CHF"}),
        count_is(
            1, lambda w: ClubRecord.objects.filter(club=w.club, action=ClubRecord.Action.SETTINGS)
        ),
    ),
    "organizer-list": Recipe(lambda w: Shot(m("organizer-list", slug=w.club.slug)), done=None),
    "organizer-invite": Recipe(
        lambda w: Shot(
            m("organizer-invite", slug=w.club.slug),
            {"member": _member_pk(w), "username": f"eve-{w.club.pk}"},
        ),
        count_is(1, lambda w: w.club.memberships.filter(role=Membership.Role.ORGANIZER)),
    ),
    "club-create": Recipe(
        lambda w: Shot(
            m("club-create"),
            {**NEW_CLUB, "slug": f"harbour-{w.club.pk}", "form_key": "harness-club-1"},
        ),
        count_is(1, lambda w: Club.objects.filter(slug=f"harbour-{w.club.pk}")),
    ),
    "invitation-list": Recipe(
        lambda w: Shot(
            m("invitation-list", slug=w.club.slug),
            {"email": "eve@example.org", "form_key": "harness-invitation-1"},
        ),
        count_is(1, lambda w: Invitation.objects.filter(club=w.club)),
    ),
    "invitation-revoke": Recipe(
        lambda w: Shot(m("invitation-revoke", slug=w.club.slug, pk=_invitation(w).pk)),
        count_is(
            1,
            lambda w: ClubRecord.objects.filter(
                club=w.club, action=ClubRecord.Action.INVITE_REVOKED
            ),
        ),
    ),
    "member-import": Recipe(
        lambda w: Shot(m("member-import", slug=w.club.slug), file=ROSTER), done=(302,)
    ),
    "member-import-preview": Recipe(
        lambda w: Shot(m("member-import-preview", slug=w.club.slug), {"seen": w.seen}),
        one_nina,
        before=_roster_uploaded,
    ),
    "member-import-cancel": Recipe(
        lambda w: Shot(m("member-import-cancel", slug=w.club.slug)), before=_roster_uploaded
    ),
    # Each one a file of the list as it is (and each one recorded).
    "member-export-csv": Recipe(
        lambda w: Shot(m("member-export-csv", slug=w.club.slug)), done=(200,)
    ),
    "member-export-xlsx": Recipe(
        lambda w: Shot(m("member-export-xlsx", slug=w.club.slug)), done=(200,)
    ),
    "organizer-link": Recipe(
        lambda w: Shot(m("organizer-link", slug=w.club.slug, pk=w.organizer.pk))
    ),
    "organizer-revoke": Recipe(
        lambda w: Shot(m("organizer-revoke", slug=w.club.slug, pk=w.organizer.pk))
    ),
    # A new key each time: what the form is for (shown once, on the page it answers).
    "token-list": Recipe(lambda w: Shot(m("token-list"), {"name": "bot"}), done=(200,)),
    "token-revoke": Recipe(
        lambda w: Shot(m("token-revoke", token_id=w.user.api_tokens.get().pk)),
        count_is(
            1,
            lambda w: ClubRecord.objects.filter(user=w.user, action=ClubRecord.Action.KEY_REVOKED),
        ),
    ),
    # scoring
    "club-detail": Recipe(lambda w: Shot(m("club-detail", slug=w.club.slug), NIGHT)),
    "night-detail": Recipe(
        lambda w: Shot(
            m("night-detail", pk=w.night.pk),
            {"format": "two", "players": [p.pk for p in w.pair]},
        ),
        one_running,
    ),
    "night-stake": Recipe(lambda w: Shot(m("night-stake", pk=w.night.pk), {"stake": "0.05"})),
    "night-close": Recipe(lambda w: Shot(m("night-close", pk=w.night.pk)), one_closed),
    "party-cancel": Recipe(
        lambda w: Shot(m("party-cancel", pk=w.party.pk), {"reason": "a mistake"}), one_cancel
    ),
    "party-rematch": Recipe(lambda w: Shot(m("party-rematch", pk=w.over_party.pk)), one_rematch),
    "seat-link": Recipe(lambda w: Shot(m("seat-link", pk=w.seats()[0].pk))),
    "seat-swap": Recipe(
        lambda w: Shot(m("seat-swap", pk=w.seats()[0].pk), {"player": w.member().player.pk}),
        count_is(1, lambda w: w.party.audit.filter(action=AuditRecord.Action.SWAP)),
    ),
    "hand-decide": Recipe(
        lambda w: Shot(
            m("hand-decide", pk=w.disputed_hand.pk), {"decision": "void", "reason": "misdeal"}
        ),
        count_is(1, lambda w: w.party.audit.filter(action=AuditRecord.Action.VOID)),
    ),
    # tournaments
    "tournament-create": Recipe(
        lambda w: Shot(m("tournament-create", slug=w.club.slug), TOURNAMENT_FORM)
    ),
    "archive-import": Recipe(
        lambda w: Shot(
            m("archive-import", slug=w.club.slug), file=("file", "open.json", _archive(w))
        )
    ),
    "entrant-register": Recipe(
        lambda w: Shot(
            m("entrant-register", slug=w.tournament.slug), {"players": [w.member().player.pk]}
        ),
        count_is(5, lambda w: w.tournament.entrants),
    ),
    "entrant-guests": Recipe(
        lambda w: Shot(
            m("entrant-guests", slug=w.tournament.slug),
            {"names": "Zoe Quist", "duplicates": "skip"},
        ),
        one_zoe,
    ),
    "entrant-check-in": Recipe(
        lambda w: Shot(
            m("entrant-check-in", slug=w.tournament.slug, pk=w.entrants[0].pk),
            {"checked_in": "0"},
        )
    ),
    "entrants-check-in": Recipe(
        lambda w: Shot(
            m("entrants-check-in", slug=w.tournament.slug),
            {"action": "out", "entrant": [e.pk for e in w.entrants]},
        )
    ),
    "door-link": Recipe(lambda w: Shot(m("door-link", slug=w.tournament.slug))),
    "entrant-withdraw": Recipe(
        lambda w: Shot(m("entrant-withdraw", slug=w.playing.slug, pk=w.entrants[0].pk)),
        one_withdrawal,
    ),
    "keep-apart": Recipe(
        lambda w: Shot(
            m("keep-apart", slug=w.tournament.slug),
            {"first": w.entrants[0].pk, "second": w.entrants[1].pk},
        ),
        one_apart,
    ),
    "keep-apart-remove": Recipe(
        lambda w: Shot(m("keep-apart-remove", slug=w.tournament.slug, pk=w.apart.pk)),
        _records(TournamentRecord.Action.APART_REMOVED),
    ),
    "entrant-reinstate": Recipe(
        lambda w: Shot(m("entrant-reinstate", slug=w.tournament.slug, pk=w.withdrawn.pk)),
        one_reinstatement,
    ),
    "round-start": Recipe(lambda w: Shot(m("round-start", slug=w.tournament.slug)), one_round),
    "round-pair": Recipe(lambda w: Shot(m("round-pair", slug=w.closed.slug)), two_rounds),
    "standings-draw": Recipe(lambda w: Shot(m("standings-draw", slug=w.closed.slug))),
    "tournament-finish": Recipe(
        lambda w: Shot(m("tournament-finish", slug=w.closed.slug)), one_finish
    ),
    "tables-swap": Recipe(
        lambda w: Shot(
            m("tables-swap", slug=w.tournament.slug, number=w.round.number),
            {"first": w.entrants[0].pk, "second": w.entrants[1].pk},
        )
    ),
    "round-undo": Recipe(
        lambda w: Shot(m("round-undo", slug=w.tournament.slug, number=w.round.number)),
        one_round_undone,
    ),
    "round-close": Recipe(
        lambda w: Shot(m("round-close", slug=w.played.slug, number=w.round.number)), two_rounds
    ),
    "table-forfeit": Recipe(
        lambda w: Shot(
            m("table-forfeit", slug=w.tournament.slug, number=1, table=w.table.number),
            {"absent": w.table_entrants()[0].pk},
        ),
        one_forfeit,
    ),
    "table-forfeit-undo": Recipe(
        lambda w: Shot(
            m(
                "table-forfeit-undo",
                slug=w.tournament.slug,
                number=1,
                table=w.forfeited_table.number,
            )
        ),
        one_forfeit_undone,
    ),
    "final-add": Recipe(
        lambda w: Shot(m("final-add", slug=w.tournament.slug), {"qualifiers": 2, "best_of": 1}),
        one_final,
    ),
    "final-start": Recipe(lambda w: Shot(m("final-start", slug=w.knockout.slug)), one_final_start),
    "final-start-undo": Recipe(
        lambda w: Shot(m("final-start-undo", slug=w.knockout_playing.slug)),
        _knockout_records(TournamentRecord.Action.FINAL_UNDONE),
    ),
    "final-remove": Recipe(lambda w: Shot(m("final-remove", slug=w.with_final.slug))),
    "match-forfeit": Recipe(
        lambda w: Shot(
            m("match-forfeit", slug=w.knockout_playing.slug, pk=w.match.pk),
            {"absent": w.match.first_id},
        ),
        one_match_forfeit,
    ),
    "match-forfeit-undo": Recipe(
        lambda w: Shot(
            m("match-forfeit-undo", slug=w.knockout_playing.slug, pk=w.forfeited_match.pk)
        ),
        _knockout_records(TournamentRecord.Action.MATCH_UNFORFEIT),
    ),
    # seasons
    "season-players": Recipe(lambda w: Shot(m("season-players", slug=w.club.slug)), done=None),
    "season-player": Recipe(
        lambda w: Shot(m("season-player", slug=w.club.slug, pk=w.pair[0].pk)), done=None
    ),
    "season-player-link": Recipe(
        lambda w: Shot(m("season-player-link", slug=w.club.slug, pk=w.pair[0].pk))
    ),
    "season-player-merge": Recipe(
        lambda w: Shot(
            m("season-player-merge", slug=w.club.slug, pk=w.guest_who_played[0].pk),
            {"member": w.guest_who_played[1].pk},
        ),
        one_merge,
    ),
    # Each download a file of the player's data (and each one recorded).
    "season-player-data": Recipe(
        lambda w: Shot(m("season-player-data", slug=w.club.slug, pk=w.pair[0].pk)), done=(200,)
    ),
    "season-player-erase": Recipe(
        lambda w: Shot(
            m("season-player-erase", slug=w.club.slug, pk=w.pair[0].pk), {"name": w.pair[0].name}
        ),
        count_is(
            1, lambda w: SeasonRecord.objects.filter(club=w.club, action=SeasonRecord.Action.ERASED)
        ),
    ),
    # notices
    "notice-list": Recipe(lambda w: Shot(m("notice-list", slug=w.club.slug)), done=None),
    "season-list": Recipe(lambda w: Shot(m("season-list", slug=w.club.slug), SEASON)),
    "season-detail": Recipe(lambda w: Shot(m("season-detail", pk=w.season.pk), SEASON)),
    "season-close": Recipe(
        lambda w: Shot(m("season-close", pk=w.season.pk)),
        count_is(
            1, lambda w: SeasonRecord.objects.filter(club=w.club, action=SeasonRecord.Action.CLOSED)
        ),
    ),
    "season-reopen": Recipe(
        lambda w: Shot(m("season-reopen", pk=w.season.pk), {"reason": "a late correction"})
    ),
}

T = "/api/manage/tournaments/{slug}"

API = {
    "POST /api/tables/{token}/hands": Recipe(
        lambda w: Shot(
            f"/api/tables/{w.seats()[0].token}/hands",
            {
                "number": 1,
                "ending": "gin",
                "knocker": 0,
                "knocker_deadwood": 0,
                "defender_deadwood": 20,
                "key": "harness-1",
            },
        ),
        count_is(1, lambda w: w.party.hands),
    ),
    "POST /api/tables/{token}/hands/{number}/confirm": Recipe(
        lambda w: Shot(
            f"/api/tables/{w.seats()[1].token}/hands/{w.pending_hand.number}/confirm",
            {"version": w.pending_hand.version},
        ),
        count_is(1, lambda w: w.party.audit.filter(action=AuditRecord.Action.CONFIRM)),
    ),
    "POST /api/tables/{token}/game/hands": Recipe(
        lambda w: Shot(
            f"/api/tables/{w.seats(w.game_party)[0].token}/game/hands",
            {"number": 1, "entry": CHINCHON_HAND, "key": "harness-1"},
        ),
        count_is(1, lambda w: w.game_party.hands),
    ),
    "POST /api/tables/{token}/game/hands/{number}/confirm": Recipe(
        lambda w: Shot(
            f"/api/tables/{w.seats(w.game_party)[1].token}/game/hands/1/confirm",
            {"version": w.game_pending_hand.version},
        ),
        count_is(1, lambda w: w.game_party.audit.filter(action=AuditRecord.Action.CONFIRM)),
    ),
    "POST /api/manage/clubs/{slug}/nights": Recipe(
        lambda w: Shot(f"/api/manage/clubs/{w.club.slug}/nights", NIGHT)
    ),
    "POST /api/manage/nights/{night_id}/parties": Recipe(
        lambda w: Shot(
            f"/api/manage/nights/{w.night.pk}/parties", {"players": [p.pk for p in w.pair]}
        ),
        one_running,
    ),
    "POST /api/manage/nights/{night_id}/stake": Recipe(
        lambda w: Shot(f"/api/manage/nights/{w.night.pk}/stake", {"stake": "0.05"}),
        count_is(1, lambda w: w.club.records.filter(details__stake__isnull=False)),
    ),
    "POST /api/manage/nights/{night_id}/close": Recipe(
        lambda w: Shot(f"/api/manage/nights/{w.night.pk}/close"), one_closed
    ),
    "POST /api/parties/{party_id}/hands/{hand_id}/decide": Recipe(
        lambda w: Shot(
            f"/api/parties/{w.party.pk}/hands/{w.disputed_hand.pk}/decide",
            {"action": "void", "reason": "misdeal"},
        ),
        count_is(1, lambda w: w.party.audit.filter(action=AuditRecord.Action.VOID)),
    ),
    "POST /api/parties/{party_id}/hands/{hand_id}/decide-entry": Recipe(
        lambda w: Shot(
            f"/api/parties/{w.game_party.pk}/hands/{w.game_disputed_hand.pk}/decide-entry",
            {"version": "counter", "reason": "counted again"},
        ),
        count_is(1, lambda w: w.game_party.audit.filter(action=AuditRecord.Action.RESOLVE)),
    ),
    "POST /api/parties/{party_id}/cancel": Recipe(
        lambda w: Shot(f"/api/parties/{w.party.pk}/cancel", {"reason": "a mistake"}), one_cancel
    ),
    "POST /api/parties/{party_id}/seats/{position}/swap": Recipe(
        lambda w: Shot(f"/api/parties/{w.party.pk}/seats/0/swap", {"player": w.member().player.pk}),
        count_is(1, lambda w: w.party.audit.filter(action=AuditRecord.Action.SWAP)),
    ),
    "POST /api/parties/{party_id}/rematch": Recipe(
        lambda w: Shot(f"/api/parties/{w.over_party.pk}/rematch"), one_rematch
    ),
    "POST /api/manage/clubs/{slug}/tournaments": Recipe(
        lambda w: Shot(f"/api/manage/clubs/{w.club.slug}/tournaments", TOURNAMENT)
    ),
    f"POST {T}/entrants": Recipe(
        lambda w: Shot(
            f"/api/manage/tournaments/{w.tournament.slug}/entrants",
            {"players": [w.member().player.pk], "guests": ["Zoe Quist"]},
        ),
        one_zoe,
    ),
    f"POST {T}/entrants/{{entrant_id}}/check-in": Recipe(
        lambda w: Shot(
            f"/api/manage/tournaments/{w.tournament.slug}/entrants/{w.entrants[0].pk}/check-in",
            {"checked_in": False},
        )
    ),
    f"POST {T}/entrants/{{entrant_id}}/withdraw": Recipe(
        lambda w: Shot(
            f"/api/manage/tournaments/{w.playing.slug}/entrants/{w.entrants[0].pk}/withdraw"
        ),
        one_withdrawal,
    ),
    f"POST {T}/entrants/{{entrant_id}}/reinstate": Recipe(
        lambda w: Shot(
            f"/api/manage/tournaments/{w.tournament.slug}/entrants/{w.withdrawn.pk}/reinstate"
        ),
        one_reinstatement,
    ),
    f"POST {T}/start": Recipe(
        lambda w: Shot(f"/api/manage/tournaments/{w.tournament.slug}/start"), one_round
    ),
    f"POST {T}/rounds/next": Recipe(
        lambda w: Shot(f"/api/manage/tournaments/{w.closed.slug}/rounds/next"),
        two_rounds,
    ),
    f"POST {T}/rounds/{{number}}/close": Recipe(
        lambda w: Shot(f"/api/manage/tournaments/{w.played.slug}/rounds/{w.round.number}/close"),
        two_rounds,
    ),
    f"POST {T}/tables/{{table_id}}/forfeit": Recipe(
        lambda w: Shot(
            f"/api/manage/tournaments/{w.tournament.slug}/tables/{w.table.pk}/forfeit",
            {"absent": w.table_entrants()[0].pk},
        ),
        one_forfeit,
    ),
    f"POST {T}/tables/{{table_id}}/forfeit/undo": Recipe(
        lambda w: Shot(
            f"/api/manage/tournaments/{w.tournament.slug}/tables/{w.forfeited_table.pk}/forfeit/undo"
        ),
        one_forfeit_undone,
    ),
    f"POST {T}/finish": Recipe(
        lambda w: Shot(f"/api/manage/tournaments/{w.closed.slug}/finish"), one_finish
    ),
    "POST /api/manage/clubs/{slug}/archive": Recipe(
        lambda w: Shot(f"/api/manage/clubs/{w.club.slug}/archive", json.loads(_archive(w)))
    ),
    f"POST {T}/final": Recipe(
        lambda w: Shot(f"/api/manage/tournaments/{w.tournament.slug}/final", {"qualifiers": 2}),
        one_final,
    ),
    f"POST {T}/final/start": Recipe(
        lambda w: Shot(f"/api/manage/tournaments/{w.knockout.slug}/final/start"), one_final_start
    ),
    f"POST {T}/matches/{{match_id}}/forfeit": Recipe(
        lambda w: Shot(
            f"/api/manage/tournaments/{w.knockout_playing.slug}/matches/{w.match.pk}/forfeit",
            {"absent": w.match.first_id},
        ),
        one_match_forfeit,
    ),
    f"POST {T}/matches/{{match_id}}/forfeit/undo": Recipe(
        lambda w: Shot(
            f"/api/manage/tournaments/{w.knockout_playing.slug}/matches/"
            f"{w.forfeited_match.pk}/forfeit/undo"
        ),
        _knockout_records(TournamentRecord.Action.MATCH_UNFORFEIT),
    ),
    f"POST {T}/final/remove": Recipe(
        lambda w: Shot(f"/api/manage/tournaments/{w.with_final.slug}/final/remove")
    ),
    f"POST {T}/final/start/undo": Recipe(
        lambda w: Shot(f"/api/manage/tournaments/{w.knockout_playing.slug}/final/start/undo"),
        _knockout_records(TournamentRecord.Action.FINAL_UNDONE),
    ),
}


# The public forms and webhooks the organizer's pages do not reach, sent by nobody
# logged in (a form with its CSRF secret, a webhook as its provider sends it).

#: The webhook's basic-auth secret (``ANYMAIL["WEBHOOK_SECRET"]``) while they are fired.
WEBHOOK_SECRET = "provider:race-hook"


def _links_mailed_within_the_limit(w: World) -> None:
    """The reader's link mailed, and no more often than one address may be mailed."""
    sent = [m for m in mail.outbox if m.to == [w.reader.player.email]]
    assert 1 <= len(sent) <= settings.ACCOUNT_MAIL_LIMIT, f"{len(sent)} mails"


def _one_complaint(w: World) -> None:
    """The notice bounced, and one choice per kind, each with e-mail off."""
    w.mailed.refresh_from_db()
    assert w.mailed.status == Notice.Status.BOUNCED
    choices = Choice.objects.filter(player=w.reader.player)
    assert sorted(choices.values_list("kind", flat=True)) == sorted(Kind.values)
    assert not choices.filter(email=True).exists()


def _complaint(w: World) -> dict:
    """Postmark's spam complaint of the reader's mail, as its webhook posts it."""
    return {
        "RecordType": "SpamComplaint",
        "Type": "SpamComplaint",
        "TypeCode": 512,
        "ID": 4323372036854775807,
        "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483",
        "Email": w.reader.player.email,
        "Description": "The subscriber explicitly marked this message as spam.",
        "BouncedAt": "2026-11-28T23:00:00Z",
        "Metadata": {"notice": str(w.mailed.pk)},
    }


def _provider(w: World) -> dict:
    secret = base64.b64encode(WEBHOOK_SECRET.encode()).decode()
    return {"Authorization": f"Basic {secret}"}


PUBLIC = {
    # "Send my link again": the same answer every time, the mails within the limit.
    "player-link-again": Recipe(
        lambda w: Shot(reverse("public:player-link-again"), {"email": w.reader.player.email}),
        _links_mailed_within_the_limit,
        done=(200,),
    ),
    "notices-provider-tracking": Recipe(
        lambda w: Shot(
            reverse("public:notices-provider-tracking", args=["postmark"]),
            json=_complaint(w),
            headers=_provider(w),
        ),
        _one_complaint,
        done=(200,),
    ),
}
