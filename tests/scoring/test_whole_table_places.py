"""One rule places a party at one whole table (`finishing_places`): the winners
first, then by total. The sheet, the seat page and the seat API read it, as the
ratings and a tournament's tables do."""

import re

import pytest

from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.whole_table_sheet import game_sheet
from tests.factories import start_game_party

pytestmark = pytest.mark.django_db


def test_a_chinchon_that_wins_at_once_places_its_player_first_on_every_page(client):
    """Ada's 20 penalty points are above Ben's −5 when her Chinchón wins the party,
    yet she is placed first, as the party says she won."""
    party = start_game_party("chinchon", 2)
    ada, ben = party.seats.select_related("player").order_by("position")
    for number, entry in enumerate(
        [
            {"closer": 1, "penalties": [30, 0]},
            {"closer": 0, "chinchon": True, "penalties": [0, 5]},
        ],
        1,
    ):
        entered = hand_enter(seat=ada, number=number, entry=entry)
        assert hand_confirm(seat=ben, number=number, version=entered.hand.version).action == (
            "confirmed"
        )
    party.refresh_from_db()
    sheet = game_sheet(party)
    assert sheet.totals == [20, -5] and sheet.outcome.winners == {0}
    assert sheet.places == [1, 2]
    page = client.get(ben.get_absolute_url()).text
    places = re.findall(r'<li value="(\d)"><strong class="who">([^<]*)</strong>', page)
    assert places == [("1", ada.player.name), ("2", ben.player.name)]
    state = client.get(f"/api/tables/{ben.token}").json()
    assert [side["place"] for side in state["sides"]] == [1, 2]
