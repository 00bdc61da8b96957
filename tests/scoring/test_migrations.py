"""Data steps of the scoring migrations, run on rows the old code wrote."""

from importlib import import_module

import pytest
from django.apps import apps

from scoring.engine.rules import RULESETS, InvalidRules, Rules
from tests.factories import start_party

pytestmark = pytest.mark.django_db


def test_stored_rules_lose_the_retired_draw_last_two_switch():
    party = start_party()
    party.rules = {**RULESETS["classic"].as_dict(), "draw_last_two": False}
    party.save()
    with pytest.raises(InvalidRules, match="unknown setting draw_last_two"):
        Rules.from_dict(party.rules)

    step = import_module("scoring.migrations.0005_rules_without_draw_last_two")
    step.drop_draw_last_two(apps, None)

    party.refresh_from_db()
    assert Rules.from_dict(party.rules) == RULESETS["classic"]
