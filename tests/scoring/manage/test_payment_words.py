"""The night's payments read as a person says them: one point, two points."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from scoring.services import nights
from scoring.services.hands import hand_enter
from tests.factories import ClubNightFactory, start_game_party

pytestmark = pytest.mark.django_db


def chinchon_where_the_second_is_one_point_up(night):
    """Two hands, the first seat closing clean both times (−10 each): totals −20,
    50 and 121. Lower wins, each pair settles its difference: the second takes 71
    from the third and pays 70 to the first, one point up."""
    party = start_game_party("chinchon", 3, night=night, confirmation_required=False)
    first = party.seats.order_by("position").first()
    hand_enter(seat=first, number=1, entry={"closer": 0, "penalties": [0, 25, 60]})
    hand_enter(seat=first, number=2, entry={"closer": 0, "penalties": [0, 25, 61]})
    return [seat.player for seat in party.seats.order_by("position")]


@pytest.mark.parametrize(
    "language, one, many",
    [
        ("en", "pays {second} €0.01 (1 point)", "pays {first} €2.11 (211 points)"),
        (
            "de",
            "zahlt 0,01\u00a0€ an {second} (1 Punkt)",
            "zahlt 2,11\u00a0€ an {first} (211 Punkte)",
        ),
    ],
)
def test_a_payment_of_one_point_says_point(client, organizer, language, one, many):
    night = ClubNightFactory(club=organizer.club, name="Friday")
    nights.night_set_stake(night=night, stake="0.01")
    first, second, _third = chinchon_where_the_second_is_one_point_up(night)

    page = client.get(
        reverse("manage:night-results", args=[night.pk]), HTTP_ACCEPT_LANGUAGE=language
    )

    payments = page.text[page.text.index('id="night-payments"') :]
    assert one.format(second=escape(second.name)) in payments
    assert many.format(first=escape(first.name)) in payments
