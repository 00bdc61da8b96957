"""The demo's mixer (the format "planned"): thirteen Blaue Vierzehn players at
tables of four for four rounds planned ahead, two played, the third seated as
planned, nobody meeting anyone twice."""

import itertools
from collections import Counter

import pytest
from django.core.management import call_command

from demo.planned_evening import MIXER
from tournaments.models import Round, Tournament
from tournaments.planned import plan_view
from tournaments.tables import round_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def mixer(settings):
    settings.DEBUG = True
    call_command("load_demo")
    return Tournament.objects.get(slug=MIXER["slug"])


def test_the_demo_has_a_mixer_two_rounds_played_as_planned_meeting_nobody_twice(mixer):
    assert (mixer.format, mixer.game, mixer.table_size, mixer.rounds) == (
        "planned",
        "blaue_vierzehn",
        4,
        4,
    )
    assert mixer.entrants.count() == 13 and len(mixer.plan) == 4
    played = mixer.round_set.order_by("number")
    assert [r.status for r in played] == [Round.Status.CLOSED] * 2 + [Round.Status.PLAYING]
    assert not any(view.finished for view in round_tables(played.get(number=3)))
    met = Counter()
    for round in played:
        seated = [[e.pk for e in view.entrants] for view in round_tables(round)]
        planned = mixer.plan[round.number - 1]["tables"]
        assert sorted(map(sorted, seated)) == sorted(map(sorted, planned))
        assert sorted(map(len, seated)) == [3, 3, 3, 4]
        for table in seated:
            met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    assert set(met.values()) == {1}
    assert plan_view(mixer).meetings.repeats == 0


def test_loading_the_demo_again_leaves_the_mixer_as_it_is(mixer):
    call_command("load_demo")
    assert Tournament.objects.filter(slug=MIXER["slug"]).count() == 1
    assert mixer.round_set.count() == 3
