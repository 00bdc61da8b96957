"""The night's results: every player with parties played and won and the plus/minus
(from the one party outcome), as a page and as CSV; with a stake per point, each
player's amount and the fewest payments that settle the night."""

import csv
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.services import nights
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.demo.test_markup import faults
from tests.factories import ClubNightFactory, start_night_party

pytestmark = pytest.mark.django_db

# Gin with 80 under the classic rules: 100 hand points, one box of 20, the game bonus
# of 100 and the shutout bonus of 100; the loser wrote nothing: he pays 320.
MARGIN = 100 + 20 + 100 + 100


def won_by_first_seat(night, **options):
    party = start_night_party(night, **options)
    a, b = party.seats.select_related("player").order_by("position")
    hand_enter(seat=a, number=1, entry=Result("gin", 0, 0, 80))
    hand_confirm(seat=b, number=1, version=1)
    return a.player, b.player


def results_url(night, csv_=False):
    return reverse("manage:night-results-csv" if csv_ else "manage:night-results", args=[night.pk])


@pytest.fixture
def night(organizer):
    return ClubNightFactory(club=organizer.club, name="Friday")


def test_every_player_with_parties_played_and_won_and_plus_minus(client, night):
    ada, ben = won_by_first_seat(night, seed=1)
    cy, di = won_by_first_seat(night, seed=2)
    start_night_party(night, seed=3)  # still running: not counted yet

    response = client.get(results_url(night))

    rows = {row["player"]: (row["played"], row["won"], row["plus_minus"]) for row in
            response.context["rows"]}  # fmt: skip
    assert rows == {ada: (1, 1, MARGIN), cy: (1, 1, MARGIN), ben: (1, 0, -MARGIN),
                    di: (1, 0, -MARGIN)}  # fmt: skip
    assert "1 party is still running" in response.text
    assert "Who pays whom" not in response.text  # no stake: not for money


def test_with_a_stake_the_amounts_and_the_fewest_payments_settle_the_night(client, night):
    response = client.post(reverse("manage:night-stake", args=[night.pk]), {"stake": "0.05"})
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.stake == Decimal("0.05")
    ada, ben = won_by_first_seat(night, seed=1)
    cy, di = won_by_first_seat(night, seed=2)

    response = client.get(results_url(night))

    amount = Decimal("0.05") * MARGIN  # 16.00
    amounts = {row["player"]: row["amount"] for row in response.context["rows"]}
    assert amounts == {ada: amount, cy: amount, ben: -amount, di: -amount}
    payments = response.context["payments"]
    assert len(payments) == 2
    received = {ada: 0, ben: 0, cy: 0, di: 0}
    for payment in payments:
        received[payment["payer"]] -= payment["amount"]
        received[payment["payee"]] += payment["amount"]
    assert received == amounts
    first = payments[0]
    assert f"{first['payer'].name} pays {first['payee'].name} €16.00 (320 points)" in response.text
    assert "+€16.00" in response.text and "−€16.00" in response.text


@pytest.mark.parametrize("stake, message", [("-1", "greater than or equal to 0"),
                                            ("abc", "Give an amount in digits"),
                                            ("1.234,5", "more than one amount"),
                                            ("1,2,3", "more than one amount"),
                                            ("0.001", "2 decimal places")])  # fmt: skip
def test_a_wrong_stake_is_refused_with_a_message(client, night, stake, message):
    response = client.post(
        reverse("manage:night-stake", args=[night.pk]), {"stake": stake}, follow=True
    )
    assert message in response.text
    night.refresh_from_db()
    assert night.stake is None


@pytest.mark.parametrize("typed", ["0,05", "0.05"])
def test_a_german_organizer_types_the_stake_either_way_and_reads_it_back(client, night, typed):
    german = {"HTTP_ACCEPT_LANGUAGE": "de"}
    response = client.post(
        reverse("manage:night-stake", args=[night.pk]), {"stake": typed}, follow=True, **german
    )
    night.refresh_from_db()
    assert night.stake == Decimal("0.05")
    assert "Einsatz festgelegt: 0,05\u00a0€ pro Punkt." in response.text
    stake_box = re.search(r'<input[^>]*name="stake"[^>]*>', response.text)[0]
    assert 'type="text"' in stake_box and 'inputmode="decimal"' in stake_box
    assert 'value="0,05"' in stake_box


def test_a_club_in_francs_shows_its_stake_in_francs(client, night):
    night.club.currency = "CHF"
    night.club.save(update_fields=["currency"])
    nights.night_set_stake(night=night, stake="1234.50")
    page = client.get(reverse("manage:night-detail", args=[night.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert "1.234,50\u00a0CHF pro Punkt" in page.text


def test_an_empty_stake_means_not_for_money(night):
    nights.night_set_stake(night=night, stake="0.10")
    nights.night_set_stake(night=night, stake=None)
    night.refresh_from_db()
    assert night.stake is None


def test_the_results_download_as_csv(client, night):
    nights.night_set_stake(night=night, stake="0.10")
    ada, ben = won_by_first_seat(night)
    ada.name = "Jürgen Größe"
    ada.save(update_fields=["name"])

    response = client.get(results_url(night, csv_=True))

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    # A UTF-8 byte-order mark first: Excel then reads the umlauts right.
    assert response.content.startswith(b"\xef\xbb\xbf")
    lines = list(csv.reader(io.StringIO(response.content[3:].decode("utf-8"))))
    assert lines == [
        ["Player", "Games", "Parties played", "Parties won", "Plus/minus", "Amount (EUR)"],
        [ada.name, "Gin Rummy", "1", "1", str(MARGIN), "32.00"],
        [ben.name, "Gin Rummy", "1", "0", str(-MARGIN), "-32.00"],
    ]


@pytest.mark.parametrize("parties", [2, 20])
def test_the_results_query_count_does_not_grow_with_parties(
    client, night, django_assert_max_num_queries, parties
):
    nights.night_set_stake(night=night, stake="0.05")
    for seed in range(parties):
        won_by_first_seat(night, seed=seed)
    with django_assert_max_num_queries(9):
        response = client.get(results_url(night))
    assert len(response.context["rows"]) == 2 * parties


def test_a_formula_in_a_name_stays_text_in_the_nights_csv(client, night):
    ada, _ = won_by_first_seat(night)
    ada.name = "=HYPERLINK(1)"
    ada.save(update_fields=["name"])

    response = client.get(results_url(night, csv_=True))

    lines = list(csv.reader(io.StringIO(response.content[3:].decode("utf-8"))))
    assert lines[1][0] == "'=HYPERLINK(1)"


@pytest.mark.parametrize("stake", [None, "0.10"])
def test_a_night_with_no_party_over_spans_exactly_its_columns(client, night, stake):
    if stake:
        client.post(reverse("manage:night-stake", args=[night.pk]), {"stake": stake})
    start_night_party(night)  # running, so not counted

    page = client.get(results_url(night))

    assert "No party of this night is over yet." in page.text
    assert faults(page.text) == []


def test_the_german_results_csv_opens_in_a_german_spreadsheet(client, night):
    nights.night_set_stake(night=night, stake="0.10")
    ada, ben = won_by_first_seat(night)

    response = client.get(results_url(night, csv_=True), HTTP_ACCEPT_LANGUAGE="de")

    # A German spreadsheet splits at semicolons: the comma is its decimal mark.
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert lines[0] == [
        "Spieler", "Kartenspiele", "Gespielte Partien", "Gewonnene Partien", "Plus/Minus",
        "Betrag (EUR)",
    ]  # fmt: skip
    assert [ada.name, "Gin Rummy", "1", "1", str(MARGIN), "32,00"] in lines
    assert [ben.name, "Gin Rummy", "1", "0", str(-MARGIN), "-32,00"] in lines
