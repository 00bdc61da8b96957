"""The demo club's mixer (seed 003's Blaue Vierzehn): thirteen at tables of four,
one of four and three of three, for four rounds planned before the first, in
which nobody meets anyone twice. Two rounds are played and closed, the third is
seated and not begun, so the plan shows rounds played and rounds to come. Loaded
once: an existing mixer is left as it is."""

import datetime

from demo.games_night import _play as play
from tournaments import registration, rounds, seating, tables
from tournaments.models import Tournament

MIXER = {
    "slug": "knickerbocker-blue-fourteen-mixer",
    "name": "Blue Fourteen Mixer",
    "format": "planned",
    "game": "blaue_vierzehn",
    "table_size": 4,
    "rounds": 4,
    "date": datetime.date(2026, 11, 27),
}

# A deal's points by seat, adding up to the 56 a deal is worth; a table plays one
# deal per player, so its party is over after three or four.
DEALS = {
    4: ([10, 20, 13, 13], [0, 5, 13, 38], [2, 2, 13, 39], [20, 20, 16, 0]),
    3: ([13, 30, 13], [5, 38, 13], [26, 17, 13]),
}
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
                play(view.table.party, {"points": deal})
        rounds.round_close(round=round)
        seating.round_pair(round_id=rounds.round_pair_next(tournament=tournament).pk)
