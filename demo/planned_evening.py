"""The demo club's mixer (seed 003's Blaue Vierzehn, as `planned_evening.json`
gives it): thirteen at tables of four, one of four and three of three, for four
rounds planned before the first, in which nobody meets anyone twice. Two rounds
are played and closed, the third is seated and not begun, so the plan shows
rounds played and rounds to come. Loaded once: an existing mixer is left as it
is."""

import datetime
import json
from pathlib import Path

from demo.games_night import _play as play
from tournaments import registration, rounds, seating, tables
from tournaments.models import Tournament

DATA = json.loads(Path(__file__).with_name("planned_evening.json").read_text())
MIXER = {**DATA["mixer"], "date": datetime.date.fromisoformat(DATA["date"])}

# Each deal's entry by the table's size: its points by seat, adding up to the 56
# a deal is worth; a table plays one deal per player, so its party is over after
# three or four.
DEALS = {int(size): deals for size, deals in DATA["deals"].items()}
PLAYED = 2


def demo_planned_evening(club) -> None:
    """The mixer of the club's last thirteen members by name (see the module)."""
    if Tournament.objects.filter(slug=MIXER["slug"]).exists():
        return
    members = [m.player for m in club.memberships.select_related("player").order_by("player__name")]
    tournament = registration.tournament_create(club=club, **MIXER)
    registration.entrant_register(tournament=tournament, players=members[-13:])
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    # The demo loads in one transaction: seat each round now, as the task would
    # after commit.
    seating.round_pair(round_id=rounds.round_start(tournament=tournament).pk)
    for number in range(1, PLAYED + 1):
        round = tournament.round_set.get(number=number)
        for view in tables.round_tables(round):
            for deal in DEALS[len(view.entrants)]:
                play(view.table.party, deal)
        rounds.round_close(round=round)
        seating.round_pair(round_id=rounds.round_pair_next(tournament=tournament).pk)
