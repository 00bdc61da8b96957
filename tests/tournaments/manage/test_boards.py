"""The round page's tables are each rendered once per state they show and kept
(`tournaments.manage.boards`): a table that moved shows its new state at once, the
others are read as kept, and nothing else a table shows is ever stale."""

from unittest import mock

import pytest
from django.urls import reverse

from clubs.models import Player
from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.conftest import clear_cache
from tournaments.manage import boards
from tournaments.tables import round_tables

pytestmark = pytest.mark.django_db


def tables_html(client, tournament):
    """The round's tables as the page polls them, and how many were rendered."""
    with mock.patch.object(boards, "render_to_string", wraps=boards.render_to_string) as render:
        html = client.get(reverse("manage:round-tables", args=[tournament.slug, 1])).text
    return html, render.call_count


def test_only_the_table_that_moved_is_rendered_again(tournament, post, client):
    t = tournament(["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"])
    post(reverse("manage:round-start", args=[t.slug]))
    clear_cache()  # (the round page the start led to kept them already)
    first, count = tables_html(client, t)
    assert count == 3 and first.count('data-state="playing"') == 3
    assert tables_html(client, t) == (first, 0)  # every table as kept

    view = next(v for v in round_tables(t.round_set.get()) if v.table.number == 2)
    a = view.table.party.seats.get(position=0)
    result = Result("gin", knocker=a.position, knocker_deadwood=0, defender_deadwood=30)
    hand_enter(seat=a, number=1, entry=result)
    html, count = tables_html(client, t)
    assert count == 1
    assert 'id="table-2" data-table="2"\n      data-state="pending"' in html
    assert html.count('data-state="playing"') == 2

    # A player's name put right shows at once, at his table only.
    renamed = view.entrants[1].player_id
    Player.objects.filter(pk=renamed).update(name="Bernadette")
    html, count = tables_html(client, t)
    assert count == 1 and "Bernadette" in html


def test_the_tables_speak_the_organizers_language(tournament, post, client):
    t = tournament(["Anna", "Ben"])
    post(reverse("manage:round-start", args=[t.slug]))
    english, _ = tables_html(client, t)
    german = client.get(
        reverse("manage:round-tables", args=[t.slug, 1]), HTTP_ACCEPT_LANGUAGE="de"
    ).text
    assert "playing" in english and "wird gespielt" not in english
    assert "wird gespielt" in german
