from random import Random

import pytest

from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_start


def gin(knocker: int, deadwood: int = 90) -> Result:
    """A gin big enough to end a party of 100 at once."""
    return Result("gin", knocker=knocker, knocker_deadwood=0, defender_deadwood=deadwood)


def play_party(club, players, winner, *, night=None, deadwood=90, seed=1909):
    """A two-player party that ``winner`` (a player) wins with one gin, entered by
    his seat and confirmed by the other."""
    party = party_start(club=club, night=night, format="two", players=players, rng=Random(seed))
    seats = list(party.seats.order_by("position"))
    mine = next(s for s in seats if s.player_id == winner.pk)
    theirs = next(s for s in seats if s is not mine)
    hand_enter(seat=mine, number=1, entry=gin(mine.position, deadwood))
    hand_confirm(seat=theirs, number=1, version=1)
    party.refresh_from_db()
    return party


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks):
    """Runs what a service schedules after its commit, as production does."""

    def run():
        return django_capture_on_commit_callbacks(execute=True)

    return run


@pytest.fixture
def season_club(organizer, after_commit):
    """The organizer's club with a listed member (Ada Lovelace), an unlisted one
    (Ben Hur) and a guest (Cleo Walk), two finished parties at a night in a season."""
    from datetime import date

    from clubs.models import Membership
    from scoring.services.nights import night_create
    from seasons.services import season_create
    from tests.factories import MembershipFactory

    club = organizer.club
    ada = MembershipFactory(club=club, player__name="Ada Lovelace", listed=True).player
    ben = MembershipFactory(club=club, player__name="Ben Hur").player
    cleo = MembershipFactory(club=club, player__name="Cleo Walk", role=Membership.Role.GUEST).player
    user = organizer.player.user
    night = night_create(club=club, user=user, name="Autumn night", date=date(2026, 10, 6))
    with after_commit():
        play_party(club, [ada, ben], winner=ada, night=night)
        play_party(club, [ada, cleo], winner=cleo, night=night)
    season = season_create(
        club=club,
        user=user,
        name="Autumn 2026",
        starts=date(2026, 9, 1),
        ends=date(2026, 12, 31),
        counts="both",
        scheme="plus_minus",
        published=True,
    )
    return {"club": club, "ada": ada, "ben": ben, "cleo": cleo, "night": night, "season": season}


#: Canasta's two sides of a hand: one went out with three canastas, one was caught.
GOOD = {"meld_points": 600, "natural_canastas": 2, "mixed_canastas": 1, "went_out": True}
POOR = {"meld_points": 300, "hand_points": 40}


def play_game_party(club, game, players, entries, options=None, *, night=None):
    """A party of another game between ``players`` (in seat order), each entry
    entered by the first seat and confirmed by as many others as it takes, until
    the party finishes (by itself, when the game says so) or the entries run out."""
    from scoring.services.hands import hand_confirm, hand_enter
    from scoring.services.parties import party_start

    party = party_start(club=club, night=night, game=game, players=players, options=options)
    seats = list(party.seats.order_by("position"))
    for number, entry in enumerate(entries, 1):
        party.refresh_from_db(fields=["status"])
        if party.status != party.Status.RUNNING:
            break
        outcome = hand_enter(seat=seats[0], number=number, entry=entry)
        for seat in seats:
            if outcome.action == "confirmed":
                break
            if seat.side != seats[0].side:
                outcome = hand_confirm(seat=seat, number=number, version=outcome.hand.version)
    party.refresh_from_db()
    return party
