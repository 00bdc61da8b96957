"""Bodies of the clubs' part of the API."""

import datetime

from ninja import Schema


class ClubOut(Schema):
    slug: str
    name: str
    city: str
    founded: int | None


class ClubNightOut(Schema):
    """A night as the club's public page lists it."""

    id: int
    name: str
    date: datetime.date
    ruleset: str
    confirmation_required: bool
    party_count: int


class ClubDetailOut(ClubOut):
    members: list[str]
    nights: list[ClubNightOut]


class PlayerOut(Schema):
    id: int
    name: str
    role: str
