"""The seat page of a party of another game: its sheet, the next hand's entry
(plain forms, per game), the engine's refusals on the form, confirmation by the
other players, a dispute and a correction."""

import uuid

import pytest
from django.urls import reverse

from scoring.models import AuditRecord, Hand
from scoring.services.hands import hand_confirm, hand_enter
from tests.factories import start_game_party

pytestmark = pytest.mark.django_db


def url(seat, name="table"):
    return reverse(f"seat:{name}", args=[seat.token])


def seats_of(party):
    return list(party.seats.select_related("player").order_by("position"))


def enter(client, seat, number=1, **fields):
    data = {"number": number, "key": uuid.uuid4().hex, **fields}
    return client.post(url(seat, "table-enter"), data, follow=True)


def test_each_game_s_seat_link_opens_its_own_page(client):
    for game, players, field in [
        ("chinchon", 3, "penalty_0"),
        ("canasta", 4, "meld_points_1"),
        ("blaue_vierzehn", 4, "points_3"),
        ("cruzo", 3, "out_2"),
    ]:
        seat = seats_of(start_game_party(game, players))[0]
        response = client.get(url(seat))
        assert response.status_code == 200, game
        assert f'name="{field}"' in response.text, game
        assert "Hand 1" in response.text
        assert seat.player.name in response.text


def test_a_chinchon_hand_is_entered_and_waits_for_two_confirmations_at_a_table_of_four(client):
    party = start_game_party("chinchon", 4)
    a, b, c, _d = seats_of(party)
    response = enter(
        client, a, closer=0, penalty_0=0, penalty_1=12, penalty_2=7, penalty_3=30, key="one"
    )
    assert "Hand 1 entered" in response.text
    hand = party.hands.get()
    assert hand.details["entry"] == {
        "closer": 0,
        "penalties": [0, 12, 7, 30],
        "chinchon": False,
    }
    assert hand.scores == [-10, 12, 7, 30]
    # The entering phone shows its entry waiting, and the correction behind a choice.
    assert 'id="pending-hand"' in response.text
    assert "Correct this hand" in response.text
    assert "Waiting for 2 confirmations" in response.text

    page = client.get(url(b)).text
    assert 'id="confirm-hand"' in page
    response = client.post(
        url(b, "table-confirm"), {"number": 1, "version": hand.version}, follow=True
    )
    assert "your confirmation is counted" in response.text
    assert "1 of 2 confirmations: waiting for 1 more" in response.text
    assert "You confirmed this entry" in response.text

    response = client.post(
        url(c, "table-confirm"), {"number": 1, "version": hand.version}, follow=True
    )
    assert "Hand 1 confirmed" in response.text
    assert party.hands.get().status == Hand.Status.CONFIRMED
    assert "Hand 2" in response.text


def named(party, *names):
    seats = seats_of(party)
    for seat, name in zip(seats, names, strict=True):
        seat.player.name = name
        seat.player.save()
    return seats


def waiting(page) -> str:
    return " ".join(page.split('id="confirmations-needed"><strong>', 1)[1].split("<")[0].split())


def test_a_table_of_four_is_told_how_many_confirm_and_who_may(client):
    party = start_game_party("blaue_vierzehn", 4)
    ada, ben, cleo, _dan = named(party, "Ada", "Ben", "Cleo", "Dan")

    response = enter(client, ada, points_0=10, points_1=20, points_2=13, points_3=13)

    assert "other side" not in response.text
    assert "Hand 1 entered: waiting for confirmation." in response.text
    assert waiting(response.text) == "Waiting for 2 confirmations (Ben, Cleo or Dan)."
    assert 'id="you-confirmed"' not in response.text
    assert waiting(client.get(url(ben)).text) == "Waiting for 2 confirmations (Ben, Cleo or Dan)."

    version = party.hands.get().version
    response = client.post(
        url(ben, "table-confirm"), {"number": 1, "version": version}, follow=True
    )

    told = "1 of 2 confirmations: waiting for 1 more from Cleo or Dan."
    assert waiting(response.text) == told
    assert "You confirmed this entry." in response.text
    assert "Confirmed by Ben." in response.text
    for seat in (ada, cleo):
        page = client.get(url(seat)).text
        assert waiting(page) == told
        assert 'id="you-confirmed"' not in page


def test_a_table_of_three_waits_for_both_others(client):
    party = start_game_party("chinchon", 3)
    ada, ben, _cleo = named(party, "Ada", "Ben", "Cleo")
    response = enter(client, ada, closer=0, penalty_0=0, penalty_1=12, penalty_2=7)
    assert waiting(response.text) == "Waiting for 2 confirmations (Ben and Cleo)."

    version = party.hands.get().version
    client.post(url(ben, "table-confirm"), {"number": 1, "version": version})

    page = client.get(url(ada)).text
    assert waiting(page) == "1 of 2 confirmations: waiting for 1 more from Cleo."


def test_a_table_of_two_sides_waits_for_one_player_of_the_other_side(client):
    canasta = start_game_party("canasta", 4)
    ada, *_others = named(canasta, "Ada", "Ben", "Cleo", "Dan")
    response = enter(client, ada, meld_points_0=300, meld_points_1=200, hand_points_1=40)
    # Ada and Cleo are partners: Ben or Dan confirms.
    assert waiting(response.text) == "Waiting for 1 confirmation (Ben or Dan)."

    chinchon = start_game_party("chinchon", 2)
    eve, _fay = named(chinchon, "Eve", "Fay")
    response = enter(client, eve, closer=0, penalty_0=0, penalty_1=12)
    assert waiting(response.text) == "Waiting for 1 confirmation (Fay)."


def test_the_same_submission_sent_twice_is_stored_once(client):
    party = start_game_party("blaue_vierzehn", 3)
    a, *_ = seats_of(party)
    data = {"number": 1, "key": "twice", "points_0": 20, "points_1": 30, "points_2": 6}
    client.post(url(a, "table-enter"), data)
    response = client.post(url(a, "table-enter"), data, follow=True)
    assert "already stored" in response.text
    assert party.hands.count() == 1
    assert AuditRecord.objects.filter(party=party, action="enter").count() == 1


def test_a_deal_that_does_not_add_up_is_refused_on_the_form(client):
    party = start_game_party("blaue_vierzehn", 3)
    a, *_ = seats_of(party)
    response = enter(client, a, points_0=20, points_1=30, points_2=5)
    assert response.status_code == 400
    assert 'id="entry-problems"' in response.text
    assert "56" in response.text
    # The numbers typed stay in the form.
    assert 'value="30"' in response.text
    assert party.hands.count() == 0


def test_each_of_the_engine_s_problems_is_on_its_own_line(client):
    party = start_game_party("canasta", 2)
    a, _ = seats_of(party)
    response = enter(
        client, a, meld_points_0=0, went_out_0="on", red_threes_0=3, meld_points_1=0,
        red_threes_1=3,
    )  # fmt: skip
    assert response.status_code == 400
    problems = response.context["form"].non_field_errors()
    assert len(problems) >= 3
    assert any("red threes" in problem for problem in problems)


def test_canasta_partnerships_show_both_names_and_the_first_meld_each_side_needs(client):
    party = start_game_party("canasta", 4)
    a, b, c, d = seats_of(party)
    page = client.get(url(a)).text
    sides = {s.side: [] for s in (a, b, c, d)}
    for s in (a, b, c, d):
        sides[s.side].append(s.player.name)
    for names in sides.values():
        assert " · ".join(names) in page
    assert "First meld at least" in page
    response = enter_and_show(
        client, a, meld_points_0=900, natural_canastas_0=1, red_threes_0=2, went_out_0="on",
        meld_points_1=300, hand_points_1=45,
    )  # fmt: skip
    assert "Hand 1 entered" in response.text
    other = next(s for s in (b, c, d) if s.side != a.side)
    hand = party.hands.get()
    client.post(url(other, "table-confirm"), {"number": 1, "version": hand.version})
    page = client.get(url(a))
    hints = page.context["hints"]
    assert hints == [90, 50]


def enter_and_show(client, seat, **fields):
    response = enter(client, seat, **fields)
    if response.status_code != 200:
        pytest.fail(str(response.context["form"].errors))
    return response


def test_a_different_entry_from_another_player_disputes_the_hand(client):
    party = start_game_party("chinchon", 2)
    a, b = seats_of(party)
    enter(client, a, closer=0, penalty_0=0, penalty_1=12)
    hand = party.hands.get()
    response = enter(client, b, closer=0, penalty_0=0, penalty_1=21, version=hand.version)
    assert "disputed" in response.text
    assert party.hands.get().status == Hand.Status.DISPUTED
    page = client.get(url(a)).text
    assert 'id="dispute"' in page
    assert "21" in page


def test_the_same_entry_from_another_player_confirms_it(client):
    party = start_game_party("cruzo", 2)
    a, b = seats_of(party)
    enter(client, a, out_1=1, left_0=4)
    hand = party.hands.get()
    response = enter(client, b, out_1=1, left_0=4, version=hand.version)
    assert "Hand 1 confirmed" in response.text
    assert party.hands.get().scores == [0, 1]


def test_the_entering_side_corrects_its_entry_before_it_is_confirmed(client):
    party = start_game_party("chinchon", 2)
    a, b = seats_of(party)
    enter(client, a, closer=0, penalty_0=0, penalty_1=12)
    page = client.get(url(a)).text
    # The correction starts from the entry as it stands.
    assert 'name="penalty_1" value="12"' in page
    enter(client, a, closer=0, penalty_0=0, penalty_1=15)
    hand = party.hands.get()
    assert (hand.scores, hand.version) == ([-10, 15], 2)
    page = client.get(url(b)).text
    assert 'id="entry-changed"' in page
    response = client.post(url(b, "table-confirm"), {"number": 1, "version": 1}, follow=True)
    assert "changed hand 1" in response.text
    assert party.hands.get().status == Hand.Status.PENDING


def test_the_sheet_shows_running_totals_who_is_out_and_the_winner(client):
    party = start_game_party("chinchon", 3, options={"conga": True})
    a, b, c = seats_of(party)
    for number, penalties in enumerate(([0, 60, 50], [0, 45, 20], [0, None, 40]), start=1):
        entry = {"closer": 0, "penalties": penalties}
        entered = hand_enter(seat=a, number=number, entry=entry)
        hand_confirm(seat=b, number=number, version=entered.hand.version)
        if number < 3:
            hand_confirm(seat=c, number=number, version=entered.hand.version)
        else:
            break
    page = client.get(url(c))
    sides = page.context["sides"]
    assert [s["out"] for s in sides] == [False, True, False]
    assert "The lowest total wins" in page.text
    # Running totals: hand 2's row shows 105 for the second player.
    assert "105" in page.text
    # Only player 1 and player 3 have fields: the second is out.
    assert 'name="penalty_1"' not in page.text


def test_a_finished_party_shows_the_places_and_the_winner(client):
    party = start_game_party("blaue_vierzehn", 3, options={"deals": 1})
    a, b, c = seats_of(party)
    entered = hand_enter(seat=a, number=1, entry={"points": [6, 20, 30]})
    hand_confirm(seat=b, number=1, version=entered.hand.version)
    hand_confirm(seat=c, number=1, version=entered.hand.version)
    page = client.get(url(b))
    assert 'id="party-over"' in page.text
    assert page.context["standings"][0]["name"] == a.player.name
    assert 'id="game-entry"' not in page.text


def test_the_page_s_queries_do_not_grow_with_the_hands(client, django_assert_max_num_queries):
    party = start_game_party("blaue_vierzehn", 3, options={"deals": 30})
    a, b, c = seats_of(party)
    client.get(url(a))
    with django_assert_max_num_queries(12) as few:
        client.get(url(a))
    for number in range(1, 9):
        entered = hand_enter(seat=a, number=number, entry={"points": [6, 20, 30]})
        hand_confirm(seat=b, number=number, version=entered.hand.version)
        hand_confirm(seat=c, number=number, version=entered.hand.version)
    hand_enter(seat=a, number=9, entry={"points": [6, 20, 30]})
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(url(a))


def test_the_polled_number_moves_when_another_phone_confirms(
    client, django_capture_on_commit_callbacks
):
    party = start_game_party("chinchon", 2)
    a, b = seats_of(party)
    entered = hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 9]})
    before = client.get(url(a, "table-state")).json()["version"]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url(b, "table-confirm"), {"number": 1, "version": entered.hand.version})
    assert party.hands.get().status == Hand.Status.CONFIRMED
    after = client.get(url(a, "table-state")).json()["version"]
    assert before != after


def test_chinchon_cards_give_the_least_penalty_and_find_a_chinchon(client):
    party = start_game_party("chinchon", 2)
    a, _ = seats_of(party)
    response = enter(
        client, a, closer=0, cards_0="1O 2O 3O 4O 5O 6O 7O", cards_1="1C 1E 1B 5C 7E 12B 11C"
    )
    assert "Hand 1 entered" in response.text
    hand = party.hands.get()
    assert hand.details["entry"]["cards"][0] == ["1O", "2O", "3O", "4O", "5O", "6O", "7O"]
    assert hand.facts["chinchon"] is True
    assert hand.scores == [-10, 35]


def test_chinchon_penalties_and_cards_may_be_mixed(client):
    party = start_game_party("chinchon", 2)
    a, _ = seats_of(party)
    enter(client, a, closer=1, penalty_0=9, cards_1="1C 2C 3C 5E 5B 5O 2E")
    hand = party.hands.get()
    assert hand.details["entry"]["penalties"] == [9, 2]
    assert hand.scores == [9, 2]


def test_chinchon_cards_that_are_not_right_are_refused_on_their_field(client):
    party = start_game_party("chinchon", 2)
    a, _ = seats_of(party)
    for fields, words in [
        ({"cards_0": "1O 2O 8O", "penalty_1": 4}, "rank 1–7 or 10–12"),
        ({"cards_0": "1O 2O 3O 4C 5C", "penalty_0": 3, "penalty_1": 4}, "leave 9 penalty points"),
        ({"cards_0": "1O 2O 3O", "cards_1": "3O 4E 5E"}, "3O is in two hands"),
        ({"penalty_0": 4}, "Give the penalty points or the cards"),
    ]:
        response = enter(client, a, closer=0, **fields)
        assert response.status_code == 400, fields
        assert words in response.text, fields
    assert party.hands.count() == 0


def test_the_picker_s_preview_gives_each_hand_s_least_penalty_and_stores_nothing(client):
    party = start_game_party("chinchon", 3)
    a, *_ = seats_of(party)
    response = client.post(
        url(a, "table-preview-game"),
        {"cards_0": "1O 2O 3O 4O 5O 6O 7O", "cards_1": "1C 1E 1B 5C 7E", "cards_2": "9O"},
    )
    sides = response.json()["sides"]
    assert sides["0"] == {"penalty": 0, "chinchon": True, "count": 7}
    assert sides["1"]["penalty"] == 12
    assert "rank 1–7 or 10–12" in sides["2"]["message"]
    assert party.hands.count() == 0


def test_the_addresses_of_every_game_s_hands_are_the_same_and_the_old_ones_still_answer(client):
    # One address enters and one confirms any game's hand; a page printed before
    # they were one still posts to enter-game/ and confirm-game/.
    party = start_game_party("chinchon", 2)
    a, b = seats_of(party)
    assert url(a, "table-enter-game") != url(a, "table-enter")
    fields = {"closer": 0, "penalty_0": 0, "penalty_1": 12}
    client.post(url(a, "table-enter-game"), {"number": 1, "key": "k1", **fields})
    hand = party.hands.get()
    assert (hand.status, hand.scores) == (Hand.Status.PENDING, [-10, 12])

    response = client.post(
        url(b, "table-confirm-game"), {"number": 1, "version": hand.version}, follow=True
    )

    assert "Hand 1 confirmed." in response.text
    assert party.hands.get().status == Hand.Status.CONFIRMED


GOOD = {"meld_points": 600, "natural_canastas": 1, "went_out": True}
POOR = {"meld_points": 300, "hand_points": 40}


@pytest.mark.parametrize(
    ("game", "players", "entry", "told", "german"),
    [
        (
            "chinchon",
            3,
            {"closer": 1, "chinchon": True, "penalties": [9, 0, 4]},
            ["Closed: B", "Chinchón!"],
            ["Ausgegangen: B", "Chinchón!"],
        ),
        ("canasta", 2, {"sides": [POOR, GOOD]}, ["Went out: B"], ["Ausgegangen: B"]),
        (
            "cruzo",
            3,
            {"went_out": [1, 0], "cards_left": {"2": 4}},
            ["Out first: B"],
            ["Zuerst draußen: B"],
        ),
    ],
)
def test_the_other_players_are_told_what_the_game_found_in_the_hand(
    client, game, players, entry, told, german
):
    """The facts of an entered hand in the game's own words (`Game.fact_words`),
    a side by its player, on the page of whoever is to confirm it, in German too."""
    party = start_game_party(game, players)
    seats = seats_of(party)
    for seat, name in zip(seats, "ABC", strict=False):
        seat.player.name = name
        seat.player.save()
    hand_enter(seat=seats[0], number=1, entry=entry)
    page = client.get(url(seats[2 if players == 3 else 1])).text
    assert all(line in page for line in told)
    page = client.get(url(seats[1]), HTTP_ACCEPT_LANGUAGE="de").text
    assert all(line in page for line in german)
