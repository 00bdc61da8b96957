"""The demo club's season in progress: autumn club nights with parties played
hand by hand (knocks, undercuts, gins; a few entered from the cards), a season
scored by places, and the ratings made from every party."""

import datetime
import zoneinfo
from random import Random

from django.utils import timezone

from clubs.models import ClubNight
from demo import NO_DEADWOOD
from scoring.engine.rules import RULESETS
from scoring.models import Party
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result, result_from_cards
from scoring.services.parties import party_start
from seasons.models import Season
from seasons.services import ratings_rebuild, season_create

SEASON = {
    "name": "Autumn season 2026",
    "starts": datetime.date(2026, 9, 1),
    "ends": datetime.date(2026, 12, 31),
    "counts": Season.Counts.BOTH,
    "scheme": Season.Scheme.PLACES,
    "place_points": [10, 8, 6, 5, 4, 3, 2, 1],
    "best_of": 6,
    "minimum_events": 2,
    "published": True,
}
NIGHTS = [datetime.date(2026, 9, 1) + datetime.timedelta(days=14 * n) for n in range(6)]

# From the cards: 2-3-4♥, 7♣ 7♦ 7♠, 9-10-J♠ and 2♣ knock for 2; the defender lays
# off 5♥ and holds K K K, Q Q Q and A♦ 3♣ 4♦: 10 - 2 = 8 to the knocker.
KNOCKER_CARDS = "2H 3H 4H 7C 7D 7S 9S TS JS 2C"
DEFENDER_CARDS = "KC KD KH QC QD QH AD 3C 4D 5H"


def demo_season(club, user) -> None:
    """Loaded once: an existing demo season is left as it is."""
    if Season.objects.filter(club=club, name=SEASON["name"]).exists():
        return
    members = [m.player for m in club.memberships.select_related("player").order_by("player__name")]
    rng = Random(2026)
    # Each member's strength: the chance his side wins a hand against an equal is
    # nudged by the difference.
    strength = {player.pk: rng.gauss(0, 0.15) for player in members}
    for number, day in enumerate(NIGHTS, start=1):
        night = ClubNight.objects.create(club=club, name=f"Autumn night {number}", date=day)
        present = rng.sample(members, 8)
        for table in range(4):
            pair = present[2 * table : 2 * table + 2]
            _play_party(club, night, pair, strength, rng)
    season_create(club=club, user=user, **SEASON)
    ratings_rebuild(club_id=club.pk)


def _play_party(club, night, players, strength, rng) -> None:
    party = party_start(
        club=club, night=night, format="two", players=players, rng=Random(rng.random())
    )
    seats = list(party.seats.order_by("position"))
    for number in range(1, 40):
        a, b = seats
        edge = strength[a.player_id] - strength[b.player_id]
        knocker, defender = (a, b) if rng.random() < 0.5 + edge else (b, a)
        roll = rng.random()
        if roll < 0.05:
            result = result_from_cards(
                RULESETS["classic"],
                knocker=knocker.position,
                knocker_cards=KNOCKER_CARDS,
                defender_cards=DEFENDER_CARDS,
            )
        elif roll < 0.2:
            result = Result(
                **NO_DEADWOOD, knocker=knocker.position, defender_deadwood=rng.randint(8, 45)
            )
        else:
            mine = rng.randint(1, 10)
            # About one knock in eight is undercut.
            theirs = (
                rng.randint(max(0, mine - 4), mine)
                if rng.random() < 0.12
                else mine + rng.randint(1, 40)
            )
            result = Result(
                "knock",
                knocker=knocker.position,
                knocker_deadwood=mine,
                defender_deadwood=theirs,
            )
        entered = hand_enter(seat=knocker, number=number, entry=result).hand
        hand_confirm(seat=defender, number=number, version=entered.version)
        if Party.objects.filter(pk=party.pk, status=Party.Status.FINISHED).exists():
            break
    # Played that evening, not on the day the demo was loaded: a player's recent
    # parties and the ratings' order go by when a party finished.
    evening = timezone.make_aware(
        datetime.datetime.combine(night.date, datetime.time(19, 30)),
        zoneinfo.ZoneInfo(club.time_zone),
    )
    Party.objects.filter(pk=party.pk).update(
        started_at=evening, finished_at=evening + datetime.timedelta(minutes=3 * number)
    )
