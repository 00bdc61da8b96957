"""The demo club that `make run` loads. Loading it twice changes nothing."""

import datetime
from random import Random

from django.db import transaction

from clubs import services
from clubs.models import ClubNight, Membership
from demo import NO_DEADWOOD
from demo.games_night import demo_games
from demo.planned_evening import demo_planned_evening
from demo.season import demo_season
from live import counters
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_start
from tournaments import registration, rounds, seating, tables
from tournaments.final import advance
from tournaments.final.setup import final_stage_add, final_stage_start
from tournaments.models import Tournament

DEMO_USERNAME = "organizer"
DEMO_PASSWORD = "knock-1909"

CLUB = {
    "slug": "knickerbocker",
    "name": "Knickerbocker Whist Club",
    "city": "New York",
    "founded": 1909,
}
ORGANIZER = ("Elwood T. Baker", "baker@knickerbocker.example")
MEMBERS = [
    "Ada Whitcombe",
    "Bernard Okafor",
    "Clara Lindqvist",
    "Desmond Reyes",
    "Edith Marsh",
    "Felix Brandt",
    "Grace Ng",
    "Harold Quincy",
    "Irene Kowalski",
    "Julius Fairbanks",
    "Katharina Vogel",
    "Lorenzo Bellini",
    "Margaret Holloway",
]


@transaction.atomic
def load_demo() -> dict:
    # Its hundreds of hands advance the club's final and its ratings once, at the end.
    with counters.once_each():
        return _load_demo()


def _load_demo() -> dict:
    club = services.club_upsert(**CLUB)
    organizer = services.member_add(
        club=club,
        name=ORGANIZER[0],
        email=ORGANIZER[1],
        role=Membership.Role.OWNER,
        since=datetime.date(1909, 1, 1),
        listed=True,
    )
    services.organizer_login_set(
        membership=organizer, username=DEMO_USERNAME, password=DEMO_PASSWORD
    )
    for number, name in enumerate(MEMBERS):
        services.member_add(
            club=club, name=name, since=datetime.date(1909 + number * 7, 3, 1), listed=True
        )
    _demo_night(club)
    _demo_tournaments(club)
    demo_games(club)
    demo_planned_evening(club)
    demo_season(club, organizer.player.user)
    return {"club": club, "username": DEMO_USERNAME, "password": DEMO_PASSWORD}


# Seed 000, "Beispiel einer Abrechnung": A scores 23, 27, 35, 19; B 32, 10.
SEED_SHEET = [(0, 23), (0, 27), (1, 32), (0, 35), (1, 10), (0, 19)]


def _demo_night(club) -> None:
    """A club night with the seed's worked party (finished, A 284 : B 82), a
    party still running, and a party of every other format. Loaded once: an
    existing demo night is left as it is."""
    if club.nights.filter(name="Demo night").exists():
        return
    night = ClubNight.objects.create(club=club, name="Demo night", date=datetime.date(2026, 11, 20))
    members = [m.player for m in club.memberships.select_related("player").order_by("player__name")]
    finished = party_start(
        club=club,
        night=night,
        format="two",
        players=members[:2],
        rng=Random(1),
        label="Seed sheet",
    )
    seats = list(finished.seats.select_related("player").order_by("position"))
    # The seed's sheet heads its columns "Player A" and "Player B": the label says
    # who is which, once the draw has seated them (A is side 0, the first column).
    a, b = (seat.player.name for seat in seats)
    finished.label = f"Seed sheet: {a} (A) 284, {b} (B) 82"
    finished.save(update_fields=["label"])
    for number, (side, points) in enumerate(SEED_SHEET, start=1):
        result = Result("knock", knocker=side, knocker_deadwood=2, defender_deadwood=2 + points)
        entered = hand_enter(seat=seats[side], number=number, entry=result).hand
        hand_confirm(seat=seats[1 - side], number=number, version=entered.version)
    running = party_start(
        club=club,
        night=night,
        format="two",
        players=members[2:4],
        rng=Random(2),
        label="Running party",
    )
    a, b = running.seats.order_by("position")
    won = Result(**NO_DEADWOOD, knocker=0, defender_deadwood=14)
    entered = hand_enter(seat=a, number=1, entry=won).hand
    hand_confirm(seat=b, number=1, version=entered.version)
    # Every other format, started and waiting for its first hand.
    for format, players, label in (
        ("rotation", members[4:7], "Three players in rotation"),
        ("partners", members[7:11], "Partnerships of two"),
        ("chouette", members[11:14], "Chouette of three"),
    ):
        party_start(
            club=club, night=night, format=format, players=players, rng=Random(3), label=label
        )


SWISS = {"slug": "knickerbocker-spring-open", "name": "Spring Open", "format": "swiss"}
CUP = {"slug": "knickerbocker-autumn-cup", "name": "Autumn Cup", "format": "swiss"}
ROUND_ROBIN = {
    "slug": "knickerbocker-round-robin",
    "name": "Winter Round Robin",
    "format": "round_robin",
}


def _demo_tournaments(club) -> None:
    """A Swiss tournament of 12 in round 2 (some tables finished, one waiting for a
    confirmation, one just begun, one not started) and a finished round robin of 6.
    Each is made once: an existing one is left as it is."""
    members = [m.player for m in club.memberships.select_related("player").order_by("player__name")]
    rng = Random(1909)
    if not Tournament.objects.filter(slug=SWISS["slug"]).exists():
        swiss = _tournament(club, members[:12], date=datetime.date(2026, 11, 21), **SWISS)
        _play_round(swiss, 1, rng)
        rounds.round_close(round=swiss.round_set.get(number=1))
        _pair(swiss, rounds.round_pair_next(tournament=swiss))
        second = tables.round_tables(swiss.round_set.get(number=2))
        for view in second[:3]:
            _play_out(view, rng)
        a, b = second[3].table.party.seats.order_by("position")
        _win(a, b, 1, deadwood=31, confirm=True)
        _win(b, a, 2, deadwood=12, confirm=False)
        a, b = second[4].table.party.seats.order_by("position")
        _win(a, b, 1, deadwood=9, confirm=True)
    if not Tournament.objects.filter(slug=ROUND_ROBIN["slug"]).exists():
        robin = _tournament(club, members[6:12], date=datetime.date(2026, 11, 7), **ROUND_ROBIN)
        for number in range(1, robin.rounds + 1):
            _play_round(robin, number, rng)
            rounds.round_close(round=robin.round_set.get(number=number))
            if number < robin.rounds:
                _pair(robin, rounds.round_pair_next(tournament=robin))
        rounds.tournament_finish(tournament=robin, final_draw=True)
    if not Tournament.objects.filter(slug=CUP["slug"]).exists():
        _demo_final(club, members[2:10], rng)


def _demo_final(club, players, rng) -> None:
    """A Swiss of 8 over three rounds, finished, and its top-4 final: the
    semi-finals and the match for third place played, the final being played
    (one hand in)."""
    cup = _tournament(club, players, date=datetime.date(2026, 10, 31), rounds=3, **CUP)
    final_stage_add(tournament=cup, qualifiers=4, third_place=True)
    for number in range(1, 4):
        _play_round(cup, number, rng)
        rounds.round_close(round=cup.round_set.get(number=number))
        if number < 3:
            _pair(cup, rounds.round_pair_next(tournament=cup))
    rounds.tournament_finish(tournament=cup, final_draw=True)
    stage = final_stage_start(tournament=cup)
    for match in stage.matches.filter(round=1).order_by("slot"):
        _play_match(match, rng)
    # The demo loads in one transaction: advance now, as the parties' end would
    # after the commit.
    advance.stage_advance(stage=stage)
    _play_match(stage.matches.get(third_place=True), rng)
    advance.stage_advance(stage=stage)
    final = stage.matches.get(round=2, third_place=False)
    a, b = final.games.get().party.seats.order_by("position")
    _win(a, b, 1, deadwood=34, confirm=True)


def _play_match(match, rng) -> None:
    seats = list(match.games.get().party.seats.order_by("position"))
    rng.shuffle(seats)
    _win(seats[0], seats[1], 1, deadwood=rng.randint(80, 98), confirm=True)


def _tournament(club, players, **fields):
    tournament = registration.tournament_create(club=club, **fields)
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    _pair(tournament, rounds.round_start(tournament=tournament))
    tournament.refresh_from_db()
    return tournament


def _pair(tournament, round) -> None:
    # The demo loads in one transaction: pair now, as the task would after commit
    # (the task, if it runs later, finds the round paired and leaves it).
    seating.round_pair(round_id=round.pk)


def _play_round(tournament, number, rng) -> None:
    for view in tables.round_tables(tournament.round_set.get(number=number)):
        if not view.table.bye and view.table.party_id:
            _play_out(view, rng)


def _play_out(view, rng) -> None:
    """One gin against 80 to 98 deadwood ends a party of 100: the winner by lot."""
    seats = list(view.table.party.seats.order_by("position"))
    rng.shuffle(seats)
    _win(seats[0], seats[1], 1, deadwood=rng.randint(80, 98), confirm=True)


def _win(winner, loser, number, *, deadwood, confirm) -> None:
    """Hand ``number`` won by ``winner`` with no deadwood (`NO_DEADWOOD`) against
    ``deadwood``; confirmed by ``loser`` when ``confirm``."""
    result = Result(**NO_DEADWOOD, knocker=winner.position, defender_deadwood=deadwood)
    entered = hand_enter(seat=winner, number=number, entry=result).hand
    if confirm:
        hand_confirm(seat=loser, number=number, version=entered.version)
