"""Every game's party is read on a phone by one page: the same frame, the same
open hand (who entered it, the confirm button, what it waits for), with the
parts the party's keeping names (the sheet, the entry, the race)."""

import pytest
from django.urls import reverse

from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.factories import FIRST_HANDS, start_party, whole_table_party

pytestmark = pytest.mark.django_db


def gin_rummy_party(pending):
    party = start_party()
    if pending:
        hand_enter(seat=party.seats.get(position=0), number=1, entry=Result("knock", 0, 3, 20))
    return party


PARTIES = {"gin_rummy": gin_rummy_party} | {
    game: lambda pending, game=game: whole_table_party(game, pending) for game in FIRST_HANDS
}


@pytest.mark.parametrize("game", sorted(PARTIES))
def test_every_game_s_entered_hand_waits_for_the_other_phone_on_the_one_page(client, game):
    party = PARTIES[game](pending=True)
    entering, other = party.seats.order_by("position")[:2]

    answer = client.get(other.get_absolute_url())

    assert "scoring/seat/_hand.html" in [t.name for t in answer.templates]
    html = answer.text
    assert f"{entering.player.name} entered:" in html
    assert 'id="confirm-hand"' in html
    assert 'id="confirmations-needed"' in client.get(entering.get_absolute_url()).text


@pytest.mark.parametrize("game", sorted(PARTIES))
def test_every_game_s_fresh_party_offers_its_entry_and_its_sheet(client, game):
    seat = PARTIES[game](pending=False).seats.first()

    html = client.get(seat.get_absolute_url()).text

    assert 'id="enter-hand"' in html
    assert 'id="race"' in html
    assert "Hand 1" in html
    assert "No hands yet." in html


def test_the_typed_form_s_preview_is_not_an_address_of_a_party_at_tables_of_two(client):
    seat = start_party().seats.first()

    answer = client.post(reverse("seat:table-preview-game", args=[seat.token]), {"number": 1})

    assert answer.status_code == 404
