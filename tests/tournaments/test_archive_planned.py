"""An evening planned ahead and a round robin at tables, archived and brought
back: the plan, each round's explanation and the standings as they were; a plan
naming an entrant the archive does not hold is refused."""

import pytest

from tests.factories import ClubFactory
from tests.tournaments.test_archive_games import as_file, table_picture
from tests.tournaments.test_table_tournaments import close_and_pair, play_round, table_tournament
from tournaments.archive.export import tournament_export
from tournaments.archive.restore import ArchiveError, archive_import
from tournaments.planned import plan_view

pytestmark = pytest.mark.django_db

HANDS = {3: [0, 50, 100], 4: [0, 20, 40, 100], 2: [0, 100]}


def names_of(view):
    return [
        [[seat.name for seat in table["players"]] for table in round_["tables"]]
        for round_ in view.rounds
    ]


@pytest.mark.parametrize("format", ["planned", "round_robin"])
def test_an_evening_at_tables_comes_back_with_its_plan_and_explanations(club, committed, format):
    tournament, round = table_tournament(club, 10, committed, format=format, rounds=3)
    play_round(round, HANDS)
    round = close_and_pair(tournament, round, committed)
    tournament.refresh_from_db()
    before = table_picture(tournament)

    copy = archive_import(data=as_file(tournament_export(tournament)), club=ClubFactory())

    assert table_picture(copy) == before
    if format == "planned":
        assert len(copy.plan) == 3
        assert names_of(plan_view(copy)) == names_of(plan_view(tournament))
        assert plan_view(copy).summary == plan_view(tournament).summary
    else:
        assert copy.plan == []


def test_a_plan_naming_an_entrant_the_archive_does_not_hold_is_refused(club, committed):
    tournament, _ = table_tournament(club, 8, committed, format="planned", rounds=2)
    data = as_file(tournament_export(tournament))
    data["tournament"]["plan"][1]["tables"][0][0] = 999_999

    with pytest.raises(ArchiveError) as refused:
        archive_import(data=data, club=ClubFactory())

    assert "tournament.plan.1" in str(refused.value.as_body())
