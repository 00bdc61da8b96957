"""Archives written by an older Knock still import: the files in ``archives/`` are
archives of version 1 (Gin Rummy: a tournament with a dispute decided, a bye, a
forfeit and a final card draw; a night of two, a rotation, partnerships at two
tables and a cancelled party) and of version 2 (a night of Chinchón with every kind
of hand, Canasta in partnerships, Cruzo of seven and a Gin Rummy party; a Chinchón
tournament at tables of four and three), each as that version's export wrote it,
beside what its import made then (``imported``). Read into the one shape of
version 3, each comes back exactly so, and goes out again as version 3."""

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder

from clubs.models import Membership, Player
from scoring.models import Party
from tests.factories import ClubFactory
from tests.tournaments.test_archive import party_rows
from tournaments.archive.export import night_export, tournament_export
from tournaments.archive.restore import archive_import
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

ARCHIVES = Path(__file__).parent / "archives"


def as_file(data) -> dict:
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def imported(made) -> dict:
    """What an import made, without the database's ids and the new seat links: as
    JSON holds it, so that it compares with what an older Knock's import made."""
    parties = made.parties if not isinstance(made, Tournament) else None
    if parties is not None:
        return as_file(
            {
                "night": [made.name, made.date, made.ruleset, made.confirmation_required],
                "parties": [party_rows(p) for p in parties.order_by("pk")],
            }
        )
    entrants = {e.pk: e.player.name for e in made.entrants.select_related("player")}
    party_ids = Party.objects.filter(club=made.club).order_by("pk").values_list("pk", flat=True)
    index = {pk: i for i, pk in enumerate(party_ids)}
    rounds = []
    for round in made.round_set.order_by("number"):
        rounds.append(
            [
                round.number,
                round.status,
                round.how,
                round.seed,
                round.problem,
                round.started_at,
                [entrants[pk] for pk in round.standings],
                {entrants[int(pk)]: v for pk, v in round.points.items()},
                [
                    [
                        t.number,
                        t.bye,
                        t.absent,
                        t.party_id and index[t.party_id],
                        [entrants[s.entrant_id] for s in t.seatings.order_by("side")],
                    ]
                    for t in round.tables.order_by("number")
                ],
            ]
        )
    return as_file(
        {
            "tournament": [
                made.name,
                made.format,
                made.status,
                made.game,
                made.game_options,
                made.table_size,
                made.rounds,
                made.target,
                made.final_seed,
                made.date,
                made.created_at,
            ],
            "entrants": sorted(
                [entrants[e.pk], e.checked_in, e.joined_round, e.withdrawn_after]
                for e in made.entrants.all()
            ),
            "rounds": rounds,
            "parties": [party_rows(Party.objects.get(pk=pk)) for pk in party_ids],
            "records": [
                [r.action, r.user and r.user.player.name, r.address, r.details, r.at]
                for r in made.records.order_by("at", "pk")
            ],
        }
    )


def organizers(club, archive: dict) -> None:
    """The organizers the archive names (by their names) run ``club`` too, with a
    login, so that the import credits them as it did."""
    names = {h["decided_by"] for p in archive["parties"] for h in p["hands"]}
    names |= {r["user"] for p in archive["parties"] for r in p["audit"]}
    names |= {r["user"] for r in archive.get("records", [])}
    names.discard(None)
    for n, name in enumerate(sorted(names)):
        user = get_user_model().objects.create(username=f"{club.slug}-organizer-{n}")
        player = Player.objects.create(name=name, user=user)
        Membership.objects.create(club=club, player=player, role=Membership.Role.ORGANIZER)


def import_into_new_club(archive: dict):
    club = ClubFactory()
    organizers(club, archive)
    return archive_import(data=archive, club=club)


def stored(name: str) -> dict:
    return json.loads((ARCHIVES / name).read_text())


@pytest.mark.parametrize(
    "name",
    [
        "version-1-tournament.json",
        "version-1-night.json",
        "version-2-night.json",
        "version-2-tournament.json",
    ],
)
def test_an_archive_of_an_older_version_imports_as_it_did(name):
    kept = stored(name)

    made = import_into_new_club(kept["archive"])

    assert imported(made) == kept["imported"]
    # It goes out again as version 3, and that comes back the same.
    again = as_file(tournament_export(made) if isinstance(made, Tournament) else night_export(made))
    assert again["version"] == 3
    assert imported(import_into_new_club(again)) == kept["imported"]
