"""The organizer's page of a party of any game: who may see it, the seat links and
table cards, and the decisions on a hand (correct, void, resolve a dispute), each
with a reason, a refusal coming back beside the form, never as an error page."""

import pytest
import segno
from django.urls import reverse

from scoring.manage import qr
from scoring.models import AuditRecord, Hand
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.factories import (
    ClubNightFactory,
    MembershipFactory,
    OrganizerFactory,
    UserFactory,
    start_game_party,
    start_night_party,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def party(organizer):
    night = ClubNightFactory(club=organizer.club, name="Friday night")
    return start_night_party(night, label="Table 1", user=organizer.player.user)


def seats(party):
    return list(party.seats.select_related("player").order_by("position"))


def knock(knocker, mine, theirs):
    return Result("knock", knocker=knocker, knocker_deadwood=mine, defender_deadwood=theirs)


def play(party, number, result):
    """The knocker's side enters, the other side confirms (positions 0 and 1 play)."""
    a, b = seats(party)[:2]
    enterer, confirmer = (a, b) if result.knocker in (None, 0) else (b, a)
    hand_enter(seat=enterer, number=number, entry=result)
    return hand_confirm(seat=confirmer, number=number, version=1).hand


def dispute(party, number, entered, other):
    """Seat 0 enters one result, seat 1 another: the hand is disputed."""
    a, b = seats(party)
    hand_enter(seat=a, number=number, entry=entered)
    return hand_enter(seat=b, number=number, entry=other).hand


def page_url(party):
    return reverse("manage:party-detail", args=[party.pk])


def decide_url(hand):
    return reverse("manage:hand-decide", args=[hand.pk])


def link_url(seat):
    return reverse("manage:seat-link", args=[seat.pk])


def absolute(seat):
    return f"http://testserver{seat.get_absolute_url()}"


def decide(client, hand, **data):
    return client.post(decide_url(hand), data, follow=True)


# Who may see and act


def organizer_urls(party):
    hand = play(party, 1, knock(0, 3, 21))
    seat = seats(party)[0]
    return {
        "page": ("get", page_url(party)),
        "cards": ("get", reverse("manage:party-cards", args=[party.pk])),
        "link": ("post", link_url(seat)),
        "decide": ("post", decide_url(hand)),
    }


@pytest.mark.parametrize("name", ["page", "cards", "link", "decide"])
def test_anonymous_visitors_are_sent_to_log_in(client, party, name):
    client.logout()
    method, url = organizer_urls(party)[name]
    response = getattr(client, method)(url, {"decision": "void", "reason": "sneaky"})
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert party.hands.get().status == Hand.Status.CONFIRMED
    assert not party.audit.filter(action__in=["link", "void"]).exists()


@pytest.mark.parametrize("name", ["page", "cards", "link", "decide"])
def test_a_member_who_does_not_organize_is_refused(client, party, name):
    member = MembershipFactory(club=party.club, player__user=UserFactory())
    client.force_login(member.player.user)
    tokens = {s.token for s in party.seats.all()}
    method, url = organizer_urls(party)[name]
    response = getattr(client, method)(url, {"decision": "void", "reason": "sneaky"})
    assert response.status_code == 404
    assert party.hands.get().status == Hand.Status.CONFIRMED
    assert {s.token for s in party.seats.all()} == tokens


@pytest.mark.parametrize("name", ["page", "cards", "link", "decide"])
def test_the_organizer_of_another_club_is_refused(client, name):
    other = start_night_party(ClubNightFactory())
    client.force_login(OrganizerFactory().player.user)
    method, url = organizer_urls(other)[name]
    response = getattr(client, method)(url, {"decision": "void", "reason": "sneaky"})
    assert response.status_code == 404
    assert other.hands.get().status == Hand.Status.CONFIRMED


def test_an_unknown_party_is_a_404(client, organizer):
    assert client.get(reverse("manage:party-detail", args=[999])).status_code == 404


# Seats, links and QR codes


def test_the_party_page_shows_each_seat_with_its_link_and_qr_code(client, party):
    response = client.get(page_url(party))

    assert response.status_code == 200
    for seat in seats(party):
        link = absolute(seat)
        assert f'href="{link}"' in response.text
        assert f">{link}</a>" in response.text
        code = segno.make(link, micro=False, error="m").svg_inline(**qr.SVG_OPTIONS)
        assert code in response.text
    # The codes differ per seat: each encodes its own link.
    a, b = seats(party)
    assert qr.qr_svg(absolute(a)) != qr.qr_svg(absolute(b))


def test_a_new_link_replaces_the_old_one(client, party):
    seat = seats(party)[0]
    old_link, old_code = absolute(seat), qr.qr_svg(absolute(seat))

    response = client.post(link_url(seat), follow=True)

    seat.refresh_from_db()
    new_link = absolute(seat)
    assert new_link != old_link
    assert f"New link for {seat.player.name}: {new_link}" in response.text
    assert qr.qr_svg(new_link) in response.text
    assert old_code not in response.text
    assert old_link not in response.text
    # The old link says it was replaced; a link that never was is still not found.
    replaced = client.get(old_link)
    assert replaced.status_code == 410
    assert "This link was replaced" in replaced.text
    assert client.get("/table/never-a-link/").status_code == 404
    assert client.get(new_link).status_code == 200
    record = party.audit.get(action=AuditRecord.Action.LINK)
    assert (record.seat, record.user.username, record.address) == (seat, "director", "127.0.0.1")
    assert response.context["audit"][-1]["after"] == f"a new link for {seat.player.name}"


def test_a_link_is_reissued_only_by_post_and_a_get_asks_first(client, party):
    seat = seats(party)[0]
    response = client.get(link_url(seat))
    assert response.status_code == 200
    assert f"A new link for {seat.player.name}?" in response.text
    assert f'action="{link_url(seat)}"' in response.text
    assert party.seats.get(pk=seat.pk).token == seat.token


def test_the_new_link_button_asks_before_it_revokes(client, party):
    text = client.get(page_url(party)).text
    seat = seats(party)[0]
    assert f"Make a new link for {seat.player.name}? The old link" in text
    assert "js/confirm.js" in text


def test_the_cards_show_each_player_with_a_scannable_code_and_the_link(client, party):
    response = client.get(reverse("manage:party-cards", args=[party.pk]))

    text = response.text
    assert response.status_code == 200
    assert text.count('class="table-card"') == 2
    assert "Friday night" in text and "Table 1" in text
    for seat in seats(party):
        assert seat.player.name in text
        assert qr.qr_svg(absolute(seat)) in text
        assert f'<p class="card-link">{absolute(seat)}</p>' in text
    assert "css/manage.css" in text


# Hands: correct, void, resolve


def test_the_organizer_corrects_a_hand_with_a_reason(client, organizer, party):
    hand = play(party, 1, knock(0, 3, 21))

    response = decide(
        client,
        hand,
        decision="correct",
        ending="knock",
        knocker=0,
        knocker_deadwood=3,
        defender_deadwood=12,
        reason="miscounted the kings",
    )

    hand.refresh_from_db()
    assert (hand.status, hand.points, hand.decided_by) == (
        Hand.Status.CONFIRMED,
        9,
        organizer.player.user,
    )
    record = party.audit.get(action=AuditRecord.Action.CORRECT)
    assert (record.before["points"], record.after["points"]) == (18, 9)
    assert record.reason == "miscounted the kings"
    assert "Hand 1: confirmed." in response.text
    audit = response.context["audit"]
    assert [entry["record"].action for entry in audit] == ["start", "enter", "confirm", "correct"]


@pytest.mark.parametrize("reason", ["", "   "])
@pytest.mark.parametrize(
    "decision",
    [
        {"decision": "void"},
        {
            "decision": "correct",
            "ending": "knock",
            "knocker": 0,
            "knocker_deadwood": 3,
            "defender_deadwood": 12,
        },
    ],
)
def test_a_decision_without_a_reason_is_refused_and_changes_nothing(
    client, party, decision, reason
):
    hand = play(party, 1, knock(0, 3, 21))
    records = party.audit.count()

    response = decide(client, hand, reason=reason, **decision)

    assert response.status_code == 400
    assert "Hand 1: Reason: Give a reason" in response.text
    hand.refresh_from_db()
    assert (hand.status, hand.points) == (Hand.Status.CONFIRMED, 18)
    assert party.audit.count() == records


def test_a_whole_table_games_void_without_a_reason_is_refused_too(client, chinchon):
    hand = chinchon.hands.get(number=2)
    records = chinchon.audit.count()

    response = decide(client, hand, action="void", reason="")

    assert response.status_code == 400
    hand.refresh_from_db()
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [-10, 30])
    assert chinchon.audit.count() == records


def test_the_organizer_voids_a_hand(client, party):
    hand = play(party, 1, knock(0, 3, 21))

    response = decide(client, hand, decision="void", reason="misdeal: eleven cards")

    hand.refresh_from_db()
    assert hand.status == Hand.Status.VOID
    assert response.context["sheet"]["points"] == [0, 0]
    record = party.audit.get(action=AuditRecord.Action.VOID)
    assert record.reason == "misdeal: eleven cards"
    assert "misdeal: eleven cards" in response.text


def test_a_correction_the_rules_refuse_gets_a_message_and_changes_nothing(client, party):
    first = play(party, 1, knock(0, 3, 21))
    play(party, 2, knock(1, 2, 10))

    # Worth 100 points, hand 1 would end the party before hand 2 was played.
    response = decide(
        client,
        first,
        decision="correct",
        ending="gin",
        knocker=0,
        defender_deadwood=80,
        reason="typo",
    )

    assert response.status_code == 400
    assert "void the later hands first" in response.text
    # The page comes back with what the organizer typed.
    assert "typo</textarea>" in response.text
    first.refresh_from_db()
    assert first.points == 18
    assert not party.audit.filter(action=AuditRecord.Action.CORRECT).exists()


def test_a_correction_can_carry_a_directors_ruling(client, party):
    hand = play(party, 1, knock(0, 3, 21))

    decide(
        client,
        hand,
        decision="correct",
        ending="knock",
        knocker=0,
        knocker_deadwood=12,
        defender_deadwood=30,
        illegal_knock_accepted="on",
        reason="the defender accepted the knock (§ 14.8)",
    )

    hand.refresh_from_db()
    assert (hand.points, hand.details["illegal_knock_accepted"]) == (18, True)
    record = party.audit.get(action=AuditRecord.Action.CORRECT)
    assert "illegal knock accepted" in client.get(page_url(party)).text
    assert record.after["details"] == {"illegal_knock_accepted": True}


def test_only_the_players_of_the_hand_may_be_named_its_knocker(client, organizer):
    party = start_night_party(ClubNightFactory(club=organizer.club), "rotation", 3)
    first, second, sitting_out = seats(party)
    hand = play(party, 1, knock(0, 3, 21))

    response = client.get(page_url(party))
    (row,) = response.context["hands"]
    offered = dict(row["form"].fields["knocker"].choices)
    assert offered == {"": "–", 0: first.player.name, 1: second.player.name}

    response = decide(
        client,
        hand,
        decision="correct",
        ending="knock",
        knocker=sitting_out.position,
        knocker_deadwood=3,
        defender_deadwood=21,
        reason="wrong seat",
    )
    assert "Select a valid choice" in response.text
    assert not party.audit.filter(action=AuditRecord.Action.CORRECT).exists()


@pytest.mark.parametrize(
    "format, count, side",
    [
        ("two", 2, "side 1"),
        ("rotation", 3, "drew seat 1"),
        ("chouette", 4, "the box"),
        ("partners", 6, "team 1"),
    ],
)
def test_the_party_page_serves_every_format(client, organizer, format, count, side):
    party = start_night_party(ClubNightFactory(club=organizer.club), format, count)
    response = client.get(page_url(party))
    assert response.status_code == 200
    assert side in response.text
    for seat in seats(party):
        assert qr.qr_svg(absolute(seat)) in response.text


def test_a_correction_without_an_ending_is_refused(client, party):
    hand = play(party, 1, knock(0, 3, 21))
    response = decide(client, hand, decision="correct", reason="no idea")
    assert "Choose how the hand ended" in response.text
    assert not party.audit.filter(action=AuditRecord.Action.CORRECT).exists()


def test_the_page_shows_both_versions_of_a_disputed_hand(client, party):
    hand = dispute(party, 1, knock(0, 3, 21), knock(0, 3, 12))

    response = client.get(page_url(party))

    text = response.text
    assert f'id="hand-{hand.pk}"' in text and 'data-status="disputed"' in text
    assert f'id="hand-{hand.pk}-accept-entered"' in text
    assert f'id="hand-{hand.pk}-accept-counter"' in text
    assert f'for="hand-{hand.pk}-resolve-reason"' in text
    (row,) = response.context["hands"]
    entered, other = row["versions"]
    a, b = seats(party)
    assert (entered["who"], entered["defender_deadwood"], entered["points"]) == (
        a.player.name,
        21,
        18,
    )
    assert (other["who"], other["defender_deadwood"], other["points"]) == (b.player.name, 12, 9)


@pytest.mark.parametrize("decision, points", [("entered", 18), ("counter", 9)])
def test_the_organizer_resolves_a_dispute_by_accepting_one_version(client, party, decision, points):
    hand = dispute(party, 1, knock(0, 3, 21), knock(0, 3, 12))

    response = decide(client, hand, decision=decision, reason="looked at the cards")

    hand.refresh_from_db()
    assert (hand.status, hand.points, hand.counter) == (Hand.Status.CONFIRMED, points, None)
    record = party.audit.get(action=AuditRecord.Action.RESOLVE)
    assert record.before["status"] == "disputed"
    assert record.reason == "looked at the cards"
    assert response.context["sheet"]["points"] == [points, 0]
    assert 'id="hand-' + str(hand.pk) + '-accept-entered"' not in response.text


def test_the_organizer_resolves_a_dispute_with_a_result_of_his_own(client, party):
    hand = dispute(party, 1, knock(0, 3, 21), knock(0, 3, 12))

    decide(
        client,
        hand,
        decision="correct",
        ending="gin",
        knocker=0,
        defender_deadwood=15,
        reason="it was gin all along",
    )

    hand.refresh_from_db()
    assert (hand.status, hand.ending, hand.points) == (Hand.Status.CONFIRMED, "gin", 35)
    assert party.audit.filter(action=AuditRecord.Action.RESOLVE).count() == 1


def test_a_resolution_without_a_reason_leaves_the_dispute_open(client, party):
    hand = dispute(party, 1, knock(0, 3, 21), knock(0, 3, 12))
    response = decide(client, hand, decision="counter", reason="")
    assert "Give a reason" in response.text
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DISPUTED
    assert hand.counter["defender_deadwood"] == 12


def test_only_a_disputed_hand_has_another_version_to_accept(client, party):
    hand = play(party, 1, knock(0, 3, 21))
    response = decide(client, hand, decision="counter", reason="why not")
    assert "Only a disputed hand has two versions" in response.text
    assert not party.audit.filter(action=AuditRecord.Action.RESOLVE).exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"decision": "burn", "reason": "x"},
        {"decision": "correct", "ending": "fold", "reason": "x"},
        {"decision": "correct", "ending": "knock", "knocker": 9, "reason": "x"},
        {"decision": "correct", "ending": "knock", "knocker": "a", "reason": "x"},
        {"decision": "correct", "ending": "knock", "knocker": 0, "reason": "x"},
        {
            "decision": "correct",
            "ending": "knock",
            "knocker": 0,
            "knocker_deadwood": 12,
            "defender_deadwood": 30,
            "reason": "an illegal knock",
        },
    ],
)
def test_nonsense_decisions_get_a_message_and_change_nothing(client, party, data):
    hand = play(party, 1, knock(0, 3, 21))
    records = party.audit.count()

    response = client.post(decide_url(hand), data, follow=True)

    assert response.status_code == 400
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    hand.refresh_from_db()
    assert (hand.status, hand.points) == (Hand.Status.CONFIRMED, 18)
    assert party.audit.count() == records


# The audit log


def test_the_audit_log_shows_every_step_readably_oldest_first(client, organizer, party):
    a, b = seats(party)
    dispute(party, 1, knock(0, 3, 21), knock(0, 3, 12))
    hand = party.hands.get()
    decide(client, hand, decision="counter", reason="recounted")

    response = client.get(page_url(party))

    log = response.context["audit"]
    assert [entry["record"].action for entry in log] == ["start", "enter", "dispute", "resolve"]
    start, enter, disputed, resolve = log
    director = organizer.player.name
    assert start["who"] == director
    assert start["after"].startswith("Card draw: ")
    assert enter["who"] == f"{a.player.name} (seat)"
    assert disputed["who"] == f"{b.player.name} (seat)"
    assert resolve["who"] == director
    assert resolve["before"] == (
        f"Hand 1 · disputed · knock · knocker {a.player.name} · deadwood 3 : 21"
        f" · {a.player.name} +18"
    )
    assert resolve["after"].endswith(f"{a.player.name} +9")
    text = response.text
    assert text.index("hand entered") < text.index("hand disputed") < text.index("dispute resolved")
    assert "recounted" in text
    assert "127.0.0.1" in text


def test_the_audit_log_names_an_organizer_by_name_never_by_the_login(client, organizer, party):
    """A login made at sign-up is its owner's e-mail address: a co-organizer reads
    who started the party and decided its hand by the organizer's name."""
    greta = organizer.player.user
    greta.username = "greta@example.org"
    greta.save(update_fields=["username"])
    dispute(party, 1, knock(0, 3, 21), knock(0, 3, 12))
    decide(client, party.hands.get(), decision="counter", reason="recounted")
    colleague = OrganizerFactory(club=organizer.club)
    client.force_login(colleague.player.user)

    response = client.get(page_url(party))

    log = response.context["audit"]
    assert [e["who"] for e in log if e["record"].user_id] == [organizer.player.name] * 2
    assert "greta@example.org" not in response.text


def test_the_page_shows_who_entered_and_who_confirmed(client, party):
    a, b = seats(party)
    play(party, 1, knock(0, 3, 21))
    text = client.get(page_url(party)).text
    assert f"entered by {a.player.name}" in text
    assert f"confirmed by {b.player.name}" in text
    assert a.get_absolute_url() in text  # the organizer can open each table page


# Query budgets


@pytest.mark.parametrize("hands", [2, 30])
def test_the_party_page_query_count_does_not_grow_with_hands(
    client, party, django_assert_max_num_queries, hands
):
    for number in range(1, hands):
        play(party, number, knock(number % 2, 2, 3))  # one point each: the party runs on
    dispute(party, hands, knock(0, 3, 21), knock(0, 3, 12))

    with django_assert_max_num_queries(7):
        response = client.get(page_url(party))

    assert len(response.context["hands"]) == hands
    assert len(response.context["audit"]) == 1 + 2 * hands


@pytest.mark.parametrize("seats_count", [2, 6])
def test_the_cards_query_count_does_not_grow_with_seats(
    client, organizer, django_assert_max_num_queries, seats_count
):
    night = ClubNightFactory(club=organizer.club)
    party = start_night_party(night, "chouette" if seats_count > 2 else "two", seats_count)
    with django_assert_max_num_queries(5):
        response = client.get(reverse("manage:party-cards", args=[party.pk]))
    assert response.text.count('class="table-card"') == seats_count


# A whole-table game's hands on the same page


@pytest.fixture
def chinchon(organizer):
    """Three confirmed hands of Chinchón at a night of the organizer's club."""
    night = ClubNightFactory(club=organizer.club)
    party = start_game_party("chinchon", 2, night=night, confirmation_required=False)
    a, _b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 60]})
    hand_enter(seat=a, number=2, entry={"closer": 0, "penalties": [0, 30]})
    hand_enter(seat=a, number=3, entry={"closer": 0, "penalties": [0, 5]})
    return party


def test_each_confirmed_hand_offers_its_correction_and_its_void(client, chinchon):
    response = client.get(page_url(chinchon))

    for hand in chinchon.hands.all():
        assert f'id="hand-{hand.pk}-correct"' in response.text
        assert f'id="hand-{hand.pk}-void"' in response.text


def test_a_confirmed_hand_is_corrected_with_a_reason(client, chinchon):
    hand = chinchon.hands.get(number=1)

    response = client.post(
        decide_url(hand),
        {
            "action": "correct",
            "closer": "0",
            "penalty_0": "0",
            "penalty_1": "50",
            "reason": "recounted",
        },
    )

    assert response.status_code == 302
    hand.refresh_from_db()
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [-10, 50])
    assert "Hand 1: corrected." in client.get(response["Location"]).text
    assert AuditRecord.objects.get(hand=hand, action="correct").reason == "recounted"


def test_a_hand_is_voided_with_a_reason_and_its_forms_go(client, chinchon):
    hand = chinchon.hands.get(number=3)

    response = client.post(decide_url(hand), {"action": "void", "reason": "misdeal"})

    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.status == Hand.Status.VOID
    assert str(hand.decided_by_id) == client.session["_auth_user_id"]
    page = client.get(response["Location"]).text
    assert "Hand 3: voided." in page
    assert f'id="hand-{hand.pk}-void"' not in page


def test_a_correction_that_undoes_a_later_hand_comes_back_with_the_reason(client, chinchon):
    # 45 in hand 2 would end the party (60 + 45) before hand 3 was dealt.
    hand = chinchon.hands.get(number=2)

    response = client.post(
        decide_url(hand),
        {"action": "correct", "closer": "0", "penalty_0": "0", "penalty_1": "45", "reason": "r"},
    )

    assert response.status_code == 400
    assert "void the later hands first" in response.text
    hand.refresh_from_db()
    assert (hand.scores, hand.version) == ([-10, 30], 1)


def test_a_rematch_keeps_the_table_and_passes_the_deal(client, organizer):
    night = ClubNightFactory(club=organizer.club)
    party = start_game_party(
        "canasta", 4, night=night, confirmation_required=False, label="Table 3"
    )
    seats = list(party.seats.order_by("position"))
    won = {"meld_points": 600, "natural_canastas": 2, "mixed_canastas": 1, "went_out": True}
    lost = {"meld_points": 300, "hand_points": 40}
    for number in (1, 2, 3):  # 5,000 reached
        hand_enter(seat=seats[0], number=number, entry={"sides": [won, lost]})
    party.refresh_from_db()
    assert party.status == party.Status.FINISHED
    page = client.get(reverse("manage:party-detail", args=[party.pk])).text
    assert 'id="party-rematch"' in page

    response = client.post(reverse("manage:party-rematch", args=[party.pk]))
    again = client.post(reverse("manage:party-rematch", args=[party.pk]))

    rematch = party.rematch
    assert response.url == again.url == reverse("manage:party-detail", args=[rematch.pk])
    assert (rematch.game, rematch.rules, rematch.label) == (party.game, party.rules, "Table 3")
    # The second seat deals first; partners still sit opposite.
    players = [seat.player_id for seat in seats]
    moved = list(rematch.seats.order_by("position"))
    assert [seat.player_id for seat in moved] == players[1:] + players[:1]
    assert [seat.side for seat in moved] == [0, 1, 0, 1]
    assert "the next player deals first" in client.get(response.url).text
