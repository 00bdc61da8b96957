import pytest
from django.test import Client

from seasons.services import player_link_issue
from tests.factories import MembershipFactory
from tests.seasons.conftest import play_game_party, play_party

pytestmark = pytest.mark.django_db


@pytest.fixture
def anyone():
    return Client()


def test_the_ratings_name_only_the_listed_and_give_no_id_for_the_rest(anyone, season_club):
    slug = season_club["club"].slug
    body = anyone.get(f"/api/clubs/{slug}/ratings").json()
    by_name = {entry["name"]: entry for entry in body}
    assert set(by_name) == {"Ada Lovelace", "B. H.", "C. W."}
    assert by_name["Ada Lovelace"]["player_id"] == season_club["ada"].pk
    assert by_name["B. H."]["player_id"] is None
    assert by_name["C. W."]["shown"].endswith("?")


def test_a_published_season_table_and_nothing_of_an_unpublished_one(anyone, season_club):
    slug, season = season_club["club"].slug, season_club["season"]
    body = anyone.get(f"/api/clubs/{slug}/seasons/{season.pk}").json()
    assert [(line["name"], line["total"]) for line in body["lines"]] == [
        ("C. W.", 330),
        ("Ada Lovelace", 0),
        ("B. H.", -330),
    ]
    season.published = False
    season.save()
    answer = anyone.get(f"/api/clubs/{slug}/seasons/{season.pk}")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert anyone.get(f"/api/clubs/{slug}/seasons").json() == []


def test_player_statistics_follow_the_pages_rules(anyone, season_club, organizer):
    slug = season_club["club"].slug
    ada = anyone.get(f"/api/clubs/{slug}/players/{season_club['ada'].pk}").json()
    assert ada["name"] == "Ada Lovelace"
    assert ada["gin_rate"] == {"value": 0.5, "rests_on": 2}
    assert {r["name"] for r in ada["head_to_head"]} == {"B. H.", "C. W."}
    assert anyone.get(f"/api/clubs/{slug}/players/{season_club['ben'].pk}").status_code == 404
    link = player_link_issue(
        club=season_club["club"], player=season_club["ben"], user=organizer.player.user
    )
    assert anyone.get(f"/api/me/{link.token}").json()["name"] == "Ben Hur"
    assert anyone.get("/api/me/" + "x" * 43).status_code == 404


def test_the_endpoints_keep_their_query_count_as_parties_grow(
    anyone, season_club, django_assert_max_num_queries, after_commit
):
    club, ada, ben = season_club["club"], season_club["ada"], season_club["ben"]
    with after_commit():
        for n in range(6):
            play_party(club, [ada, ben], winner=ben, seed=n)
            a, b = (MembershipFactory(club=club).player for _ in range(2))
            play_party(club, [a, b], winner=a, seed=n)
            # Another game's parties: the player's record per game reads its hands
            # at once, however many.
            play_game_party(club, "chinchon", [ada, ben], [{"closer": 0, "penalties": [0, 60]}] * 2)
    for url, budget in (
        (f"/api/clubs/{club.slug}/ratings", 6),
        (f"/api/clubs/{club.slug}/seasons/{season_club['season'].pk}", 12),
        (f"/api/clubs/{club.slug}/players/{ada.pk}", 16),
    ):
        with django_assert_max_num_queries(budget):
            assert anyone.get(url).status_code == 200


def test_the_openapi_document_holds_the_seasons_endpoints(anyone):
    paths = anyone.get("/api/openapi.json").json()["paths"]
    assert "/api/clubs/{slug}/seasons/{season_id}" in paths
    assert "/api/me/{token}" in paths
