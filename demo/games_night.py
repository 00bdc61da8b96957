"""The demo club's other games (seed 003): a games night with a party of each, and
a Blaue Vierzehn tournament at tables of four in its first round. Loaded once: an
existing games night or tournament is left as it is."""

import datetime

from clubs.models import ClubNight
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.parties import party_start
from tournaments import registration, rounds, seating, tables
from tournaments.models import Tournament

NIGHT = "Games night"
BLUE = {
    "slug": "knickerbocker-blue-fourteen",
    "name": "Blue Fourteen Evening",
    "format": "swiss",
    "game": "blaue_vierzehn",
    "table_size": 4,
    "rounds": 3,
}

# Canasta: a side that went out with two canastas, and one caught with cards in hand.
WENT_OUT = {"meld_points": 600, "natural_canastas": 1, "mixed_canastas": 1, "went_out": True}
CAUGHT = {"meld_points": 350, "hand_points": 45}


def demo_games(club) -> None:
    members = [m.player for m in club.memberships.select_related("player").order_by("player__name")]
    _games_night(club, members)
    if not Tournament.objects.filter(slug=BLUE["slug"]).exists():
        _blue_fourteen(club, members[:12])


def _games_night(club, members) -> None:
    """Chinchón of three two hands in with the third waiting for a confirmation,
    Canasta of four in partnerships one hand in, Blaue Vierzehn of four one deal
    in, and Cruzo of three just seated."""
    if club.nights.filter(name=NIGHT).exists():
        return
    night = ClubNight.objects.create(club=club, name=NIGHT, date=datetime.date(2026, 11, 25))
    start = {"club": club, "night": night}
    chinchon = party_start(game="chinchon", players=members[:3], label="Chinchón", **start)
    _play(chinchon, {"closer": 0, "penalties": [0, 14, 23]})
    _play(chinchon, {"closer": 2, "penalties": [31, 8, 2]})
    _play(chinchon, {"closer": 1, "penalties": [19, 0, 12]}, confirmed=False)
    canasta = party_start(game="canasta", players=members[3:7], label="Canasta", **start)
    _play(canasta, {"sides": [WENT_OUT, CAUGHT]})
    blue = party_start(
        game="blaue_vierzehn", players=members[7:11], label="Blaue Vierzehn", **start
    )
    _play(blue, {"points": [10, 20, 13, 13]})
    party_start(game="cruzo", players=members[11:14], label="Cruzo", **start)


def _blue_fourteen(club, players) -> None:
    """Twelve at three tables of four, round 1 in play: one table has played its
    four deals, one has played two and waits for a confirmation of the third, one
    has not begun."""
    tournament = registration.tournament_create(club=club, date=datetime.date(2026, 11, 26), **BLUE)
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    first = rounds.round_start(tournament=tournament)
    # The demo loads in one transaction: seat now, as the task would after commit.
    seating.round_pair(round_id=first.pk)
    views = tables.round_tables(tournament.round_set.get(number=1))
    done, playing = views[0].table.party, views[1].table.party
    for points in ([10, 20, 13, 13], [0, 5, 13, 38], [2, 2, 13, 39], [20, 20, 16, 0]):
        _play(done, {"points": points})
    _play(playing, {"points": [14, 9, 20, 13]})
    _play(playing, {"points": [5, 31, 7, 13]})
    _play(playing, {"points": [18, 18, 10, 10]}, confirmed=False)


def _play(party, entry, *, confirmed=True) -> None:
    """The next hand entered by the first seat and, when ``confirmed``, confirmed
    by as many of the others as it takes."""
    seats = list(party.seats.select_related("player").order_by("position"))
    number = party.hands.count() + 1
    outcome = hand_enter(seat=seats[0], number=number, entry=entry)
    for seat in seats[1:]:
        if not confirmed or outcome.action == "confirmed":
            return
        if seat.side != seats[0].side:
            outcome = hand_confirm(seat=seat, number=number, version=outcome.hand.version)
