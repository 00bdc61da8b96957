"""The organizer's list of what was sent to whom, and what failed or bounced."""

import pytest
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
