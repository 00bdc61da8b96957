"""The club's season table on its tournament's wall screen."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.conftest import clear_cache
from tournaments.registration import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def screen(season_club):
    """The screen of a tournament at the club, whose season runs today."""
    today = timezone.localdate()
    season = season_club["season"]
    season.starts, season.ends = today - datetime.timedelta(days=30), today
    season.save()
    night = season_club["night"]
    night.date = today
    night.save()
    clear_cache()
    tournament = tournament_create(club=season_club["club"], name="Club Open", date=today)
    return reverse("public:tournament-screen", args=[tournament.slug])


def test_the_screen_shows_the_season_table_as_one_more_group_of_slides(client, screen):
    html = client.get(screen).content.decode()
    assert 'data-group="season"' in html and "Autumn 2026" in html
    # As on the public season page: the unlisted and the guest by initials.
    assert "Ada Lovelace" in html and "B. H." in html and "C. W." in html
    assert "Ben Hur" not in html and "Cleo Walk" not in html
    assert html.count("data-season-player=") == 3


@pytest.mark.parametrize(
    "change",
    [
        {"published": False},
        {"closed_at": timezone.now()},
        {"starts": datetime.date(2020, 1, 1), "ends": datetime.date(2020, 6, 30)},
    ],
    ids=["not published", "closed", "over"],
)
def test_only_a_published_season_in_progress_is_on_the_screen(client, screen, season_club, change):
    from seasons.models import Season

    Season.objects.filter(pk=season_club["season"].pk).update(**change)
    html = client.get(screen).content.decode()
    assert 'data-group="season"' not in html and "Autumn 2026" not in html


def totals(html: str) -> dict[str, str]:
    """Each name on the season slide with its score."""
    rows = re.findall(
        r'<tr data-season-player="\d+">.*?class="name[^"]*">([^<]*)</td>'
        r'<td class="num">\d+</td><td class="num">(-?\d+)</td>',
        html,
    )
    return dict(rows)


def test_a_party_at_a_club_night_moves_the_season_slide(client, screen, season_club, after_commit):
    from tests.seasons.conftest import play_party

    before = totals(client.get(screen).content.decode())  # the slide is in the cache now
    with after_commit():
        ben, cleo = season_club["ben"], season_club["cleo"]
        play_party(season_club["club"], [ben, cleo], winner=ben, night=season_club["night"], seed=7)
    after = totals(client.get(screen).content.decode())
    assert set(before) == set(after) == {"Ada Lovelace", "B. H.", "C. W."}
    assert int(after["B. H."]) > int(before["B. H."])
    assert int(after["C. W."]) < int(before["C. W."])


def test_the_screen_keeps_its_query_count_as_the_season_grows(
    client, screen, season_club, after_commit, django_assert_max_num_queries
):
    from scoring.services.nights import night_create
    from tests.factories import MembershipFactory
    from tests.seasons.conftest import play_party

    club = season_club["club"]
    with after_commit():
        for n in range(6):
            night = night_create(club=club, name=f"Night {n}", date=timezone.localdate())
            a, b = (MembershipFactory(club=club).player for _ in range(2))
            play_party(club, [a, b], winner=a, night=night, seed=n)
    clear_cache()
    with django_assert_max_num_queries(20):
        html = client.get(screen).content.decode()
    assert html.count("data-season-player=") == 15
    # Once in the cache: the tournament, and the season and its ratings ledger.
    with django_assert_max_num_queries(3):
        client.get(screen)
