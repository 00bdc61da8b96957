"""The season digest: sent by `manage.py send_digests` to the players who asked
for it, with their place in the season table; once a day."""

from datetime import date
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from notices import services
from notices.models import Kind, Notice
from notices.tasks import send_notice
from scoring.services.nights import night_create
from seasons.models import PlayerLink
from seasons.services import season_create
from tests.seasons.conftest import play_party

pytestmark = pytest.mark.django_db

TODAY = date(2026, 10, 20)


@pytest.fixture
def season(club, members, organizer, committed):
    ada, ben, cleo = members("Ada", "Ben", "Cleo")
    user = organizer.player.user
    night = night_create(club=club, user=user, name="Autumn night", date=date(2026, 10, 6))
    committed(play_party, club=club, players=[ada, ben], winner=ada, night=night)
    committed(play_party, club=club, players=[ada, cleo], winner=cleo, night=night)
    season = season_create(
        club=club,
        user=user,
        name="Autumn 2026",
        starts=date(2026, 9, 1),
        ends=date(2026, 12, 31),
        counts="both",
        scheme="plus_minus",
        published=True,
    )
    return season, ada, ben, cleo


def digests(smtp, player):
    return [m for m in smtp.to(player.email) if "season" in str(m["Subject"])]


def test_only_who_asked_for_a_digest_gets_one(
    smtp, season, settings, django_capture_on_commit_callbacks
):
    season, ada, ben, cleo = season
    services.choices_set(player=ada, chosen={Kind.DIGEST: {"email": True, "push": False}})
    PlayerLink.objects.create(club=season.club, player=ada, token="ada-own")

    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("send_digests", stdout=out)

    assert digests(smtp, ben) == [] and digests(smtp, cleo) == []
    (message,) = digests(smtp, ada)
    assert str(message["Subject"]).strip() == "Your season: Autumn 2026"
    text = message.get_body(("plain",)).get_content()
    assert "Gin Club, season Autumn 2026:" in text
    assert "Place " in text and " of 3, " in text
    assert f"{settings.SITE_URL}/me/ada-own/" in text.splitlines()
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "1 digests to send" in out.getvalue()


def test_a_second_run_the_same_day_sends_nothing_more(smtp, season, committed):
    season, ada, *_ = season
    services.choices_set(player=ada, chosen={Kind.DIGEST: {"email": True, "push": False}})
    first = committed(services.digests_send, today=TODAY, deliver=send_notice)
    again = committed(services.digests_send, today=TODAY, deliver=send_notice)
    assert (first, again) == (1, 0)
    assert len(digests(smtp, ada)) == 1
    assert Notice.objects.get(kind=Kind.DIGEST).status == "sent"


def test_an_unknown_club_is_refused():
    with pytest.raises(CommandError):
        call_command("send_digests", club="nowhere")
