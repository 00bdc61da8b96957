"""The organizer's API with the other games: a party of Chinchón, Canasta, Blaue
Vierzehn or Cruzo started at a night with its options (Gin Rummy when the game is
left out, as before), read back with its sides and totals, and its disputed hands
decided; a wrong game, option or table is a 4xx with a sentence and a code."""

import pytest

from clubs.services import api_token_create
from scoring.engine.games import ENTRY_GAMES
from scoring.models import Hand, Party
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.factories import (
    ClubNightFactory,
    MembershipFactory,
    OrganizerFactory,
    start_game_party,
    start_night_party,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return OrganizerFactory(player__user__username="director")


@pytest.fixture
def night(director):
    return ClubNightFactory(club=director.club, name="Friday")


@pytest.fixture
def api(client, director):
    key = api_token_create(user=director.player.user, name="club website")[1]

    def call(url, data=None):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
        if data is None:
            return client.get(url, **headers)
        return client.post(url, data, content_type="application/json", **headers)

    return call


def members(night, count):
    return [MembershipFactory(club=night.club).player.pk for _ in range(count)]


def start(api, night, body):
    return api(f"/api/manage/nights/{night.pk}/parties", body)


def test_a_canasta_party_of_four_starts_with_its_partnerships(api, night):
    players = members(night, 4)

    response = start(api, night, {"game": "canasta", "players": players})

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["game"], body["options"]) == ("canasta", {"partnerships": None})
    assert body["sides"] == [[0, 2], [1, 3]]
    assert [seat["position"] for seat in body["seats"]] == [0, 1, 2, 3]
    assert all(seat["link"].endswith(f"/table/{seat['token']}/") for seat in body["seats"])
    party = Party.objects.get()
    assert [s.player_id for s in party.seats.order_by("position")] == players


def test_chinchon_la_conga_with_the_48_card_pack(api, night):
    response = start(
        api,
        night,
        {"game": "chinchon", "players": members(night, 3), "options": {"conga": True, "deck": 48}},
    )

    assert response.status_code == 201
    assert Party.objects.get().rules == {"conga": True, "deck": 48}


def test_gin_rummy_is_still_the_default(api, night):
    response = start(api, night, {"players": members(night, 2)})

    assert response.status_code == 201
    assert "sheet" in response.json()
    assert Party.objects.get().game == "gin_rummy"


@pytest.mark.parametrize(
    ("body", "status", "code", "detail"),
    [
        (
            {"game": "blaue_vierzehn", "count": 2},
            422,
            "invalid_entry",
            None,
        ),
        (
            {"game": "chinchon", "count": 2, "options": {"jokers": 2}},
            422,
            "invalid_entry",
            "Chinchón has no rule called jokers.",
        ),
        (
            {"game": "canasta", "count": 5, "options": {"partnerships": 3}},
            422,
            "invalid_entry",
            "5 players play as two partnerships.",
        ),
        ({"game": "poker", "count": 2}, 422, "invalid_entry", None),
        (
            {"game": "cruzo", "count": 3, "format": "two"},
            422,
            "invalid_entry",
            "Cruzo has no formats: its players sit in the order given.",
        ),
        (
            {"count": 2, "options": {"deck": 40}},
            422,
            "invalid_entry",
            "Gin Rummy takes its rules from the night: it has no options here.",
        ),
    ],
)
def test_a_wrong_game_option_or_table_is_refused_in_words(api, night, body, status, code, detail):
    body = dict(body)
    body["players"] = members(night, body.pop("count"))

    response = start(api, night, body)

    answer = response.json()
    assert (response.status_code, answer["code"]) == (status, code), answer
    if detail:
        assert answer["detail"] == detail
    assert not Party.objects.exists()


def test_the_organizer_reads_and_decides_a_disputed_hand(api, night):
    body = start(api, night, {"game": "chinchon", "players": members(night, 2)}).json()
    party = Party.objects.get(pk=body["party"]["id"])
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 30]})
    hand_enter(seat=b, number=1, entry={"closer": 0, "penalties": [0, 20]})
    hand = party.hands.get()

    read = api(f"/api/parties/{party.pk}").json()
    assert read["hands"][0]["counter"]["scores"] == [-10, 20]

    url = f"/api/parties/{party.pk}/hands/{hand.pk}/decide-entry"
    refused = api(
        url, {"entry": {"closer": 0, "penalties": [4, 20], "chinchon": True}, "reason": "x"}
    )
    assert refused.status_code == 422
    assert "A Chinchón melds all seven cards" in refused.json()["detail"]

    response = api(url, {"version": "counter", "reason": "the cards were shown"})

    assert response.status_code == 200, response.json()
    decided = response.json()
    assert (decided["hand"]["status"], decided["hand"]["scores"]) == ("confirmed", [-10, 20])
    assert decided["party"]["totals"] == [-10, 20]
    hand.refresh_from_db()
    assert hand.status == Hand.Status.CONFIRMED


def test_the_one_decide_address_resolves_another_game_s_hand_by_a_version(api, night):
    """``…/decide`` takes every game's hand: a version accepted reads alike for
    both kinds of table, and the party says which it is."""
    body = start(api, night, {"game": "chinchon", "players": members(night, 2)}).json()
    party = Party.objects.get(pk=body["party"]["id"])
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 30]})
    hand_enter(seat=b, number=1, entry={"closer": 0, "penalties": [0, 20]})
    hand = party.hands.get()

    response = api(
        f"/api/parties/{party.pk}/hands/{hand.pk}/decide",
        {"action": "resolve", "version": "entered", "reason": "x"},
    )

    assert response.status_code == 200, response.json()
    assert response.json()["hand"]["scores"] == [-10, 30]
    hand.refresh_from_db()
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [-10, 30])


def test_the_one_decide_address_corrects_and_voids_another_game_s_hands(api, night):
    party = confirmed_chinchon(api, night)
    first, _second, third = party.hands.order_by("number")
    url = f"/api/parties/{party.pk}/hands/{{}}/decide"

    corrected = api(
        url.format(first.pk),
        {"action": "correct", "entry": {"closer": 0, "penalties": [0, 50]}, "reason": "recounted"},
    )
    voided = api(url.format(third.pk), {"action": "void", "reason": "misdeal"})

    assert corrected.json()["hand"]["scores"] == [-10, 50]
    assert voided.status_code == 200, voided.json()
    assert voided.json()["party"]["totals"] == [-20, 80]


def test_the_openapi_document_lists_every_game_the_start_takes(client):
    document = client.get("/api/openapi.json").json()

    assert "post" in document["paths"]["/api/parties/{party_id}/hands/{hand_id}/decide-entry"]
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


def confirmed_chinchon(api, night):
    body = start(api, night, {"game": "chinchon", "players": members(night, 2)}).json()
    party = Party.objects.get(pk=body["party"]["id"])
    a, b = party.seats.order_by("position")
    for number, penalty in ((1, 60), (2, 30), (3, 5)):
        entered = hand_enter(seat=a, number=number, entry={"closer": 0, "penalties": [0, penalty]})
        hand_confirm(seat=b, number=number, version=entered.hand.version)
    return party


def test_the_api_corrects_and_voids_a_confirmed_hand_of_another_game(api, night):
    party = confirmed_chinchon(api, night)
    first, _second, third = party.hands.order_by("number")

    corrected = api(
        f"/api/parties/{party.pk}/hands/{first.pk}/decide-entry",
        {"action": "correct", "entry": {"closer": 0, "penalties": [0, 50]}, "reason": "recounted"},
    )
    voided = api(
        f"/api/parties/{party.pk}/hands/{third.pk}/decide-entry",
        {"action": "void", "reason": "misdeal"},
    )

    assert corrected.status_code == 200, corrected.json()
    assert corrected.json()["hand"]["scores"] == [-10, 50]
    assert voided.status_code == 200, voided.json()
    assert voided.json()["hand"]["status"] == "void"
    assert voided.json()["party"]["totals"] == [-20, 80]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (
            {"action": "void", "entry": {"closer": 0, "penalties": [0, 5]}, "reason": "x"},
            422,
            "no entry",
        ),
        ({"action": "correct", "version": "counter", "reason": "x"}, 422, "two versions"),
        ({"action": "correct", "reason": "x"}, 422, "Give the right entry"),
        # 45 in hand 2 ends the party (60 + 45) before hand 3 was dealt.
        (
            {"action": "correct", "entry": {"closer": 0, "penalties": [0, 45]}, "reason": "x"},
            422,
            "void the later hands first",
        ),
        # The hand's state, not the body, is wrong: a conflict, as for Gin Rummy.
        (
            {"action": "resolve", "entry": {"closer": 0, "penalties": [0, 5]}, "reason": "x"},
            409,
            "not disputed",
        ),
    ],
)
def test_a_decision_that_does_not_fit_the_hand_is_refused_and_changes_nothing(
    api, night, body, status, message
):
    party = confirmed_chinchon(api, night)
    second = party.hands.get(number=2)

    response = api(f"/api/parties/{party.pk}/hands/{second.pk}/decide-entry", body)

    assert response.status_code == status, response.json()
    assert message in response.json()["detail"]
    second.refresh_from_db()
    assert (second.status, second.scores, second.version) == ("confirmed", [-10, 30], 2)


def test_a_rematch_of_another_game_is_the_same_game_with_the_deal_passed_on(api, night):
    party = confirmed_chinchon(api, night)
    last = party.hands.get(number=3)
    # 60 + 30 + 10: the second player reaches 100, the party is over.
    api(
        f"/api/parties/{party.pk}/hands/{last.pk}/decide-entry",
        {"action": "correct", "entry": {"closer": 0, "penalties": [0, 10]}, "reason": "recount"},
    )

    response = api(f"/api/parties/{party.pk}/rematch", {})

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["game"], body["party"]["status"], body["over"]) == ("chinchon", "running", False)
    first, second = party.seats.select_related("player").order_by("position")
    assert [seat["player"] for seat in body["seats"]] == [second.player.name, first.player.name]


def gin_rummy_hand(night):
    party = start_night_party(night)
    a = party.seats.get(position=0)
    return hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21)).hand


def chinchon_hand(night):
    a = start_game_party("chinchon", 2, night=night).seats.get(position=0)
    return hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 12]}).hand


@pytest.mark.parametrize(
    ("hand_of", "address", "body"),
    [
        # Gin Rummy's result for another game's hand, at the one address.
        (
            chinchon_hand,
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
            gin_rummy_hand,
            "decide",
            {"action": "correct", "entry": {"closer": 0, "penalties": [0, 5]}, "reason": "x"},
        ),
        # The alias takes a whole table's hands only.
        (gin_rummy_hand, "decide-entry", {"action": "void", "reason": "dealt wrongly"}),
    ],
)
def test_a_decision_of_the_other_kind_is_refused_and_changes_nothing(
    api, night, hand_of, address, body
):
    # Each kind answers with its own party: a decision of the other kind would be
    # written and then fail to be told, so it is refused first.
    hand = hand_of(night)

    response = api(f"/api/parties/{hand.party_id}/hands/{hand.pk}/{address}", body)

    assert response.status_code == 422
    assert "This party plays" in response.json()["detail"]
    hand.refresh_from_db()
    assert hand.status == Hand.Status.PENDING
