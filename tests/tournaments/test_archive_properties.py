"""Archives as properties (hypothesis): every export imports back equal, and every
mutation of a valid archive — a key dropped or added, a value of another type or
another choice, a reference pointed elsewhere, a huge or non-finite number — is
either refused (a 4xx with ``{detail, code}``, nothing written) or imported into a
club whose pages and ratings work. Never a 500, never half an archive.

Each example runs in a savepoint that is rolled back, so one archive serves them
all. ``ARCHIVE_EXAMPLES`` sets how many mutations are tried (40 in the suite)."""

import copy
import json
import os
from random import Random

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring.models import AuditRecord, Hand, Party, Seat
from scoring.selectors import state_for
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_start
from seasons.services import ratings_rebuild, ratings_update
from tests.conftest import clear_cache
from tests.factories import ClubFactory, ClubNightFactory, MembershipFactory
from tests.tournaments.test_archive import finished_tournament, runs_too
from tests.tournaments.test_archive_games import (
    canasta_of_three_partnerships,
    chinchon_night,
    play_first_hand_only,
)
from tests.tournaments.test_table_tournaments import (
    close_and_pair,
    play_chinchon,
    table_tournament,
    tables_of,
)
from tournaments.archive.export import night_export, tournament_export
from tournaments.archive.restore import archive_import
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("ARCHIVE_EXAMPLES", 40))


def run(examples: int):
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def as_file(data: dict) -> dict:
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


class Rollback(Exception):
    """Leaves the example's savepoint, undoing all it wrote."""


def rolled_back(check):
    def run(*args, **kwargs):
        clear_cache()
        try:
            with transaction.atomic():
                check(*args, **kwargs)
                raise Rollback
        except Rollback:
            pass

    return run


# ------------------------------------------------------------------------ the round trip


def canonical(data: dict) -> dict:
    """An archive without what an import makes anew: ids (parties and entrants are
    numbered by their place in the archive, players named), seat links, the slug."""
    data = copy.deepcopy(data)
    del data["club"]  # the importer's club, named in the export
    player = {p["key"]: (p["name"], p["role"]) for p in data.pop("players")}
    party = {p["key"]: i for i, p in enumerate(data["parties"])}
    for p in data["parties"]:
        p["key"] = party[p["key"]]
        for seat in p["seats"]:
            seat["player"] = player[seat["player"]]
            del seat["token"]
    if data["kind"] == "night":
        return data
    entrant = {e["key"]: i for i, e in enumerate(data["entrants"])}
    for e in data["entrants"]:
        e["key"], e["player"] = entrant[e["key"]], player[e["player"]]
    del data["tournament"]["slug"]
    data["keep_apart"] = sorted(sorted(entrant[k] for k in pair) for pair in data["keep_apart"])
    for d in data["tournament"]["final_draws"]:
        d["entrant"] = entrant[d["entrant"]]
    for r in data["rounds"]:
        r["standings"] = [entrant[k] for k in r["standings"]]
        r["points"] = {entrant[int(k)]: v for k, v in r["points"].items()}
        for d in r["draws"]:
            d["entrant"] = entrant[d["entrant"]]
        for line in r["explanation"]:
            line["first"] = entrant[line["first"]]
            line["second"] = line["second"] and entrant[line["second"]]
            line["skipped"] = [[entrant[k], why] for k, why in line["skipped"]]
    for t in data["tables"]:
        t["party"] = t["party"] and party[t["party"]]
    for s in data["seatings"]:
        s["entrant"] = entrant[s["entrant"]]
    if data["final"]:
        data["final"]["seeds"] = [entrant[k] for k in data["final"]["seeds"]]
        for m in data["final"]["matches"]:
            for side in ("first", "second", "winner"):
                m[side] = m[side] and entrant[m[side]]
            for g in m["games"]:
                g["party"] = party[g["party"]]
    return data


hands = st.lists(
    st.tuples(
        st.sampled_from(["gin", "knock", "knock", "no_game"]),
        st.integers(0, 1),
        st.integers(0, 10),
        st.integers(0, 80),
        st.booleans(),
    ),
    max_size=14,
)


def test_every_export_of_a_night_imports_back_equal():
    @run(max(EXAMPLES // 2, 10))
    @given(played=st.lists(st.tuples(st.sampled_from(["two", "rotation"]), hands), max_size=3))
    @rolled_back
    def check(played):
        night = ClubNightFactory(name="Friday")
        for seed, (format, entries) in enumerate(played):
            players = {"two": 2, "rotation": 3}[format]
            party = _start(night, format, players, seed)
            _play(party, entries)
        data = as_file(night_export(night))
        copy_ = archive_import(data=data, club=ClubFactory())
        assert canonical(as_file(night_export(copy_))) == canonical(data)

    check()


def test_an_export_of_a_night_of_other_games_imports_back_equal():
    data = game_archive("game night", None, None)
    club = ClubFactory()
    runs_too(club, "director")  # who decided the disputed hand

    copy_ = archive_import(data=data, club=club)

    assert canonical(as_file(night_export(copy_))) == canonical(data)


def _start(night, format, players, seed):
    members = [MembershipFactory(club=night.club).player for _ in range(players)]
    return party_start(
        club=night.club, night=night, format=format, players=members, rng=Random(seed)
    )


def _play(party, entries) -> None:
    """Hands entered, and confirmed or disputed, until the party is over."""
    for number, (ending, knocker, mine, theirs, agree) in enumerate(entries, start=1):
        state, _ = state_for(Party.objects.get(pk=party.pk))
        if state.finished:
            return
        at_table = state.tables[0].players
        seats = {s.position: s for s in state.seats}
        knocks, defends = at_table[knocker], at_table[1 - knocker]
        result = (
            Result("no_game")
            if ending == "no_game"
            else Result(ending, knocks, 0 if ending == "gin" else mine, theirs)
        )
        try:
            hand = hand_enter(seat=seats[knocks], number=number, entry=result).hand
            if agree:
                hand_confirm(seat=seats[defends], number=number, version=hand.version)
            else:
                hand_enter(seat=seats[defends], number=number, entry=Result("no_game"))
        except ValueError:
            return


def test_a_played_tournament_imports_back_equal(started, committed, confirmed):
    data = as_file(tournament_export(finished_tournament(started, committed, confirmed)))
    club = ClubFactory()
    runs_too(club, "director")  # who decided the disputed hand

    copy_ = archive_import(data=data, club=club)

    assert canonical(as_file(tournament_export(copy_))) == canonical(data)


# -------------------------------------------------------------------------- the mutations


def places(value, at=()):
    """Every place in an archive: the path of keys and indexes to it."""
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*at, index))


CHOICES = sorted(
    {
        *Party.Format.values,
        *Party.Status.values,
        *Hand.Status.values,
        *Hand.Ending.values,
        *AuditRecord.Action.values,
        *Tournament.Format.values,
        *Tournament.Status.values,
        "pending",
        "playing",
        "closed",
        "planned",
        "standings",
        "lot",
        "classic",
        "cardgames",
    }
)

values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.sampled_from([32767, 32768, 2**31, 2**63, -(2**63) - 1, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([float("inf"), float("-inf"), float("nan")]),
    st.sampled_from(CHOICES),
    st.text(max_size=8),
    st.lists(st.integers(0, 5), max_size=3),
    st.just({"club_id": 1}),
)


def mutations(archive: dict):
    where = st.sampled_from([p for p in places(archive) if p])
    return st.lists(
        st.one_of(
            st.tuples(st.just("drop"), where),
            st.tuples(st.just("set"), where, values),
            st.tuples(st.just("add"), where, st.sampled_from(["club_id", "door_token", "x"])),
        ),
        min_size=1,
        max_size=3,
    )


def mutated(archive: dict, changes) -> dict:
    data = copy.deepcopy(archive)
    for kind, path, *rest in changes:
        parent = data
        try:
            for step in path[:-1]:
                parent = parent[step]
            last = path[-1]
            if kind == "drop":
                del parent[last]
            elif kind == "set":
                parent[last] = rest[0]
            elif isinstance(parent[last], dict):
                parent[last][rest[0]] = 1
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed the place
    return data


def stored() -> dict:
    models = (Tournament, Party, Seat, Hand, AuditRecord)
    return {model.__name__: model.objects.count() for model in models}


def pages_and_ratings_work(client, club, made: dict) -> None:
    """The public pages, the organizer's desk and the club's ratings of an import."""
    if made["kind"] == "tournament":
        tournament = Tournament.objects.get(slug=made["slug"])
        slug = tournament.slug
        urls = [
            reverse("public:tournament-detail", args=[slug]),
            reverse("public:crosstable", args=[slug]),
            reverse("public:standings-csv", args=[slug]),
            reverse("public:results-csv", args=[slug]),
            reverse("public:final", args=[slug]),
            reverse("manage:tournament-detail", args=[slug]),
            reverse("manage:standings", args=[slug]),
            f"/api/tournaments/{slug}/standings",
        ]
        urls += [
            reverse("public:round-detail", args=[slug, n])
            for n in tournament.round_set.values_list("number", flat=True)
        ]
        urls += [
            reverse("public:player-detail", args=[slug, pk])
            for pk in tournament.entrants.values_list("pk", flat=True)[:2]
        ]
    else:
        urls = [
            reverse("manage:night-detail", args=[made["id"]]),
            reverse("manage:night-results", args=[made["id"]]),
        ]
    urls += [f"/api/clubs/{club.slug}", reverse("manage:party-detail", args=[_any_party(club)])]
    for url in urls:
        answer = client.get(url)
        assert answer.status_code < 500, url
    ratings_rebuild(club_id=club.pk)
    ratings_update(club_id=club.pk)


def _any_party(club) -> int:
    return Party.objects.filter(club=club).values_list("pk", flat=True).first() or 0


def game_archive(kind: str, club, committed) -> dict:
    """An archive of the other games: a night of Chinchón (every kind of hand) and
    Canasta in partnerships, or a Chinchón tournament at tables of four and three."""
    if kind == "game night":
        night, _ = chinchon_night(runs_too(ClubFactory(), "director"))
        canasta_of_three_partnerships(night)
        return as_file(night_export(night))
    tournament, round = table_tournament(club, 7, committed, size=4, rounds=2)
    for view in tables_of(round):
        play_chinchon(view.table.party, [0, *range(10, 10 * len(view.entrants) - 10, 10), 100])
    round = close_and_pair(tournament, round, committed)
    play_first_hand_only(tables_of(round)[0].table.party, "chinchon")
    return as_file(tournament_export(tournament))


@pytest.mark.parametrize("kind", ["tournament", "night", "game night", "game tournament"])
def test_a_mutated_archive_is_refused_or_works(
    client, organizer, started, committed, confirmed, kind
):
    if kind.startswith("game"):
        archive = game_archive(kind, ClubFactory(), committed)
    elif kind == "tournament":
        archive = as_file(tournament_export(finished_tournament(started, committed, confirmed)))
    else:
        night = ClubNightFactory(name="Friday")
        _play(_start(night, "two", 2, 1), [("gin", 0, 0, 30, True), ("knock", 1, 4, 20, False)])
        _play(_start(night, "rotation", 3, 2), [("knock", 0, 3, 25, True)])
        archive = as_file(night_export(night))
    club = organizer.club
    url = f"/api/manage/clubs/{club.slug}/archive"

    @run(EXAMPLES)
    @given(changes=mutations(archive))
    @rolled_back
    def check(changes):
        data = mutated(archive, changes)
        before = stored()
        answer = client.post(url, json.dumps(data), content_type="application/json")
        assert answer.status_code in (201, 422), answer.content
        body = answer.json()
        event("refused" if answer.status_code == 422 else "imported")
        if answer.status_code == 422:
            assert body["code"] == "invalid_archive" and body["detail"]
            assert stored() == before
        else:
            pages_and_ratings_work(client, club, body)

    check()
