"""How a whole table keeps a party of its game (`scoring.services.keeping`
`WholeTable`), through the services: every game's party is played to its end with
the engine's totals and winner and finishes by itself, an entry the game cannot
take is refused in the player's language with nothing stored, and Gin Rummy's
sheets and the night's results leave such a party out."""

import pytest
from django.utils.translation import override
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import errors
from scoring.engine.games import GAMES
from scoring.engine.games.game import side_totals
from scoring.models import AuditRecord, Hand
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.whole_table_sheet import game_sheet, hand_score
from tests.factories import ClubNightFactory, start_game_party, start_night_party

pytestmark = pytest.mark.django_db

GOOD = {"meld_points": 600, "natural_canastas": 2, "mixed_canastas": 1, "went_out": True}
POOR = {"meld_points": 300, "hand_points": 40}


def seats_of(party):
    return list(party.seats.select_related("player").order_by("position"))


def play(party, number, entry, by=0):
    """Hand ``number`` entered by seat ``by`` and confirmed by as many of the
    others as it takes."""
    seats = seats_of(party)
    entering = seats[by]
    outcome = hand_enter(seat=entering, number=number, entry=entry)
    assert outcome.action == "entered"
    for seat in seats:
        if outcome.action == "confirmed":
            break
        if seat.side != entering.side:
            outcome = hand_confirm(seat=seat, number=number, version=outcome.hand.version)
    assert outcome.action == "confirmed"
    return outcome.hand


def test_a_deal_of_blaue_vierzehn_not_adding_up_to_56_is_refused_and_nothing_written():
    party = start_game_party("blaue_vierzehn", 4)
    records = AuditRecord.objects.count()

    with pytest.raises(errors.EntryError, match="56") as refused:
        hand_enter(seat=seats_of(party)[0], number=1, entry={"points": [10, 20, 13, 12]}, key="k1")

    assert str(refused.value)
    assert not party.hands.exists()
    assert AuditRecord.objects.count() == records


def refusal(game, entry, *, players=3, language="de"):
    """What a player reads, in ``language``, when hand 1 of ``game`` is refused."""
    party = start_game_party(game, players)
    with override(language), pytest.raises(errors.EntryError) as refused:
        hand_enter(seat=seats_of(party)[0], number=1, entry=entry)
    assert not party.hands.exists()
    return str(refused.value)


def test_a_blaue_vierzehn_deal_not_adding_up_is_refused_in_german():
    assert refusal("blaue_vierzehn", {"points": [20, 20, 20]}) == (
        "Die Punkte ergeben zusammen 60, nicht 56: Die Punkte jeder Runde ergeben zusammen 56."
    )


def test_each_problem_of_a_blaue_vierzehn_deal_is_on_its_own_line_in_german():
    assert refusal("blaue_vierzehn", {"points": [-2, 60, 3]}).splitlines() == [
        "1: -2 ist kleiner als 0; Stiche ziehen nie Punkte ab.",
        "2: 60 ist mehr als die 56 Punkte, die eine ganze Runde wert ist.",
        "3: Keine Auswahl von Karten ist 3 wert (eine rote Karte zählt 2, eine Vierzehn 5, "
        "die blaue Vierzehn 13).",
        "Die Punkte ergeben zusammen 61, nicht 56: Die Punkte jeder Runde ergeben zusammen 56.",
    ]


def test_a_chinchon_hand_without_a_closer_is_refused_in_german():
    assert refusal("chinchon", {"penalties": [0, 10, 20]}) == (
        "Geben Sie an, wer das Spiel beendet hat: jemand, der noch im Spiel ist."
    )


def test_a_chinchon_card_the_pack_does_not_hold_is_named_as_typed_in_german():
    cards = ["1O 2O 3O 4O 5O 6O 9O", "1C 2C 3C 4C 5C 6C 7C", "1E 2E 3E 4E 5E 6E 7E"]

    assert refusal("chinchon", {"closer": 0, "cards": cards}) == (
        "'9O' ist nicht im Blatt mit 40 Karten: Es hat keine 8en und 9en "
        "(die werden mit 48 Karten gespielt)."
    )


def test_a_canasta_side_out_without_a_canasta_is_refused_in_german():
    sides = [{"meld_points": 100, "went_out": True}, POOR]

    assert refusal("canasta", {"sides": sides}, players=2) == (
        "Seite 1: Eine Seite kann erst ausgehen, wenn sie einen Canasta hat."
    )


def test_canastas_worth_more_than_the_meld_points_are_counted_in_german():
    sides = [GOOD, {"meld_points": 60, "natural_canastas": 1, "mixed_canastas": 1}]

    assert refusal("canasta", {"sides": sides}, players=2) == (
        "Seite 2: 1 reine Canasta und 1 gemischte Canasta enthalten Karten im Wert von "
        "mindestens 85 Punkten, mehr als die eingetragenen 60 Punkte der Meldungen."
    )


def test_a_cruzo_game_nobody_went_out_of_is_refused_in_german():
    assert refusal("cruzo", {"went_out": [], "cards_left": {"0": 2, "1": 3, "2": 4}}) == (
        "Das Spiel gewinnt, wer zuerst ausgeht; bisher ist niemand ausgegangen."
    )


def test_the_refusals_stay_english_on_an_english_page():
    assert refusal("chinchon", {"penalties": [0, 10, 20]}, language="en") == (
        "Say who closed the hand: one of the players still in."
    )
    assert refusal("blaue_vierzehn", {"points": [20, 20, 20]}, language="en") == (
        "The points add up to 60, not 56: every deal's points add up to 56."
    )


def test_a_malformed_entry_is_refused_not_a_crash():
    party = start_game_party("cruzo", 3)

    with pytest.raises(errors.EntryError, match="cannot be right"):
        hand_enter(seat=seats_of(party)[0], number=1, entry={"went_out": 5, "cards_left": {"a": 1}})
    with pytest.raises(errors.EntryError):
        hand_enter(seat=seats_of(party)[0], number=1, entry=["not", "a", "mapping"])
    assert not party.hands.exists()


def test_a_party_needing_no_confirmation_records_each_hand_at_once():
    party = start_game_party("cruzo", 3, confirmation_required=False)
    seat = seats_of(party)[1]

    outcome = hand_enter(seat=seat, number=1, entry={"went_out": [2], "cards_left": {0: 3, 1: 1}})

    assert outcome.action == "recorded"
    assert outcome.hand.status == Hand.Status.CONFIRMED
    assert game_sheet(party).totals == [0, 1, 2]


def valid_deals():
    """Every deal of three players the engine takes (points adding up to 56 that
    the cards can give): the property draws from these, so no example is thrown
    away."""
    engine, found = GAMES["blaue_vierzehn"], []
    for first in range(57):
        for second in range(57 - first):
            deal = [first, second, 56 - first - second]
            try:
                engine.hand({"points": deal}, [0, 0, 0], {"deals": 4})
            except ValueError:
                continue
            found.append(deal)
    return found


VALID_DEALS = valid_deals()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals=st.lists(st.sampled_from(VALID_DEALS), min_size=1, max_size=4))
def test_the_stored_totals_are_the_engines_side_totals(deals):
    engine = GAMES["blaue_vierzehn"]
    options = {"deals": 4}
    expected = []
    for deal in deals:
        expected.append(engine.hand({"points": deal}, side_totals(expected, 3), options))
    party = start_game_party("blaue_vierzehn", 3, options, confirmation_required=False)
    seat = seats_of(party)[0]
    for number, deal in enumerate(deals, 1):
        hand_enter(seat=seat, number=number, entry={"points": deal})

    stored = [hand_score(h) for h in party.hands.order_by("number")]
    assert game_sheet(party).totals == side_totals(expected, 3)
    assert side_totals(stored, 3) == side_totals(expected, 3)


def test_the_nights_results_leave_another_games_party_out_until_they_read_it():
    from scoring.night_results import night_results
    from scoring.selectors import party_sheets, party_states

    night = ClubNightFactory()
    gin = start_night_party(night)
    party = start_game_party("cruzo", 3, night=night, confirmation_required=False)
    hand_enter(
        seat=seats_of(party)[0], number=1, entry={"went_out": [2], "cards_left": {0: 3, 1: 1}}
    )

    assert set(party_sheets([gin.pk, party.pk])) == {gin.pk}
    assert set(party_states([gin.pk, party.pk])) == {gin.pk}
    shown = {row["player"].pk for row in night_results(night=night)["rows"]}
    assert not shown & {seat.player_id for seat in seats_of(party)}
