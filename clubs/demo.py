"""The demo club that `make run` loads. Loading it twice changes nothing."""

import datetime

from django.db import transaction

from clubs import services
from clubs.models import Membership

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
    return {"club": club, "username": DEMO_USERNAME, "password": DEMO_PASSWORD}
