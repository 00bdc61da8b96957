"""The demo club that `make run` loads. Loading it twice changes nothing."""

import datetime
from random import Random

from django.db import transaction

from clubs import services
from clubs.models import ClubNight, Membership
from scoring.services import Result, hand_confirm, hand_enter, party_start

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
    club = services.club_upsert(**CLUB)
    organizer = services.member_add(
        club=club,
        name=ORGANIZER[0],
        email=ORGANIZER[1],
        role=Membership.Role.ORGANIZER,
        since=datetime.date(1909, 1, 1),
    )
    services.organizer_login_set(
        membership=organizer, username=DEMO_USERNAME, password=DEMO_PASSWORD
    )
    for number, name in enumerate(MEMBERS):
        services.member_add(club=club, name=name, since=datetime.date(1909 + number * 7, 3, 1))
    _demo_night(club)
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
        hand_enter(seat=seats[side], number=number, result=result)
        hand_confirm(seat=seats[1 - side], number=number)
    running = party_start(
        club=club,
        night=night,
        format="two",
        players=members[2:4],
        rng=Random(2),
        label="Running party",
    )
    a, b = running.seats.order_by("position")
    hand_enter(
        seat=a, number=1, result=Result("gin", knocker=0, knocker_deadwood=0, defender_deadwood=14)
    )
    hand_confirm(seat=b, number=1)
    # Every other format, started and waiting for its first hand.
    for format, players, label in (
        ("rotation", members[4:7], "Three players in rotation"),
        ("partners", members[7:11], "Partnerships of two"),
        ("chouette", members[11:14], "Chouette of three"),
    ):
        party_start(
            club=club, night=night, format=format, players=players, rng=Random(3), label=label
        )
