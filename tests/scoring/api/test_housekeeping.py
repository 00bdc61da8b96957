"""The night's housekeeping through the organizer's API, with a personal key: start
a party of any game with its options (Gin Rummy when the game is left out), cancel
it, swap a seat's player, rematch, close the night, decide a hand of any game.
Each is recorded as the party page records it (the key's owner, the client's
address); each refusal is a 4xx with a sentence and a code, and leaves the party
and the night as they were."""

import pytest
from django.test import Client

from clubs.models import ClubRecord
from clubs.services import api_token_create, api_token_revoke
from scoring.models import AuditRecord, Hand, Party
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.factories import (
    FIRST_HANDS,
    ClubNightFactory,
    MembershipFactory,
    OrganizerFactory,
    start_game_party,
    start_night_party,
    start_party,
)

pytestmark = pytest.mark.django_db

ADDRESS = "198.51.100.7"


@pytest.fixture
def director():
    """An organizer of a club, with a personal key."""
    return OrganizerFactory(player__user__username="director", player__name="Dora Director")


@pytest.fixture
def key(director):
    return api_token_create(user=director.player.user, name="club website")[1]


@pytest.fixture
def night(director):
    return ClubNightFactory(club=director.club, name="Friday")


@pytest.fixture
def api(client, key):
    """POSTs a JSON body with the key, from a fixed address."""

    def post(url, data=None, *, secret=key, raw=None):
        return client.post(
            url,
            raw if raw is not None else (data if data is not None else {}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {secret}",
            REMOTE_ADDR=ADDRESS,
        )

    return post


def seats(party):
    return list(party.seats.select_related("player").order_by("position"))


def members(night, count):
    """The ids of ``count`` new members of the night's club."""
    return [MembershipFactory(club=night.club).player.pk for _ in range(count)]


def finish(party):
    """Gin against 80 points of deadwood: 80 + the gin bonus of 20 = 100 reaches
    the classic target of 100, so the party is over after one hand."""
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=Result("gin", 0, 0, 80))
    hand_confirm(seat=b, number=1, version=1)
    party.refresh_from_db()
    return party


def refused(response, status, code, detail=None):
    body = response.json()
    assert (response.status_code, body["code"]) == (status, code), body
    if detail is not None:
        assert body["detail"] == detail
    return body


# --- Start -----------------------------------------------------------------------


def start(api, night, body):
    return api(f"/api/manage/nights/{night.pk}/parties", body)


def test_a_party_started_through_the_api_is_recorded_with_the_address_as_on_the_page(
    api, director, night
):
    response = start(api, night, {"players": members(night, 2)})

    assert response.status_code == 201
    # Gin Rummy when the body leaves the game out, as before there were others.
    assert "sheet" in response.json()
    party = Party.objects.get()
    assert party.game == "gin_rummy"
    record = party.audit.get(action=AuditRecord.Action.START)
    assert (record.user, record.address) == (director.player.user, ADDRESS)


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


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"game": "blaue_vierzehn", "count": 2}, None),
        (
            {"game": "chinchon", "count": 2, "options": {"jokers": 2}},
            "Chinchón has no rule called jokers.",
        ),
        (
            {"game": "canasta", "count": 5, "options": {"partnerships": 3}},
            "5 players play as two partnerships.",
        ),
        ({"game": "poker", "count": 2}, None),
        (
            {"game": "cruzo", "count": 3, "format": "two"},
            "Cruzo has no formats: its players sit in the order given.",
        ),
        (
            {"count": 2, "options": {"deck": 40}},
            "Gin Rummy takes its rules from the night: it has no options here.",
        ),
    ],
)
def test_a_wrong_game_option_or_table_is_refused_in_words(api, night, body, detail):
    body = dict(body)
    body["players"] = members(night, body.pop("count"))

    refused(start(api, night, body), 422, "invalid_entry", detail)
    assert not Party.objects.exists()


# --- Cancel ----------------------------------------------------------------------


def test_a_cancel_through_the_api_is_recorded_with_the_key_s_owner_and_address(
    api, client, key, director, night
):
    party = start_night_party(night)

    response = api(f"/api/parties/{party.pk}/cancel", {"reason": "Wrong players ticked"})

    assert response.status_code == 200
    assert response.json()["party"]["status"] == "cancelled"
    party.refresh_from_db()
    assert party.status == Party.Status.CANCELLED
    record = party.audit.get(action=AuditRecord.Action.CANCEL)
    assert (record.user, record.address, record.reason) == (
        director.player.user,
        ADDRESS,
        "Wrong players ticked",
    )
    assert (record.before, record.after) == ({"status": "running"}, {"status": "cancelled"})
    audit = client.get(f"/api/parties/{party.pk}/audit", HTTP_AUTHORIZATION=f"Bearer {key}").json()
    assert [(r["action"], r["user"]) for r in audit] == [
        ("start", None),
        ("cancel", director.player.name),
    ]


@pytest.mark.parametrize("body", [{}, {"reason": ""}, {"reason": "   "}])
def test_a_cancel_without_a_reason_is_refused(api, night, body):
    party = start_night_party(night)

    response = api(f"/api/parties/{party.pk}/cancel", body)

    refused(response, 422, "invalid_entry", "Give a reason: a cancelled party stays in the record.")
    party.refresh_from_db()
    assert party.status == Party.Status.RUNNING
    assert not party.audit.filter(action=AuditRecord.Action.CANCEL).exists()


def test_a_cancelled_party_is_not_cancelled_twice(api, night):
    party = start_night_party(night)
    api(f"/api/parties/{party.pk}/cancel", {"reason": "Wrong table"})

    response = api(f"/api/parties/{party.pk}/cancel", {"reason": "Again"})

    refused(response, 409, "party_cancelled")
    assert "cancelled" in response.json()["detail"]
    assert party.audit.filter(action=AuditRecord.Action.CANCEL).count() == 1


def test_a_party_of_a_closed_night_is_not_cancelled(api, night):
    party = finish(start_night_party(night))
    assert api(f"/api/manage/nights/{night.pk}/close").status_code == 200

    response = api(f"/api/parties/{party.pk}/cancel", {"reason": "Too late"})

    refused(response, 409, "night_closed", "Friday is closed: its results are final.")
    party.refresh_from_db()
    assert party.status == Party.Status.FINISHED


def test_a_tournament_s_table_is_not_cancelled_through_the_night_s_housekeeping(client):
    # A party without a night is a tournament's table: its round cancels it.
    party = start_party()
    user = OrganizerFactory(club=party.club).player.user
    secret = api_token_create(user=user, name="program")[1]

    response = client.post(
        f"/api/parties/{party.pk}/cancel",
        {"reason": "No-show"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )

    refused(response, 409, "wrong_action", "Only a party of a club night can be cancelled here.")
    party.refresh_from_db()
    assert party.status == Party.Status.RUNNING


# --- Swap a seat's player --------------------------------------------------------


def test_a_swap_puts_a_member_in_the_seat_with_a_new_link(api, client, director, night):
    party = start_night_party(night)
    first = seats(party)[0]
    old_name, old_link = first.player.name, first.get_absolute_url()
    newcomer = MembershipFactory(club=night.club, player__name="Nell Newcomer").player

    response = api(f"/api/parties/{party.pk}/seats/0/swap", {"player": newcomer.pk})

    assert response.status_code == 200
    seat = response.json()["seats"][0]
    first.refresh_from_db()
    assert first.player == newcomer
    assert (seat["position"], seat["player"], seat["token"]) == (0, "Nell Newcomer", first.token)
    assert seat["link"] == f"http://testserver{first.get_absolute_url()}"
    assert first.get_absolute_url() != old_link
    assert client.get(old_link).status_code == 410
    record = party.audit.get(action=AuditRecord.Action.SWAP)
    assert (record.user, record.address, record.seat) == (director.player.user, ADDRESS, first)
    assert record.before["player"] == old_name
    assert record.after == {"player": "Nell Newcomer", "position": 0}


def test_a_player_already_at_the_party_is_not_swapped_in(api, night):
    party = start_night_party(night)
    a, b = seats(party)
    b.player.name = "Ben Seated"
    b.player.save()

    response = api(f"/api/parties/{party.pk}/seats/0/swap", {"player": b.player.pk})

    refused(response, 422, "invalid_entry", "Ben Seated already has a seat at this party.")
    a.refresh_from_db()
    assert a.player != b.player
    assert not party.audit.filter(action=AuditRecord.Action.SWAP).exists()


def test_a_player_of_another_club_is_refused_without_his_name(api, night):
    party = start_night_party(night)
    stranger = MembershipFactory(player__name="Sam Elsewhere").player
    gone = MembershipFactory(club=night.club, active=False).player

    for player in (stranger, gone):
        response = api(f"/api/parties/{party.pk}/seats/0/swap", {"player": player.pk})
        refused(response, 422, "invalid_entry", f"Player {player.pk} is not a member of this club.")
    assert not party.audit.filter(action=AuditRecord.Action.SWAP).exists()


def test_no_swap_after_the_first_hand_nor_at_a_cancelled_party(api, night):
    party = start_night_party(night)
    newcomer = MembershipFactory(club=night.club).player
    hand_enter(seat=seats(party)[0], number=1, entry=Result("knock", 0, 3, 21))

    refused(
        api(f"/api/parties/{party.pk}/seats/1/swap", {"player": newcomer.pk}),
        409,
        "wrong_action",
        "Hand 1 is already entered: a player can only be swapped before it.",
    )
    cancelled = start_night_party(night)
    api(f"/api/parties/{cancelled.pk}/cancel", {"reason": "Wrong table"})
    refused(
        api(f"/api/parties/{cancelled.pk}/seats/0/swap", {"player": newcomer.pk}),
        409,
        "party_cancelled",
    )
    assert not AuditRecord.objects.filter(action=AuditRecord.Action.SWAP).exists()


def test_a_seat_the_party_does_not_have_is_a_404(api, night):
    party = start_night_party(night)  # two players: seats 0 and 1
    newcomer = MembershipFactory(club=night.club).player

    response = api(f"/api/parties/{party.pk}/seats/2/swap", {"player": newcomer.pk})

    refused(response, 404, "not_found")
    assert not party.audit.filter(action=AuditRecord.Action.SWAP).exists()


# --- Rematch ---------------------------------------------------------------------


def test_a_rematch_starts_a_party_with_the_same_players_recorded_as_on_the_page(
    api, director, night
):
    party = finish(start_night_party(night, label="Table 2"))

    response = api(f"/api/parties/{party.pk}/rematch")

    assert response.status_code == 201
    rematch = Party.objects.exclude(pk=party.pk).get()
    body = response.json()
    assert (body["party"]["id"], body["party"]["status"]) == (rematch.pk, "running")
    assert sorted(s["player"] for s in body["seats"]) == sorted(s.player.name for s in seats(party))
    assert (rematch.night, rematch.format, rematch.label) == (night, "two", "Table 2")
    start = rematch.audit.get(action=AuditRecord.Action.START)
    assert (start.user, start.address) == (director.player.user, ADDRESS)


def test_a_rematch_of_another_game_is_the_same_game_with_the_deal_passed_on(api, night):
    party = start_game_party("chinchon", 2, night=night)
    a, b = seats(party)
    # 60 + 30 + 10: the second player reaches 100, the party is over.
    for number, penalty in ((1, 60), (2, 30), (3, 10)):
        entered = hand_enter(seat=a, number=number, entry={"closer": 0, "penalties": [0, penalty]})
        hand_confirm(seat=b, number=number, version=entered.hand.version)

    response = api(f"/api/parties/{party.pk}/rematch")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["game"], body["party"]["status"], body["over"]) == ("chinchon", "running", False)
    assert [seat["player"] for seat in body["seats"]] == [b.player.name, a.player.name]


def test_a_cancelled_party_may_be_played_again(api, night):
    party = start_night_party(night)
    api(f"/api/parties/{party.pk}/cancel", {"reason": "Wrong rules"})

    response = api(f"/api/parties/{party.pk}/rematch")

    assert response.status_code == 201
    assert Party.objects.filter(night=night, status=Party.Status.RUNNING).count() == 1


def test_no_rematch_while_the_party_runs_nor_at_a_closed_night(api, night):
    party = start_night_party(night)
    refused(
        api(f"/api/parties/{party.pk}/rematch"),
        409,
        "wrong_action",
        "This party is still running: a rematch starts once it is over.",
    )
    finish(party)
    api(f"/api/manage/nights/{night.pk}/close")
    refused(
        api(f"/api/parties/{party.pk}/rematch"),
        409,
        "night_closed",
        "Friday is closed: it takes no new parties.",
    )
    assert Party.objects.count() == 1


# --- Close the night -------------------------------------------------------------


def test_closing_the_night_goes_into_the_club_s_record(api, director, night):
    finish(start_night_party(night))

    response = api(f"/api/manage/nights/{night.pk}/close")

    assert response.status_code == 200
    night.refresh_from_db()
    assert night.closed_at is not None
    assert night.closed_by == director.player.user
    body = response.json()
    assert (body["id"], body["name"]) == (night.pk, "Friday")
    assert body["closed_at"] is not None
    record = night.club.records.get(action=ClubRecord.Action.CLOSED)
    assert (record.user, record.address, record.details["night"]) == (
        director.player.user,
        ADDRESS,
        "Friday",
    )
    # A closed night takes no new party, through the API either.
    refused(
        api(f"/api/manage/nights/{night.pk}/parties", {"players": members(night, 2)}),
        409,
        "night_closed",
    )


def test_a_night_with_a_running_party_or_already_closed_is_not_closed(api, night):
    party = start_night_party(night)
    refused(
        api(f"/api/manage/nights/{night.pk}/close"),
        409,
        "wrong_action",
        "1 party is still running: finish or cancel it first.",
    )
    night.refresh_from_db()
    assert night.closed_at is None
    finish(party)
    assert api(f"/api/manage/nights/{night.pk}/close").status_code == 200

    refused(
        api(f"/api/manage/nights/{night.pk}/close"),
        409,
        "night_closed",
        "This club night is already closed.",
    )
    assert night.club.records.filter(action=ClubRecord.Action.CLOSED).count() == 1


# --- Decide a hand ----------------------------------------------------------------

# A first hand of each game as its first seat enters it: Gin Rummy's by its counts,
# every other game's as its own entry (`tests.factories.FIRST_HANDS`).
FIRST_ENTRIES = {
    "gin_rummy": (2, Result("knock", 0, 3, 21)),
    **FIRST_HANDS,
}


@pytest.mark.parametrize("game", sorted(FIRST_ENTRIES))
def test_a_hand_of_any_game_is_voided_with_the_key_and_recorded_as_on_the_page(
    api, director, night, game
):
    players, first = FIRST_ENTRIES[game]
    party = start_game_party(game, players, night=night)
    hand = hand_enter(seat=seats(party)[0], number=1, entry=first).hand

    response = api(
        f"/api/parties/{party.pk}/hands/{hand.pk}/decide",
        {"action": "void", "reason": "Dealt with 11 cards"},
    )

    assert response.status_code == 200, response.json()
    assert response.json()["hand"]["status"] == "void"
    hand.refresh_from_db()
    assert hand.status == Hand.Status.VOID
    record = party.audit.get(action=AuditRecord.Action.VOID)
    assert (record.user, record.address, record.reason) == (
        director.player.user,
        ADDRESS,
        "Dealt with 11 cards",
    )
    assert (record.before["status"], record.after["status"]) == ("pending", "void")


def test_a_disputed_hand_of_another_game_is_resolved_with_the_key(api, director, night):
    a, b = seats(start_game_party("chinchon", 2, night=night))
    hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 30]})
    hand = hand_enter(seat=b, number=1, entry={"closer": 0, "penalties": [0, 20]}).hand
    assert hand.status == Hand.Status.DISPUTED

    response = api(
        f"/api/parties/{hand.party_id}/hands/{hand.pk}/decide",
        {"action": "resolve", "reason": "Counted again", "version": "counter"},
    )

    assert response.status_code == 200, response.json()
    hand.refresh_from_db()
    assert (hand.status, hand.scores, hand.counter) == (Hand.Status.CONFIRMED, [-10, 20], None)
    record = hand.party.audit.get(action=AuditRecord.Action.RESOLVE)
    assert (record.user, record.address) == (director.player.user, ADDRESS)


def test_another_club_s_hand_is_not_there_for_the_key(api):
    a, *_ = seats(start_game_party("canasta", 4, night=ClubNightFactory()))
    hand = hand_enter(seat=a, number=1, entry=FIRST_HANDS["canasta"][1]).hand

    response = api(
        f"/api/parties/{hand.party_id}/hands/{hand.pk}/decide", {"action": "void", "reason": "x"}
    )

    refused(response, 404, "not_found")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.PENDING
    assert not hand.party.audit.filter(action=AuditRecord.Action.VOID).exists()


# --- Who may, and what a request must look like --------------------------------------


def housekeeping(party, night, player):
    """Each action's address and a well-formed body."""
    return [
        (f"/api/parties/{party.pk}/cancel", {"reason": "Wrong table"}),
        (f"/api/parties/{party.pk}/seats/0/swap", {"player": player.pk}),
        (f"/api/parties/{party.pk}/rematch", {}),
        (f"/api/manage/nights/{night.pk}/close", {}),
    ]


def assert_untouched(party, night):
    party.refresh_from_db()
    night.refresh_from_db()
    assert (party.status, night.closed_at) == (Party.Status.FINISHED, None)
    assert Party.objects.count() == 1
    actions = set(party.audit.values_list("action", flat=True))
    assert actions == {AuditRecord.Action.START, AuditRecord.Action.ENTER,
                       AuditRecord.Action.CONFIRM}  # fmt: skip
    assert not night.club.records.filter(action=ClubRecord.Action.CLOSED).exists()


def test_another_club_s_party_or_night_is_not_there_for_the_key(api):
    other = ClubNightFactory(name="Their Friday")
    party = finish(start_night_party(other))
    player = MembershipFactory(club=other.club).player

    for url, body in housekeeping(party, other, player):
        body = refused(api(url, body), 404, "not_found")
        assert other.club.name not in body["detail"]
    assert_untouched(party, other)


def test_an_unknown_party_or_night_is_a_404(api):
    for url, body in [
        ("/api/parties/999999/cancel", {"reason": "Wrong table"}),
        ("/api/parties/999999/seats/0/swap", {"player": 1}),
        ("/api/parties/999999/rematch", {}),
        ("/api/manage/nights/999999/close", {}),
    ]:
        refused(api(url, body), 404, "not_found")


def test_a_wrong_or_revoked_key_is_told_to_log_in(api, director, night):
    party = finish(start_night_party(night))
    player = MembershipFactory(club=night.club).player
    token, revoked = api_token_create(user=director.player.user, name="old program")
    api_token_revoke(token=token)

    for secret in ("knock_guessed", revoked, ""):
        for url, body in housekeeping(party, night, player):
            refused(api(url, body, secret=secret), 401, "not_authenticated")
    assert_untouched(party, night)


MALFORMED = [
    ("cancel", "{not json", 400, "invalid_json", "The request's body is not valid JSON."),
    ("cancel", {"reason": "x", "why": "y"}, 422, "invalid_entry",
     "why: Extra inputs are not permitted"),
    ("cancel", {"reason": "x" * 501}, 422, "invalid_entry",
     "reason: String should have at most 500 characters"),
    ("cancel", {"reason": "bad\x00byte"}, 422, "invalid_entry",
     "reason: This text holds an invisible control character (U+0000): type it again without it."),
    ("cancel", {"reason": 7}, 422, "invalid_entry", "reason: Input should be a valid string"),
    ("seats/0/swap", {}, 422, "invalid_entry", "player: Field required"),
    ("seats/0/swap", {"player": "Nell"}, 422, "invalid_entry",
     "player: Input should be a valid integer, unable to parse string as an integer"),
    ("seats/0/swap", {"player": 0}, 422, "invalid_entry",
     "player: Input should be greater than or equal to 1"),
    ("seats/0/swap", {"player": 10**12}, 422, "invalid_entry",
     "player: Input should be less than or equal to 2147483647"),
    ("seats/6/swap", {"player": 1}, 422, "invalid_entry",
     "position: Input should be less than or equal to 5"),
    ("seats/x/swap", {"player": 1}, 422, "invalid_entry",
     "position: Input should be a valid integer, unable to parse string as an integer"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("action", "body", "status", "code", "detail"),
    MALFORMED,
    ids=[str(m[1])[:30] for m in MALFORMED],
)
def test_a_malformed_request_says_what_is_wrong_and_changes_nothing(
    api, night, action, body, status, code, detail
):
    party = finish(start_night_party(night))
    raw = body if isinstance(body, str) else None

    response = api(f"/api/parties/{party.pk}/{action}", body, raw=raw)

    refused(response, status, code, detail)
    assert_untouched(party, night)


def test_the_session_s_housekeeping_needs_its_csrf_token(director, night):
    party = finish(start_night_party(night))
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(director.player.user)

    response = browser.post(f"/api/parties/{party.pk}/rematch", {}, content_type="application/json")

    refused(response, 403, "csrf_failed")
    assert Party.objects.count() == 1


def test_a_party_of_players_already_seated_is_refused_unless_anyway(api, night):
    players = members(night, 2)
    url = f"/api/manage/nights/{night.pk}/parties"
    assert api(url, {"players": players}).status_code == 201

    again = api(url, {"players": players})

    assert (again.status_code, again.json()["code"]) == (409, "already_seated")
    assert "Already seated" in again.json()["detail"]
    assert api(url, {"players": players, "anyway": True}).status_code == 201
    assert night.parties.count() == 2


def test_a_rematch_asked_again_answers_with_the_rematch_already_made(api, night):
    party = start_night_party(night)
    party.status = Party.Status.FINISHED
    party.save(update_fields=["status"])

    first = api(f"/api/parties/{party.pk}/rematch")
    again = api(f"/api/parties/{party.pk}/rematch")

    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["party"]["id"] == again.json()["party"]["id"]
    assert night.parties.count() == 2
