"""A finished tournament goes out as one JSON archive and comes back on another
club with every hand, seat, round and audit record as it was."""

import json

import pytest
from django.core.management import call_command
from django.core.serializers.json import DjangoJSONEncoder

from clubs.models import ClubRecord, Membership, Player
from scoring.models import Party, Seat, is_seat_token
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_cancel
from tests.factories import (
    ClubFactory,
    ClubNightFactory,
    MembershipFactory,
    PlayerFactory,
    UserFactory,
    start_night_party,
)
from tests.tournaments.conftest import play_out
from tournaments import registration
from tournaments.archive.export import night_export, tournament_export
from tournaments.archive.restore import ArchiveError, archive_import
from tournaments.explanations import round_explanation
from tournaments.models import Tournament
from tournaments.rounds import round_close, round_pair_next, tournament_finish
from tournaments.standings import standings_for
from tournaments.tables import round_tables, table_forfeit

pytestmark = pytest.mark.django_db


def finished_tournament(started, committed, confirmed):
    """Five entrants, two rounds: gins, a knock, an undercut, a dispute the
    organizer decided, a bye, a forfeit, and a final card draw."""
    tournament, round = started(["Anna", "Ben", "Carl", "Dora", "Emil"], rounds=2)
    # The club's director, who decides a disputed hand.
    director = runs_too(tournament.club, "director")
    games = [v for v in round_tables(round) if not v.table.bye]
    confirmed(games[0].table, number=1, knock=(8, 5))  # an undercut
    confirmed(games[0].table, number=2, knock=(3, 30))
    mine, theirs = confirmed(games[0].table, number=3, deadwood=10)
    # Hand 4 disputed: two versions, then the organizer's decision.
    hand_enter(seat=mine, number=4, entry=Result("gin", mine.position, 0, 40))
    outcome = hand_enter(seat=theirs, number=4, entry=Result("gin", mine.position, 0, 50))
    hand_decide(
        hand=outcome.hand,
        user=director,
        entry=Result("gin", mine.position, 0, 45),
        reason="Counted again",
    )
    play_out(games[1].table, games[1].entrants[1])
    committed(round_close, round=round)
    committed(round_pair_next, tournament=tournament)
    second = tournament.round_set.get(number=2)
    views = [v for v in round_tables(second) if not v.table.bye]
    table_forfeit(table=views[0].table, absent=views[0].entrants[1])
    play_out(views[1].table, views[1].entrants[0], deadwood=60)
    committed(round_close, round=second)
    tournament_finish(tournament=tournament, final_draw=True)
    tournament.refresh_from_db()
    return tournament


def runs_too(club, username: str):
    """The user of this name (made if need be) organizes ``club`` too."""
    user = UserFactory(username=username)
    player = Player.objects.filter(user=user).first() or PlayerFactory(user=user)
    Membership.objects.get_or_create(
        club=club, player=player, defaults={"role": Membership.Role.ORGANIZER}
    )
    return user


def picture(tournament: Tournament) -> dict:
    """Everything the archive must keep, without the database's own ids."""
    rounds = {}
    for round in tournament.round_set.order_by("number"):
        names = {e.pk: e.player.name for e in tournament.entrants.select_related("player")}
        tables = []
        for table in round.tables.select_related("party").order_by("number"):
            seated = [names[s.entrant_id] for s in table.seatings.order_by("side")]
            party = table.party
            tables.append((table.number, table.bye, table.absent, seated, party and _party(party)))
        rounds[round.number] = {
            "fields": (round.status, round.how, round.seed, round.problem, round.started_at),
            "standings": [names[pk] for pk in round.standings],
            "points": {names[int(pk)]: v for pk, v in round.points.items()},
            "draws": [(names[d["entrant"]], d["cards"], d["by"]) for d in round.draws],
            "explanation": round_explanation(
                round, {e.pk: e for e in tournament.entrants.select_related("player")}
            ),
            "tables": tables,
        }
    standings = standings_for(tournament)
    return {
        "rounds": rounds,
        "standings": [
            (line.place, str(line.entrant), line.points, line.draw) for line in standings.lines
        ],
        "entrants": sorted(
            (e.player.name, e.checked_in, e.joined_round, e.withdrawn_after)
            for e in tournament.entrants.select_related("player")
        ),
        "fields": (tournament.name, tournament.status, tournament.rounds, tournament.final_seed),
    }


def party_rows(party) -> dict:
    """A party as its rows hold it, whatever its game: seats by position, users by
    their player's name, no ids and no seat links."""
    seats = {s.pk: s.position for s in party.seats.all()}

    def who(user):
        return user and user.player.name

    return {
        "fields": (
            party.game,
            party.label,
            party.format,
            party.rules,
            party.target,
            party.status,
            party.first_dealer,
            party.confirmation_required,
            party.started_at,
            party.finished_at,
        ),
        "seats": [(s.position, s.side, s.player.name) for s in party.seats.order_by("position")],
        "hands": [
            (
                h.number,
                h.table,
                h.status,
                h.ending,
                seats.get(h.dealer_id),
                seats.get(h.knocker_id),
                seats.get(h.defender_id),
                h.knocker_deadwood,
                h.defender_deadwood,
                h.details,
                h.kind,
                h.points,
                seats.get(h.winner_id),
                h.scores,
                h.facts,
                h.confirmations,
                h.counter,
                seats.get(h.entered_by_id),
                seats.get(h.confirmed_by_id),
                who(h.decided_by),
                h.version,
                h.created_at,
                h.updated_at,
            )
            for h in party.hands.order_by("number", "table")
        ],
        "audit": [
            (
                r.action,
                r.hand and (r.hand.number, r.hand.table),
                seats.get(r.seat_id),
                who(r.user),
                r.address,
                r.before,
                r.after,
                r.reason,
                r.key,
                r.at,
            )
            for r in party.audit.order_by("at", "pk")
        ],
    }


def _party(party) -> dict:
    """`party_rows`, each seat with its link."""
    seats = sorted((s.position, s.side, s.player.name, s.token) for s in party.seats.all())
    return party_rows(party) | {"seats": seats}


def test_a_finished_tournament_comes_back_with_every_hand(started, committed, confirmed, tmp_path):
    tournament = finished_tournament(started, committed, confirmed)
    before = picture(tournament)
    path = tmp_path / "cup.json"
    call_command("export_archive", tournament=tournament.slug, output=str(path))

    # Another club here stands in for another Knock: the seat links are taken,
    # so they are made new; everything else must be as it was.
    elsewhere = ClubFactory(slug="elsewhere")
    # The director runs both clubs: his decisions are credited to him there too.
    runs_too(elsewhere, "director")
    call_command("import_archive", str(path), club="elsewhere")
    copy = Tournament.objects.get(club=elsewhere)
    after = picture(copy)

    assert copy.slug == f"{tournament.slug}-2"
    assert before["standings"] == after["standings"]
    assert before["entrants"] == after["entrants"]
    assert before["fields"] == after["fields"]
    for number, round in before["rounds"].items():
        theirs = after["rounds"][number]
        for key in ("fields", "standings", "points", "draws", "explanation"):
            assert round[key] == theirs[key], key
        for mine, copied in zip(round["tables"], theirs["tables"], strict=True):
            assert mine[:4] == copied[:4]
            if mine[4] is None:
                assert copied[4] is None
                continue
            assert mine[4]["fields"] == copied[4]["fields"]
            assert mine[4]["hands"] == copied[4]["hands"]
            assert mine[4]["audit"] == copied[4]["audit"]
            assert [s[:3] for s in mine[4]["seats"]] == [s[:3] for s in copied[4]["seats"]]
    hands = sum(len(t[4]["hands"]) for r in before["rounds"].values() for t in r["tables"] if t[4])
    assert hands >= 7


def test_every_seat_link_is_made_new_even_on_a_new_server(started, committed, confirmed):
    tournament = finished_tournament(started, committed, confirmed)
    data = json.loads(json.dumps(tournament_export(tournament), cls=DjangoJSONEncoder))
    before = picture(tournament)
    # A new server has none of these links yet: here, the old seats give theirs up.
    for seat in Seat.objects.all():
        Seat.objects.filter(pk=seat.pk).update(token=f"old-{seat.pk}")

    copy = archive_import(data=data)

    after = picture(copy)
    assert copy.club == tournament.club  # the club of the same short name
    archived = {s["token"] for p in data["parties"] for s in p["seats"]}
    restored = {
        s[3] for r in after["rounds"].values() for t in r["tables"] if t[4] for s in t[4]["seats"]
    }
    # Whoever holds the archive holds its links: they open nothing after the import.
    assert restored and not restored & archived
    assert all(is_seat_token(token) for token in restored)
    assert [t[4] and t[4]["hands"] for r in before["rounds"].values() for t in r["tables"]] == [
        t[4] and t[4]["hands"] for r in after["rounds"].values() for t in r["tables"]
    ]


def test_a_club_night_comes_back_with_its_parties():
    night = ClubNightFactory(name="Friday")
    party = start_night_party(night)
    a, b = party.seats.order_by("position")
    entered = hand_enter(seat=a, number=1, entry=Result("knock", a.position, 4, 20)).hand
    hand_confirm(seat=b, number=1, version=entered.version)
    data = json.loads(json.dumps(night_export(night), cls=DjangoJSONEncoder))

    copy = archive_import(data=data, club=ClubFactory())

    assert copy.name == "Friday"
    (restored,) = copy.parties.all()
    assert _party(restored)["hands"] == _party(party)["hands"]
    assert _party(restored)["audit"] == _party(party)["audit"]


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"format": "other"},
        {"format": "knock-archive", "version": 9},
        {"format": "knock-archive", "version": 1, "kind": "tournament"},
    ],
)
def test_a_damaged_archive_is_refused_and_nothing_is_written(data):
    with pytest.raises(ArchiveError):
        archive_import(data=data, club=ClubFactory())
    assert not Tournament.objects.exists()


def test_a_cancelled_party_comes_back_cancelled_and_counts_nowhere(client):
    night = ClubNightFactory(name="Friday")
    kept, cancelled = start_night_party(night), start_night_party(night)
    a, _ = cancelled.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", a.position, 4, 20), key="tap-1")
    director = runs_too(night.club, "director")
    party_cancel(party=cancelled, user=director, reason="Started by mistake")
    data = json.loads(json.dumps(night_export(night), cls=DjangoJSONEncoder))
    club = ClubFactory()
    runs_too(club, "director")

    copy = archive_import(data=data, club=club)

    restored = copy.parties.get(status=Party.Status.CANCELLED)
    assert _party(restored)["hands"] == _party(cancelled)["hands"]
    assert _party(restored)["audit"] == _party(cancelled)["audit"]
    assert copy.parties.exclude(pk=restored.pk).get().status == kept.status
    # The public sees one party that night, here as on the first server.
    api = client.get(f"/api/clubs/{club.slug}").json()
    assert [n["party_count"] for n in api["nights"]] == [1]


def test_the_import_adds_members_to_the_record_and_keeps_walk_ins_off_the_list():
    source = ClubFactory()
    night = ClubNightFactory(club=source, name="Friday")
    party = start_night_party(night)
    guest = MembershipFactory(club=source, role=Membership.Role.GUEST).player
    walk_in = party.seats.order_by("position").last().player
    walk_in.memberships.all().delete()  # a tournament's walk-in: no membership
    data = night_export(night)
    data["players"].append({"key": 99, "name": guest.name, "role": "guest"})
    director = UserFactory()
    club = ClubFactory()
    MembershipFactory(club=club, player__name=party.seats.first().player.name.upper())

    archive_import(data=data, club=club, user=director, address="198.51.100.7")

    roles = dict(club.memberships.values_list("player__name", "role"))
    assert roles[guest.name] == "guest"
    assert walk_in.name not in roles
    # The member of the same name (in any case) is the same player.
    assert club.memberships.count() == 2
    records = club.records.values_list("action", "user", "address")
    assert sorted(records) == [
        (ClubRecord.Action.MEMBER, director.pk, None),
        (ClubRecord.Action.NIGHT, director.pk, "198.51.100.7"),
    ]
    assert not club.memberships.filter(listed=True).exists()


def test_the_tournaments_record_comes_back_with_it(started, committed, confirmed):
    tournament = finished_tournament(started, committed, confirmed)
    director = runs_too(tournament.club, "td")
    entrant = tournament.entrants.order_by("pk").first()
    registration.keep_apart_add(
        tournament=tournament,
        first=entrant,
        second=tournament.entrants.order_by("pk").last(),
        user=director,
        address="192.0.2.7",
    )

    def record(t):
        return [
            (r.action, r.user and r.user.get_username(), r.address, r.details, r.at)
            for r in t.records.order_by("at", "pk")
        ]

    data = json.loads(json.dumps(tournament_export(tournament), cls=DjangoJSONEncoder))
    elsewhere = ClubFactory(slug="elsewhere")
    runs_too(elsewhere, "td")
    copy = archive_import(data=data, club=elsewhere)

    assert [r[0] for r in record(tournament)] == ["forfeit", "finished", "apart"]
    assert record(copy) == record(tournament)
    # An archive made before the record was kept comes back without one.
    del data["records"]
    assert not archive_import(data=data, club=ClubFactory(slug="older")).records.exists()
