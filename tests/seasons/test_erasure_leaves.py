"""What an erasure left behind (issue 44): the notices that told others of him,
his phones, the login-attempt log with his login name, address and browser, and
the nights, tournaments and seasons an organizer named after him. Each now says
"Former member N", or is gone; docs/operators.md says what is kept, and why."""

import datetime
import json

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.test import Client
from django.urls import reverse

from clubs.models import Membership
from notices.models import Choice, Notice, PushSubscription
from scoring.services.nights import night_create
from seasons.erasure import player_erase
from seasons.models import Season
from tests.seasons import everything
from tournaments import registration
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner_kept(organizer, after_commit):
    """Ada Quill's club (tests/seasons/everything.py), its organizer its owner."""
    kept = everything.build(organizer, after_commit)
    organizer.role = Membership.Role.OWNER
    organizer.save(update_fields=["role"])
    return {**kept, "organizer_user": organizer.player.user}


def erase(kept, who="ada"):
    return player_erase(club=kept["club"], player=kept[who], user=kept["organizer_user"])


def notice(kept, who, key, **fields):
    return Notice.objects.create(
        club=kept["club"], player=kept[who], kind="sheet", channel="email", key=key, **fields
    )


def test_the_notices_that_named_him_name_the_former_member(owner_kept):
    to_ben = notice(
        owner_kept,
        "ben",
        "sheet:1:ben",
        subject="Ada Quill won",
        body="Ada Quill: +332\nBen Ash: 0",
    )
    bounced = notice(
        owner_kept,
        "ada",
        "sheet:1:ada",
        subject="Your sheet",
        body="Ada Quill: +332",
        status="bounced",
        error="550 5.1.1 <ada@quill.example>: no such user",
    )

    erase(owner_kept)

    to_ben.refresh_from_db()
    bounced.refresh_from_db()
    assert (to_ben.subject, to_ben.body) == (
        "Former member 1 won",
        "Former member 1: +332\nBen Ash: 0",
    )
    assert "Ada Quill" not in bounced.body and "ada@quill.example" not in bounced.error
    assert bounced.error.startswith("550 5.1.1")


def test_his_phones_and_choices_are_gone(owner_kept):
    ada, ben = owner_kept["ada"], owner_kept["ben"]
    for player, end in ((ada, "a"), (ben, "b")):
        PushSubscription.objects.create(
            player=player, endpoint=f"https://push.example.org/{end}", p256dh="k", auth="s"
        )
        Choice.objects.create(player=player, kind="sheet", email=False, push=True)

    erase(owner_kept)

    assert list(PushSubscription.objects.values_list("player_id", flat=True)) == [ben.pk]
    assert list(Choice.objects.values_list("player_id", flat=True)) == [ben.pk]


def test_the_login_attempt_log_forgets_his_login_name_address_and_browser(owner_kept):
    now = datetime.datetime.now(datetime.UTC)
    seen = {"ip_address": "203.0.113.7", "user_agent": "Ada's phone", "attempt_time": now}
    for name in ("adaq", "ADAQ", "ada@quill.example", "ben"):
        AccessAttempt.objects.create(username=name, failures_since_start=1, **seen)
        AccessFailureLog.objects.create(username=name, **seen)
        AccessLog.objects.create(username=name, **seen)

    erase(owner_kept)

    for log in (AccessAttempt, AccessFailureLog, AccessLog):
        names = {name.lower() for name in log.objects.values_list("username", flat=True)}
        assert "ben" in names
        assert not names & {"adaq", "ada@quill.example"}
        assert not log.objects.filter(user_agent="Ada's phone").exclude(username="ben").exists()


def test_nights_tournaments_and_seasons_named_after_him_are_renamed(owner_kept, client):
    club, user = owner_kept["club"], owner_kept["organizer_user"]
    night = night_create(
        club=club, user=user, name="Ada Quill's farewell", date=datetime.date(2026, 11, 3)
    )
    cup = registration.tournament_create(
        club=club, name="Ada Quill Cup", slug="ada-quill-cup", date=datetime.date(2026, 11, 7)
    )
    season = Season.objects.filter(club=club).first()
    Season.objects.filter(pk=season.pk).update(name="The Ada Quill trophy")
    Tournament.objects.create(club=club, name="Adam's night", slug="adam-s-night")

    erase(owner_kept)

    night.refresh_from_db()
    cup.refresh_from_db()
    season.refresh_from_db()
    assert night.name == "Former member 1's farewell"
    assert (cup.name, cup.slug) == ("Former member 1 Cup", "former-member-1-cup")
    assert season.name == "The Former member 1 trophy"
    assert Tournament.objects.filter(slug="adam-s-night", name="Adam's night").exists()
    page = Client().get(club.get_absolute_url())
    calendar = Client().get(reverse("public:club-calendar", args=[club.slug]))
    for answer in (page, calendar):
        assert "Ada Quill" not in answer.content.decode()
        assert "ada-quill" not in answer.content.decode()


def test_no_notice_keeps_his_old_name(owner_kept):
    notice(owner_kept, "ben", "sheet:2:ben", subject="Sheet", body="Ada Quill: +10")

    erase(owner_kept)

    words = json.dumps(list(Notice.objects.values_list("subject", "body", "error")))
    assert "Ada Quill" not in words
