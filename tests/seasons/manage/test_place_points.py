"""Points by place as the season form takes them: whole numbers one separator
apart, none negative, none past what a place could give; anything else is
refused beside the field and no season is written."""

import pytest
from django.urls import reverse

from seasons.forms import PointsField
from seasons.models import Season

pytestmark = pytest.mark.django_db


def new_season(client, club, points):
    return client.post(
        reverse("manage:season-list", args=[club.slug]),
        {
            "name": "Odd points",
            "starts": "2026-01-01",
            "ends": "2026-12-31",
            "counts": "both",
            "scheme": "places",
            "place_points": points,
        },
    )


@pytest.mark.parametrize(
    "points, told",
    [
        ("-1", "whole numbers"),
        ("10--8", "whole numbers"),
        ("10-8-", "whole numbers"),
        ("10,,8", "whole numbers"),
        ("+10-8", "whole numbers"),
        ("10-8-6\u00b3", "whole numbers"),
        ("1" * 200, "at most 9999 points"),
        ("10-" + "9" * 60, "at most 9999 points"),
        ("10000-8", "at most 9999 points"),
    ],
)
def test_place_points_that_are_no_list_of_whole_numbers_are_refused(
    client, season_club, organizer, points, told
):
    page = new_season(client, organizer.club, points)

    assert page.status_code == 200
    assert told in page.text
    assert not Season.objects.filter(name="Odd points").exists()


@pytest.mark.parametrize(
    "text, points",
    [
        ("10-8-6", [10, 8, 6]),
        ("10, 8, 6", [10, 8, 6]),
        ("10 8 6", [10, 8, 6]),
        ("10 - 8 - 0", [10, 8, 0]),
        ("9999;1", [9999, 1]),
        ("", []),
    ],
)
def test_place_points_as_clubs_write_them_are_read(text, points):
    assert PointsField(required=False).clean(text) == points
