"""A club's season, measured: rebuilding all ratings from 100,000 parties; the
season table of a club with 500 players and 200 events; one player's page with
2,000 parties. The parties are written straight into the tables (one gin hand
each, as `demo.big` does), on the embedded default (a fresh SQLite file).

Run with ``python -m benchmarks`` (all benchmarks) or ``python -m benchmarks.seasons``.
``BENCH_PARTIES`` makes the rebuild smaller. Also prints the rating libraries'
ranking of simulated players (`benchmarks.ratings`)."""

from __future__ import annotations

import datetime
import os
import statistics
import sys
import time
from random import Random

from benchmarks import in_own_process, migrated

PLAYERS, EVENTS = 500, 200
PARTIES = int(os.environ.get("BENCH_PARTIES", 100_000))
PLAYER_PARTIES = 2000
RUNS = int(os.environ.get("BENCH_RUNS", 3))


def main() -> None:
    from benchmarks import ratings

    ratings.main()
    in_own_process("benchmarks.seasons")


def club_with_parties(
    *, slug: str, players: int, nights: int, parties: int, rng: Random, only=None
):
    """A club of ``players`` with ``parties`` finished two-player parties spread
    over ``nights`` club nights (a night a week); ``only``: every party has this
    player (index) at it."""
    from django.db import transaction
    from django.utils import timezone

    from clubs.models import Club, ClubNight, Membership, Player
    from scoring.engine.rules import RULESETS
    from scoring.models import Hand, Party, Seat
    from scoring.services.seats import new_token

    with transaction.atomic():
        club = Club.objects.create(name=f"Club {slug}", slug=slug)
        people = Player.objects.bulk_create(
            Player(name=f"Player {slug} {i:04d}") for i in range(players)
        )
        Membership.objects.bulk_create(Membership(club=club, player=p, listed=True) for p in people)
        first = datetime.date(2022, 1, 4)
        night_rows = ClubNight.objects.bulk_create(
            ClubNight(club=club, name=f"Night {n}", date=first + datetime.timedelta(weeks=n))
            for n in range(nights)
        )
        rules = RULESETS["classic"].as_dict()
        start = timezone.now() - datetime.timedelta(days=nights * 7)
        for offset in range(0, parties, 10_000):
            count = min(10_000, parties - offset)
            plan = []
            for i in range(offset, offset + count):
                a = only if only is not None else rng.randrange(players)
                b = rng.randrange(players - 1)
                b = b + 1 if b >= a else b
                plan.append((night_rows[i * nights // parties], people[a], people[b]))
            rows = Party.objects.bulk_create(
                Party(
                    club=club,
                    night=night,
                    rules=rules,
                    status=Party.Status.FINISHED,
                    finished_at=start + datetime.timedelta(minutes=offset + k),
                )
                for k, (night, _, _) in enumerate(plan)
            )
            seats = Seat.objects.bulk_create(
                Seat(party=party, player=player, side=side, position=side, token=new_token())
                for party, (_, a, b) in zip(rows, plan, strict=True)
                for side, player in enumerate((a, b))
            )
            hands = []
            for k, party in enumerate(rows):
                winner, loser = seats[2 * k + rng.randrange(2)], None
                loser = seats[2 * k + 1] if winner is seats[2 * k] else seats[2 * k]
                deadwood = 90 + rng.randrange(10)
                hands.append(
                    Hand(
                        party=party,
                        number=1,
                        status=Hand.Status.CONFIRMED,
                        ending=Hand.Ending.GIN,
                        dealer=loser,
                        knocker=winner,
                        defender=loser,
                        knocker_deadwood=0,
                        defender_deadwood=deadwood,
                        kind="gin",
                        points=deadwood + 20,
                        winner=winner,
                    )
                )
            Hand.objects.bulk_create(hands)
    return club, people


def timed(label: str, run, runs: int = RUNS) -> None:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    print(f"  {label:<58} best {min(times):7.2f} s   median {statistics.median(times):7.2f} s")


def _measure() -> None:
    migrated()
    from seasons import player_pages, selectors, services
    from seasons.models import Season

    rng = Random(1909)
    started = time.perf_counter()
    club, _ = club_with_parties(
        slug="big-club", players=PLAYERS, nights=EVENTS * 2, parties=PARTIES, rng=rng
    )
    print(
        f"\nSeasons ({PARTIES:,} parties of {PLAYERS} players over {EVENTS * 2} nights, "
        f"SQLite; data built in {time.perf_counter() - started:.0f} s)"
    )
    timed(
        f"rebuild all ratings from {PARTIES:,} parties",
        lambda: services.ratings_rebuild(club_id=club.pk),
        runs=1,
    )
    nights = list(club.nights.order_by("date"))
    season = Season.objects.create(
        club=club,
        name="Big season",
        starts=nights[EVENTS].date,
        ends=nights[-1].date,
        scheme=Season.Scheme.PLACES,
        place_points=[10, 8, 6, 5, 4, 3, 2, 1],
        best_of=50,
        published=True,
    )
    timed(
        f"season table: {PLAYERS} players, {EVENTS} events ({PARTIES // 2:,} parties)",
        lambda: selectors.season_page(season, public=True),
    )
    timed(
        f"ratings list of {PLAYERS} players",
        lambda: selectors.rating_list(club=club, public=True),
    )
    small, people = club_with_parties(
        slug="one-player", players=21, nights=100, parties=PLAYER_PARTIES, rng=rng, only=0
    )
    services.ratings_rebuild(club_id=small.pk)
    timed(
        f"one player's page with {PLAYER_PARTIES:,} parties",
        lambda: player_pages.player_page(club=small, player=people[0], public=True),
    )


if __name__ == "__main__":
    if sys.argv[1:] == ["measure"]:
        _measure()
    else:
        main()
