"""How a party starts, the same for every game (`scoring.services.parties`
`party_start`): with its game's rules or options settled over the defaults and
kept on the party, at a table the game is played at, at an open night and with
players not seated there yet; and how it is cancelled."""

from types import SimpleNamespace

import pytest
from django.utils.translation import override

from clubs.models import ClubNight
from scoring import errors
from scoring.engine.games import GAMES
from scoring.models import AuditRecord, Party, game_choices
from scoring.services.parties import party_cancel, party_start
from tests.factories import (
    ClubNightFactory,
    MembershipFactory,
    start_game_party,
    start_night_party,
    start_party,
)

pytestmark = pytest.mark.django_db


def test_a_party_takes_its_rules_and_confirmation_from_the_club_night():
    night = ClubNightFactory(ruleset="cardgames", confirmation_required=False)
    members = [MembershipFactory(club=night.club).player for _ in range(2)]
    party = party_start(club=night.club, night=night, format="two", players=members)
    assert party.rules["gin_bonus"] == 25
    assert party.confirmation_required is False


def test_the_options_are_settled_over_the_defaults_and_kept_on_the_party():
    party = start_game_party("blaue_vierzehn", 3, {"deals": 2})

    assert party.rules == {"deals": 2}
    assert party.game == "blaue_vierzehn"
    start = party.audit.get()
    assert start.action == AuditRecord.Action.START
    assert start.after["options"] == {"deals": 2}


@pytest.mark.parametrize(
    ("start", "message"),
    [
        (lambda: start_party(rules="poker"), "no rules called"),
        (lambda: start_party("rotation", players=2), "3 players, not 2"),
        (lambda: start_game_party("chinchon", 5), "played by 2, 3, 4 players, not 5"),
        (lambda: start_game_party("chinchon", 2, {"jokers": 2}), "no rule called jokers"),
        (lambda: start_game_party("skat", 3), "no game called 'skat'"),
    ],
    ids=[
        "gin-rummy-rules",
        "gin-rummy-rotation-of-two",
        "chinchon-of-five",
        "chinchon-jokers",
        "skat",
    ],
)
def test_a_table_or_rules_the_game_is_not_played_with_are_refused(start, message):
    with pytest.raises(errors.EntryError, match=message):
        start()

    assert not Party.objects.exists()


@pytest.mark.parametrize(
    ("game", "players", "options", "message"),
    [
        ("chinchon", 5, None, "Chinchón wird von 2, 3, 4 Personen gespielt, nicht von 5."),
        ("chinchon", 2, {"conga": "yes"}, "conga ist eines von False, True, nicht 'yes'."),
        ("cruzo", 3, {"games": 0}, "games ist eine ganze Zahl ab 1, nicht 0."),
        ("canasta", 4, {"partnerships": 3}, "4 Personen spielen in zwei Partnerschaften."),
    ],
)
def test_a_table_or_an_option_the_game_does_not_know_is_refused_in_german(
    game, players, options, message
):
    with override("de"), pytest.raises(errors.EntryError) as refused:
        start_game_party(game, players, options)

    assert str(refused.value) == message
    assert not Party.objects.exists()


@pytest.mark.parametrize(
    "start",
    [start_night_party, lambda night: start_game_party("cruzo", 3, night=night)],
    ids=["gin-rummy", "cruzo"],
)
def test_a_party_at_a_closed_night_is_refused(start):
    night = ClubNightFactory()
    ClubNight.objects.filter(pk=night.pk).update(closed_at="2024-01-01T20:00Z")
    night.refresh_from_db()

    with pytest.raises(errors.NightClosed):
        start(night)

    assert not Party.objects.exists()


def test_a_player_already_seated_at_the_night_is_refused_unless_meant():
    night = ClubNightFactory()
    gin = start_night_party(night)
    players = [seat.player for seat in gin.seats.all()]

    with pytest.raises(errors.AlreadySeated):
        party_start(club=night.club, night=night, game="chinchon", players=players)
    party = party_start(club=night.club, night=night, game="chinchon", players=players, anyway=True)
    assert party.night == night


def test_the_games_a_party_may_play_are_the_engines_asked_when_read(monkeypatch):
    # The model's choices are asked of GAMES when read: a game registered there is
    # a choice without a migration.
    assert [key for key, _name in game_choices()] == list(GAMES)
    monkeypatch.setitem(GAMES, "skat", SimpleNamespace(name="Skat"))
    assert dict(Party._meta.get_field("game").choices)["skat"] == "Skat"


def test_a_party_is_cancelled_only_with_a_reason():
    party = start_party()
    with pytest.raises(errors.EntryError):
        party_cancel(party=party, user=None, reason="  ")
    party.refresh_from_db()
    assert party.status == Party.Status.RUNNING
