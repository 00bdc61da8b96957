"""A club night of every game: the organizer starts a party of Chinchón, Canasta,
Blaue Vierzehn or Cruzo with its options and the players in seat order (Gin Rummy
as before), sees its sheet and seat links, and decides its disputed hands."""

import pytest
from django.urls import reverse

from scoring.models import Hand, Party
from scoring.services.hands import hand_enter
from tests.demo.test_markup import faults
from tests.factories import ClubNightFactory, MembershipFactory, start_game_party

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(organizer):
    return ClubNightFactory(club=organizer.club, name="Friday")


def night_url(night):
    return reverse("manage:night-detail", args=[night.pk])


def members(night, count):
    return [MembershipFactory(club=night.club).player for _ in range(count)]


def seats(players) -> dict:
    return {f"seat_{n}": player.pk for n, player in enumerate(players, 1)}


@pytest.mark.parametrize(
    ("game", "count", "options", "rules", "sides"),
    [
        (
            "chinchon",
            3,
            {"chinchon_conga": "True", "chinchon_deck": "48"},
            {"conga": True, "deck": 48},
            [[0], [1], [2]],
        ),
        ("canasta", 4, {}, {"partnerships": None}, [[0, 2], [1, 3]]),
        (
            "canasta",
            6,
            {"canasta_partnerships": "3"},
            {"partnerships": 3},
            [[0, 3], [1, 4], [2, 5]],
        ),
        ("blaue_vierzehn", 4, {"blaue_vierzehn_deals": "8"}, {"deals": 8}, [[0], [1], [2], [3]]),
        ("cruzo", 7, {"cruzo_games": "2"}, {"games": 2}, [[n] for n in range(7)]),
    ],
)
def test_a_party_of_each_game_starts_with_its_options_and_the_seats_in_order(
    client, night, game, count, options, rules, sides
):
    players = members(night, count)

    response = client.post(night_url(night), {"game": game, **seats(players), **options})

    party = Party.objects.get(night=night)
    assert response.status_code == 302
    assert response.url == reverse("manage:party-detail", args=[party.pk])
    assert (party.game, party.rules) == (game, rules)
    placed = list(party.seats.order_by("position"))
    assert [seat.player for seat in placed] == players
    assert [[s.position for s in placed if s.side == side] for side in range(len(sides))] == sides


def test_gin_rummy_stays_the_default_and_draws_its_seats(client, night):
    players = members(night, 2)

    client.post(night_url(night), {"format": "two", "players": [p.pk for p in players]})

    party = Party.objects.get(night=night)
    assert (party.game, party.format) == ("gin_rummy", "two")


def test_the_start_form_offers_every_game_and_its_options_in_words(client, night):
    text = client.get(night_url(night)).text

    for name in ("Gin Rummy", "Chinchón", "Canasta", "Blaue Vierzehn", "Cruzo"):
        assert name in text
    assert "La Conga: out at 100, the last player under 100 wins" in text
    assert "40 cards (without 8s and 9s)" in text
    assert "Six players: three partnerships of two" in text
    assert 'name="seat_7"' in text
    assert "Empty: one deal each, so every player deals once." in text


def test_the_options_are_in_the_club_s_words_in_german_too(client, night):
    """The game words its options (`Option`); the form translates them."""
    text = client.get(night_url(night), HTTP_ACCEPT_LANGUAGE="de").text

    assert "La Conga: Mit 100 ist man raus" in text
    assert "Anzahl der Runden" in text
    assert "Number of deals" not in text


@pytest.mark.parametrize(
    ("game", "count", "message"),
    [
        ("blaue_vierzehn", 2, "Blaue Vierzehn is played by 3 to 6 players: 2 are seated."),
        ("chinchon", 5, "Chinchón is played by 2 to 4 players: 5 are seated."),
        ("cruzo", 0, "Choose the players of Cruzo seat by seat."),
    ],
)
def test_a_table_the_game_is_not_played_at_is_refused_in_words(client, night, game, count, message):
    response = client.post(night_url(night), {"game": game, **seats(members(night, count))})

    assert response.status_code == 200
    assert message in response.text
    assert not Party.objects.filter(night=night).exists()


def test_a_player_in_two_seats_is_refused(client, night):
    ada, ben = members(night, 2)

    response = client.post(night_url(night), {"game": "chinchon", **seats([ada, ben, ada])})

    assert f"{ada.name} already has a seat." in response.text
    assert not Party.objects.filter(night=night).exists()


def test_five_at_canasta_with_three_partnerships_is_the_engines_refusal(client, night):
    players = members(night, 5)

    response = client.post(
        night_url(night), {"game": "canasta", **seats(players), "canasta_partnerships": "3"}
    )

    assert "5 players play as two partnerships." in response.text
    assert not Party.objects.filter(night=night).exists()


def test_the_night_page_lists_every_party_with_its_game(client, night):
    chinchon = start_game_party("chinchon", 2, night=night)
    canasta = start_game_party("canasta", 4, night=night)

    for url in (night_url(night), reverse("manage:night-tables", args=[night.pk])):
        text = client.get(url).text
        assert f'id="table-{chinchon.pk}"' in text
        assert f'id="table-{canasta.pk}"' in text
        assert 'data-game="canasta">Canasta</p>' in text


def test_the_party_page_of_another_game_shows_sheet_seats_and_record(client, night):
    party = start_game_party("chinchon", 3, night=night, confirmation_required=False)
    first, second, third = party.seats.select_related("player").order_by("position")
    hand_enter(seat=first, number=1, entry={"closer": 0, "penalties": [0, 40, 100]})

    response = client.get(reverse("manage:party-detail", args=[party.pk]))

    assert response.status_code == 200
    text = response.text
    assert "Chinchón" in text and "the lowest total wins" in text
    assert all(seat.token in text for seat in (first, second, third))
    totals = [c["total"] for c in response.context["standings"]]
    assert totals == [-10, 40, 100]
    assert [c["margin"] for c in response.context["standings"]] == [160, 10, -170]
    assert f"Won by {first.player.name}" in text
    assert "Hand 1 · confirmed" in text  # the audit log, in the game's terms


def disputed_chinchon(night):
    party = start_game_party("chinchon", 2, night=night)
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 30]})
    hand_enter(seat=b, number=1, entry={"closer": 0, "penalties": [0, 20]})
    return party, party.hands.get()


def decide_url(hand):
    return reverse("manage:hand-decide", args=[hand.pk])


def test_a_disputed_hand_shows_both_entries_side_by_side(client, night):
    party, hand = disputed_chinchon(night)

    response = client.get(reverse("manage:party-detail", args=[party.pk]))

    row = next(row for row in response.context["hands"] if row["hand"] == hand)
    assert [(c["entered"], c["counter"], c["differs"]) for c in row["compare"]] == [
        (-10, -10, False),
        (30, 20, True),
    ]
    assert f'id="hand-{hand.pk}-decide"' in response.text


def test_the_organizer_decides_a_dispute_with_the_right_entry(client, night):
    _party, hand = disputed_chinchon(night)

    response = client.post(
        decide_url(hand),
        {"closer": "0", "penalty_0": "0", "penalty_1": "25", "reason": "counted together"},
    )

    assert response.status_code == 302
    hand.refresh_from_db()
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [-10, 25])
    assert hand.details["entry"] == {"closer": 0, "penalties": [0, 25], "chinchon": False}


def test_the_organizer_accepts_the_other_entry(client, night):
    _party, hand = disputed_chinchon(night)

    client.post(decide_url(hand), {"version": "counter", "reason": "the cards were shown"})

    hand.refresh_from_db()
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [-10, 20])


def test_the_decision_is_sent_as_every_games_is_and_its_reason_shown(client, night):
    party, hand = disputed_chinchon(night)
    page_url = reverse("manage:party-detail", args=[party.pk])
    assert 'name="decision" value="counter"' in client.get(page_url).text

    client.post(decide_url(hand), {"decision": "counter", "reason": "the cards were shown"})

    hand.refresh_from_db()
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [-10, 20])
    assert "Reason: the cards were shown" in client.get(page_url).text


def test_an_entry_the_game_refuses_comes_back_with_its_message_not_an_error(client, night):
    _party, hand = disputed_chinchon(night)

    response = client.post(
        decide_url(hand),
        {"closer": "0", "penalty_0": "5", "penalty_1": "25", "chinchon": "on", "reason": "x"},
    )

    assert response.status_code == 400
    assert "A Chinchón melds all seven cards" in response.text
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DISPUTED


def test_a_decision_needs_a_reason(client, night):
    _party, hand = disputed_chinchon(night)

    response = client.post(decide_url(hand), {"version": "entered", "reason": ""})

    assert response.status_code == 400
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DISPUTED


def test_a_canasta_dispute_is_decided_side_by_side(client, night):
    party = start_game_party("canasta", 4, night=night)
    a, b, _, _ = party.seats.order_by("position")
    entry = {"sides": [{"meld_points": 300}, {"meld_points": 200, "hand_points": 50}]}
    hand_enter(seat=a, number=1, entry=entry)
    entry["sides"][1]["hand_points"] = 40
    hand_enter(seat=b, number=1, entry=entry)
    hand = party.hands.get()
    text = client.get(reverse("manage:party-detail", args=[party.pk])).text
    assert f'id="hand-{hand.pk}-hand_points_1"' in text
    # A side has melded unless the organizer says otherwise, as the players' entry.
    assert f'id="hand-{hand.pk}-melded_nothing_0"' in text
    assert f'id="hand-{hand.pk}-melded_nothing_0" checked' not in text

    client.post(
        decide_url(hand),
        {
            "meld_points_0": "300",
            "meld_points_1": "200",
            "hand_points_1": "45",
            "reason": "recounted",
        },
    )

    hand.refresh_from_db()
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [300, 155])


def test_a_cruzo_dispute_is_decided_by_order_out_and_cards_left(client, night):
    party = start_game_party("cruzo", 3, night=night)
    a, b, _ = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry={"went_out": [0], "cards_left": {"1": 2, "2": 5}})
    hand_enter(seat=b, number=1, entry={"went_out": [1], "cards_left": {"0": 2, "2": 5}})
    hand = party.hands.get()

    client.post(
        decide_url(hand),
        {"out_0": "1", "left_1": "2", "left_2": "5", "reason": "seen by the organizer"},
    )

    hand.refresh_from_db()
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [2, 1, 0])


def test_blaue_vierzehn_dispute_decided_with_each_players_points(client, night):
    party = start_game_party("blaue_vierzehn", 3, night=night)
    a, b, _ = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry={"points": [20, 18, 18]})
    hand_enter(seat=b, number=1, entry={"points": [18, 20, 18]})
    hand = party.hands.get()

    client.post(
        decide_url(hand),
        {"points_0": "10", "points_1": "28", "points_2": "18", "reason": "recounted"},
    )

    hand.refresh_from_db()
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [10, 28, 18])


@pytest.mark.parametrize("parties", [1, 8])
def test_the_night_page_reads_every_game_in_the_same_queries(
    client, night, django_assert_max_num_queries, parties
):
    for _ in range(parties):
        party = start_game_party("chinchon", 2, night=night)
        a, b = party.seats.order_by("position")
        hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 30]})
        hand_enter(seat=b, number=1, entry={"closer": 0, "penalties": [0, 20]})
        start_game_party("canasta", 4, night=night)
    with django_assert_max_num_queries(10):
        response = client.get(night_url(night))
    assert len(response.context["glance"]["rows"]) == 2 * parties
    assert response.context["glance"]["counts"]["disputed"] == parties


@pytest.mark.parametrize("hands", [1, 8])
def test_the_party_page_of_another_game_reads_in_the_same_queries(
    client, night, django_assert_max_num_queries, hands
):
    party = start_game_party("blaue_vierzehn", 3, options={"deals": 9}, night=night)
    a, b, c = party.seats.order_by("position")
    for number in range(1, hands + 1):
        hand_enter(seat=a, number=number, entry={"points": [20, 18, 18]})
        hand_enter(seat=b, number=number, entry={"points": [20, 18, 18]})
        hand_enter(seat=c, number=number, entry={"points": [20, 18, 18]})
    with django_assert_max_num_queries(14):
        response = client.get(reverse("manage:party-detail", args=[party.pk]))
    assert len(response.context["hands"]) == hands
    assert "confirmed by" in response.text


def test_the_printable_table_cards_of_another_game(client, night):
    party = start_game_party("cruzo", 5, night=night)

    response = client.get(reverse("manage:party-cards", args=[party.pk]))

    assert response.status_code == 200
    assert all(seat.token in response.text for seat in party.seats.all())


def test_the_pages_of_another_game_read_in_german(client, night):
    party = start_game_party("canasta", 4, night=night)
    client.cookies["django_language"] = "de"

    night_page = client.get(night_url(night), HTTP_ACCEPT_LANGUAGE="de").text
    party_page = client.get(
        reverse("manage:party-detail", args=[party.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).text

    assert "Andere Spiele: Spieler in Sitzreihenfolge" in night_page
    assert "Sechs Spieler: drei Parteien zu zweit" in night_page
    assert "die meisten Punkte gewinnen" in party_page


def test_the_pages_of_every_game_are_well_formed(client, night):
    party, _hand = disputed_chinchon(night)
    canasta = start_game_party("canasta", 4, night=night)
    a, b, _, _ = canasta.seats.order_by("position")
    entry = {"sides": [{"meld_points": 300}, {"meld_points": 200, "hand_points": 50}]}
    hand_enter(seat=a, number=1, entry=entry)
    entry["sides"][1]["hand_points"] = 40
    hand_enter(seat=b, number=1, entry=entry)

    for url in (
        night_url(night),
        reverse("manage:party-detail", args=[party.pk]),
        reverse("manage:party-detail", args=[canasta.pk]),
    ):
        assert faults(client.get(url).text) == [], url


def test_only_the_chosen_games_fields_are_read(client, night):
    players = members(night, 2)

    response = client.post(
        night_url(night),
        {
            "game": "gin_rummy",
            "format": "two",
            "players": [p.pk for p in players],
            "cruzo_games": "many",
            "seat_1": "999999",
        },
    )

    assert response.status_code == 302
    assert Party.objects.get(night=night).game == "gin_rummy"


def test_a_party_of_another_game_started_by_mistake_is_cancelled_and_counts_nowhere(client, night):
    party = start_game_party("chinchon", 2, night=night, confirmation_required=False)
    first = party.seats.order_by("position").first()
    hand_enter(seat=first, number=1, entry={"closer": 0, "penalties": [0, 100]})

    response = client.post(
        reverse("manage:party-cancel", args=[party.pk]), {"reason": "wrong table"}
    )

    assert response.status_code == 302
    party.refresh_from_db()
    assert party.status == Party.Status.CANCELLED
    assert client.get(night_url(night)).context["glance"]["counts"]["cancelled"] == 1
    results = client.get(reverse("manage:night-results", args=[night.pk])).context
    assert (results["rows"], results["running"]) == ([], 0)


def test_a_wrong_player_of_another_game_is_swapped_before_the_first_hand(client, night):
    party = start_game_party("canasta", 4, night=night)
    seat = party.seats.get(position=2)
    newcomer = members(night, 1)[0]

    response = client.post(reverse("manage:seat-swap", args=[seat.pk]), {"player": newcomer.pk})

    assert response.status_code == 302
    seat.refresh_from_db()
    assert (seat.player, seat.side) == (newcomer, 0)
    assert newcomer.name in client.get(reverse("manage:party-detail", args=[party.pk])).text


def test_the_organizer_accepts_the_entry_made_first(client, night):
    _party, hand = disputed_chinchon(night)

    client.post(decide_url(hand), {"version": "entered", "reason": "the cards were shown"})

    hand.refresh_from_db()
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [-10, 30])
    assert hand.details["entry"] == {"closer": 0, "penalties": [0, 30]}


def test_the_party_page_names_every_player_who_confirmed_a_hand(client, night):
    party = start_game_party("blaue_vierzehn", 4, night=night)
    a, b, c, d = party.seats.select_related("player").order_by("position")
    points = {"points": [10, 20, 13, 13]}
    hand_enter(seat=a, number=1, entry=points)
    hand_enter(seat=c, number=1, entry=points, version=1)
    hand_enter(seat=b, number=1, entry=points, version=1)
    hand_enter(seat=b, number=2, entry=points)
    hand_enter(seat=d, number=2, entry=points, version=1)
    page_url = reverse("manage:party-detail", args=[party.pk])

    text = client.get(page_url).text

    first, second = (
        " ".join(part.split("</span>")[0].split()) for part in text.split("data-confirmers>")[1:]
    )
    assert first == f"confirmed by {c.player.name}, {b.player.name}"
    assert second == f"confirmed so far by {d.player.name}"


def test_gin_rummys_and_the_other_games_fields_are_not_read_for_chinchon(client, night):
    players = members(night, 3)
    stray = members(night, 1)[0]

    response = client.post(
        night_url(night),
        {
            "game": "chinchon",
            **seats(players),
            "format": "no such format",
            "players": [stray.pk, "not a player"],
            "cruzo_games": "many",
            "canasta_partnerships": "7",
        },
    )

    assert response.status_code == 302
    party = Party.objects.get(night=night)
    assert party.game == "chinchon"
    assert party.format == Party.Format.TWO
    seated = list(party.seats.order_by("position").values_list("player", flat=True))
    assert seated == [p.pk for p in players]


def test_each_part_of_the_start_form_names_the_games_it_belongs_to(client, night):
    text = client.get(night_url(night)).text

    # Without script every game's fieldset is shown, headed by the game's name;
    # the script shows those whose data-games hold the chosen game.
    for game, name in [
        ("gin_rummy", "Gin Rummy"),
        ("chinchon", "Chinchón"),
        ("canasta", "Canasta"),
        ("blaue_vierzehn", "Blaue Vierzehn"),
        ("cruzo", "Cruzo"),
    ]:
        fieldset = text.split(f'data-games="{game}" id="game-{game}">', 1)[1]
        assert fieldset.lstrip().startswith(f"<legend>{name}</legend>"), game
    assert 'id="game-seats" data-games="chinchon canasta blaue_vierzehn cruzo"' in text
    assert 'class="seat-pick" data-games="chinchon canasta blaue_vierzehn cruzo"' in text
    # Only Cruzo seats seven.
    seventh = text.split('name="seat_7"', 1)[0].rsplit('class="seat-pick"', 1)[1]
    assert seventh.startswith(' data-games="cruzo"')
    assert "js/party-start.js" in text
