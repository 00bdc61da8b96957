import re

import pytest
from django.test import Client

from scoring.api.schemas import Rulings
from scoring.engine.games import ENTRY_GAMES
from scoring.models import AuditRecord, Hand, Party
from scoring.selectors import RULINGS
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from scoring.services.seats import seat_link_reissue
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    OrganizerFactory,
    UserFactory,
    start_game_party,
    start_party,
)

pytestmark = pytest.mark.django_db

# Seed 000 "Beispiel einer Abrechnung": (knocker, points) of each hand; settles 284 : 82.
SEED_SHEET = [(0, 23), (0, 27), (1, 32), (0, 35), (1, 10), (0, 19)]


def seats(party):
    return list(party.seats.order_by("position"))


def table(seat, path=""):
    return f"/api/tables/{seat.token}{path}"


def post(client, url, data=None):
    return client.post(url, data if data is not None else {}, content_type="application/json")


def cards(text):
    return text.split()


def knock(number, knocker, mine, theirs, **fields):
    return {
        "number": number,
        "ending": "knock",
        "knocker": knocker,
        "knocker_deadwood": mine,
        "defender_deadwood": theirs,
        **fields,
    }


def enter(client, seat, data):
    return post(client, table(seat, "/hands"), data)


def confirm(client, seat, number, key=None, version=1):
    body = {"version": version, **({"key": key} if key else {})}
    return post(client, table(seat, f"/hands/{number}/confirm"), body)


def organizer_of(party):
    return OrganizerFactory(club=party.club).player.user


def logged_in(user, **options):
    client = Client(**options)
    client.force_login(user)
    return client


def decide(client, hand, data, address="decide"):
    return post(client, f"/api/parties/{hand.party_id}/hands/{hand.pk}/{address}", data)


def disputed_hand(client, party):
    a, b = seats(party)
    enter(client, a, knock(1, 0, 3, 21))
    enter(client, b, knock(1, 0, 3, 12))
    return party.hands.get()


def confirmed_chinchon():
    """Three hands of Chinchón, confirmed: the first player closes each, the second
    is left with 60, 30 and 5."""
    party = start_game_party("chinchon", 2)
    a, b = seats(party)
    for number, penalty in ((1, 60), (2, 30), (3, 5)):
        entered = hand_enter(seat=a, number=number, entry={"closer": 0, "penalties": [0, penalty]})
        hand_confirm(seat=b, number=number, version=entered.hand.version)
    return party


# Hands to decide, of both kinds: each maker takes the test's client.


def gin_rummy_disputed_hand(client):
    """Entered first: 21 against 3 (18 points); the other side: 12 (9 points)."""
    return disputed_hand(client, start_party())


def gin_rummy_pending_hand(client):
    a, _ = seats(start_party())
    return hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21)).hand


def chinchon_disputed_hand(client):
    """Entered first: 30 left to the second player; the other side: 20."""
    a, b = seats(start_game_party("chinchon", 2))
    hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 30]})
    hand_enter(seat=b, number=1, entry={"closer": 0, "penalties": [0, 20]})
    return a.party.hands.get()


def chinchon_pending_hand(client):
    a, _ = seats(start_game_party("chinchon", 2))
    return hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 12]}).hand


def chinchon_confirmed_hand(client):
    """The second of three confirmed hands: 30 of 60 + 30 + 5."""
    return confirmed_chinchon().hands.get(number=2)


# --- Seats: a party from two phones ------------------------------------------------


def test_a_whole_party_is_played_from_two_phones_to_its_settlement(client):
    party = start_party()
    a, b = seats(party)
    for number, (knocker, points) in enumerate(SEED_SHEET, start=1):
        enterer, confirmer = (a, b) if knocker == 0 else (b, a)
        response = enter(client, enterer, knock(number, knocker, 2, 2 + points))
        assert response.status_code == 201
        assert response.json()["outcome"] == "entered"
        response = confirm(client, confirmer, number)
        assert response.status_code == 200
        assert response.json()["outcome"] == "confirmed"
        assert response.json()["hand"]["confirmed_by"]["player"] == confirmer.player.name

    for seat in (a, b):
        body = client.get(table(seat)).json()
        assert body["party"]["status"] == "finished"
        assert body["number"] is None
        assert body["sheet"]["points"] == [104, 42]
        assert [row["running"] for row in body["sheet"]["rows"]][-1] == [104, 42]
        settlement = body["settlement"]
        assert [side["total"] for side in settlement["sides"]] == [284, 82]
        assert settlement["sides"][0] == {
            "side": 0,
            "name": a.player.name,
            "points": 104,
            "boxes": 4,
            "box_bonus": 80,
            "game_bonus": 100,
            "shutout_bonus": 0,
            "total": 284,
        }
        assert (settlement["winner_side"], settlement["margin"]) == (0, 202)
        assert settlement["payments"] == [
            {"payer": b.player.name, "payee": a.player.name, "amount": 202}
        ]
    response = enter(client, a, knock(7, 0, 2, 30))
    assert response.status_code == 409
    assert response.json()["code"] == "party_over"
    assert party.hands.count() == len(SEED_SHEET)


# --- Every format through the API, against numbers worked out from the seeds -----------


def api_play(client, party, hands):
    """Plays the hands through the seat endpoints. A hand is ``(role, result)``: the
    seed's player who enters it, and the points he wins with a knock (negative: his
    opponent knocks and wins them) or ``None`` for a no-game; a partnership round is
    a list of them, one per table. Roles are cast from the first hand: ``A`` and
    ``B`` the forehand and dealer (rotation: ``A`` sits out, ``B`` and ``C`` play),
    ``X`` the chouette's box, and ``A``, ``B`` the partnership team that deals.
    Returns the roles and the last table view."""
    token = {seat.position: seat for seat in seats(party)}
    view = client.get(table(token[0])).json()
    forehand, dealer = (p["position"] for p in view["players"]) if view["players"] else (1, 2)
    roles = {
        "two": {"A": forehand, "B": dealer},
        "rotation": {"A": ({0, 1, 2} - {forehand, dealer}).pop(), "B": forehand, "C": dealer},
        "chouette": {"X": forehand},
    }.get(party.format)
    if roles is None:
        dealers = sorted(
            client.get(table(seat)).json()["dealer"]["position"] for seat in token.values()
        )
        roles = dict(zip("AB", sorted(set(dealers)), strict=True))
    if party.format == "chouette" and roles["X"] != forehand:
        raise AssertionError("the box plays the first hand as forehand")
    for number, hand in enumerate(hands, start=1):
        for role, result in hand if isinstance(hand, list) else [hand]:
            me = token[roles[role]]
            players = [p["position"] for p in client.get(table(me)).json()["players"]]
            (other,) = set(players) - {me.position}
            if result is None:
                data = {"number": number, "ending": "no_game"}
            else:
                knocker = me.position if result > 0 else other
                data = knock(number, knocker, 2, 2 + abs(result))
            assert enter(client, me, data).json()["outcome"] == "entered"
            response = confirm(client, token[other], number)
            assert response.json()["outcome"] == "confirmed", response.json()
    return roles, client.get(table(token[0])).json()


def side_total(name, side, points, boxes, box_bonus, game_bonus=0, shutout_bonus=0):
    total = points + box_bonus + game_bonus + shutout_bonus
    return {
        "side": side,
        "name": name,
        "points": points,
        "boxes": boxes,
        "box_bonus": box_bonus,
        "game_bonus": game_bonus,
        "shutout_bonus": shutout_bonus,
        "total": total,
    }


def test_three_players_in_rotation_settle_the_seeds_example_through_the_api(client):
    party = start_party("rotation", players=3)
    # Seed 000, "Gin Rummy zu dritt" 1: A wins three hands for 102, B one for 17, C
    # none. A sits out the first hand, B beats C; then A beats B, a no-game, C, B.
    roles, view = api_play(client, party, [("B", 17), ("A", 30), ("C", None), ("A", 35), ("A", 37)])
    a, b, c = (roles[r] for r in "ABC")
    name = {seat.position: seat.player.name for seat in seats(party)}
    sheet, settlement = view["sheet"], view["settlement"]
    assert [row["points"] for row in sheet["rows"]] == [17, 30, 0, 35, 37]
    assert sheet["points"][a] == 30 + 35 + 37 == 102
    assert (sheet["points"][b], sheet["points"][c]) == (17, 0)
    # A is past 100: he needs nothing more, never -2.
    assert (sheet["needed"][a], sheet["needed"][b], sheet["needed"][c]) == (0, 83, 100)
    # "A schreibt 262 Punkte, B 37 und C weiterhin 0 Punkte": 102 + 3 × 20 + 100,
    # 17 + 20, and 0.
    assert sorted(settlement["sides"], key=lambda s: s["side"]) == sorted(
        [
            side_total(name[a], a, 102, 3, 60, 100),
            side_total(name[b], b, 17, 1, 20),
            side_total(name[c], c, 0, 0, 0),
        ],
        key=lambda s: s["side"],
    )
    # "B zahlt an A die Differenz von 225 Punkten; C zahlt an A … 262 Punkte zuzüglich
    # des Shutout bonus von 100 Punkten, also 362 … C zahlt an B … 37 Punkte[n]."
    assert sorted(settlement["payments"], key=lambda p: p["amount"]) == [
        {"payer": name[c], "payee": name[b], "amount": 37},
        {"payer": name[b], "payee": name[a], "amount": 225},
        {"payer": name[c], "payee": name[a], "amount": 362},
    ]


def test_a_chouette_settles_the_box_with_both_partners_through_the_api(client):
    party = start_party("chouette", players=3)
    # X is the box: he wins 30 and 10 (2 boxes); the team wins 25, 45 and 31 = 101
    # (3 boxes) and reaches 100 first. Box 40 + 2 × 20 = 80; team 101 + 3 × 20 + 100
    # = 261; the box pays each partner 261 − 80 = 181 ("an beide Gegner").
    roles, view = api_play(
        client, party, [("X", 30), ("X", None), ("X", -25), ("X", 10), ("X", -45), ("X", -31)]
    )
    box = roles["X"]
    name = {seat.position: seat.player.name for seat in seats(party)}
    partners = sorted(set(name) - {box})
    box_side = next(seat.side for seat in seats(party) if seat.position == box)
    sheet, settlement = view["sheet"], view["settlement"]
    assert sheet["points"][box_side] == 40 and sheet["points"][1 - box_side] == 101
    assert sheet["boxes"][box_side] == 2 and sheet["boxes"][1 - box_side] == 3
    assert sheet["needed"][box_side] == 60 and sheet["needed"][1 - box_side] == 0
    assert [row["points"] for row in sheet["rows"]] == [30, 0, 25, 10, 45, 31]
    totals = {s["side"]: s["total"] for s in settlement["sides"]}
    assert (totals[box_side], totals[1 - box_side]) == (80, 261)
    assert (settlement["winner_side"], settlement["margin"]) == (1 - box_side, 181)
    assert sorted(settlement["payments"], key=lambda p: p["payee"]) == sorted(
        [{"payer": name[box], "payee": name[p], "amount": 181} for p in partners],
        key=lambda p: p["payee"],
    )


def test_partnerships_write_the_net_of_both_tables_through_the_api(client):
    party = start_party("partners", players=4)
    # Teams of two play to 125 (seed 000). Round 1 is the seed's: A loses 18 and B
    # wins 25, the team writes 7. Then 40 + a no-game = 40; the other team's 30 + 20
    # = 50; 40 + 38 = 78. A and B: 7 + 40 + 78 = 125 in 3 rounds, 125 + 60 + 100 =
    # 285; the others 50 + 20 = 70; margin 215.
    rounds = [
        [("A", -18), ("B", 25)],
        [("A", 40), ("B", None)],
        [("A", -30), ("B", -20)],
        [("A", 40), ("B", 38)],
    ]
    roles, view = api_play(client, party, rounds)
    ours = next(seat.side for seat in seats(party) if seat.position == roles["A"])
    theirs = 1 - ours
    sheet, settlement = view["sheet"], view["settlement"]
    assert [(r["winner_side"], r["points"]) for r in sheet["rounds"]] == [
        (ours, 7),
        (ours, 40),
        (theirs, 50),
        (ours, 78),
    ]
    assert [r["running"][ours] for r in sheet["rounds"]] == [7, 47, 47, 125]
    assert [r["running"][theirs] for r in sheet["rounds"]] == [0, 0, 50, 50]
    assert len(sheet["rows"]) == 8  # every table's hand, two per round
    assert (sheet["points"][ours], sheet["points"][theirs]) == (125, 50)
    assert (sheet["needed"][ours], sheet["needed"][theirs]) == (0, 75)
    totals = {s["side"]: s["total"] for s in settlement["sides"]}
    assert (totals[ours], totals[theirs]) == (285, 70)
    assert (settlement["winner_side"], settlement["margin"]) == (ours, 215)
    assert settlement["payments"] == [
        {"payer": sheet["sides"][theirs], "payee": sheet["sides"][ours], "amount": 215}
    ]


def test_the_points_still_needed_stop_at_zero_past_the_target(client):
    party = start_party()
    a, b = seats(party)
    # Gin against 90 deadwood: 90 + 20 = 110, ten past the target.
    gin = {"number": 1, "ending": "gin", "knocker": 0, "defender_deadwood": 90}
    assert enter(client, a, gin).status_code == 201
    confirm(client, b, 1)
    sheet = client.get(table(a)).json()["sheet"]
    assert (sheet["points"], sheet["needed"]) == ([110, 0], [0, 100])


def test_the_table_shows_the_open_hand_and_only_the_other_side_may_confirm(client):
    party = start_party()
    a, b = seats(party)
    enter(client, a, knock(1, 0, 3, 21))

    mine, theirs = client.get(table(a)).json(), client.get(table(b)).json()

    assert mine["seat"] == {"position": 0, "side": 0, "player": a.player.name}
    assert mine["open_hand"]["status"] == "pending"
    assert mine["open_hand"]["entered_by"]["player"] == a.player.name
    assert (mine["open_hand"]["points"], mine["open_hand"]["winner"]["position"]) == (18, 0)
    assert (mine["can_confirm"], theirs["can_confirm"]) == (False, True)
    assert theirs["sheet"]["points"] == [0, 0]


def test_the_loser_of_a_hand_deals_the_next(client):
    party = start_party(confirmation_required=False)
    a, b = seats(party)
    assert client.get(table(a)).json()["dealer"]["position"] == 1
    enter(client, b, knock(1, 1, 2, 20))

    body = client.get(table(a)).json()

    assert body["number"] == 2
    assert body["dealer"]["player"] == a.player.name
    assert {p["position"] for p in body["players"]} == {0, 1}


def test_the_same_result_from_the_other_phone_confirms_it(client):
    party = start_party()
    a, b = seats(party)
    enter(client, a, knock(1, 0, 3, 21))
    response = enter(client, b, knock(1, 0, 3, 21))
    assert response.status_code == 201
    assert response.json()["outcome"] == "confirmed"
    assert response.json()["table"]["sheet"]["points"] == [18, 0]


def test_a_different_result_disputes_the_hand_and_shows_both_versions(client):
    party = start_party()
    a, b = seats(party)
    enter(client, a, knock(1, 0, 3, 21))

    response = enter(client, b, knock(1, 0, 3, 12))

    assert response.status_code == 201
    assert response.json()["outcome"] == "disputed"
    hand = client.get(table(a)).json()["open_hand"]
    assert (hand["status"], hand["defender_deadwood"], hand["points"]) == ("disputed", 21, 18)
    counter = hand["counter"]
    assert counter["entered_by"]["player"] == b.player.name
    assert (counter["defender_deadwood"], counter["points"]) == (12, 9)


def test_a_party_without_confirmation_records_at_once(client):
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    response = enter(client, a, knock(1, 0, 3, 21))
    assert response.status_code == 201
    assert response.json()["outcome"] == "recorded"
    assert response.json()["table"]["number"] == 2


def test_a_no_game_is_dealt_again_by_the_same_dealer(client):
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    response = enter(client, a, {"number": 1, "ending": "no_game"})
    assert response.json()["hand"]["kind"] == "no_game"
    body = client.get(table(a)).json()
    assert (body["number"], body["dealer"]["position"]) == (2, 1)


def test_a_repeated_key_is_stored_once(client):
    party = start_party()
    a, _ = seats(party)
    first = enter(client, a, knock(1, 0, 3, 21, key="hand-1"))
    again = enter(client, a, knock(1, 0, 3, 21, key="hand-1"))
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["outcome"] == "repeated"
    assert again.json()["hand"]["id"] == first.json()["hand"]["id"]
    assert party.hands.count() == 1
    assert party.audit.filter(action=AuditRecord.Action.ENTER).count() == 1


def test_a_repeated_confirmation_is_stored_once(client):
    party = start_party()
    a, b = seats(party)
    enter(client, a, knock(1, 0, 3, 21))
    assert confirm(client, b, 1, key="ok-1").json()["outcome"] == "confirmed"
    response = confirm(client, b, 1, key="ok-1")
    assert (response.status_code, response.json()["outcome"]) == (200, "repeated")
    assert party.audit.filter(action=AuditRecord.Action.CONFIRM).count() == 1


def test_another_table_may_use_the_same_key(client):
    first, second = start_party(), start_party()
    for party in (first, second):
        response = enter(client, seats(party)[0], knock(1, 0, 3, 21, key="hand-1"))
        assert response.json()["outcome"] == "entered"
        assert party.hands.count() == 1


# Runs A-3♠ and 4-6♥, three sevens, 2♣ left over; the opponent lays 4♠ and 7♠
# off and keeps 9♣ 9♥ 5♣ 3♦ 8♥ = 34: a knock for 32.
KNOCKER = "as 2S 3S 4H 5H 6H 7C 7D 7H 2C"
DEFENDER = "4S 7S JD QD KD 9C 9H 5C 3D 8H"

CARD_HANDS = [
    (KNOCKER, DEFENDER, ("knock", "knock", 2, 34, 32)),
    # All ten in melds: gin, and no laying off (seed 000 § 10): 48 + 20.
    (
        "AS 2S 3S 4H 5H 6H 7C 7D 7H 7S",
        "4S TS JD QD KD 9C 9H 5C 3D 8H",
        ("gin", "gin", 0, 48, 68),
    ),
]


@pytest.mark.parametrize(("knocker_cards", "defender_cards", "expected"), CARD_HANDS)
def test_a_hand_entered_by_its_cards_is_scored_by_the_engine(
    client, knocker_cards, defender_cards, expected
):
    party = start_party()
    a, b = seats(party)
    response = enter(
        client,
        a,
        {
            "number": 1,
            "knocker": 0,
            "knocker_cards": knocker_cards.split(),
            "defender_cards": defender_cards.split(),
        },
    )
    assert response.status_code == 201
    hand = response.json()["hand"]
    assert (
        hand["ending"],
        hand["kind"],
        hand["knocker_deadwood"],
        hand["defender_deadwood"],
        hand["points"],
    ) == expected
    assert hand["details"]["knocker_cards"][0] == "AS"
    # The other phone agrees by the counts alone.
    ending, _, mine, theirs, _ = expected
    counts = {"number": 1, "ending": ending, "knocker": 0, "defender_deadwood": theirs}
    if ending == "knock":
        counts["knocker_deadwood"] = mine
    response = enter(client, b, counts)
    assert response.json()["outcome"] == "confirmed"


def test_declared_melds_reach_the_engine(client):
    party = start_party()
    a, _ = seats(party)
    response = enter(
        client,
        a,
        {
            "number": 1,
            "knocker": 0,
            "knocker_cards": cards(KNOCKER),
            "defender_cards": cards(DEFENDER),
            "melds": [cards("7C 7D 7H"), cards("AS 2S 3S"), cards("4H 5H 6H")],
        },
    )
    assert response.status_code == 201
    hand = response.json()["hand"]
    assert hand["details"]["declared"] is True
    assert (hand["kind"], hand["points"]) == ("knock", 32)


def test_a_defender_with_too_many_cards_may_not_lay_off(client):
    party = start_party()
    a, _ = seats(party)
    response = enter(
        client,
        a,
        {
            "number": 1,
            "knocker": 0,
            "knocker_cards": cards(KNOCKER),
            "defender_cards": [*cards(DEFENDER), "2D"],
            "rulings": {"defender_too_many_cards": True},
        },
    )
    assert response.status_code == 201
    hand = response.json()["hand"]
    # 4♠ and 7♠ stay with him: 34 + 4 + 7 + 2 = 47, less the knocker's 2.
    assert (hand["defender_deadwood"], hand["points"]) == (47, 45)
    assert hand["details"]["laid_off"] == []
    assert hand["details"]["defender_too_many_cards"] is True


def test_a_ruling_goes_into_the_hand(client):
    party = start_party()
    a, _ = seats(party)
    rulings = {"illegal_knock_accepted": True}
    response = enter(client, a, knock(1, 0, 12, 30, rulings=rulings))
    assert response.status_code == 201
    hand = response.json()["hand"]
    assert (hand["kind"], hand["points"]) == ("knock", 18)
    assert hand["details"] == rulings


def test_every_ruling_is_one_the_services_know():
    assert set(Rulings.model_fields) <= set(RULINGS)


# --- Seats: errors ---------------------------------------------------------------


ENTRY_ERRORS = [
    (knock(2, 0, 3, 21), 409, "stale_entry", "hand 1 comes first"),
    (knock(1, 0, 11, 30), 422, "illegal_knock", "11"),
    ({**knock(1, 0, 5, 30), "ending": "gin"}, 422, "impossible_claim", "Gin means no deadwood"),
    (knock(1, 2, 3, 21), 409, "not_your_hand", "knocker must be one of the two players"),
    (
        knock(1, 0, 3, 21, rulings={"defender_missing_cards": 1, "defender_too_many_cards": True}),
        422,
        "invalid_entry",
        "too few and too many",
    ),
    (
        {"number": 1, "knocker": 0, "knocker_cards": [*cards("AS 2S 3S 4S 5S 6S 7S 8S 9S"), "ZZ"],
         "defender_cards": cards("AD 2D 3D 4D 5D 6D 7D 8D 9D TD")},
        422,
        "invalid_card",
        "'ZZ' is not a card",
    ),
    (
        {"number": 1, "knocker": 0, "knocker_cards": cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 9s"),
         "defender_cards": cards("AD 2D 3D 4D 5D 6D 7D 8D 9D TD")},
        422,
        "invalid_card",
        "9S is named twice",
    ),
    (
        {"number": 1, "knocker": 0, "knocker_cards": cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS"),
         "defender_cards": cards("TS 2D 3D 4D 5D 6D 7D 8D 9D TD")},
        422,
        "invalid_entry",
        "TS cannot be in both hands",
    ),
    (
        {"number": 1, "knocker": 0, "knocker_cards": cards("AS 2S 3S"),
         "defender_cards": cards("AD 2D 3D 4D 5D 6D 7D 8D 9D TD")},
        422,
        "invalid_entry",
        "The knocker's hand has 3 cards",
    ),
    (
        {"number": 1, "knocker": 0, "knocker_cards": cards(KNOCKER),
         "defender_cards": cards(DEFENDER), "melds": [cards("AS 2S 4H")]},
        422,
        "invalid_entry",
        "AS 2S 4H is not a meld",
    ),
    (
        {**knock(1, 0, 3, 21), "melds": [cards("AS 2S 3S")]},
        422,
        "invalid_entry",
        "Declared melds go with the cards",
    ),
    ({"number": 1, "ending": "fold"}, 422, "invalid_entry", "ending: Input should be"),
    ({"number": 0, "ending": "no_game"}, 422, "invalid_entry", "number: "),
    ({"number": 1, "ending": "gin", "knocker": 0}, 422, "invalid_entry", "opponent's deadwood"),
    ({"number": 1, "ending": "knock", "knocker": 0, "defender_deadwood": 4}, 422,
     "invalid_entry", "knocker's deadwood"),
    (knock(1, 0, 3, 21, defender_dedwood=4), 422, "invalid_entry", "defender_dedwood"),
    ({**knock(1, 0, 3, 21), "knocker_cards": ["AS"]}, 422, "invalid_entry", "not both"),
    ({"number": 1, "ending": "no_game", "knocker": 0}, 422, "invalid_entry", "no-game"),
    ({"number": 1, "ending": "knock", "knocker": -1, "knocker_deadwood": 3,
      "defender_deadwood": 4}, 422, "invalid_entry", "knocker: "),
    (knock(1, 0, 3, 21, key="no spaces"), 422, "invalid_entry", "key: "),
    (knock(1, 0, 3, 21, up_card="11X"), 422, "invalid_card", "'11X' is not a card"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "status", "code", "message"), ENTRY_ERRORS)
def test_a_refused_entry_says_why_and_stores_nothing(client, data, status, code, message):
    party = start_party()
    a, _ = seats(party)
    records = party.audit.count()

    response = enter(client, a, data)

    assert response.status_code == status
    body = response.json()
    assert body["code"] == code
    assert message in body["detail"]
    assert not party.hands.exists()
    assert party.audit.count() == records


def test_oklahoma_takes_the_knock_limit_from_the_up_card(client):
    party = start_party(rules="oklahoma")
    a, _ = seats(party)
    response = enter(client, a, knock(1, 0, 7, 30, up_card="5h"))
    assert (response.status_code, response.json()["code"]) == (422, "illegal_knock")
    response = enter(client, a, knock(1, 0, 5, 30, up_card="5h"))
    assert response.status_code == 201
    assert response.json()["hand"]["details"]["up_card"] == "5H"


def test_a_body_that_is_not_json_is_a_400(client):
    party = start_party()
    response = post(client, table(seats(party)[0], "/hands"), "{not json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_json"


def test_an_entry_without_a_body_names_what_is_missing(client):
    party = start_party()
    response = client.post(table(seats(party)[0], "/hands"), content_type="application/json")
    assert response.status_code == 422
    assert response.json()["detail"] == "number: Field required"
    assert response.json()["errors"] == [{"field": "number", "message": "Field required"}]


def test_a_disputed_hand_blocks_entries_and_confirmations(client):
    party = start_party()
    a, b = seats(party)
    disputed_hand(client, party)
    for response in (enter(client, a, knock(1, 0, 3, 21)), confirm(client, b, 1)):
        assert response.status_code == 409
        assert response.json()["code"] == "hand_disputed"
    assert party.hands.get().status == Hand.Status.DISPUTED


def test_a_seat_cannot_confirm_its_own_entry(client):
    party = start_party()
    a, _ = seats(party)
    enter(client, a, knock(1, 0, 3, 21))
    response = confirm(client, a, 1)
    assert response.status_code == 409
    assert response.json() == {
        "detail": "Your side entered this hand: a player of another side confirms it.",
        "code": "not_your_hand",
    }
    assert party.hands.get().status == Hand.Status.PENDING


def test_confirming_before_anything_was_entered_is_stale(client):
    party = start_party()
    _, b = seats(party)
    response = confirm(client, b, 1)
    assert (response.status_code, response.json()["code"]) == (409, "stale_entry")


@pytest.mark.parametrize("path", ["", "/hands", "/hands/1/confirm"])
def test_an_unknown_or_replaced_link_is_a_json_404(client, path):
    party = start_party()
    seat = seats(party)[0]
    old = table(seat, path)
    seat_link_reissue(seat=seat, user=None)
    for url in (old, f"/api/tables/not-a-real-token{path}"):
        if not path:
            response = client.get(url)
        else:
            response = post(client, url, knock(1, 0, 3, 21) if path == "/hands" else {"version": 1})
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
    assert not party.hands.exists()


def test_an_address_the_api_does_not_have_is_a_json_404(client):
    response = client.get("/api/no/such/thing")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_method_an_endpoint_does_not_take_is_a_json_405(client):
    party = start_party()
    response = client.delete(table(seats(party)[0]))
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
    assert "GET" in response["Allow"]


def test_a_hand_number_in_the_path_must_be_a_number(client):
    party = start_party()
    response = confirm(client, seats(party)[1], "one")
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "number"


# --- Organizers ------------------------------------------------------------------


def test_the_organizer_sees_every_hand_and_the_seat_links(client):
    party = start_party()
    a, b = seats(party)
    enter(client, a, knock(1, 0, 3, 21))
    confirm(client, b, 1)
    enter(client, b, knock(2, 1, 4, 10))

    body = logged_in(organizer_of(party)).get(f"/api/parties/{party.pk}").json()

    assert [seat["token"] for seat in body["seats"]] == [a.token, b.token]
    assert body["seats"][0]["link"] == f"http://testserver/table/{a.token}/"
    first, second = body["hands"]
    assert (first["entered_by"]["position"], first["confirmed_by"]["position"]) == (0, 1)
    assert (second["status"], second["entered_by"]["position"]) == ("pending", 1)
    assert second["confirmed_by"] is None
    assert body["sheet"]["points"] == [18, 0]


def test_anonymous_callers_are_told_to_log_in(client):
    party = start_party()
    hand = disputed_hand(client, party)
    for response in (
        client.get(f"/api/parties/{party.pk}"),
        client.get(f"/api/parties/{party.pk}/audit"),
        decide(client, hand, {"action": "void", "reason": "misdeal"}),
    ):
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"
    assert party.hands.get().status == Hand.Status.DISPUTED


@pytest.mark.parametrize("who", ["member", "organizer elsewhere", "stranger"])
def test_only_an_organizer_of_the_party_s_club_may_look_or_decide(client, who):
    party = start_party()
    hand = disputed_hand(client, party)
    if who == "member":
        user = MembershipFactory(club=party.club, player__user=UserFactory()).player.user
    elif who == "organizer elsewhere":
        user = OrganizerFactory(club=ClubFactory()).player.user
    else:
        user = UserFactory()
    outsider = logged_in(user)
    for response in (
        outsider.get(f"/api/parties/{party.pk}"),
        outsider.get(f"/api/parties/{party.pk}/audit"),
        decide(outsider, hand, {"action": "void", "reason": "misdeal"}),
    ):
        # Another club's party is not there for them, not even as a refusal.
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
        assert party.club.name not in response.json()["detail"]
    assert party.hands.get().status == Hand.Status.DISPUTED


def test_a_superuser_may_act_for_any_club(client):
    party = start_party()
    admin = UserFactory(is_superuser=True)
    assert logged_in(admin).get(f"/api/parties/{party.pk}").status_code == 200


def test_the_organizer_resolves_a_dispute_and_play_goes_on(client):
    party = start_party()
    a, _ = seats(party)
    hand = disputed_hand(client, party)
    organizer = organizer_of(party)
    result = {"ending": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 12}

    response = decide(
        logged_in(organizer), hand, {"action": "resolve", "reason": "recounted", "result": result}
    )

    assert response.status_code == 200
    body = response.json()
    assert (body["hand"]["status"], body["hand"]["points"]) == ("confirmed", 9)
    assert body["hand"]["decided"] is True and body["hand"]["counter"] is None
    assert body["party"]["sheet"]["points"] == [9, 0]
    assert enter(client, a, knock(2, 0, 3, 21)).status_code == 201
    record = party.audit.get(action=AuditRecord.Action.RESOLVE)
    assert (record.user, record.reason) == (organizer, "recounted")


@pytest.mark.parametrize(
    ("hand_of", "address", "version", "field", "counter", "accepted"),
    [
        (gin_rummy_disputed_hand, "decide", "entered", "points", 9, 18),
        (gin_rummy_disputed_hand, "decide", "counter", "points", 9, 9),
        (chinchon_disputed_hand, "decide", "entered", "scores", [-10, 20], [-10, 30]),
        # The other games' older address answers alike.
        (chinchon_disputed_hand, "decide-entry", "counter", "scores", [-10, 20], [-10, 20]),
    ],
)
def test_the_organizer_resolves_a_dispute_by_accepting_one_version(
    client, hand_of, address, version, field, counter, accepted
):
    hand = hand_of(client)
    session = logged_in(organizer_of(hand.party))
    read = session.get(f"/api/parties/{hand.party_id}").json()
    assert read["hands"][0]["counter"][field] == counter
    decision = {"action": "resolve", "reason": "the table agreed", "version": version}

    response = decide(session, hand, decision, address)

    assert response.status_code == 200, response.json()
    assert (response.json()["hand"]["status"], response.json()["hand"][field]) == (
        "confirmed",
        accepted,
    )
    hand.refresh_from_db()
    assert (hand.status, getattr(hand, field)) == (Hand.Status.CONFIRMED, accepted)
    assert hand.party.audit.filter(action=AuditRecord.Action.RESOLVE).count() == 1


def test_only_a_disputed_hand_has_a_version_to_accept(client):
    party = start_party()
    a, b = seats(party)
    enter(client, a, knock(1, 0, 3, 21))
    confirm(client, b, 1)
    hand = party.hands.get()
    session = logged_in(organizer_of(party))

    response = decide(session, hand, {"action": "resolve", "reason": "x", "version": "counter"})

    assert (response.status_code, response.json()["code"]) == (409, "wrong_action")
    assert "Only a disputed hand has two versions" in response.json()["detail"]
    assert not party.audit.filter(action=AuditRecord.Action.RESOLVE).exists()


@pytest.mark.parametrize(
    "decision",
    [
        {"action": "correct", "reason": "x", "version": "entered"},
        {"action": "void", "reason": "x", "version": "entered"},
        {"action": "resolve", "reason": "x", "version": "entered", "result": {"ending": "no_game"}},
    ],
)
def test_a_version_goes_only_with_resolving_and_alone(client, decision):
    party = start_party()
    hand = disputed_hand(client, party)
    response = decide(logged_in(organizer_of(party)), hand, decision)
    assert (response.status_code, response.json()["code"]) == (422, "invalid_entry")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DISPUTED


def test_a_knocker_short_of_cards_has_no_gin_in_the_api_as_on_the_page(client):
    party = start_party()
    a, _ = seats(party)
    entry = {"number": 1, "ending": "gin", "knocker": 0, "defender_deadwood": 20}
    response = enter(client, a, {**entry, "rulings": {"knocker_missing_cards": 1}})
    assert (response.status_code, response.json()["code"]) == (422, "invalid_entry")
    assert "short of cards has no gin" in response.json()["detail"]
    assert not party.hands.exists()


def test_the_organizer_voids_a_hand_and_the_same_dealer_deals_again(client):
    party = start_party()
    hand = disputed_hand(client, party)
    response = decide(logged_in(organizer_of(party)), hand, {"action": "void", "reason": "misdeal"})
    assert response.status_code == 200
    assert response.json()["hand"]["status"] == "void"
    assert response.json()["party"]["number"] == 2
    body = client.get(table(seats(party)[0])).json()
    assert (body["number"], body["dealer"]["position"]) == (2, hand.dealer.position)


def test_a_correction_can_reopen_a_finished_party(client):
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    for number, (knocker, points) in enumerate(SEED_SHEET, start=1):
        enter(client, a, knock(number, knocker, 2, 2 + points))
    party.refresh_from_db()
    assert party.status == Party.Status.FINISHED
    last = party.hands.get(number=len(SEED_SHEET))
    # 104 - 19 + 5 = 90: the correction reopens the party.
    result = {"ending": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 7}

    response = decide(
        logged_in(organizer_of(party)),
        last,
        {"action": "correct", "reason": "miscounted", "result": result},
    )

    assert response.status_code == 200
    assert response.json()["party"]["party"]["status"] == "running"
    assert response.json()["party"]["settlement"] is None
    assert response.json()["party"]["sheet"]["points"] == [90, 42]


@pytest.mark.parametrize("address", ["decide", "decide-entry"])
def test_the_organizer_corrects_and_voids_another_game_s_confirmed_hands(client, address):
    party = confirmed_chinchon()
    first, _second, third = party.hands.order_by("number")
    session = logged_in(organizer_of(party))

    corrected = decide(
        session,
        first,
        {"action": "correct", "entry": {"closer": 0, "penalties": [0, 50]}, "reason": "recounted"},
        address,
    )
    voided = decide(session, third, {"action": "void", "reason": "misdeal"}, address)

    assert corrected.status_code == 200, corrected.json()
    assert corrected.json()["hand"]["scores"] == [-10, 50]
    assert voided.status_code == 200, voided.json()
    assert voided.json()["hand"]["status"] == "void"
    assert voided.json()["party"]["totals"] == [-20, 80]


@pytest.mark.parametrize(
    ("hand_of", "address", "body"),
    [
        # Gin Rummy's result for another game's hand, at the one address.
        (
            chinchon_pending_hand,
            "decide",
            {
                "action": "correct",
                "result": {
                    "ending": "knock",
                    "knocker": 0,
                    "knocker_deadwood": 3,
                    "defender_deadwood": 21,
                },
                "reason": "x",
            },
        ),
        # Another game's entry for a Gin Rummy hand.
        (
            gin_rummy_pending_hand,
            "decide",
            {"action": "correct", "entry": {"closer": 0, "penalties": [0, 5]}, "reason": "x"},
        ),
        # The alias takes a whole table's hands only.
        (gin_rummy_pending_hand, "decide-entry", {"action": "void", "reason": "dealt wrongly"}),
    ],
)
def test_a_decision_of_the_other_kind_is_refused_and_changes_nothing(
    client, hand_of, address, body
):
    # Each kind answers with its own party: a decision of the other kind would be
    # written and then fail to be told, so it is refused first.
    hand = hand_of(client)

    response = decide(logged_in(organizer_of(hand.party)), hand, body, address)

    assert response.status_code == 422
    assert "This party plays" in response.json()["detail"]
    hand.refresh_from_db()
    assert hand.status == Hand.Status.PENDING


GIN_DISPUTED = (gin_rummy_disputed_hand, "decide")
CHINCHON_CONFIRMED = (chinchon_confirmed_hand, "decide-entry")
DECIDE_ERRORS = [
    (GIN_DISPUTED, {"action": "void", "reason": "  "}, 422, "invalid_entry", "Give a reason"),
    (GIN_DISPUTED, {"action": "resolve", "reason": "x"}, 422, "invalid_entry", "right result"),
    (
        GIN_DISPUTED,
        {"action": "void", "reason": "x", "result": {"ending": "no_game"}},
        422,
        "invalid_entry",
        "leave the result out",
    ),
    (
        GIN_DISPUTED,
        {"action": "correct", "reason": "x", "result": {"ending": "no_game"}},
        409,
        "wrong_action",
        "resolve it",
    ),
    (
        GIN_DISPUTED,
        {"action": "resolve", "reason": "x",
         "result": {"ending": "knock", "knocker": 0, "knocker_deadwood": 12,
                    "defender_deadwood": 30}},
        422,
        "illegal_knock",
        "12",
    ),
    (GIN_DISPUTED, {"action": "shrug", "reason": "x"}, 422, "invalid_entry", "action: "),
    (
        (chinchon_disputed_hand, "decide-entry"),
        {"action": "resolve", "reason": "x",
         "entry": {"closer": 0, "penalties": [4, 20], "chinchon": True}},
        422,
        "invalid_entry",
        "A Chinchón melds all seven cards",
    ),
    (
        CHINCHON_CONFIRMED,
        {"action": "void", "entry": {"closer": 0, "penalties": [0, 5]}, "reason": "x"},
        422,
        "invalid_entry",
        "no entry",
    ),
    (
        CHINCHON_CONFIRMED,
        {"action": "correct", "version": "counter", "reason": "x"},
        422,
        "invalid_entry",
        "two versions",
    ),
    (CHINCHON_CONFIRMED, {"action": "correct", "reason": "x"}, 422, "invalid_entry",
     "Give the right entry"),
    # 45 in hand 2 ends the party (60 + 45) before hand 3 was dealt.
    (
        CHINCHON_CONFIRMED,
        {"action": "correct", "entry": {"closer": 0, "penalties": [0, 45]}, "reason": "x"},
        422,
        "invalid_entry",
        "void the later hands first",
    ),
    # The hand's state, not the body, is wrong: a conflict, as for Gin Rummy.
    (
        CHINCHON_CONFIRMED,
        {"action": "resolve", "entry": {"closer": 0, "penalties": [0, 5]}, "reason": "x"},
        409,
        "wrong_action",
        "not disputed",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("hand_at", "data", "status", "code", "message"), DECIDE_ERRORS)
def test_a_refused_decision_says_why_and_changes_nothing(
    client, hand_at, data, status, code, message
):
    hand_of, address = hand_at
    hand = hand_of(client)
    before = (hand.status, hand.points, hand.scores, hand.version)
    records = hand.party.audit.count()

    response = decide(logged_in(organizer_of(hand.party)), hand, data, address)

    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert message in response.json()["detail"]
    hand.refresh_from_db()
    assert (hand.status, hand.points, hand.scores, hand.version) == before
    assert hand.party.audit.count() == records


def test_resolving_a_hand_that_is_not_disputed_is_refused(client):
    party = start_party()
    a, _ = seats(party)
    enter(client, a, knock(1, 0, 3, 21))
    response = decide(
        logged_in(organizer_of(party)),
        party.hands.get(),
        {"action": "resolve", "reason": "x", "result": {"ending": "no_game"}},
    )
    assert (response.status_code, response.json()["code"]) == (409, "wrong_action")
    assert party.hands.get().status == Hand.Status.PENDING


def test_a_hand_of_another_party_or_an_unknown_party_is_a_404(client):
    party, other = start_party(), start_party()
    hand = disputed_hand(client, other)
    organizer = logged_in(organizer_of(party))
    response = post(
        organizer,
        f"/api/parties/{party.pk}/hands/{hand.pk}/decide",
        {"action": "void", "reason": "x"},
    )
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    response = organizer.get("/api/parties/999999")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    response = organizer.get("/api/parties/99999999999999999999")
    assert response.status_code == 422
    assert other.hands.get().status == Hand.Status.DISPUTED


def test_the_audit_lists_every_step_with_who_took_it(client):
    party = start_party()
    a, b = seats(party)
    hand = disputed_hand(client, party)
    organizer = organizer_of(party)
    session = logged_in(organizer)
    decide(session, hand, {"action": "void", "reason": "misdeal"})

    records = session.get(f"/api/parties/{party.pk}/audit").json()

    assert [r["action"] for r in records] == ["start", "enter", "dispute", "void"]
    assert records[1]["seat"]["player"] == a.player.name
    assert records[2]["seat"]["player"] == b.player.name
    assert records[2]["hand_number"] == 1
    assert (records[3]["user"], records[3]["reason"]) == (organizer.player.name, "misdeal")
    assert records[3]["before"]["status"] == "disputed"


def test_a_decision_needs_the_csrf_token_of_the_logged_in_session(client):
    party = start_party()
    hand = disputed_hand(client, party)
    browser = logged_in(organizer_of(party), enforce_csrf_checks=True)
    data = {"action": "void", "reason": "misdeal"}

    refused = decide(browser, hand, data)

    assert refused.status_code == 403
    assert refused.json()["code"] == "csrf_failed"
    assert party.hands.get().status == Hand.Status.DISPUTED
    # Reading needs no token; the login page hands one out, as to a browser.
    assert browser.get(f"/api/parties/{party.pk}").status_code == 200
    browser.get("/admin/login/")
    token = browser.cookies["csrftoken"].value
    accepted = browser.post(
        f"/api/parties/{party.pk}/hands/{hand.pk}/decide",
        data,
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )
    assert accepted.status_code == 200
    assert party.hands.get().status == Hand.Status.VOID


def test_seat_entries_need_no_csrf_token(client):
    party = start_party()
    a, _ = seats(party)
    phone = Client(enforce_csrf_checks=True)
    assert enter(phone, a, knock(1, 0, 3, 21)).status_code == 201


# --- Query budgets -----------------------------------------------------------------


def play_small_hands(party, count):
    """``count`` hands of one point each, entered and confirmed: the party runs on."""
    a, b = seats(party)
    for number in range(1, count + 1):
        hand_enter(
            seat=a,
            number=number,
            entry=Result("knock", knocker=0, knocker_deadwood=9, defender_deadwood=10),
        )
        hand_confirm(seat=b, number=number, version=1)
    hand_enter(
        seat=b,
        number=count + 1,
        entry=Result("knock", knocker=1, knocker_deadwood=9, defender_deadwood=10),
    )


@pytest.mark.parametrize("hands", [1, 20])
def test_the_table_reads_in_the_same_queries_however_many_hands(
    client, django_assert_max_num_queries, hands
):
    party = start_party()
    play_small_hands(party, hands)
    url = table(seats(party)[0])
    with django_assert_max_num_queries(4):
        response = client.get(url)
    assert response.status_code == 200
    assert len(response.json()["sheet"]["rows"]) == hands + 1


@pytest.mark.parametrize("hands", [1, 20])
def test_the_organizer_reads_in_the_same_queries_however_many_hands(
    django_assert_max_num_queries, hands
):
    party = start_party()
    play_small_hands(party, hands)
    session = logged_in(organizer_of(party))
    with django_assert_max_num_queries(6):
        response = session.get(f"/api/parties/{party.pk}")
    assert len(response.json()["hands"]) == hands + 1
    with django_assert_max_num_queries(5):
        response = session.get(f"/api/parties/{party.pk}/audit")
    assert len(response.json()) == 2 * hands + 2


# --- The schema ------------------------------------------------------------------


def test_the_openapi_schema_lists_the_endpoints(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert {
        "/api/tables/{token}": {"get"},
        "/api/tables/{token}/hands": {"post"},
        "/api/tables/{token}/hands/{number}/confirm": {"post"},
        "/api/parties/{party_id}": {"get"},
        "/api/parties/{party_id}/audit": {"get"},
        "/api/parties/{party_id}/hands/{hand_id}/decide": {"post"},
        "/api/parties/{party_id}/hands/{hand_id}/decide-entry": {"post"},
        "/api/manage/clubs/{slug}/nights": {"get", "post"},
        "/api/manage/nights/{night_id}/parties": {"post"},
        "/api/manage/nights/{night_id}/close": {"post"},
        "/api/parties/{party_id}/cancel": {"post"},
        "/api/parties/{party_id}/seats/{position}/swap": {"post"},
        "/api/parties/{party_id}/rematch": {"post"},
    }.items() <= {path: set(operations) for path, operations in paths.items()}.items()
    assert "security" not in paths["/api/tables/{token}/hands"]["post"]
    assert paths["/api/parties/{party_id}"]["get"]["security"]


def test_the_openapi_document_lists_every_game_the_start_takes(client):
    document = client.get("/api/openapi.json").json()

    start = document["components"]["schemas"]["PartyStartIn"]
    titles = [variant["title"] for variant in start["oneOf"]]
    assert "two, 2 players (PartyStartIn)" in titles
    other = next(v for v in start["oneOf"] if v["title"] == "another game (PartyStartIn)")
    assert other["properties"]["game"]["enum"] == sorted(ENTRY_GAMES)
    # From the smallest table of any game (two) to Cruzo's seven.
    players = other["properties"]["players"]
    assert (players["minItems"], players["maxItems"]) == (2, 7)
    assert "format" not in other["properties"]
    gin = start["oneOf"][0]
    assert "options" not in gin["properties"]
    # Each format's variants are its table sizes; only the format a body may
    # leave out (the field's default) is not required.
    by_title = {v["title"]: v for v in start["oneOf"]}
    assert {t for t in titles if t.startswith("partners")} == {
        "partners, 4 players (PartyStartIn)",
        "partners, 6 players (PartyStartIn)",
    }
    assert by_title["chouette, 3 to 6 players (PartyStartIn)"]["required"] == ["format", "players"]
    assert by_title["two, 2 players (PartyStartIn)"]["required"] == ["players"]


def test_the_api_docs_page_loads_its_scripts_from_our_own_static_files(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    scripts = re.findall(r'src="([^"]+)"', response.text)
    assert scripts
    assert all(src.startswith("/static/") for src in scripts), scripts
