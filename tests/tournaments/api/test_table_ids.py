"""A round's tables carry their ids in the API's answers, so a program forfeits a
table and takes the forfeit back from what the API told it, not from the database;
reading them costs one query however many tables there are."""

import pytest

from tests.tournaments.api.test_api import keyholder, post  # noqa: F401 - fixture
from tests.tournaments.api.test_taking_back import start_by_api
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def test_a_program_forfeits_a_table_by_the_id_the_round_gave_it(
    keyholder,  # noqa: F811
    client,
    django_capture_on_commit_callbacks,
):
    club, key = keyholder
    slug, auth = start_by_api(client, club, key, "ABCD", django_capture_on_commit_callbacks)

    detail = client.get(f"/api/manage/tournaments/{slug}", **auth).json()
    line = detail["rounds_played"][0]["tables"][0]
    base = f"/api/manage/tournaments/{slug}/tables/{line['id']}/forfeit"
    forfeited = post(client, base, {"absent": line["sides"][1]["entrant"]}, **auth)
    undone = post(client, base + "/undo", **auth)

    assert forfeited.status_code == 200, forfeited.content
    after = next(t for t in forfeited.json()["rounds_played"][0]["tables"] if t["id"] == line["id"])
    assert (after["number"], after["absent"]) == (line["number"], 1)
    assert undone.status_code == 200, undone.content


def test_the_public_round_names_each_table_by_its_id(
    keyholder,  # noqa: F811
    client,
    django_capture_on_commit_callbacks,
):
    club, key = keyholder
    slug, auth = start_by_api(client, club, key, "ABCDEF", django_capture_on_commit_callbacks)

    public = client.get(f"/api/tournaments/{slug}/rounds/1").json()["tables"]
    managed = client.get(f"/api/manage/tournaments/{slug}", **auth).json()

    stored = {t.number: t.pk for t in Table.objects.filter(round__tournament__slug=slug)}
    assert {t["number"]: t["id"] for t in public} == stored
    assert {t["number"]: t["id"] for t in managed["rounds_played"][0]["tables"]} == stored


@pytest.mark.parametrize("names", ["ABCD", "ABCDEFGHIJKL"])
def test_the_table_ids_cost_the_same_queries_however_many_tables(
    keyholder,  # noqa: F811
    client,
    django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
    names,
):
    club, key = keyholder
    slug, auth = start_by_api(client, club, key, names, django_capture_on_commit_callbacks)
    client.get(f"/api/tournaments/{slug}/rounds/1")  # the board is stored

    with django_assert_max_num_queries(2):
        client.get(f"/api/tournaments/{slug}/rounds/1")
    with django_assert_max_num_queries(18):
        client.get(f"/api/manage/tournaments/{slug}", **auth)
