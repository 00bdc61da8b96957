"""A club night's results, its payments and its stake through the organizer's API,
with a personal key: the numbers are the results page's and results.csv's (Gin
Rummy and another game side by side), places shared by equal plus/minus, the stake
read and set as on the night's page and recorded alike; a wrong stake or a closed
night is a 4xx with a sentence; the reads cost the same queries however many
parties the night had."""

import csv
import io
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import ClubRecord
from clubs.services import api_token_create
from scoring.services import nights
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.factories import (
    ClubNightFactory,
    OrganizerFactory,
    start_game_party,
    start_night_party,
)

pytestmark = pytest.mark.django_db

ADDRESS = "198.51.100.7"


@pytest.fixture
def director():
    return OrganizerFactory(player__user__username="director")


@pytest.fixture
def night(director):
    return ClubNightFactory(club=director.club, name="Friday")


@pytest.fixture
def api(director):
    """Calls the API with the director's key, from a fixed address."""
    key = api_token_create(user=director.player.user, name="club website")[1]
    client = Client(HTTP_AUTHORIZATION=f"Bearer {key}", REMOTE_ADDR=ADDRESS)

    def call(method, path, data=None):
        send = getattr(client, method)
        if data is None:
            return send(f"/api{path}")
        return send(f"/api{path}", data, content_type="application/json")

    return call


def gin_won_by_first_seat(night, seed=1):
    party = start_night_party(night, seed=seed)
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("gin", 0, 0, 80))
    hand_confirm(seat=b, number=1, version=1)


def chinchon_of_three(night):
    """One hand that ends the party: the first closes clean, the others keep 40 and
    100 penalty points (+160, +10, −170 as the night's results count it)."""
    party = start_game_party("chinchon", 3, night=night, confirmation_required=False)
    first = party.seats.order_by("position").first()
    hand_enter(seat=first, number=1, entry={"closer": 0, "penalties": [0, 40, 100]})


def page(director, night, name):
    client = Client()
    client.force_login(director.player.user)
    return client.get(reverse(f"manage:{name}", args=[night.pk]))


def csv_lines(director, night):
    response = page(director, night, "night-results-csv")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))[1:]


def test_the_results_are_the_numbers_of_the_results_csv(api, director, night):
    nights.night_set_stake(night=night, stake="0.05")
    gin_won_by_first_seat(night, seed=1)
    gin_won_by_first_seat(night, seed=2)
    chinchon_of_three(night)
    start_night_party(night, seed=3)  # still running: not counted yet

    response = api("get", f"/manage/nights/{night.pk}/results")

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["stake"], body["running"]) == ("0.05", 1)
    assert (body["night"]["id"], body["night"]["stake"]) == (night.pk, "0.05")
    assert [
        [line["player"]["name"], ", ".join(line["games"]), str(line["played"]),
         str(line["won"]), str(line["plus_minus"]), line["amount"]]
        for line in body["lines"]
    ] == csv_lines(director, night)  # fmt: skip


def test_the_payments_are_those_the_results_page_lists(api, director, night):
    nights.night_set_stake(night=night, stake="0.10")
    gin_won_by_first_seat(night, seed=1)
    chinchon_of_three(night)

    body = api("get", f"/manage/nights/{night.pk}/payments").json()

    listed = page(director, night, "night-results").context["payments"]
    assert body["stake"] == "0.10"
    assert [
        (p["payer"]["id"], p["payee"]["id"], p["points"], Decimal(p["amount"]))
        for p in body["payments"]
    ] == [(p["payer"].pk, p["payee"].pk, p["points"], p["amount"]) for p in listed]
    assert len(listed) >= 2
    names = {p["payer"]["name"] for p in body["payments"]}
    assert names == {p["payer"].name for p in listed}


def test_without_a_stake_there_are_no_amounts_and_no_payments(api, night):
    gin_won_by_first_seat(night)

    results = api("get", f"/manage/nights/{night.pk}/results").json()
    payments = api("get", f"/manage/nights/{night.pk}/payments").json()

    assert results["stake"] is None
    assert [line["amount"] for line in results["lines"]] == [None, None]
    assert payments == {"stake": None, "currency": "EUR", "running": 0, "payments": []}


def test_equal_plus_minus_share_a_place(api, night):
    gin_won_by_first_seat(night, seed=1)
    gin_won_by_first_seat(night, seed=2)

    lines = api("get", f"/manage/nights/{night.pk}/results").json()["lines"]

    assert [(line["place"], line["shared"]) for line in lines] == [
        (1, True), (1, True), (3, True), (3, True)
    ]  # fmt: skip
    assert [line["plus_minus"] for line in lines] == [320, 320, -320, -320]


def test_the_stake_is_read_and_set_as_on_the_nights_page(api, night):
    before = api("get", f"/manage/nights/{night.pk}/stake").json()
    set_ = api("post", f"/manage/nights/{night.pk}/stake", {"stake": "0.05"})
    as_number = api("post", f"/manage/nights/{night.pk}/stake", {"stake": 0.1})
    after = api("get", f"/manage/nights/{night.pk}/stake").json()

    assert before == {"stake": None, "currency": "EUR"}
    assert set_.status_code == 200, set_.content
    assert set_.json() == {"stake": "0.05", "currency": "EUR"}
    assert as_number.json() == {"stake": "0.10", "currency": "EUR"}
    assert after == {"stake": "0.10", "currency": "EUR"}
    night.refresh_from_db()
    assert night.stake == Decimal("0.10")
    record = ClubRecord.objects.filter(action=ClubRecord.Action.STAKE).last()
    assert (record.address, record.details["was"]) == (ADDRESS, "0.05")
    assert Decimal(record.details["stake"]) == Decimal("0.10")


def test_a_null_stake_means_not_for_money(api, night):
    nights.night_set_stake(night=night, stake="0.05")

    response = api("post", f"/manage/nights/{night.pk}/stake", {"stake": None})

    assert response.json() == {"stake": None, "currency": "EUR"}
    night.refresh_from_db()
    assert night.stake is None


@pytest.mark.parametrize("stake", ["0.001", "-1", "abc", "NaN", "100000", True])
def test_a_wrong_stake_is_a_422_with_a_sentence_and_changes_nothing(api, night, stake):
    nights.night_set_stake(night=night, stake="0.05")

    response = api("post", f"/manage/nights/{night.pk}/stake", {"stake": stake})

    body = response.json()
    assert (response.status_code, body["code"]) == (422, "invalid_entry"), body
    assert body["errors"][0]["field"] == "stake"
    assert body["errors"][0]["message"]
    night.refresh_from_db()
    assert night.stake == Decimal("0.05")


def test_a_closed_nights_stake_is_final(api, night):
    nights.night_close(night=night, user=None)

    response = api("post", f"/manage/nights/{night.pk}/stake", {"stake": "0.05"})

    body = response.json()
    assert (response.status_code, body["code"]) == (409, "night_closed")
    assert body["detail"] == "Friday is closed: its results are final."


@pytest.mark.parametrize("path", ["results", "payments", "stake"])
def test_another_clubs_organizer_finds_nothing_and_a_stranger_must_log_in(api, path):
    other = ClubNightFactory()

    refused = api("get", f"/manage/nights/{other.pk}/{path}")
    anonymous = Client().get(f"/api/manage/nights/{other.pk}/{path}")

    assert (refused.status_code, refused.json()["code"]) == (404, "not_found")
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "not_authenticated")


def test_another_clubs_organizer_may_not_set_its_stake(api):
    other = ClubNightFactory()

    refused = api("post", f"/manage/nights/{other.pk}/stake", {"stake": "1"})

    assert refused.status_code == 404
    other.refresh_from_db()
    assert other.stake is None


@pytest.mark.parametrize("parties", [1, 8])
def test_the_results_and_payments_read_in_the_same_queries_however_many_parties(
    api, night, django_assert_max_num_queries, parties
):
    nights.night_set_stake(night=night, stake="0.05")
    for seed in range(parties):
        gin_won_by_first_seat(night, seed=seed)
    chinchon_of_three(night)

    with django_assert_max_num_queries(11):
        results = api("get", f"/manage/nights/{night.pk}/results")
    with django_assert_max_num_queries(11):
        payments = api("get", f"/manage/nights/{night.pk}/payments")

    assert len(results.json()["lines"]) == 2 * parties + 3
    assert payments.json()["payments"]


def test_every_amount_of_the_night_says_its_club_s_currency(api, night):
    # A German club keeps its accounts in euros, another in its own currency.
    night.club.currency = "CHF"
    night.club.save()
    nights.night_set_stake(night=night, stake="0.05")
    gin_won_by_first_seat(night)
    base = f"/manage/nights/{night.pk}"

    answers = [
        api("get", f"{base}/results"),
        api("get", f"{base}/payments"),
        api("get", f"{base}/stake"),
        api("post", f"{base}/stake", {"stake": "0.10"}),
    ]

    assert [a.status_code for a in answers] == [200, 200, 200, 200]
    assert {a.json()["currency"] for a in answers} == {"CHF"}
    assert answers[0].json()["night"]["currency"] == "CHF"
