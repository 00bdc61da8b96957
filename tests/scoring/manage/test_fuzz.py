"""Whatever the organizer's correction form sends, the answer is never a 500, and a
refused decision changes nothing."""

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring.models import AuditRecord
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.factories import ClubNightFactory, start_night_party

pytestmark = pytest.mark.django_db

numbers = st.one_of(st.integers(-3, 130).map(str), st.text(max_size=5), st.just(""))
decisions = st.fixed_dictionaries(
    {
        "decision": st.sampled_from(["correct", "void", "entered", "counter", "", "x"]),
        # A NUL would make PostgreSQL refuse the statement (CI runs this there too).
        "reason": st.sampled_from(
            ["", "   ", "counted again", "x" * 600, "mis\x00deal", "\x1b[2J", "a\x7fb"]
        ),
    },
    optional={
        "ending": st.sampled_from(["knock", "gin", "big_gin", "no_game", "fold"]),
        "knocker": st.one_of(st.sampled_from(["0", "1", "2", ""]), st.text(max_size=3)),
        "knocker_deadwood": numbers,
        "defender_deadwood": numbers,
        "illegal_knock_accepted": st.sampled_from(["on", ""]),
        "knocker_missing_cards": numbers,
        "defender_missing_cards": numbers,
        "defender_too_many_cards": st.sampled_from(["on", ""]),
    },
)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=decisions, disputed=st.booleans())
def test_no_decision_makes_the_party_page_fail(client, organizer, data, disputed):
    party = start_night_party(ClubNightFactory(club=organizer.club))
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21))
    if disputed:
        hand = hand_enter(seat=b, number=1, entry=Result("knock", 0, 3, 25)).hand
    else:
        hand = hand_confirm(seat=b, number=1, version=1).hand
    before = (hand.status, hand.points, AuditRecord.objects.filter(party=party).count())

    response = client.post(reverse("manage:hand-decide", args=[hand.pk]), data)

    event(f"{data['decision'] or 'none'}: {response.status_code}")
    assert response.status_code < 500
    hand.refresh_from_db()
    after = (hand.status, hand.points, AuditRecord.objects.filter(party=party).count())
    if response.status_code == 400:
        assert after == before
    else:
        assert response.status_code == 302
        assert after[2] == before[2] + 1
