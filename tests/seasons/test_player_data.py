"""A player's data on request (DSGVO Art. 15): the document holds each thing the
club keeps about him, from every app, and nothing of another player."""

import json

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.test.utils import CaptureQueriesContext

from seasons.data import player_data
from tests.seasons import everything
from tests.seasons.conftest import play_party

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept(organizer, after_commit):
    return everything.build(organizer, after_commit)


def test_the_document_holds_the_player_and_his_contact_and_login(kept):
    data = player_data(club=kept["club"], player=kept["ada"])

    assert data["player"]["name"] == "Ada Quill"
    assert data["player"]["email"] == "ada@quill.example"
    assert data["player"]["login"]["username"] == "adaq"
    assert [m["role"] for m in data["memberships"]] == ["member"]


def test_the_document_holds_his_parties_hands_and_scores_as_kept(kept):
    data = player_data(club=kept["club"], player=kept["ada"])
    parties = {p["id"] for p in data["parties"]}

    assert kept["party"].pk in parties
    assert {h["party_id"] for h in data["hands"]} <= parties
    assert any(h["party_id"] == kept["party"].pk and h["ending"] == "gin" for h in data["hands"])
    history = {c["party_id"]: c for c in data["rating_history"]}
    assert history[kept["party"].pk]["won"] is True
    assert history[kept["party"].pk]["plus_minus"] > 0


def test_the_document_holds_his_tournament_entry_and_result(kept):
    data = player_data(club=kept["club"], player=kept["ada"])

    assert [e["tournament"] for e in data["tournament_entries"]] == ["Cup"]
    assert data["check_ins"] and all(c["checked_in"] for c in data["check_ins"])
    [result] = data["tournament_results"]
    assert result["after_round"] == 1 and result["place"] >= 1
    assert len(data["seatings"]) == 1


def test_the_document_holds_his_ratings_season_line_and_link(kept):
    data = player_data(club=kept["club"], player=kept["ada"])

    assert [r["game"] for r in data["ratings"]] == ["gin_rummy"]
    assert [line["season"] for line in data["season_lines"]] == ["Autumn 2026"]
    assert len(data["personal_links"]) == 1
    # A link opens his page: the file that lies in a downloads folder must not.
    assert kept["link"].token not in json.dumps(data, cls=DjangoJSONEncoder)


def test_the_document_holds_every_record_that_names_him(kept, organizer):
    LogEntry.objects.log_actions(
        user_id=organizer.player.user.pk, queryset=[kept["ada"], kept["cleo"]], action_flag=CHANGE
    )

    records = player_data(club=kept["club"], player=kept["ada"])["records"]

    assert "member" in {r["action"] for r in records["club"]}
    assert {r["party_id"] for r in records["parties"]} >= {kept["party"].pk}
    assert [r["action"] for r in records["tournaments"]] == ["apart"]
    assert [r["action"] for r in records["seasons"]] == ["link"]
    assert [r["object_repr"] for r in records["admin"]] == ["Ada Quill"]


def test_the_document_holds_nothing_of_a_player_who_never_sat_with_him(kept):
    text = json.dumps(player_data(club=kept["club"], player=kept["ada"]), cls=DjangoJSONEncoder)

    assert "Cleo Birch" not in text
    assert "cleo@birch.example" not in text
    assert "ben@ash.example" not in text


def test_another_players_document_holds_nothing_of_his(kept):
    text = json.dumps(player_data(club=kept["club"], player=kept["cleo"]), cls=DjangoJSONEncoder)

    assert "Ada Quill" not in text and "ada@quill.example" not in text and "adaq" not in text


def test_the_document_reads_in_queries_that_do_not_grow_with_his_parties(kept, after_commit):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            player_data(club=kept["club"], player=kept["ada"])
        return len(captured)

    before = queries()
    with after_commit():
        for seed in range(3):
            play_party(kept["club"], [kept["ada"], kept["cleo"]], winner=kept["ada"], seed=seed)
    assert queries() == before
