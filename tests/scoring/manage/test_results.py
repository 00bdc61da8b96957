"""The night's results: every player with parties played and won and the plus/minus
(from the one party outcome), as a page and as CSV; with a stake per point, each
player's amount and the fewest payments that settle the night. Every game counts:
a Chinchón party of three and a Canasta party of two partnerships beside a Gin
Rummy party, each worked out by hand below; the CSV names the games; the page's
queries do not grow with the parties; and each game is rated apart."""

import csv
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.services import nights
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from seasons.models import RatingChange
from seasons.services import ratings_rebuild
from tests.demo.test_markup import faults
from tests.factories import ClubNightFactory, start_game_party, start_night_party

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


def chinchon_of_three(night):
    """One hand: the first closes with everything melded (−10), the others keep 40
    and 100 penalty points; 100 ends the party, the lowest total wins. Lower wins,
    so each player settles with each other the difference, the better one paid:
    the first 50 from the second and 110 from the third (+160); the second pays 50
    and takes 60 from the third (+10); the third pays 110 and 60 (−170)."""
    party = start_game_party("chinchon", 3, night=night, confirmation_required=False)
    first = party.seats.order_by("position").first()
    hand_enter(seat=first, number=1, entry={"closer": 0, "penalties": [0, 40, 100]})
    return [seat.player for seat in party.seats.order_by("position")]


def canasta_of_four(night):
    """Two hands of 2,900 to 150: 5,800 to 300, the first partnership past 5,000
    wins by 5,500; each partner wins or pays the side's margin, as at Gin
    Rummy's partnerships (seats 1 and 3 against 2 and 4)."""
    party = start_game_party("canasta", 4, night=night, confirmation_required=False)
    first = party.seats.order_by("position").first()
    entry = {
        "sides": [
            {"meld_points": 500, "natural_canastas": 3, "red_threes": 4, "went_out": True},
            {"meld_points": 200, "hand_points": 50},
        ]
    }
    for number in (1, 2):
        hand_enter(seat=first, number=number, entry=entry)
    return [seat.player for seat in party.seats.order_by("position")]


def test_every_game_counts_in_the_nights_results_and_settle_up(client, night):
    nights.night_set_stake(night=night, stake="0.01")
    gin_winner, gin_loser = won_by_first_seat(night)
    c1, c2, c3 = chinchon_of_three(night)
    k1, k2, k3, k4 = canasta_of_four(night)

    response = client.get(results_url(night))

    rows = {row["player"]: row for row in response.context["rows"]}
    expected = {
        gin_winner: (1, 1, MARGIN, ["Gin Rummy"]),
        gin_loser: (1, 0, -MARGIN, ["Gin Rummy"]),
        c1: (1, 1, 160, ["Chinchón"]),
        c2: (1, 0, 10, ["Chinchón"]),
        c3: (1, 0, -170, ["Chinchón"]),
        k1: (1, 1, 5500, ["Canasta"]),
        k3: (1, 1, 5500, ["Canasta"]),
        k2: (1, 0, -5500, ["Canasta"]),
        k4: (1, 0, -5500, ["Canasta"]),
    }
    got = {p: (r["played"], r["won"], r["plus_minus"], r["games"]) for p, r in rows.items()}
    assert got == expected
    assert rows[k1]["amount"] == Decimal("55.00")
    assert rows[c3]["amount"] == Decimal("-1.70")
    assert rows[c2]["amount"] == Decimal("0.10")
    # The payments settle every balance, whatever the game.
    paid = dict.fromkeys(rows, 0)
    for payment in response.context["payments"]:
        paid[payment["payer"]] -= payment["points"]
        paid[payment["payee"]] += payment["points"]
    assert paid == {player: row["plus_minus"] for player, row in rows.items()}
    assert "Chinchón" in response.text and "Canasta" in response.text


def test_a_running_party_of_another_game_is_not_counted_yet(client, night):
    start_game_party("blaue_vierzehn", 3, night=night)

    response = client.get(results_url(night))

    assert response.context["rows"] == []
    assert response.context["running"] == 1


def test_a_cruzo_party_pays_by_place_points(client, night):
    """Cruzo of three, one game: places score 2, 1, 0; the first is paid 1 by the
    second and 2 by the third (+3), the second takes 1 and pays 1 (0), the third
    pays 2 and 1 (−3)."""
    party = start_game_party(
        "cruzo", 3, options={"games": 1}, night=night, confirmation_required=False
    )
    first = party.seats.order_by("position").first()
    hand_enter(seat=first, number=1, entry={"went_out": [0], "cards_left": {"1": 2, "2": 5}})
    a, b, c = [seat.player for seat in party.seats.order_by("position")]

    rows = {
        row["player"]: row["plus_minus"] for row in client.get(results_url(night)).context["rows"]
    }

    assert rows == {a: 3, b: 0, c: -3}


def test_the_results_csv_has_the_games(client, night):
    gin_winner, _ = won_by_first_seat(night)
    c1, _, _ = chinchon_of_three(night)

    response = client.get(results_url(night, csv_=True))

    lines = list(csv.reader(io.StringIO(response.content[3:].decode("utf-8"))))
    assert lines[0] == ["Player", "Games", "Parties played", "Parties won", "Plus/minus"]
    by_name = {line[0]: line for line in lines[1:]}
    assert by_name[gin_winner.name][1:] == ["Gin Rummy", "1", "1", str(MARGIN)]
    assert by_name[c1.name][1:] == ["Chinchón", "1", "1", "160"]


def test_each_game_of_the_night_is_rated_apart(night):
    won_by_first_seat(night)
    chinchon_of_three(night)
    canasta_of_four(night)

    assert ratings_rebuild(club_id=night.club_id) == 3
    games = RatingChange.objects.values_list("party__game", "game").distinct()
    assert sorted(games) == [(g, g) for g in ("canasta", "chinchon", "gin_rummy")]


def gin_rummy_only(night, seed):
    """A Gin Rummy party: two players in the results."""
    won_by_first_seat(night, seed=seed)
    return 2


def every_game(night, seed):
    """A party of Gin Rummy, Chinchón and Canasta: nine players in the results."""
    won_by_first_seat(night, seed=seed)
    chinchon_of_three(night)
    canasta_of_four(night)
    return 9


@pytest.mark.parametrize(
    ("played", "rounds", "budget"),
    [(gin_rummy_only, 2, 9), (gin_rummy_only, 20, 9), (every_game, 1, 11), (every_game, 6, 11)],
    ids=["gin-rummy-2", "gin-rummy-20", "every-game-1", "every-game-6"],
)
def test_the_results_query_count_does_not_grow_with_parties_of_any_game(
    client, night, django_assert_max_num_queries, played, rounds, budget
):
    nights.night_set_stake(night=night, stake="0.05")
    players = sum(played(night, seed) for seed in range(rounds))
    with django_assert_max_num_queries(budget):
        response = client.get(results_url(night))
    assert len(response.context["rows"]) == players
