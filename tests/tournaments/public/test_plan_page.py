"""The public page of an evening planned ahead: every round's tables and each
player's tables for the evening, while the pairings are public."""

import pytest
from django.urls import reverse

from tests.tournaments.test_table_tournaments import table_tournament

pytestmark = pytest.mark.django_db


def plan_url(tournament):
    return reverse("public:plan", args=[tournament.slug])


def test_the_evening_s_plan_shows_every_round_and_each_player_s_tables(
    client, club, committed, django_assert_max_num_queries
):
    tournament, _ = table_tournament(club, 13, committed, format="planned", rounds=4)
    tournament.public_pairings = True
    tournament.save()

    with django_assert_max_num_queries(8):
        response = client.get(plan_url(tournament))

    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('class="plan-round"') == 4
    body = page.split('id="plan-players"')[1].split("<tbody>")[1].split("</tbody>")[0]
    assert body.count("<tr>") == 13
    # Each player sits at a table in every round (13 at tables of four: no one out).
    for card in tournament.plan:
        assert sum(len(table) for table in card["tables"]) == 13
    # The tournament's tabs lead to it.
    assert 'id="nav-plan"' in page


def test_no_plan_page_while_the_pairings_are_not_public_or_nothing_is_planned(
    client, club, committed
):
    planned, _ = table_tournament(club, 13, committed, format="planned", rounds=4)
    planned.public_pairings, planned.public_standings = False, True
    planned.save()
    swiss, _ = table_tournament(club, 8, committed)
    swiss.public_pairings = True
    swiss.save()

    assert client.get(plan_url(planned)).status_code == 404
    assert client.get(plan_url(swiss)).status_code == 404
