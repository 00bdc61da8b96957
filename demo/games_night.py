"""The demo club's other games (seed 003), as `games_night.json` gives them: a
games night with a party of each (Chinchón of three two hands in with the third
waiting for a confirmation, Canasta of four in partnerships one hand in, a side
that went out with two canastas against one caught with cards in hand, Blaue
Vierzehn of four one deal in, and Cruzo of three just seated), and a Blaue
Vierzehn tournament at tables of four in its first round (one table has played
its four deals, one has played two and waits for a confirmation of the third, one
has not begun). Each hand is the game's own entry, as a table sends it. Loaded
once: an existing games night or tournament is left as it is."""

import datetime
import json
from pathlib import Path

from clubs.models import ClubNight
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.parties import party_start
from tournaments import registration, rounds, seating, tables
from tournaments.models import Tournament

DATA = json.loads(Path(__file__).with_name("games_night.json").read_text())
NIGHT = DATA["night"]["name"]
BLUE = DATA["tournament"]


def demo_games(club) -> None:
    members = [m.player for m in club.memberships.select_related("player").order_by("player__name")]
    _games_night(club, members)
    if not Tournament.objects.filter(slug=BLUE["slug"]).exists():
        _tournament(club, members[: DATA["entrants"]])


def _games_night(club, members) -> None:
    """The night's parties, each seated from the next of the members, its hands
    played in order."""
    if club.nights.filter(name=NIGHT).exists():
        return
    date = datetime.date.fromisoformat(DATA["night"]["date"])
    night = ClubNight.objects.create(club=club, name=NIGHT, date=date)
    seated = 0
    for party in DATA["parties"]:
        players = members[seated : seated + party["players"]]
        seated += len(players)
        started = party_start(
            game=party["game"], players=players, label=party["label"], club=club, night=night
        )
        _play_all(started, party["hands"])


def _tournament(club, players) -> None:
    """The tournament with round 1 in play, each table's hands as the data gives
    them (a table without any has not begun)."""
    date = datetime.date.fromisoformat(DATA["tournament_date"])
    tournament = registration.tournament_create(club=club, date=date, **BLUE)
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    first = rounds.round_start(tournament=tournament)
    # The demo loads in one transaction: seat now, as the task would after commit.
    seating.round_pair(round_id=first.pk)
    views = tables.round_tables(tournament.round_set.get(number=1))
    for view, hands in zip(views, DATA["tables"], strict=False):
        _play_all(view.table.party, hands)


def _play_all(party, hands) -> None:
    for hand in hands:
        _play(party, hand["entry"], confirmed=hand.get("confirmed", True))


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
