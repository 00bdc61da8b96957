"""The seat page of a party of any game: its sheet, the next hand's entry (Gin
Rummy's by the counts or from the cards, a whole-table game's plain form), the
refusals on the form, confirmation by the other side or players, a dispute and a
correction."""

import uuid

import pytest
import redis
from django.core.cache import cache
from django.urls import reverse

from scoring.models import AuditRecord, Hand
from scoring.services.hands import hand_confirm, hand_enter
from tests.factories import start_game_party, start_party

pytestmark = pytest.mark.django_db


def table_url(seat, name="table"):
    return reverse(f"seat:{name}", args=[seat.token])


def enter(client, seat, number, **fields):
    data = {"number": number, "ending": "knock", **fields}
    return client.post(table_url(seat, "table-enter"), data, follow=True)


def test_an_unknown_link_is_a_404(client):
    assert client.get("/table/not-a-real-token/").status_code == 404


def test_enter_and_confirm_from_two_phones(client):
    party = start_party()
    a, b = party.seats.order_by("position")
    response = enter(client, a, 1, knocker=0, knocker_deadwood=3, defender_deadwood=21)
    assert "entered: waiting for confirmation" in response.text

    response = client.post(table_url(b, "table-confirm"), {"number": 1, "version": 1}, follow=True)

    assert "Hand 1 confirmed" in response.text
    assert party.hands.get().status == Hand.Status.CONFIRMED
    assert "Hand 2" in response.text


def test_an_illegal_knock_gets_a_message_not_an_error(client):
    party = start_party()
    a, _ = party.seats.order_by("position")
    response = client.post(
        table_url(a, "table-enter"),
        {
            "number": 1,
            "ending": "knock",
            "knocker": 0,
            "knocker_deadwood": 11,
            "defender_deadwood": 30,
        },
        follow=True,
    )
    # A refusal shows the page again with the form as typed.
    assert response.status_code == 400
    assert [str(m) for m in response.context["messages"]] == [
        "This knock is not allowed: a knock is allowed with at most 10 points of deadwood, "
        "but 11 were entered."
    ]
    assert not party.hands.exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"number": "x", "ending": "knock"},
        {"number": 1, "ending": "fold"},
        {"number": 1, "ending": "knock"},
        {"number": 1, "ending": "gin", "knocker": 7, "defender_deadwood": 5},
        {"number": 1, "ending": "gin", "knocker": 0, "defender_deadwood": -5},
    ],
)
def test_nonsense_entries_get_a_message_and_store_nothing(client, data):
    party = start_party()
    seat = party.seats.first()
    response = client.post(table_url(seat, "table-enter"), data, follow=True)
    # A refusal shows the page again with the form as typed.
    assert response.status_code == 400
    assert response.context["messages"]
    assert not party.hands.exists()


def test_confirming_your_own_entry_is_refused_by_the_server(client):
    party = start_party()
    a, _ = party.seats.order_by("position")
    enter(client, a, 1, knocker=0, knocker_deadwood=3, defender_deadwood=21)
    response = client.post(table_url(a, "table-confirm"), {"number": 1, "version": 1}, follow=True)
    assert "other side confirms" in response.text
    assert party.hands.get().status == Hand.Status.PENDING


def test_a_stale_page_is_told_the_hand_is_already_recorded(client):
    party = start_party(confirmation_required=False)
    a, _ = party.seats.order_by("position")
    enter(client, a, 1, knocker=0, knocker_deadwood=3, defender_deadwood=21)
    response = enter(client, a, 1, knocker=0, knocker_deadwood=3, defender_deadwood=25)
    assert "already recorded" in response.text
    assert party.hands.count() == 1


@pytest.mark.parametrize("hands", [1, 12])
def test_the_sheet_query_count_does_not_grow_with_hands(
    client, django_assert_max_num_queries, hands
):
    party = start_party(confirmation_required=False)
    a, b = party.seats.order_by("position")
    for number in range(1, hands + 1):
        enter(client, a, number, knocker=0, knocker_deadwood=9, defender_deadwood=10)
    with django_assert_max_num_queries(8):
        response = client.get(table_url(a))
    assert response.status_code == 200
    with django_assert_max_num_queries(20):
        enter(client, b, hands + 1, knocker=1, knocker_deadwood=9, defender_deadwood=10)


def test_the_seat_page_reads_its_table_in_two_queries(client, django_assert_num_queries):
    # Every phone reloads it after each event: the seat with its party's seats in
    # one query, then the hands. A seat the cache does not know yet (its first
    # page) costs one more, which refuses a guessed link before any counter starts.
    party = start_party(confirmation_required=False)
    a, b = party.seats.order_by("position")
    enter(client, a, 1, knocker=0, knocker_deadwood=9, defender_deadwood=10)
    with django_assert_num_queries(3):
        first = client.get(table_url(b))
    with django_assert_num_queries(2):
        again = client.get(table_url(b))
    assert first.status_code == again.status_code == 200
    assert b.player.name in again.text and a.player.name in again.text
    assert "Hand 2" in again.text


def test_the_finished_party_shows_the_settlement_on_both_seats(client):
    party = start_party(confirmation_required=False)
    a, b = party.seats.order_by("position")
    for number, (knocker, points) in enumerate(
        [(0, 23), (0, 27), (1, 32), (0, 35), (1, 10), (0, 19)], start=1
    ):
        enter(client, a, number, knocker=knocker, knocker_deadwood=2, defender_deadwood=2 + points)
    for seat in (a, b):
        text = client.get(table_url(seat)).text
        assert "Party over" in text
        assert "284" in text and "82" in text
        assert f"{b.player.name} pays {a.player.name} 202 points" in text


# --- Entering a hand from the cards ----------------------------------------------

KNOCKER_CARDS = "2H 3H 4H 7C 7D 7S 9S TS JS 2C"
DEFENDER_CARDS = "AH 5H KC KD KS 8D 8C 6S QD QC"


def cards(number=1, knocker=0, knocker_cards=KNOCKER_CARDS, defender_cards=DEFENDER_CARDS, **more):
    return {
        "number": number,
        "knocker": knocker,
        "knocker_cards": knocker_cards,
        "defender_cards": defender_cards,
        **more,
    }


def preview(client, seat, **fields):
    return client.post(table_url(seat, "table-preview"), cards(**fields))


def enter_cards(client, seat, **fields):
    return client.post(table_url(seat, "table-enter-cards"), cards(**fields), follow=True)


def test_the_seat_page_has_the_card_picker_and_both_forms(client):
    party = start_party()
    text = client.get(table_url(party.seats.first())).text
    for control in (
        'id="quick-entry"',
        'id="cards-entry"',
        'id="card-picker"',
        'id="pick-knocker"',
        'id="pick-defender"',
        'id="preview-hand"',
        'id="enter-cards"',
        'id="quick-ruling"',
        'id="cards-ruling"',
        'id="declare-melds"',
        'aria-label="A — ace of spades"',
    ):
        assert control in text
    assert text.count('data-card="') == 52
    assert 'id="pick-up-card"' not in text  # no up-card without Oklahoma


def test_under_oklahoma_the_picker_offers_the_up_card(client):
    party = start_party(rules="oklahoma")
    text = client.get(table_url(party.seats.first())).text
    assert 'id="pick-up-card"' in text
    assert 'name="up_card"' in text


def test_the_preview_lays_out_both_hands_and_scores_them(client):
    party = start_party()
    a, _ = party.seats.order_by("position")
    response = preview(client, a)
    assert response.status_code == 200
    data = response.json()
    assert data["ending"] == "knock"
    assert sorted(map(sorted, data["knocker"]["melds"])) == [
        ["2H", "3H", "4H"],
        ["7C", "7D", "7S"],
        ["9S", "JS", "TS"],
    ]
    assert (data["knocker"]["deadwood"], data["knocker"]["points"]) == (["2C"], 2)
    assert sorted(data["defender"]["laid_off"]) == ["5H", "AH"]
    assert data["defender"]["points"] == 42
    assert (data["kind"], data["winner"], data["points"]) == ("knock", 0, 40)
    assert data["summary"] == f"{a.player.name} scores 40 (knock)."


def test_the_preview_shows_an_undercut_and_gin(client):
    party = start_party()
    a, _ = party.seats.order_by("position")
    undercut = preview(
        client,
        a,
        knocker_cards="2H 3H 4H 7C 7D 7S 9S TS JS 8C",
        defender_cards="AS 2S 3S 5D 5C 5H KH QH JH 4C",
    ).json()
    assert (undercut["kind"], undercut["winner"], undercut["points"]) == ("undercut", 1, 8 - 4 + 10)

    gin = preview(client, a, knocker_cards="2H 3H 4H 7C 7D 7S 9S TS JS QS").json()
    assert (gin["ending"], gin["kind"], gin["points"]) == ("gin", "gin", 48 + 20)
    assert gin["defender"]["laid_off"] == []


def test_the_preview_uses_declared_melds(client):
    party = start_party()
    a, _ = party.seats.order_by("position")
    data = preview(
        client,
        a,
        knocker_cards="3H 4H 5H 6H KC KD KS AC AD 2S",
        defender_cards="2H 7H QC QD JC TC 9S 9D 5C 8D",
        melds="4H 5H 6H | KC KD KS",
    ).json()
    assert data["knocker"]["declared"] is True
    assert (data["knocker"]["points"], data["defender"]["points"]) == (7, 43)
    assert data["defender"]["laid_off"] == ["7H"]
    assert data["points"] == 36


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"knocker_cards": "2H 3H 4H 7C 7D 7S 9S TS JS XX"}, "XX is not a card"),
        ({"knocker_cards": "2H 2H 4H 7C 7D 7S 9S TS JS 2C"}, "2H is tapped twice"),
        ({"defender_cards": DEFENDER_CARDS.replace("QC", "2C")}, "2C cannot be in both hands"),
        ({"knocker_cards": "2H 3H 4H 7C 7D 7S 9S TS JS"}, "has 9 cards"),
        ({"defender_cards": ""}, "Defender's cards"),
        (
            {"knocker_cards": "2H 3H 4H 7C 7D 7S 9S TS KH JH"},
            "at most 10 points of deadwood, but 39",
        ),
        ({"melds": "2H 3H 2C"}, "2H 3H 2C is not a meld"),
        ({"knocker": 5}, "one of the two players"),
        ({"knocker": ""}, "Tap who knocked"),
        ({"defender_missing_cards": 1, "defender_too_many_cards": "on"}, "short of cards and"),
    ],
)
def test_a_bad_preview_is_a_400_with_a_message(client, fields, message):
    party = start_party()
    a, _ = party.seats.order_by("position")
    response = preview(client, a, **fields)
    assert response.status_code == 400
    assert message in response.json()["message"]
    assert not party.hands.exists()


def test_under_oklahoma_the_preview_needs_the_up_card_and_uses_its_value(client):
    party = start_party(rules="oklahoma")
    a, _ = party.seats.order_by("position")
    assert "up-card" in preview(client, a).json()["message"]
    # Knocking with 2 points: allowed under a two or more, not under an ace (gin only).
    assert preview(client, a, up_card="2D").json()["points"] == 40
    response = preview(client, a, up_card="AD")
    assert response.status_code == 400
    assert "Only gin" in response.json()["message"]


def test_the_preview_stores_nothing_in_a_few_queries(client, django_assert_max_num_queries):
    party = start_party()
    a, _ = party.seats.order_by("position")
    audit = party.audit.count()
    with django_assert_max_num_queries(4):
        response = preview(client, a)
    assert response.status_code == 200
    assert not party.hands.exists()
    assert party.audit.count() == audit


def test_the_preview_only_answers_a_post(client):
    party = start_party()
    assert client.get(table_url(party.seats.first(), "table-preview")).status_code == 405


def test_entering_from_the_cards_stores_one_pending_hand_with_the_engines_score(client):
    party = start_party()
    a, _ = party.seats.order_by("position")
    # The client's own counts are no fields of this form: the cards decide.
    response = enter_cards(client, a, knocker_deadwood=0, defender_deadwood=99)
    assert "entered: waiting for confirmation" in response.text
    hand = party.hands.get()
    assert (hand.status, hand.ending, hand.kind) == ("pending", "knock", "knock")
    assert (hand.knocker_deadwood, hand.defender_deadwood, hand.points) == (2, 42, 40)
    assert hand.winner == a
    assert hand.details["knocker_cards"] == KNOCKER_CARDS.split()
    assert sorted(hand.details["laid_off"]) == ["5H", "AH"]


def test_the_same_cards_from_the_other_phone_confirm_the_hand(client):
    party = start_party()
    a, b = party.seats.order_by("position")
    enter_cards(client, a, key="phone-a")
    response = enter_cards(client, b, key="phone-b")
    assert "Hand 1 confirmed" in response.text
    assert party.hands.get().status == Hand.Status.CONFIRMED


def test_cards_and_the_quick_form_agree_when_the_counts_agree(client):
    party = start_party()
    a, b = party.seats.order_by("position")
    enter_cards(client, a)
    enter(client, b, 1, knocker=0, knocker_deadwood=2, defender_deadwood=42)
    assert party.hands.get().status == Hand.Status.CONFIRMED


def test_a_stale_card_entry_is_refused(client):
    party = start_party(confirmation_required=False)
    a, _ = party.seats.order_by("position")
    enter_cards(client, a)
    response = enter_cards(client, a, defender_cards="AH 5H KC KD KS 8D 8C 6S QD JD")
    assert "already recorded" in response.text
    assert party.hands.count() == 1


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("2H 3H 4H 7C 7D 7S 9S TS JS ZZ", "ZZ is not a card"),  # a wrong card
        ("2H 3H 4H 7C 7D 7S 9S TS KH JH", "at most 10 points"),  # an illegal knock
    ],
)
def test_refused_cards_show_the_page_again_with_the_cards_kept(client, typed, message):
    party = start_party()
    a, _ = party.seats.order_by("position")
    response = client.post(table_url(a, "table-enter-cards"), cards(knocker_cards=typed))
    assert response.status_code == 400
    assert message in response.text
    assert f'value="{typed}"' in response.text
    assert not party.hands.exists()


def test_the_pending_hand_shows_how_the_cards_were_laid_down(client):
    party = start_party()
    a, b = party.seats.order_by("position")
    enter_cards(client, a)
    text = client.get(table_url(b)).text
    assert 'id="pending-hand"' in text
    assert "Laid off" in text
    assert '<span class="c red">A♥</span>' in text


def test_entering_from_the_cards_keeps_a_query_budget(client, django_assert_max_num_queries):
    party = start_party(confirmation_required=False)
    a, _ = party.seats.order_by("position")
    with django_assert_max_num_queries(20):
        response = client.post(table_url(a, "table-enter-cards"), cards())
    assert response.status_code == 302


# --- The director's rulings of seed 000 § 14 -----------------------------------


@pytest.mark.parametrize(
    ("counts", "ruling", "without", "expected"),
    [
        # § 14.7, § 14.8: an accepted knock over the limit scores as a normal knock,
        # with the knocker's real deadwood, undercut included.
        ((12, 30), {"illegal_knock_accepted": "on"}, None, (0, 18, "knock")),
        ((12, 8), {"illegal_knock_accepted": "on"}, None, (1, 14, "undercut")),
        # § 14.11: every card the knocker is short counts 10 points.
        ((5, 30), {"knocker_missing_cards": 1}, (0, 25, "knock"), (0, 15, "knock")),
        ((5, 12), {"knocker_missing_cards": 1}, (0, 7, "knock"), (1, 13, "undercut")),
        # § 14.12: every card the defender is short counts 10 points.
        ((5, 3), {"defender_missing_cards": 2}, (1, 12, "undercut"), (0, 18, "knock")),
        # § 14.13: with more deadwood the knocker writes as usual; with less the
        # hand is void and dealt again.
        ((5, 20), {"defender_too_many_cards": "on"}, (0, 15, "knock"), (0, 15, "knock")),
        ((5, 3), {"defender_too_many_cards": "on"}, (1, 12, "undercut"), (None, 0, "void")),
    ],
)
def test_each_ruling_scores_as_the_seed_says(client, counts, ruling, without, expected):
    def scored(**extra):
        party = start_party(confirmation_required=False)
        a, _ = party.seats.order_by("position")
        mine, theirs = counts
        enter(client, a, 1, knocker=0, knocker_deadwood=mine, defender_deadwood=theirs, **extra)
        hand = party.hands.first()
        if hand is None:
            return None
        return (hand.winner.position if hand.winner else None, hand.points, hand.kind)

    assert scored(**ruling) == expected
    assert scored() == without


def test_a_void_hand_is_dealt_again_by_the_same_dealer(client):
    party = start_party(confirmation_required=False)
    a, _ = party.seats.order_by("position")
    dealer = client.get(table_url(a)).context["dealer"]
    enter(
        client,
        a,
        1,
        knocker=0,
        knocker_deadwood=5,
        defender_deadwood=3,
        defender_too_many_cards="on",
    )
    response = client.get(table_url(a))
    assert response.context["state"].number == 2
    assert response.context["dealer"] == dealer
    assert "void, dealt again" in response.text
    assert response.context["sheet"]["points"] == [0, 0]


def test_both_phones_must_enter_the_same_ruling(client):
    party = start_party()
    a, b = party.seats.order_by("position")
    enter(
        client, a, 1, knocker=0, knocker_deadwood=5, defender_deadwood=3, defender_missing_cards=2
    )
    enter(client, b, 1, knocker=0, knocker_deadwood=5, defender_deadwood=3)
    assert party.hands.get().status == Hand.Status.DISPUTED


def test_a_ruling_on_the_cards_changes_what_is_counted(client):
    party = start_party()
    a, _ = party.seats.order_by("position")
    # § 14.13: eleven cards, and ♥A ♥5 may not be laid off.
    data = preview(
        client,
        a,
        defender_cards=DEFENDER_CARDS + " 9D",
        defender_too_many_cards="on",
    ).json()
    assert data["defender"]["laid_off"] == []
    assert data["defender"]["points"] == 1 + 5 + 8 + 8 + 6 + 10 + 10 + 9
    # § 14.11: nine cards for a knocker one card short; the missing card counts 10.
    data = preview(
        client, a, knocker_cards="2H 3H 4H 7C 7D 7S 9S TS JS", knocker_missing_cards=1
    ).json()
    assert (data["ending"], data["knocker"]["points"], data["points"]) == ("knock", 0, 42 - 10)


@pytest.mark.parametrize(
    "fields",
    [
        {"ending": "no_game", "illegal_knock_accepted": "on"},
        {"ending": "gin", "knocker": 0, "defender_deadwood": 5, "knocker_missing_cards": 1},
        {
            "ending": "knock",
            "knocker": 0,
            "knocker_deadwood": 3,
            "defender_deadwood": 5,
            "defender_missing_cards": 1,
            "defender_too_many_cards": "on",
        },
        {
            "ending": "knock",
            "knocker": 0,
            "knocker_deadwood": 3,
            "defender_deadwood": 5,
            "knocker_missing_cards": 12,
        },
    ],
)
def test_impossible_rulings_get_a_message_and_store_nothing(client, fields):
    party = start_party()
    seat = party.seats.first()
    response = client.post(table_url(seat, "table-enter"), {"number": 1, **fields}, follow=True)
    # A refusal shows the page again with the form as typed.
    assert response.status_code == 400
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert not party.hands.exists()


def test_the_page_says_who_deals_and_how_far_each_side_is_from_the_target(client):
    party = start_party(confirmation_required=False)
    a, b = party.seats.order_by("position")
    enter(client, a, 1, knocker=0, knocker_deadwood=2, defender_deadwood=32)
    response = client.get(table_url(a))
    # The loser of hand 1 deals hand 2; the winner plays first.
    assert f"{b.player.name} deals, {a.player.name} plays first." in response.text
    race = {side["name"]: (side["points"], side["needed"]) for side in response.context["race"]}
    assert race == {a.player.name: (30, 70), b.player.name: (0, 100)}
    assert "70 to go" in response.text


def test_a_refusal_is_in_the_players_language(client):
    party = start_party()
    a, _ = party.seats.order_by("position")
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    url = table_url(a, "table-enter-cards")

    response = client.post(url, cards(knocker_cards="2H 3H 4H 7C 7D 7S 9S TS JS ZZ"))
    assert "ZZ ist keine Karte" in response.text
    # The rules engine's own refusal (an illegal knock), told by the rule it breaks.
    response = client.post(url, cards(knocker_cards="2H 3H 4H 7C 7D 7S 9S TS KH JH"))
    assert "Dieses Klopfen ist nicht erlaubt" in response.text
    response = enter(client, a, 2, knocker=0, knocker_deadwood=3, defender_deadwood=21)
    assert "Spiel 2 ist noch nicht dran" in response.text
    assert not party.hands.exists()


def test_a_table_enters_and_confirms_while_redis_is_down(client, settings):
    # A cache nobody answers for: the table's entries must not depend on it.
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
        }
    }
    with pytest.raises(redis.ConnectionError):
        cache.get("anything")
    party = start_party()
    a, b = party.seats.order_by("position")
    enter(client, a, 1, knocker=0, knocker_deadwood=3, defender_deadwood=21)
    response = client.post(table_url(b, "table-confirm"), {"number": 1, "version": 1}, follow=True)
    assert "Hand 1 confirmed" in response.text
    assert party.hands.get().status == Hand.Status.CONFIRMED


def test_only_a_running_party_s_page_may_be_kept_on_the_phone(client):
    from scoring.services.hands import hand_confirm, hand_enter
    from scoring.services.knocks import Result

    party = start_party()
    a, b = party.seats.order_by("position")
    assert client.get(a.get_absolute_url())["Knock-Offline-Copy"] == "keep"

    hand_enter(seat=a, number=1, entry=Result("gin", a.position, 0, 90))
    hand_confirm(seat=b, number=1, version=1)

    finished = client.get(a.get_absolute_url())
    assert finished.status_code == 200
    assert "Knock-Offline-Copy" not in finished


def test_a_refused_hand_comes_back_with_what_was_typed(client):
    # A knock over the limit (10): the table mends the count, it does not type
    # the whole hand again.
    party = start_party()
    a, _ = party.seats.order_by("position")

    response = enter(client, a, 1, knocker=0, knocker_deadwood=30, defender_deadwood=41)

    assert response.status_code == 400
    assert not party.hands.exists()
    page = response.text
    assert 'name="ending" value="knock" required checked' in page
    assert f'name="knocker" value="{a.position}" checked' in page
    assert 'name="knocker_deadwood" type="number" inputmode="numeric" min="0" value="30"' in page
    assert 'name="defender_deadwood" type="number" inputmode="numeric" min="0" value="41"' in page
    # A page opened afresh starts empty.
    assert (
        " checked"
        not in client.get(table_url(a)).text.split('id="quick-entry"')[1].split("</form>")[0]
    )


def seats_of(party):
    return list(party.seats.select_related("player").order_by("position"))


def enter_fields(client, seat, number=1, **fields):
    """A whole-table game's entry form as typed, under a fresh key."""
    data = {"number": number, "key": uuid.uuid4().hex, **fields}
    return client.post(table_url(seat, "table-enter"), data, follow=True)


def test_a_chinchon_hand_is_entered_and_waits_for_two_confirmations_at_a_table_of_four(client):
    party = start_game_party("chinchon", 4)
    a, b, c, _d = seats_of(party)
    response = enter_fields(
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

    page = client.get(table_url(b)).text
    assert 'id="confirm-hand"' in page
    response = client.post(
        table_url(b, "table-confirm"), {"number": 1, "version": hand.version}, follow=True
    )
    assert "your confirmation is counted" in response.text
    assert "1 of 2 confirmations: waiting for 1 more" in response.text
    assert "You confirmed this entry" in response.text

    response = client.post(
        table_url(c, "table-confirm"), {"number": 1, "version": hand.version}, follow=True
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

    response = enter_fields(client, ada, points_0=10, points_1=20, points_2=13, points_3=13)

    assert "other side" not in response.text
    assert "Hand 1 entered: waiting for confirmation." in response.text
    assert waiting(response.text) == "Waiting for 2 confirmations (Ben, Cleo or Dan)."
    assert 'id="you-confirmed"' not in response.text
    assert (
        waiting(client.get(table_url(ben)).text)
        == "Waiting for 2 confirmations (Ben, Cleo or Dan)."
    )

    version = party.hands.get().version
    response = client.post(
        table_url(ben, "table-confirm"), {"number": 1, "version": version}, follow=True
    )

    told = "1 of 2 confirmations: waiting for 1 more from Cleo or Dan."
    assert waiting(response.text) == told
    assert "You confirmed this entry." in response.text
    assert "Confirmed by Ben." in response.text
    for seat in (ada, cleo):
        page = client.get(table_url(seat)).text
        assert waiting(page) == told
        assert 'id="you-confirmed"' not in page


def test_a_table_of_three_waits_for_both_others(client):
    party = start_game_party("chinchon", 3)
    ada, ben, _cleo = named(party, "Ada", "Ben", "Cleo")
    response = enter_fields(client, ada, closer=0, penalty_0=0, penalty_1=12, penalty_2=7)
    assert waiting(response.text) == "Waiting for 2 confirmations (Ben and Cleo)."

    version = party.hands.get().version
    client.post(table_url(ben, "table-confirm"), {"number": 1, "version": version})

    page = client.get(table_url(ada)).text
    assert waiting(page) == "1 of 2 confirmations: waiting for 1 more from Cleo."


def test_a_table_of_two_sides_waits_for_one_player_of_the_other_side(client):
    canasta = start_game_party("canasta", 4)
    ada, *_others = named(canasta, "Ada", "Ben", "Cleo", "Dan")
    response = enter_fields(client, ada, meld_points_0=300, meld_points_1=200, hand_points_1=40)
    # Ada and Cleo are partners: Ben or Dan confirms.
    assert waiting(response.text) == "Waiting for 1 confirmation (Ben or Dan)."

    chinchon = start_game_party("chinchon", 2)
    eve, _fay = named(chinchon, "Eve", "Fay")
    response = enter_fields(client, eve, closer=0, penalty_0=0, penalty_1=12)
    assert waiting(response.text) == "Waiting for 1 confirmation (Fay)."


def test_a_deal_that_does_not_add_up_is_refused_on_the_form(client):
    party = start_game_party("blaue_vierzehn", 3)
    a, *_ = seats_of(party)
    response = enter_fields(client, a, points_0=20, points_1=30, points_2=5)
    assert response.status_code == 400
    assert 'id="entry-problems"' in response.text
    assert "56" in response.text
    # The numbers typed stay in the form.
    assert 'value="30"' in response.text
    assert party.hands.count() == 0


def test_each_of_the_engine_s_problems_is_on_its_own_line(client):
    party = start_game_party("canasta", 2)
    a, _ = seats_of(party)
    response = enter_fields(
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
    page = client.get(table_url(a)).text
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
    client.post(table_url(other, "table-confirm"), {"number": 1, "version": hand.version})
    page = client.get(table_url(a))
    hints = page.context["hints"]
    assert hints == [90, 50]


def enter_and_show(client, seat, **fields):
    response = enter_fields(client, seat, **fields)
    if response.status_code != 200:
        pytest.fail(str(response.context["form"].errors))
    return response


def test_a_different_entry_from_another_player_disputes_the_hand(client):
    party = start_game_party("chinchon", 2)
    a, b = seats_of(party)
    enter_fields(client, a, closer=0, penalty_0=0, penalty_1=12)
    hand = party.hands.get()
    response = enter_fields(client, b, closer=0, penalty_0=0, penalty_1=21, version=hand.version)
    assert "disputed" in response.text
    assert party.hands.get().status == Hand.Status.DISPUTED
    page = client.get(table_url(a)).text
    assert 'id="dispute"' in page
    assert "21" in page


def test_the_same_entry_from_another_player_confirms_it(client):
    party = start_game_party("cruzo", 2)
    a, b = seats_of(party)
    enter_fields(client, a, out_1=1, left_0=4)
    hand = party.hands.get()
    response = enter_fields(client, b, out_1=1, left_0=4, version=hand.version)
    assert "Hand 1 confirmed" in response.text
    assert party.hands.get().scores == [0, 1]


def test_the_entering_side_corrects_its_entry_before_it_is_confirmed(client):
    party = start_game_party("chinchon", 2)
    a, b = seats_of(party)
    enter_fields(client, a, closer=0, penalty_0=0, penalty_1=12)
    page = client.get(table_url(a)).text
    # The correction starts from the entry as it stands.
    assert 'name="penalty_1" value="12"' in page
    enter_fields(client, a, closer=0, penalty_0=0, penalty_1=15)
    hand = party.hands.get()
    assert (hand.scores, hand.version) == ([-10, 15], 2)
    page = client.get(table_url(b)).text
    assert 'id="entry-changed"' in page
    response = client.post(table_url(b, "table-confirm"), {"number": 1, "version": 1}, follow=True)
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
    page = client.get(table_url(c))
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
    page = client.get(table_url(b))
    assert 'id="party-over"' in page.text
    assert page.context["standings"][0]["name"] == a.player.name
    assert 'id="game-entry"' not in page.text


def test_the_page_s_queries_do_not_grow_with_the_hands(client, django_assert_max_num_queries):
    party = start_game_party("blaue_vierzehn", 3, options={"deals": 30})
    a, b, c = seats_of(party)
    client.get(table_url(a))
    with django_assert_max_num_queries(12) as few:
        client.get(table_url(a))
    for number in range(1, 9):
        entered = hand_enter(seat=a, number=number, entry={"points": [6, 20, 30]})
        hand_confirm(seat=b, number=number, version=entered.hand.version)
        hand_confirm(seat=c, number=number, version=entered.hand.version)
    hand_enter(seat=a, number=9, entry={"points": [6, 20, 30]})
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(table_url(a))


def test_the_polled_number_moves_when_another_phone_confirms(
    client, django_capture_on_commit_callbacks
):
    party = start_game_party("chinchon", 2)
    a, b = seats_of(party)
    entered = hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 9]})
    before = client.get(table_url(a, "table-state")).json()["version"]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(table_url(b, "table-confirm"), {"number": 1, "version": entered.hand.version})
    assert party.hands.get().status == Hand.Status.CONFIRMED
    after = client.get(table_url(a, "table-state")).json()["version"]
    assert before != after


def test_chinchon_cards_give_the_least_penalty_and_find_a_chinchon(client):
    party = start_game_party("chinchon", 2)
    a, _ = seats_of(party)
    response = enter_fields(
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
    enter_fields(client, a, closer=1, penalty_0=9, cards_1="1C 2C 3C 5E 5B 5O 2E")
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
        response = enter_fields(client, a, closer=0, **fields)
        assert response.status_code == 400, fields
        assert words in response.text, fields
    assert party.hands.count() == 0


def test_the_picker_s_preview_gives_each_hand_s_least_penalty_and_stores_nothing(client):
    party = start_game_party("chinchon", 3)
    a, *_ = seats_of(party)
    response = client.post(
        table_url(a, "table-preview-game"),
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
    assert table_url(a, "table-enter-game") != table_url(a, "table-enter")
    fields = {"closer": 0, "penalty_0": 0, "penalty_1": 12}
    client.post(table_url(a, "table-enter-game"), {"number": 1, "key": "k1", **fields})
    hand = party.hands.get()
    assert (hand.status, hand.scores) == (Hand.Status.PENDING, [-10, 12])

    response = client.post(
        table_url(b, "table-confirm-game"), {"number": 1, "version": hand.version}, follow=True
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
    page = client.get(table_url(seats[2 if players == 3 else 1])).text
    assert all(line in page for line in told)
    page = client.get(table_url(seats[1]), HTTP_ACCEPT_LANGUAGE="de").text
    assert all(line in page for line in german)


def test_each_game_s_seat_link_opens_its_own_page_without_login(client):
    for start, field in [
        (start_party, "knocker_deadwood"),
        (lambda: start_game_party("chinchon", 3), "penalty_0"),
        (lambda: start_game_party("canasta", 4), "meld_points_1"),
        (lambda: start_game_party("blaue_vierzehn", 4), "points_3"),
        (lambda: start_game_party("cruzo", 3), "out_2"),
    ]:
        party = start()
        seat = seats_of(party)[0]
        response = client.get(table_url(seat))
        assert response.status_code == 200, party.game
        assert f'name="{field}"' in response.text, party.game
        assert "Hand 1" in response.text
        assert seat.player.name in response.text


@pytest.mark.parametrize(
    ("start", "fields"),
    [
        (start_party, None),
        (
            lambda: start_game_party("blaue_vierzehn", 3),
            {"number": 1, "points_0": 20, "points_1": 30, "points_2": 6},
        ),
    ],
    ids=["gin_rummy_cards", "blaue_vierzehn"],
)
def test_the_same_submission_sent_twice_is_stored_once(client, start, fields):
    party = start()
    a = seats_of(party)[0]

    def send():
        if fields is None:
            return enter_cards(client, a, key="tap-1")
        return client.post(table_url(a, "table-enter"), {**fields, "key": "tap-1"}, follow=True)

    send()
    response = send()

    assert "already stored" in response.text
    assert party.hands.count() == 1
    assert AuditRecord.objects.filter(party=party, action="enter").count() == 1
