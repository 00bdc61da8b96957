import re
from datetime import date

import pytest
from django.urls import reverse

from scoring.services.hands import hand_decide
from seasons.models import PlayerLink, Season, SeasonRecord
from tests.conftest import messages_after
from tests.factories import ClubFactory, MembershipFactory
from tests.seasons.conftest import GOOD, POOR, gin, play_game_party, play_party

pytestmark = pytest.mark.django_db


def test_the_player_page_shows_rating_statistics_and_what_they_rest_on(client, season_club):
    ada = season_club["ada"]
    page = client.get(reverse("manage:season-player", args=[season_club["club"].slug, ada.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Ada Lovelace" in html
    # Two gins in two hands: one his own, one against him.
    assert "Gin rate" in html and "50 %" in html and "2 hands" in html
    # The organizer sees every opponent's full name.
    assert "Ben Hur" in html and "Cleo Walk" in html
    assert "<svg" in html and "<polyline" in html


def test_a_corrected_hand_changes_the_figures_that_rest_on_it(
    client, season_club, organizer, after_commit
):
    club, ada, ben = season_club["club"], season_club["ada"], season_club["ben"]
    url = reverse("manage:season-player", args=[club.slug, ada.pk])
    party = ada.seats.get(party__seats__player=ben).party
    ben_seat = party.seats.get(player=ben)
    before = client.get(url).context["stats"]
    with after_commit():
        hand_decide(
            hand=party.hands.get(),
            user=organizer.player.user,
            entry=gin(ben_seat.position),
            reason="Ben had gin",
            disputed=False,
        )
    after = client.get(url).context["stats"]
    assert (before.won, after.won) == (1, 0)
    assert before.gin_rate.value == 0.5 and after.gin_rate.value == 0


def test_the_organizer_of_another_club_finds_no_player_page(client, season_club):
    other = ClubFactory()
    url = reverse("manage:season-player", args=[other.slug, season_club["ada"].pk])
    assert client.get(url).status_code == 404


def test_the_player_list_links_every_rated_player_in_a_fixed_number_of_queries(
    client, season_club, django_assert_max_num_queries, after_commit
):
    club = season_club["club"]
    url = reverse("manage:season-players", args=[club.slug])
    with after_commit():
        for n in range(6):
            a, b = (MembershipFactory(club=club).player for _ in range(2))
            play_party(club, [a, b], winner=a, seed=n)
    with django_assert_max_num_queries(12):
        page = client.get(url)
    html = page.content.decode()
    for name in ("Ada Lovelace", "Ben Hur", "Cleo Walk"):
        assert name in html
    assert reverse("manage:season-player", args=[club.slug, season_club["ben"].pk]) in html


def test_the_player_list_links_every_member_and_guest_not_rated_yet(
    client, season_club, django_assert_max_num_queries
):
    from clubs.models import Membership

    club = season_club["club"]
    newcomers = [
        MembershipFactory(club=club, player__name=f"New Nina {n}").player for n in range(5)
    ]
    guest = MembershipFactory(club=club, player__name="Gus Guest", role=Membership.Role.GUEST)
    MembershipFactory(club=club, player__name="Gone Greta", active=False)
    with django_assert_max_num_queries(12):
        html = client.get(reverse("manage:season-players", args=[club.slug])).content.decode()
    for player in [*newcomers, guest.player]:
        assert reverse("manage:season-player", args=[club.slug, player.pk]) in html
    assert "Gone Greta" not in html
    # A rated player is in the rating list only, not again among the unrated.
    assert html.count(reverse("manage:season-player", args=[club.slug, season_club["ada"].pk])) == 1
    # Each of those pages opens for the organizer.
    page = client.get(reverse("manage:season-player", args=[club.slug, newcomers[0].pk]))
    assert page.status_code == 200


def test_the_player_page_keeps_its_query_count_as_parties_grow(
    client, season_club, django_assert_max_num_queries, after_commit
):
    club, ada, ben = season_club["club"], season_club["ada"], season_club["ben"]
    url = reverse("manage:season-player", args=[club.slug, ada.pk])
    others = [MembershipFactory(club=club).player for _ in range(2)]
    with after_commit():
        for n in range(8):
            play_party(club, [ada, ben], winner=ada if n % 2 else ben, seed=n)
        # The other games' sections read their hands at once, however many parties.
        for n in range(3):
            play_game_party(
                club,
                "chinchon",
                [ada, ben],
                [{"closer": n % 2, "penalties": [50 * (n % 2), 50 - 50 * (n % 2)]}] * 2,
            )
            play_game_party(club, "canasta", [ada, ben, *others], [{"sides": [GOOD, POOR]}] * 3)
            play_game_party(
                club,
                "cruzo",
                [ben, ada],
                [{"went_out": [n % 2], "cards_left": {1 - n % 2: 3}}],
                {"games": 1},
            )
    with django_assert_max_num_queries(20):
        page = client.get(url)
    assert page.status_code == 200
    assert [g["key"] for g in page.context["games"]] == ["chinchon", "canasta", "cruzo"]


def test_an_organizer_defines_a_season_and_sees_its_table(client, season_club):
    club = season_club["club"]
    page = client.post(
        reverse("manage:season-list", args=[club.slug]),
        {
            "name": "Winter 2026",
            "starts": "2026-10-01",
            "ends": "2026-10-31",
            "counts": "nights",
            "scheme": "places",
            "place_points": "10-8-6",
            "minimum_events": "0",
        },
    )
    season = Season.objects.get(name="Winter 2026")
    assert page.status_code == 302
    html = client.get(reverse("manage:season-detail", args=[season.pk])).content.decode()
    assert 'id="season-table"' in html and "Ben Hur" in html
    assert SeasonRecord.objects.filter(season=season, action="created").exists()


def test_the_season_form_sent_twice_defines_one_season_and_shows_it(
    client, season_club, sent_twice
):
    club = season_club["club"]
    first, second = sent_twice(
        reverse("manage:season-list", args=[club.slug]),
        {
            "name": "Winter 2026",
            "starts": "2026-10-01",
            "ends": "2026-10-31",
            "counts": "nights",
            "scheme": "places",
            "place_points": "10-8-6",
            "minimum_events": "0",
        },
    )

    season = Season.objects.get(name="Winter 2026")
    assert first["Location"] == second["Location"]
    assert second["Location"] == reverse("manage:season-detail", args=[season.pk])
    assert "This form was already sent: here is what it made." in messages_after(client, second)


def test_a_season_that_ends_before_it_starts_is_refused_with_a_message(client, season_club):
    club = season_club["club"]
    page = client.post(
        reverse("manage:season-list", args=[club.slug]),
        {
            "name": "Wrong",
            "starts": "2026-10-01",
            "ends": "2026-09-01",
            "counts": "both",
            "scheme": "plus_minus",
        },
    )
    assert page.status_code == 200
    assert "cannot end before it starts" in page.content.decode()
    assert not Season.objects.filter(name="Wrong").exists()


def test_points_by_place_without_points_are_refused_with_a_message(client, season_club):
    club = season_club["club"]
    page = client.post(
        reverse("manage:season-list", args=[club.slug]),
        {
            "name": "Wrong",
            "starts": "2026-10-01",
            "ends": "2026-11-01",
            "counts": "both",
            "scheme": "places",
            "place_points": "ten",
        },
    )
    assert page.status_code == 200
    assert "whole numbers" in page.content.decode()


@pytest.mark.parametrize("points", ["10-8-²", "٣-2-1", "10-8-6\u00b3"])
def test_points_by_place_in_other_digits_or_past_any_count_are_refused(
    client, season_club, organizer, points
):
    season = season_club["season"]
    preview = client.get(
        reverse("manage:season-detail", args=[season.pk]),
        {"scheme": "places", "place_points": points, "minimum_events": "0"},
    )
    assert preview.status_code == 200
    assert "whole numbers" in preview.content.decode()
    page = client.post(
        reverse("manage:season-list", args=[organizer.club.slug]),
        {
            "name": "Squared",
            "starts": "2026-01-01",
            "ends": "2026-12-31",
            "counts": "both",
            "scheme": "places",
            "place_points": points,
        },
    )
    assert page.status_code == 200
    assert "whole numbers" in page.content.decode()
    assert not Season.objects.filter(name="Squared").exists()


def test_closing_a_season_asks_first(client, season_club):
    season = season_club["season"]
    close = reverse("manage:season-close", args=[season.pk])
    detail = client.get(reverse("manage:season-detail", args=[season.pk])).text
    # The season's page leads to the question; nothing there closes it at once.
    assert f'href="{close}"' in detail
    assert f'action="{close}"' not in detail

    question = client.get(close)

    assert question.status_code == 200
    assert "Close the season" in question.text
    assert f'action="{close}"' in question.text
    season.refresh_from_db()
    assert season.closed_at is None
    client.post(close)
    season.refresh_from_db()
    assert season.closed_at is not None


def test_a_closed_season_keeps_its_table_until_it_is_reopened(
    client, season_club, organizer, after_commit
):
    ada, ben = season_club["ada"], season_club["ben"]
    season = season_club["season"]
    detail = reverse("manage:season-detail", args=[season.pk])
    client.post(reverse("manage:season-close", args=[season.pk]))
    frozen = [r["line"].total for r in client.get(detail).context["rows"]]
    party = ada.seats.get(party__seats__player=ben).party
    with after_commit():
        hand_decide(
            hand=party.hands.get(),
            user=organizer.player.user,
            entry=gin(party.seats.get(player=ben).position),
            reason="Ben had gin",
            disputed=False,
        )
    assert [r["line"].total for r in client.get(detail).context["rows"]] == frozen
    client.post(reverse("manage:season-reopen", args=[season.pk]), {"reason": "Correction"})
    assert [r["line"].total for r in client.get(detail).context["rows"]] != frozen
    actions = list(SeasonRecord.objects.filter(season=season).values_list("action", flat=True))
    assert actions == ["created", "closed", "reopened"]
    assert SeasonRecord.objects.get(action="reopened").details["reason"] == "Correction"


def test_the_preview_shows_last_seasons_table_under_another_scheme(client, season_club):
    club = season_club["club"]
    new = Season.objects.create(
        club=club, name="Spring 2027", starts=date(2027, 1, 1), ends=date(2027, 6, 30)
    )
    page = client.get(
        reverse("manage:season-detail", args=[new.pk]),
        {"scheme": "places", "place_points": "10-8-6", "minimum_events": "0"},
    )
    assert page.context["preview_season"] == season_club["season"]
    now = {r["name"]: r["line"].total for r in page.context["preview_now"]}
    tried = {r["name"]: r["line"].total for r in page.context["preview"]}
    assert set(now) == set(tried) == {"Ada Lovelace", "Ben Hur", "Cleo Walk"}
    # The night: Cleo +330, Ada 0 (won one, lost one), Ben -330.
    assert now == {"Cleo Walk": 330, "Ada Lovelace": 0, "Ben Hur": -330}
    assert tried == {"Cleo Walk": 10, "Ada Lovelace": 8, "Ben Hur": 6}


def test_a_new_personal_link_replaces_the_old_one(client, season_club):
    club, ben = season_club["club"], season_club["ben"]
    issue = reverse("manage:season-player-link", args=[club.slug, ben.pk])
    client.post(issue)
    old = PlayerLink.objects.get(player=ben).token
    client.post(issue)
    new = PlayerLink.objects.get(player=ben).token
    assert old != new
    assert client.get(reverse("public:player-own", args=[old])).status_code == 404
    own = client.get(reverse("public:player-own", args=[new]))
    assert own.status_code == 200 and "Ben Hur" in own.content.decode()
    assert SeasonRecord.objects.filter(action="link").count() == 2


def test_a_guest_who_joins_is_merged_into_the_member_with_his_history_and_rating(
    client, season_club
):
    from seasons.models import Rating

    club, cleo = season_club["club"], season_club["cleo"]
    member = MembershipFactory(club=club, player__name="Cleo Walker").player
    before = Rating.objects.get(club=club, player=cleo)
    page = client.get(reverse("manage:season-player", args=[club.slug, cleo.pk]))
    text = page.content.decode()
    # The merge form is offered once, in the page's body; the title stays a title.
    assert text.count('id="guest-merge"') == 1
    assert re.search(r"<title>[^<]*</title>", text)
    client.post(
        reverse("manage:season-player-merge", args=[club.slug, cleo.pk]), {"member": member.pk}
    )
    after = Rating.objects.get(club=club, player=member)
    assert (after.mu, after.parties, after.won) == (before.mu, before.parties, before.won)
    assert not Rating.objects.filter(club=club, player=cleo).exists()
    assert SeasonRecord.objects.get(action="merged").details["parties"] == 1
    page = client.get(reverse("manage:season-player", args=[club.slug, member.pk]))
    assert page.context["stats"].parties == 1


def test_two_people_who_played_each_other_are_not_merged(client, season_club):
    from seasons.models import Rating

    club, ada, cleo = season_club["club"], season_club["ada"], season_club["cleo"]
    page = client.post(
        reverse("manage:season-player-merge", args=[club.slug, cleo.pk]),
        {"member": ada.pk},
        follow=True,
    )
    assert "they are two people" in page.content.decode()
    assert Rating.objects.filter(club=club, player=cleo).exists()


def test_the_season_pages_keep_their_query_count_as_seasons_and_events_grow(
    client, season_club, django_assert_max_num_queries, after_commit
):
    from scoring.services.nights import night_create

    club, ada, ben = season_club["club"], season_club["ada"], season_club["ben"]
    for year in range(2010, 2016):
        Season.objects.create(
            club=club, name=f"Season {year}", starts=date(year, 1, 1), ends=date(year, 12, 31)
        )
    with after_commit():
        for day in range(1, 6):
            night = night_create(club=club, name=f"Night {day}", date=date(2026, 11, day))
            play_party(club, [ada, ben], winner=ada, night=night, seed=day)
    season = season_club["season"]
    with django_assert_max_num_queries(12):
        assert client.get(reverse("manage:season-list", args=[club.slug])).status_code == 200
    with django_assert_max_num_queries(24):
        page = client.get(
            reverse("manage:season-detail", args=[season.pk]),
            {"scheme": "places", "place_points": "10-8-6", "minimum_events": "0"},
        )
    assert page.status_code == 200
    assert page.context["preview_season"].name == "Season 2015"


def test_a_rating_is_shown_provisional_again_after_a_long_absence(
    client, season_club, after_commit
):
    from datetime import timedelta

    from django.utils import timezone

    from seasons.models import Rating

    club, ada = season_club["club"], season_club["ada"]
    # Settled: a low uncertainty, as after many parties.
    Rating.objects.filter(club=club, player=ada).update(sigma=3.0)
    url = reverse("manage:season-player", args=[club.slug, ada.pk])
    assert "?" not in client.get(url).context["rating_shown"]["label"]
    Rating.objects.filter(club=club, player=ada).update(
        last_played=timezone.localdate() - timedelta(days=3 * 365)
    )
    assert client.get(url).context["rating_shown"]["label"].endswith("?")
