"""The championship's data, for the load test (benchmarks/load.py): building the
tournament, and checking the database once the phones have played.

Run inside Knock's settings (``DATABASE_URL`` and ``REDIS_URL`` of the load test):

    python -m benchmarks.championship build TABLES MANIFEST
    python -m benchmarks.championship check MANIFEST LEDGER SITE
    python -m benchmarks.championship start SLUG ENTRANTS OUT | paired-once ROUND
    python -m benchmarks.championship profile KIND MANIFEST

``build`` registers ``2 × TABLES`` guests, checks them in and starts round 1 through
the services, as an organizer would; the round is paired by the Celery worker (the
production path), and ``build`` waits for it, then writes the manifest: the seat
tokens of every table, the organizer's login, the public pages. ``check`` compares
what the phones were told (the ledger) with what the database holds."""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request
from collections import Counter

import django

PASSWORD = "load test director"


def build(tables: int, path: str, slug: str = "championship") -> None:
    from clubs import services as clubs
    from clubs.models import Membership
    from tournaments import registration, rounds
    from tournaments.models import Round, Tournament

    club = clubs.club_upsert(name="Load Test Club", slug="load-test-club")
    director = clubs.member_add(club=club, name="Load Director", role=Membership.Role.OWNER)
    clubs.organizer_login_set(membership=director, username="director", password=PASSWORD)
    tournament = registration.tournament_create(
        club=club, name="Championship", slug=slug, rounds=3, target=50, round_minutes=90
    )
    names = "\n".join(f"Player {n:05d}" for n in range(2 * tables))
    registration.entrant_register_guests(tournament=tournament, names=names)
    # Checking in 2,000 entrants one by one is the registration desk's morning,
    # not what this test measures: one update.
    tournament.entrants.update(checked_in=True)
    started = time.perf_counter()
    round = rounds.round_start(tournament=tournament)
    round = _wait_paired(round.pk)
    print(f"  round 1 of {2 * tables} entrants paired in {time.perf_counter() - started:.1f} s")
    tournament = Tournament.objects.get(pk=tournament.pk)
    assert round.status == Round.Status.PLAYING, round.status
    manifest = {
        "slug": tournament.slug,
        "round": f"/manage/tournaments/{tournament.slug}/rounds/1/",
        "username": "director",
        "password": PASSWORD,
        "tables": _tables(round),
    }
    with open(path, "w") as file:
        json.dump(manifest, file)


def start(slug: str, entrants: int, path: str) -> None:
    """A tournament of its own whose round 1 is left to the worker: the load test
    kills the worker while it pairs (`paired_once` then checks the round)."""
    from clubs.models import Club
    from tournaments import registration, rounds

    club = Club.objects.get(slug="load-test-club")
    tournament = registration.tournament_create(club=club, name=slug, slug=slug)
    names = "\n".join(f"{slug} {n:05d}" for n in range(entrants))
    registration.entrant_register_guests(tournament=tournament, names=names)
    tournament.entrants.update(checked_in=True)
    round = rounds.round_start(tournament=tournament)
    with open(path, "w") as file:
        json.dump({"round": round.pk}, file)


def paired_once(round_id: int) -> bool:
    """The round is paired, and only once: every checked-in entrant at exactly one
    table, one party per table, each party started once in the audit log."""
    from scoring.models import AuditRecord
    from tournaments.models import Round, Seating, Table

    round = _wait_paired(round_id)
    entrants = round.tournament.entrants.filter(checked_in=True).count()
    seated = Counter(Seating.objects.filter(round=round).values_list("entrant_id", flat=True))
    tables = Table.objects.filter(round=round)
    parties = list(tables.filter(party__isnull=False).values_list("party_id", flat=True))
    starts = Counter(
        AuditRecord.objects.filter(
            party_id__in=parties, action=AuditRecord.Action.START
        ).values_list("party_id", flat=True)
    )
    once = (
        round.status == Round.Status.PLAYING
        and len(seated) == entrants
        and set(seated.values()) == {1}
        and len(parties) == tables.count() == entrants // 2
        and all(starts[p] == 1 for p in parties)
    )
    print(
        f"  round paired {'exactly once' if once else 'WRONGLY'}: {len(seated)} of {entrants} "
        f"entrants seated, {tables.count()} tables, {len(parties)} parties started "
        f"{sum(starts.values())} times; lost: {'nothing' if once else 'see above'}"
    )
    return once


def profile(kind: str, manifest_path: str) -> None:
    """One request of this kind, under cProfile, in this process (on the load
    test's database): the functions that took the most time, cumulatively."""
    import cProfile
    import pstats

    from django.contrib.auth.models import User
    from django.test import Client

    with open(manifest_path) as file:
        manifest = json.load(file)
    spare = manifest["tables"][-1]  # no phone plays the last table
    token = spare["seats"][0]["token"]
    client = Client(HTTP_X_FORWARDED_PROTO="https", HTTP_HOST="127.0.0.1")
    page = f"/table/{token}/"
    director = Client(HTTP_X_FORWARDED_PROTO="https", HTTP_HOST="127.0.0.1")
    director.force_login(User.objects.get(username=manifest["username"]))
    requests = {
        "round tables": lambda: director.get(f"{manifest['round']}tables/"),
        "seat page": lambda: client.get(page),
        "seat poll": lambda: client.get(f"{page}state/"),
        "public page": lambda: client.get(f"/t/{manifest['slug']}/"),
        "public live part": lambda: client.get(f"/t/{manifest['slug']}/live/standings/"),
    }
    if kind in ("entry", "confirm", "entry (double tap)", "entry (stale page)"):
        html = client.get(page).text
        number = _form_value(html, "number")
        data = {"number": number, "key": "profile", "ending": "knock"}
        data |= {"knocker": spare["seats"][0]["position"]}
        data |= {"knocker_deadwood": 4, "defender_deadwood": 30}
        request = lambda: client.post(f"{page}enter/", data)  # noqa: E731
    else:
        request = requests.get(kind, requests["seat page"])
        request()  # warm: the cache and the templates, as under load
    profiler = cProfile.Profile()
    profiler.enable()
    request()
    profiler.disable()
    stats = pstats.Stats(profiler)
    sql = sum(
        row[3]
        for (file, _, name), row in stats.stats.items()
        if name == "execute" and "psycopg" in file
    )
    print(
        f"  {stats.total_tt * 1000:.1f} ms in all, {sql * 1000:.1f} ms of it waiting for "
        "PostgreSQL. Knock's own functions (cumulative time), then any code (own time):"
    )
    stats.sort_stats("cumulative").print_stats(r"/(clubs|scoring|tournaments|config)/", 10)
    stats.sort_stats("tottime").print_stats(10)


def _form_value(html: str, name: str) -> str:
    import re

    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def _wait_paired(round_id: int, seconds: float = 300):
    from tournaments.models import Round

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        round = Round.objects.get(pk=round_id)
        if round.status != Round.Status.PAIRING:
            return round
        time.sleep(0.5)
    raise SystemExit(f"round {round_id} was not paired within {seconds:.0f} s")


def _tables(round) -> list[dict]:
    from scoring.models import Seat

    seats = Seat.objects.filter(party__tournament_table__round=round).order_by(
        "party_id", "position"
    )
    by_party: dict[int, list] = {}
    for seat in seats.values("party_id", "token", "position"):
        by_party.setdefault(seat["party_id"], []).append(
            {"token": seat["token"], "position": seat["position"]}
        )
    return [{"party": party, "seats": seats} for party, seats in sorted(by_party.items())]


def check(manifest_path: str, ledger_path: str, site: str) -> bool:
    """Every hand a phone was told was entered is stored exactly once, with what
    the phone sent; every hand it was told was confirmed is confirmed; the audit
    log has an entry for each, and one for each confirmation; the public standings
    (as the ``site`` answers them, from its cache) and the kept standings equal a
    recomputation from every table and party."""
    from django.conf import settings

    from scoring.models import AuditRecord, Hand
    from tournaments import history, registration, standings

    with open(manifest_path) as file:
        manifest = json.load(file)
    with open(ledger_path) as file:
        ledger = json.load(file)
    parties = [table["party"] for table in manifest["tables"]]
    stored = Counter(
        (h["party_id"], h["number"])
        for h in Hand.objects.filter(party_id__in=parties).values("party_id", "number")
    )
    hands = {
        (h.party_id, h.number): h
        for h in Hand.objects.filter(party_id__in=parties).select_related("knocker")
    }
    audited = Counter(
        (r["hand__party_id"], r["hand__number"], r["action"])
        for r in AuditRecord.objects.filter(party_id__in=parties, hand__isnull=False).values(
            "hand__party_id", "hand__number", "action"
        )
    )
    problems = []
    for party, number, sent in ledger["entered"]:
        key = (party, number)
        if stored[key] != 1:
            problems.append(f"party {party} hand {number}: stored {stored[key]} times")
            continue
        hand = hands[key]
        got = [hand.ending, hand.knocker.position, hand.knocker_deadwood, hand.defender_deadwood]
        if got != sent:
            problems.append(f"party {party} hand {number}: stored {got}, the phone sent {sent}")
        if audited[(party, number, AuditRecord.Action.ENTER)] != 1:
            problems.append(f"party {party} hand {number}: no single audited entry")
    for party, number in ledger["confirmed"]:
        hand = hands.get((party, number))
        if hand is None or hand.status != Hand.Status.CONFIRMED:
            problems.append(f"party {party} hand {number}: told confirmed, is not")
        elif audited[(party, number, AuditRecord.Action.CONFIRM)] != 1:
            problems.append(f"party {party} hand {number}: no single audited confirmation")
    extra = set(stored) - {(p, n) for p, n, _ in ledger["entered"]}
    # A hand the server stored but whose answer the phone never got (a worker killed
    # mid-request) is not lost: the phone shows it on its next poll.
    # The worker builds the public board at most every PUBLIC_REFRESH_SECONDS. A
    # build lost with a killed worker comes back with its task (the visibility
    # timeout), or is caught up by the first reader once it is overdue by a refresh
    # and a minute: the public standings are asked until they show the hands, for
    # as long as that may take.
    from tournaments.stored_board import DUE_SECONDS

    tournament = registration.tournament_by_slug(manifest["slug"])
    # The recomputation from every table and party, not the kept results the
    # board adds up (`tournaments.kept`): the two are compared here too.
    entrants = list(tournament.entrants.select_related("player").order_by("player__name", "pk"))
    rounds = list(tournament.round_set.order_by("number"))
    rows = history.tournament_history(tournament)
    fresh = [
        (line.place, line.entrant.pk, line.points)
        for line in standings.standings_from(tournament, entrants, rounds, rows, live=True).lines
    ]
    kept = [
        (line.place, line.entrant.pk, line.points)
        for line in standings.kept_standings(tournament, entrants, rounds, live=True).lines
    ]
    if kept != fresh:
        problems.append("the kept standings differ from a recomputation")
    url = f"{site}/api/tournaments/{manifest['slug']}/standings"
    request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
    started = time.monotonic()
    deadline = started + settings.PUBLIC_REFRESH_SECONDS + DUE_SECONDS + 15
    while True:
        with urllib.request.urlopen(request) as answer:
            lines = json.load(answer)["lines"]
        shown = [(line["place"], line["entrant"], line["points"]) for line in lines]
        if shown == fresh or time.monotonic() > deadline:
            break
        time.sleep(1)
    waited = time.monotonic() - started
    print(f"  the public standings showed every hand {waited:.0f} s after the run")
    if shown != fresh:
        problems.append("the public standings differ from a fresh computation")
    print(
        f"  data check: {len(ledger['entered'])} hands answered as entered, "
        f"{len(ledger['confirmed'])} as confirmed, {sum(stored.values())} stored "
        f"({len(extra)} stored without the phone hearing so), "
        f"{sum(audited.values())} audit records; standings of {len(fresh)} entrants "
        f"{'equal' if shown == fresh else 'DIFFER from'} a recomputation, as shown, and "
        f"{'equal' if kept == fresh else 'DIFFER from'} it, as kept"
    )
    for problem in problems[:20]:
        print(f"  !! {problem}")
    print(f"  lost or duplicated hands: {len(problems)}")
    return not problems


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    command, *args = sys.argv[1:]
    if command == "build":
        build(int(args[0]), args[1])
    elif command == "check":
        sys.exit(0 if check(*args) else 1)
    elif command == "start":
        start(args[0], int(args[1]), args[2])
    elif command == "paired-once":
        sys.exit(0 if paired_once(int(args[0])) else 1)
    elif command == "profile":
        profile(*args)
    else:
        raise SystemExit(f"unknown command {command!r}")
