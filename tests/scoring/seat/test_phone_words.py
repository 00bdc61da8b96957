"""What the phone at the table says: a forfeit as a forfeit, a tournament's table by
its round and number, no login, and, once a side has entered the hand, that entry
with "Correct this hand" instead of an open form."""

import pytest
from django.test import Client

from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.factories import ClubFactory, ClubNightFactory, MembershipFactory, start_night_party
from tests.factories import start_party as start_any_party
from tournaments import registration, rounds, tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament_table(django_capture_on_commit_callbacks):
    """Round 1 of "Thursday Swiss" between two members: its one table."""
    club = ClubFactory()
    players = [MembershipFactory(club=club, player__name=n).player for n in ("Anna", "Ben")]
    tournament = registration.tournament_create(club=club, name="Thursday Swiss", forfeit_value=100)
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    with django_capture_on_commit_callbacks(execute=True):
        round = rounds.round_start(tournament=tournament)
    (view,) = tables.round_tables(round)
    return view.table


def seat_of(party, name):
    return party.seats.select_related("player").get(player__name=name)


def text_of(seat):
    return Client().get(seat.get_absolute_url()).content.decode()


def test_a_forfeit_tells_the_player_who_came_that_his_opponent_did_not_and_what_it_counts(
    tournament_table,
):
    party = tournament_table.party
    absent = tournament_table.seatings.get(entrant__player__name="Ben").entrant
    tables.table_forfeit(table=tournament_table, absent=absent)

    present = text_of(seat_of(party, "Anna"))
    assert "Ben did not come" in present
    assert "The table counts as a forfeit for Ben: +100 for you." in present
    assert "counts nowhere" not in present

    away = text_of(seat_of(party, "Ben"))
    assert "You did not come to this table" in away
    assert "it counts -100 for you" in away


def test_a_party_cancelled_by_the_organizer_still_says_so():
    night = ClubNightFactory()
    party = start_night_party(night)
    from scoring.services.parties import party_cancel

    party_cancel(party=party, user=None, reason="Wrong players")
    seat = party.seats.first()
    text = text_of(seat)
    assert "This party was cancelled" in text and "did not come" not in text


def test_a_tournament_table_is_named_by_its_round_and_number(tournament_table):
    text = text_of(seat_of(tournament_table.party, "Anna"))
    assert "Thursday Swiss · Round 1 · Table 1" in text
    assert "1/1" not in text


def test_a_club_night_party_keeps_its_own_label_even_if_it_looks_like_a_table():
    party = start_night_party(ClubNightFactory(), label="Cup · 3/4")
    assert "Cup · 3/4" in text_of(party.seats.first())


def test_a_seat_page_offers_no_login():
    seat = start_any_party().seats.first()
    text = text_of(seat)
    assert 'href="/login/"' not in text
    assert "Log in" not in text


def test_other_pages_still_offer_the_login():
    assert 'href="/login/"' in Client().get("/").content.decode()


def test_the_side_that_entered_sees_its_entry_and_a_correction_behind_a_choice():
    party = start_any_party()
    a, b = party.seats.select_related("player").order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21))

    mine = text_of(a)
    assert f"{a.player.name} entered:" in mine
    assert "Waiting for the other side to confirm" in mine
    # The forms are there, folded (closed) behind the explicit choice.
    assert '<details class="card correct-hand" id="correct-hand">' in mine
    folded = mine[mine.index('id="correct-hand"') :]
    assert folded.index("<summary>Correct this hand</summary>") < folded.index('id="quick-entry"')

    # The other side confirms or enters its own version, as before: no fold there.
    theirs = text_of(b)
    assert 'id="confirm-hand"' in theirs
    assert 'id="correct-hand"' not in theirs and 'id="quick-entry"' in theirs


def test_a_correction_from_the_folded_form_still_replaces_the_entry():
    party = start_any_party()
    a = party.seats.order_by("position").first()
    hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21))
    response = Client().post(
        f"{a.get_absolute_url()}enter/",
        {"number": 1, "ending": "gin", "knocker": a.position, "defender_deadwood": 21},
    )
    assert response.status_code == 302
    hand = party.hands.get(number=1)
    assert (hand.ending, hand.version) == ("gin", 2)


def test_rules_that_allow_laying_off_on_gin_keep_it_in_the_gin_label():
    from scoring.engine.rules import RULESETS

    plain = text_of(start_any_party().seats.first())
    assert 'data-label-gin="Opponent\'s deadwood (no laying off on gin)"' in plain

    rules = RULESETS["classic"].but(layoff_on_gin=True)
    lenient = text_of(start_any_party(rules=rules).seats.first())
    assert 'data-label-gin="Opponent\'s deadwood (after laying off)"' in lenient
