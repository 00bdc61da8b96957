"""One limit for each number of a tournament, whichever way it is made: the
organizer's form and the API take and refuse the same values."""

import pydantic
import pytest

from tournaments.api.schemas import TournamentIn
from tournaments.manage.forms import TournamentForm
from tournaments.registration import LIMITS

FORM = {
    "name": "Cup",
    "date": "2026-01-09",
    "format": "swiss",
    "ruleset": "classic",
    "target": 100,
    "bye_value": 0,
    "forfeit_value": 100,
}
EDGES = [-1001, -1000, -1, 0, 1, 4, 5, 9, 10, 11, 24, 25, 26, 49, 50, 51, 98, 99, 100]
EDGES += [101, 599, 600, 601, 999, 1000, 1001]


def api_takes(**fields) -> bool:
    try:
        TournamentIn(name="Cup", **fields)
    except pydantic.ValidationError:
        return False
    return True


@pytest.mark.parametrize("name", list(LIMITS))
def test_the_form_and_the_api_take_the_same_numbers(name):
    differ = [
        (value, form, api)
        for value in EDGES
        if (form := TournamentForm({**FORM, name: value}).is_valid())
        != (api := api_takes(**{name: value}))
    ]
    assert differ == []
