"""The organizer's list of what was sent to whom, and what failed or bounced."""

from importlib import import_module

import pytest
from django.apps import apps as django_apps
from django.urls import reverse

from notices import services
from notices.events import Draft
from notices.models import Notice
from scoring.services.parties import party_start
from tests.factories import ClubFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def written(club, count, email="player@example.org"):
    players = [MembershipFactory(club=club, player__email=email).player for _ in range(count)]
    drafts = [
        Draft(club, p, "table", f"table:test:{p.pk}", "Your table", "Text", "") for p in players
    ]
    services.notices_write(drafts=drafts, deliver=lambda pk: None)
    return players


def url(club, **query):
    return reverse("manage:notice-list", args=[club.slug]) + (
        "?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""
    )


def test_the_organizer_sees_what_was_sent_to_whom_and_what_bounced(
    client, organizer, smtp, committed
):
    club = organizer.club
    anna, ben = (
        MembershipFactory(club=club, player__name=n, player__email=f"{n}@example.org").player
        for n in ("Anna", "Ben")
    )
    smtp.refuse.add("Ben@example.org")
    committed(party_start, club=club, format="two", players=[anna, ben])

    response = client.get(url(club))
    rows = {r.record.player.name: r.record for r in response.context["table"].page.object_list}
    assert rows["Anna"].status == "sent" and rows["Ben"].status == "bounced"
    assert "550" in response.text
    assert "1 sent, 0 waiting, 0 failed, 1 bounced." in response.text
    assert "Anna@example.org" not in response.text
    only = client.get(url(club, undelivered="on")).context["table"].page.object_list
    assert [r.record.player.name for r in only] == ["Ben"]


def test_another_club_s_notices_are_not_shown(client, organizer):
    written(ClubFactory(), 2)
    assert len(client.get(url(organizer.club)).context["table"].page.object_list) == 0


def test_only_the_club_s_organizers_see_its_notices(client, organizer):
    other = ClubFactory()
    assert client.get(url(other)).status_code in (403, 404)


@pytest.mark.parametrize("count", [1, 60])
def test_the_notice_list_query_count_does_not_grow_with_notices(
    client, organizer, django_assert_max_num_queries, count
):
    written(organizer.club, count)
    with django_assert_max_num_queries(9):
        response = client.get(url(organizer.club))
    assert response.status_code == 200
    assert len(response.context["table"].page.object_list) == min(count, 50)
    assert Notice.objects.count() == count


def test_a_push_failure_written_before_the_push_fix_shows_no_network_text(client, organizer):
    """Before the push fix a failure kept the network's own words, which say what
    listens where inside the server's network; the data migration rewrites them
    as failures are written now, and keeps what is written since."""
    forwards = import_module(
        "notices.migrations.0003_old_push_errors_without_network_text"
    ).forwards
    player = MembershipFactory(club=organizer.club, player__name="Anna").player
    old = {
        "push-1": "HTTPSConnectionPool(host='10.0.0.5', port=8080): Max retries exceeded "
        "(Caused by NewConnectionError('Failed to establish a new connection: "
        "[Errno 111] Connection refused'))",
        "push-2": "410 Push failed: 410 Gone\nResponse body: subscription 10.1.2.3 expired",
        "push-3": "not reached; 404 from the push service",
    }
    for key, error in old.items():
        Notice.objects.create(
            club=organizer.club,
            player=player,
            kind="table",
            channel="push",
            key=key,
            subject="Your table",
            body="Table 3",
            status=Notice.Status.FAILED,
            error=error,
        )
    mailed = Notice.objects.create(
        club=organizer.club,
        player=player,
        kind="table",
        channel="email",
        key="mail-1",
        subject="Your table",
        body="Table 3",
        status=Notice.Status.BOUNCED,
        error="550 no such mailbox",
    )

    forwards(django_apps, None)

    page = client.get(url(organizer.club)).text
    for words in ("Connection refused", "10.0.0.5", "10.1.2.3", "Gone"):
        assert words not in page
    errors = dict(Notice.objects.values_list("key", "error"))
    assert errors["push-1"] == "not reached"
    assert errors["push-2"] == "410 from the push service"
    assert errors["push-3"] == "not reached; 404 from the push service"
    assert errors[mailed.key] == "550 no such mailbox"
