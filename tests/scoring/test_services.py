import pytest
from django.core.cache import cache

from scoring import changes, errors
from scoring.engine.cards import parse_cards
from scoring.engine.hands import IllegalKnock
from scoring.engine.rules import RULESETS
from scoring.engine.settlement import PartyOver
from scoring.models import AuditRecord, Party, Seat
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result, hand_preview, result_from_cards
from scoring.services.seats import seat_link_reissue
from scoring.sheet import party_state
from tests.factories import (
    ClubNightFactory,
    UserFactory,
    start_night_party,
    start_party,
)

pytestmark = pytest.mark.django_db


def seats(party):
    return list(party.seats.order_by("position"))


def state(party):
    return party_state(
        party, seats(party), list(party.hands.select_related("winner").order_by("number"))
    )


def knock(knocker, mine, theirs):
    return Result("knock", knocker=knocker, knocker_deadwood=mine, defender_deadwood=theirs)


def play(party, number, result):
    """The knocker's side enters, the other side confirms."""
    a, b = seats(party)
    enterer, confirmer = (a, b) if result.knocker in (None, 0) else (b, a)
    hand_enter(seat=enterer, number=number, entry=result)
    return hand_confirm(seat=confirmer, number=number, version=1)


def test_the_seed_sheet_settles_284_to_82():
    party = start_party()
    # Seed 000 "Beispiel einer Abrechnung": A (position 0) scores 23, 27, 35, 19; B 32, 10.
    for number, (knocker, points) in enumerate(
        [(0, 23), (0, 27), (1, 32), (0, 35), (1, 10), (0, 19)], start=1
    ):
        play(party, number, knock(knocker, 2, 2 + points))
    party.refresh_from_db()
    settlement = state(party).outcome
    assert party.status == Party.Status.FINISHED
    assert [side.total for side in settlement.sides] == [284, 82]
    assert settlement.margin == 202


def test_an_illegal_knock_is_refused_and_nothing_is_stored():
    party = start_party()
    a, _ = seats(party)
    with pytest.raises(IllegalKnock):
        hand_enter(seat=a, number=1, entry=knock(0, 11, 30))
    assert not party.hands.exists()


def test_a_hand_after_the_party_is_over_is_refused():
    party = start_party()
    play(party, 1, Result("gin", 0, 0, 80))  # gin worth 100 reaches the target at once
    a, _ = seats(party)
    with pytest.raises(PartyOver):
        hand_enter(seat=a, number=2, entry=knock(0, 3, 21))


def test_the_loser_deals_next_and_after_no_game_the_same_dealer():
    party = start_party()
    first_dealer = state(party).tables[0].dealer
    play(party, 1, Result("no_game"))
    assert state(party).tables[0].dealer == first_dealer
    winner = 1 - first_dealer
    play(party, 2, knock(winner, 2, 10))
    assert state(party).tables[0].dealer == first_dealer  # the loser deals


def test_the_cards_give_the_deadwood_after_lay_offs():
    # Seed 002: the knocker shows ♥2-♥3-♥4; the defender lays off ♥A and ♥5.
    knocker = parse_cards("2H 3H 4H 7C 7D 7S 9S TS JS 2C")
    defender = parse_cards("AH 5H KC KD KS 8D 8C 6S QD QC")
    result = result_from_cards(
        RULESETS["classic"], knocker=0, knocker_cards=knocker, defender_cards=defender
    )
    assert (result.ending, result.knocker_deadwood, result.defender_deadwood) == ("knock", 2, 42)
    assert sorted(result.details["laid_off"]) == ["5H", "AH"]


def test_gin_from_the_cards_allows_no_lay_off():
    knocker = parse_cards("2H 3H 4H 7C 7D 7S 9S TS JS QS")
    defender = parse_cards("AH 5H KC KD KS 8D 8C 6S QD QC")
    result = result_from_cards(
        RULESETS["classic"], knocker=0, knocker_cards=knocker, defender_cards=defender
    )
    assert (result.ending, result.defender_deadwood) == ("gin", 48)


def test_a_reissued_link_replaces_the_old_one():
    party = start_party()
    seat = seats(party)[0]
    old = seat.token
    seat = seat_link_reissue(seat=seat, user=UserFactory())
    assert seat.token != old and len(seat.token) >= 43
    assert party.audit.filter(action=AuditRecord.Action.LINK).exists()


def test_rotation_the_winner_plays_the_player_who_sat_out():
    party = start_party("rotation", players=3)
    table = state(party).tables[0]
    assert set(table.players) == {0, 1} and table.sitting_out == (2,)
    a, b, _ = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    hand_confirm(seat=b, number=1, version=1)
    table = state(party).tables[0]
    assert set(table.players) == {0, 2}
    with pytest.raises(errors.NotYourHand, match="sit out"):
        hand_enter(seat=b, number=2, entry=knock(0, 3, 21))


def test_partnership_round_counts_when_both_tables_are_confirmed():
    party = start_party("partners", players=4)
    current = state(party)
    assert len(current.tables) == 2 and party.target == 125
    by_position = {s.position: s for s in seats(party)}
    first, second = current.tables
    for table in current.tables:
        hand_enter(seat=by_position[table.forehand], number=1, entry=knock(table.forehand, 2, 20))
    hand_confirm(seat=by_position[first.dealer], number=1, version=1)
    assert state(party).rounds == []  # the other table is still pending

    hand_confirm(seat=by_position[second.dealer], number=1, version=1)

    sides = [by_position[table.forehand].side for table in (first, second)]
    assert state(party).rounds == [[(sides[0], 18), (sides[1], 18)]]


TABLE_DONE = (
    "Your table's hand 1 is recorded. The next round starts when every table has entered its hand."
)


def test_a_partnership_table_that_has_played_the_round_is_told_so_exactly():
    party = start_party("partners", players=4)
    by_position = {s.position: s for s in seats(party)}
    first, second = state(party).tables
    hand_enter(seat=by_position[first.forehand], number=1, entry=knock(first.forehand, 2, 20))
    hand_confirm(seat=by_position[first.dealer], number=1, version=1)
    stored = party.hands.count(), party.audit.count()

    # The other table has not played yet, so hand 1 is still the current one.
    for seat in (by_position[first.forehand], by_position[first.dealer]):
        with pytest.raises(errors.StaleEntry) as entering:
            hand_enter(seat=seat, number=1, entry=knock(first.forehand, 2, 30))
        with pytest.raises(errors.StaleEntry) as confirming:
            hand_confirm(seat=seat, number=1, version=1)
        assert str(entering.value) == str(confirming.value) == TABLE_DONE

    assert (party.hands.count(), party.audit.count()) == stored
    # The table still to play enters and confirms its hand 1 as usual.
    hand_enter(seat=by_position[second.forehand], number=1, entry=knock(second.forehand, 2, 20))
    assert hand_confirm(seat=by_position[second.dealer], number=1, version=1).action == "confirmed"


def test_a_preview_scores_like_the_entry_and_stores_nothing():
    party = start_party()
    a, b = seats(party)
    result = knock(1, 12, 8)
    with pytest.raises(IllegalKnock):
        hand_preview(seat=a, result=result)
    accepted = Result(
        "knock",
        knocker=1,
        knocker_deadwood=12,
        defender_deadwood=8,
        details={"illegal_knock_accepted": True},
    )

    scored = hand_preview(seat=a, result=accepted)

    assert (scored["winner"], scored["points"], scored["kind"]) == (0, 14, "undercut")
    assert scored["names"] == {0: a.player.name, 1: b.player.name}
    assert not party.hands.exists()
    stored = hand_enter(seat=b, number=1, entry=accepted).hand
    assert (stored.winner, stored.points, stored.kind) == (a, 14, "undercut")


def test_a_preview_is_refused_for_a_seat_that_sits_out_and_after_the_party():
    rotation = start_party("rotation", players=3)
    with pytest.raises(errors.NotYourHand, match="sit out"):
        hand_preview(seat=seats(rotation)[2], result=knock(0, 3, 21))
    party = start_party()
    play(party, 1, Result("gin", 0, 0, 80))
    with pytest.raises(PartyOver):
        hand_preview(seat=seats(party)[0], result=knock(0, 3, 21))


def test_a_void_hand_scores_nothing_and_the_same_dealer_deals_again():
    # Seed 000 § 14.13: the defender had too many cards and less deadwood.
    party = start_party()
    dealer = state(party).tables[0].dealer
    void = Result(
        "knock",
        knocker=0,
        knocker_deadwood=5,
        defender_deadwood=3,
        details={"defender_too_many_cards": True},
    )
    hand = play(party, 1, void).hand
    assert (hand.kind, hand.points, hand.winner) == ("void", 0, None)
    assert state(party).rounds == [[None]]
    assert state(party).tables[0].dealer == dealer


def test_the_cards_carry_the_rulings_into_the_details():
    knocker = parse_cards("2H 3H 4H 7C 7D 7S 9S TS JS")
    defender = parse_cards("AH 5H KC KD KS 8D 8C 6S QD QC")
    result = result_from_cards(
        RULESETS["classic"],
        knocker=0,
        knocker_cards=knocker,
        defender_cards=defender,
        rulings={"knocker_missing_cards": 1, "illegal_knock_accepted": False},
    )
    assert result.details["knocker_missing_cards"] == 1
    assert "illegal_knock_accepted" not in result.details
    with pytest.raises(errors.EntryError, match="no ruling called"):
        result_from_cards(
            RULESETS["classic"],
            knocker=0,
            knocker_cards=knocker,
            defender_cards=defender,
            rulings={"misdeal": True},
        )


def test_a_hand_entered_from_the_cards_and_one_from_the_counts_confirm_each_other():
    party = start_party()
    a, b = seats(party)
    from_cards = result_from_cards(
        RULESETS["classic"],
        knocker=0,
        knocker_cards=parse_cards("2H 3H 4H 7C 7D 7S 9S TS JS 2C"),
        defender_cards=parse_cards("AH 5H KC KD KS 8D 8C 6S QD QC"),
    )
    hand_enter(seat=a, number=1, entry=from_cards)
    outcome = hand_enter(seat=b, number=1, entry=knock(0, 2, 42))
    assert outcome.action == "confirmed"
    assert outcome.hand.details["knocker_cards"][0] == "2H"


def counters_moved(keys, change, capture):
    """Whether every counter under ``keys`` moved to a new number by ``change``, once
    its transaction committed."""
    before = [cache.get(key) for key in keys]
    with capture(execute=True):
        change()
    return [cache.get(key) not in (None, old) for key, old in zip(keys, before, strict=True)]


def test_an_entry_tells_the_nights_monitor_and_every_phone_of_the_party(
    django_capture_on_commit_callbacks,
):
    night = ClubNightFactory()
    party = start_night_party(night)
    a, b = seats(party)
    keys = [changes.night_key(night.pk), changes.seat_key(a.token), changes.seat_key(b.token)]
    entry = lambda: hand_enter(seat=a, number=1, entry=knock(0, 3, 21))  # noqa: E731
    assert counters_moved(keys, entry, django_capture_on_commit_callbacks) == [True, True, True]


def test_a_reissued_link_tells_the_nights_monitor_and_the_phone_that_had_it(
    django_capture_on_commit_callbacks,
):
    night = ClubNightFactory()
    seat = seats(start_night_party(night))[0]
    keys = [changes.night_key(night.pk), changes.seat_key(seat.token)]
    reissue = lambda: seat_link_reissue(seat=seat, user=UserFactory())  # noqa: E731
    assert counters_moved(keys, reissue, django_capture_on_commit_callbacks) == [True, True]
    assert Seat.objects.get(pk=seat.pk).token != seat.token
