"""The final after a withdrawal, as in the rounds: reinstated where a withdrawal
decided a match, a withdrawn player's forfeit taken back only by reinstating him,
"withdrew" where he withdrew; after the final every standings surface in the
final's order with the withdrawn marked; an old seat link after a forfeit was taken
back."""

import csv
import io
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Membership
from scoring.models import Party
from tests.tournaments.test_knockout_services import (  # noqa: F401 (fixture)
    current_party,
    finished,
    win_game,
)
from tournaments import withdrawals
from tournaments.final import forfeits
from tournaments.final.bracket import final_standings
from tournaments.final.setup import final_stage_start
from tournaments.models import Entrant
from tournaments.records import TournamentError

pytestmark = pytest.mark.django_db


def fresh(entrant):
    return Entrant.objects.get(pk=entrant.pk)


def test_a_withdrawal_that_decided_the_final_can_be_taken_back(finished):  # noqa: F811
    tournament = finished(qualifiers=2)
    stage = final_stage_start(tournament=tournament)
    final = stage.matches.get()
    withdrawals.entrant_withdraw(entrant=final.first)
    stage.refresh_from_db()
    assert stage.status == "finished"

    leaver = fresh(final.first)
    assert withdrawals.reinstate_refusal(tournament, leaver) == ""
    withdrawals.entrant_reinstate(entrant=leaver)

    final.refresh_from_db()
    stage.refresh_from_db()
    assert (final.absent, final.winner_id, stage.status) == (None, None, "playing")
    assert fresh(leaver).withdrawn_after is None
    assert current_party(final).status == Party.Status.RUNNING


def test_the_organizer_is_offered_reinstate_after_a_withdrawal_decided_the_final(
    finished,  # noqa: F811
    client,
):
    tournament = finished(qualifiers=2)
    stage = final_stage_start(tournament=tournament)
    final = stage.matches.get()
    withdrawals.entrant_withdraw(entrant=final.first)
    organizer = Membership.objects.create(
        club=tournament.club, player=_with_user(), role=Membership.Role.ORGANIZER
    )
    client.force_login(organizer.player.user)
    html = client.get(reverse("manage:final", args=[tournament.slug])).content.decode()
    assert f'data-reinstate="{final.first_id}"' in html
    # The bracket offers Reinstate for his forfeit, not "Take back the no-show".
    assert "data-forfeit-undo" not in html


def _with_user():
    from tests.factories import PlayerFactory, UserFactory

    return PlayerFactory(user=UserFactory())


def test_taking_back_the_no_show_of_a_withdrawn_player_is_refused(finished):  # noqa: F811
    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    semi = stage.matches.get(round=1, slot=1)
    withdrawals.entrant_withdraw(entrant=semi.first)
    semi.refresh_from_db()
    with pytest.raises(TournamentError, match="withdrew"):
        forfeits.match_forfeit_undo(match=semi)
    semi.refresh_from_db()
    assert (semi.absent, semi.winner_id) == (0, semi.second_id)
    assert fresh(semi.first).withdrawn_after is not None


def test_a_withdrawal_in_the_bracket_says_withdrew(finished):  # noqa: F811
    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    semi, other = stage.matches.filter(round=1).order_by("slot")
    withdrawals.entrant_withdraw(entrant=semi.first)
    forfeits.match_forfeit(match=other, absent=other.second)
    html = Client().get(reverse("public:final", args=[tournament.slug])).content.decode()
    assert html.count("withdrew") == 1
    # The no-show of the other semi-final is one.
    assert html.count("did not come") == 1


def _decided_final(finished, capture, withdraw=False):  # noqa: F811
    tournament = finished(qualifiers=2)
    tournament.club.memberships.update(listed=True)
    with capture(execute=True):
        stage = final_stage_start(tournament=tournament)
    final = stage.matches.get()
    if withdraw:
        with capture(execute=True):
            withdrawals.entrant_withdraw(entrant=final.first)
    else:
        win_game(current_party(final), final.second, capture)
    return tournament


def _entrants_in(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-entrant="(\d+)"', html)]


def test_every_standings_surface_shows_the_finals_order(
    finished,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    tournament = _decided_final(finished, django_capture_on_commit_callbacks)
    order = [line.entrant.pk for line in final_standings(tournament, public=True)]
    anyone = Client()
    slug = tournament.slug

    page = anyone.get(reverse("public:tournament-live", args=[slug, "standings"]))
    assert _entrants_in(page.content.decode()) == order
    printed = anyone.get(reverse("public:tournament-print", args=[slug, "standings"]))
    assert _entrants_in(printed.content.decode()) == order
    screen = anyone.get(reverse("public:tournament-live", args=[slug, "screen"]))
    standings_slide = screen.content.decode().split("slide-final")[0]
    assert _entrants_in(standings_slide) == order
    api = json.loads(anyone.get(f"/api/tournaments/{slug}/standings").content)
    assert [line["entrant"] for line in api["lines"]] == order
    assert [line["place"] for line in api["lines"]][:2] == [1, 2]
    names = {e.pk: e.player.name for e in tournament.entrants.select_related("player")}
    rows = _csv(anyone.get(reverse("public:standings-csv", args=[slug])))
    assert [row[1] for row in rows[1:]] == [names[pk] for pk in order]


def _csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_standings_csv_after_a_final_marks_the_withdrawn(
    finished,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    tournament = _decided_final(finished, django_capture_on_commit_callbacks, withdraw=True)
    rows = _csv(Client().get(reverse("public:standings-csv", args=[tournament.slug])))
    column = rows[0].index("Withdrawn after round")
    leaver = tournament.entrants.get(withdrawn_after__isnull=False)
    marked = [row for row in rows[1:] if row[column]]
    assert [row[1] for row in marked] == [leaver.player.name]
    assert marked[0][column] == "1"


def test_an_old_seat_link_of_the_final_no_longer_shows_a_forfeit_taken_back(
    finished,  # noqa: F811
):
    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    semi = stage.matches.get(round=1, slot=1)
    old = current_party(semi)
    token = old.seats.get(player=semi.first.player).token
    forfeits.match_forfeit(match=semi, absent=semi.first)
    anyone = Client()
    assert 'id="party-forfeit"' in anyone.get(reverse("seat:table", args=[token])).content.decode()

    forfeits.match_forfeit_undo(match=semi)

    html = anyone.get(reverse("seat:table", args=[token])).content.decode()
    assert 'id="party-forfeit"' not in html
    assert 'id="party-replaced"' in html


def test_an_old_seat_link_of_a_round_no_longer_shows_a_forfeit_taken_back(started):
    from tournaments import tables

    _, round = started(["Anna", "Ben", "Carl", "Dora"])
    view = next(v for v in tables.round_tables(round) if not v.table.bye)
    table = view.table
    token = table.party.seats.first().token
    tables.table_forfeit(table=table, absent=view.entrants[0])
    tables.table_forfeit_undo(table=table)
    html = Client().get(reverse("seat:table", args=[token])).content.decode()
    assert 'id="party-forfeit"' not in html
    assert 'id="party-replaced"' in html
