"""A player told of a change of his table while the round is played: players
swapped by hand, his opponent's no-show, his opponent withdrawn."""

import pytest

from notices.models import Kind, Notice
from tournaments import registration, rounds, tables, withdrawals

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(club, members, committed):
    """A Swiss of four, round 1 paired: two tables."""
    players = members("Anna", "Ben", "Cleo", "Dora")
    tournament = registration.tournament_create(club=club, name="Spring Open", rounds=3)
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    round = committed(rounds.round_start, tournament=tournament)
    round.refresh_from_db()
    return tournament, round


def opponent_of(round, entrant):
    seating = round.seatings.get(entrant=entrant)
    return round.seatings.exclude(entrant=entrant).get(table=seating.table).entrant


def changes(smtp, entrant):
    return [m for m in smtp.to(entrant.player.email) if "changed" in m["Subject"]]


def test_players_swapped_by_hand_are_told_their_new_tables(smtp, four, committed):
    tournament, round = four
    first = tournament.entrants.get(player__name="Anna")
    second = next(
        e for e in tournament.entrants.all() if e not in (first, opponent_of(round, first))
    )
    committed(tables.tables_swap, round=round, first=first, second=second)

    for entrant in tournament.entrants.all():
        (message,) = changes(smtp, entrant)
        subject = str(message["Subject"]).strip()
        assert subject.startswith("Your table changed: Spring Open · Round 1 · Table")
    anna = changes(smtp, first)[0].get_body(("plain",)).get_content()
    new_party = round.tables.get(seatings__entrant=first).party
    assert new_party.seats.get(player=first.player).get_absolute_url() in anna
    assert Notice.objects.filter(kind=Kind.CHANGE).count() == 4


def test_whoever_came_is_told_of_the_no_show(smtp, four, committed):
    tournament, round = four
    anna = tournament.entrants.get(player__name="Anna")
    opponent = opponent_of(round, anna)
    table = round.tables.get(seatings__entrant=anna)
    committed(tables.table_forfeit, table=table, absent=opponent)

    (message,) = changes(smtp, anna)
    assert (
        f"{opponent} did not come: your table counts as a forfeit"
        in message.get_body(("plain",)).get_content()
    )
    assert changes(smtp, opponent) == []
    # Another step of the tournament (at another table) tells her nothing again.
    elsewhere = next(e for e in tournament.entrants.all() if e not in (anna, opponent))
    committed(withdrawals.entrant_withdraw, entrant=elsewhere)
    assert len(changes(smtp, anna)) == 1
    assert Notice.objects.filter(key__startswith="forfeit:").count() == 1


def test_the_opponent_of_one_who_withdrew_is_told(smtp, four, committed):
    tournament, round = four
    anna = tournament.entrants.get(player__name="Anna")
    opponent = opponent_of(round, anna)
    committed(withdrawals.entrant_withdraw, entrant=opponent)

    (message,) = changes(smtp, anna)
    assert (
        f"{opponent} has withdrawn from the tournament"
        in message.get_body(("plain",)).get_content()
    )
    others = [e for e in tournament.entrants.all() if e not in (anna, opponent)]
    assert all(changes(smtp, e) == [] for e in others)
