"""A big finished-rounds tournament written straight into the tables with
bulk_create: thousands of entrants in seconds, for the query-budget tests and
the benchmarks. Every table played one party, over in one hand won with no
deadwood; nothing here goes through the services (that is what makes it fast),
so it is for reading only."""

import datetime
from random import Random

from django.db import transaction
from django.utils import timezone

from clubs.models import Club, Player
from demo import NO_DEADWOOD
from scoring.engine.games import GAMES
from scoring.engine.rules import RULESETS
from scoring.models import Hand, Party, Seat
from scoring.scores import party_scores
from scoring.services.keeping import format_scores
from scoring.services.seats import new_token
from tournaments.models import Entrant, Round, Seating, Table, Tournament


@transaction.atomic
def big_tournament(*, entrants: int, rounds: int, slug: str = "big", seed: int = 1) -> Tournament:
    """A Swiss tournament of ``entrants`` with ``rounds`` closed rounds, paired at
    random (rematches allowed: the pages do not care)."""
    rng = Random(seed)
    club = Club.objects.create(name=f"Club {slug}", slug=f"club-{slug}")
    tournament = Tournament.objects.create(
        club=club, name=f"Tournament {slug}", slug=slug, rounds=rounds, status="running"
    )
    players = Player.objects.bulk_create(Player(name=f"Player {i:05d}") for i in range(entrants))
    field = Entrant.objects.bulk_create(
        Entrant(tournament=tournament, player=p, checked_in=True) for p in players
    )
    round_rows = Round.objects.bulk_create(
        Round(
            tournament=tournament,
            number=n,
            seed=n,
            status=Round.Status.CLOSED,
            how=Round.How.SWISS,
            started_at=timezone.now() - datetime.timedelta(hours=rounds - n + 1),
        )
        for n in range(1, rounds + 1)
    )
    rules = RULESETS["classic"].as_dict()
    plan = []  # (round, table number, first entrant, second entrant)
    for round in round_rows:
        order = list(field)
        rng.shuffle(order)
        for i in range(0, len(order) - 1, 2):
            plan.append((round, i // 2 + 1, order[i], order[i + 1]))
    parties = Party.objects.bulk_create(
        Party(
            club=club,
            label=f"{tournament.name} · {r.number}/{n}",
            rules=rules,
            target=100,
            status=Party.Status.FINISHED,
            first_dealer=1,
        )
        for r, n, _, _ in plan
    )
    seats = Seat.objects.bulk_create(
        Seat(party=party, player_id=entrant.player_id, side=side, position=side, token=new_token())
        for party, (_, _, a, b) in zip(parties, plan, strict=True)
        for side, entrant in enumerate((a, b))
    )
    hands = []
    game = GAMES[tournament.game]
    for i, party in enumerate(parties):
        side = rng.randrange(2)
        winner, loser = seats[2 * i + side], seats[2 * i + 1 - side]
        # 90 to 98 against: the most a defender's ten cards can hold, the party over.
        entry = {**NO_DEADWOOD, "knocker": side, "defender_deadwood": 90 + rng.randrange(9)}
        # What the game makes of the hand, kept as the services keep it.
        scored = game.hand(entry, (0, 0), rules)
        hand = Hand(
            party=party,
            number=1,
            status=Hand.Status.CONFIRMED,
            ending=entry["ending"],
            dealer=loser,
            knocker=winner,
            defender=loser,
            knocker_deadwood=entry["knocker_deadwood"],
            defender_deadwood=entry["defender_deadwood"],
            kind=scored.facts["kind"],
            points=max(scored.scores),
            winner=winner,
            entered_by=winner,
            confirmed_by=loser,
        )
        hand.scores, hand.facts = format_scores(hand, (winner, loser))
        hands.append(hand)
    Hand.objects.bulk_create(hands)
    tables = Table.objects.bulk_create(
        Table(round=r, number=n, party=party)
        for (r, n, _, _), party in zip(plan, parties, strict=True)
    )
    Seating.objects.bulk_create(
        Seating(round=r, table=table, entrant=entrant, side=side)
        for (r, _, a, b), table in zip(plan, tables, strict=True)
        for side, entrant in enumerate((a, b))
    )
    # Each party's score kept, as the services keep it after every hand.
    party_scores([party.pk for party in parties], keep=True)
    return tournament
