"""The night's results and settle-up with every game: a Chinchón party of three and
a Canasta party of two partnerships beside a Gin Rummy party, each worked out by
hand below; the CSV names the games; the page's queries do not grow with the
parties; and the seasons and ratings still count Gin Rummy alone."""

import csv
import io
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.services import nights
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from seasons.models import RatingChange
from seasons.services import ratings_rebuild
from tests.factories import ClubNightFactory, start_game_party, start_night_party

pytestmark = pytest.mark.django_db

# Gin with 80 under the classic rules: 100 hand points, a box of 20, the game bonus
# of 100 and the shutout bonus of 100.
GIN_MARGIN = 100 + 20 + 100 + 100


@pytest.fixture
def night(organizer):
    return ClubNightFactory(club=organizer.club, name="Friday")


def gin_won_by_first_seat(night, seed=1):
    party = start_night_party(night, seed=seed)
    a, b = party.seats.select_related("player").order_by("position")
    hand_enter(seat=a, number=1, entry=Result("gin", 0, 0, 80))
    hand_confirm(seat=b, number=1, version=1)
    return a.player, b.player


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


def results(client, night):
    return client.get(reverse("manage:night-results", args=[night.pk]))


def test_every_game_counts_in_the_nights_results_and_settle_up(client, night):
    nights.night_set_stake(night=night, stake="0.01")
    gin_winner, gin_loser = gin_won_by_first_seat(night)
    c1, c2, c3 = chinchon_of_three(night)
    k1, k2, k3, k4 = canasta_of_four(night)

    response = results(client, night)

    rows = {row["player"]: row for row in response.context["rows"]}
    expected = {
        gin_winner: (1, 1, GIN_MARGIN, ["Gin Rummy"]),
        gin_loser: (1, 0, -GIN_MARGIN, ["Gin Rummy"]),
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

    response = results(client, night)

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

    rows = {row["player"]: row["plus_minus"] for row in results(client, night).context["rows"]}

    assert rows == {a: 3, b: 0, c: -3}


def test_the_results_csv_has_the_games(client, night):
    gin_winner, _ = gin_won_by_first_seat(night)
    c1, _, _ = chinchon_of_three(night)

    response = client.get(reverse("manage:night-results-csv", args=[night.pk]))

    lines = list(csv.reader(io.StringIO(response.content[3:].decode("utf-8"))))
    assert lines[0] == ["Player", "Games", "Parties played", "Parties won", "Plus/minus"]
    by_name = {line[0]: line for line in lines[1:]}
    assert by_name[gin_winner.name][1:] == ["Gin Rummy", "1", "1", str(GIN_MARGIN)]
    assert by_name[c1.name][1:] == ["Chinchón", "1", "1", "160"]


@pytest.mark.parametrize("rounds", [1, 6])
def test_the_results_query_count_does_not_grow_with_parties_of_any_game(
    client, night, django_assert_max_num_queries, rounds
):
    nights.night_set_stake(night=night, stake="0.05")
    for seed in range(rounds):
        gin_won_by_first_seat(night, seed=seed)
        chinchon_of_three(night)
        canasta_of_four(night)
    with django_assert_max_num_queries(11):
        response = results(client, night)
    assert len(response.context["rows"]) == 9 * rounds


def test_each_game_of_the_night_is_rated_apart(night):
    gin_won_by_first_seat(night)
    chinchon_of_three(night)
    canasta_of_four(night)

    assert ratings_rebuild(club_id=night.club_id) == 3
    games = RatingChange.objects.values_list("party__game", "game").distinct()
    assert sorted(games) == [(g, g) for g in ("canasta", "chinchon", "gin_rummy")]
