"""The player downloads his own data through his personal link, recorded; a link
replaced or taken by his erasure opens nothing."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import ClubRecord
from clubs.services import club_record_add
from seasons.models import SeasonRecord
from seasons.services import player_link_issue
from tests.seasons import everything

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept(organizer, after_commit):
    return everything.build(organizer, after_commit)


def test_his_own_page_offers_his_data(kept):
    page = Client().get(reverse("public:player-own", args=[kept["link"].token]))

    assert page.status_code == 200
    assert reverse("public:player-own-data", args=[kept["link"].token]) in page.text


def test_the_player_downloads_his_own_data_and_it_is_recorded(kept):
    he = Client(enforce_csrf_checks=True)
    own = reverse("public:player-own", args=[kept["link"].token])
    he.get(own)
    token = he.cookies["csrftoken"].value

    answer = he.post(
        reverse("public:player-own-data", args=[kept["link"].token]),
        {"csrfmiddlewaretoken": token},
    )

    assert answer.status_code == 200
    assert answer["Content-Disposition"].startswith("attachment;")
    data = json.loads(answer.content)
    assert data["player"]["name"] == "Ada Quill" and data["club"]["slug"] == kept["club"].slug
    record = SeasonRecord.objects.get(action=SeasonRecord.Action.DATA_SENT)
    assert record.details == {"player_id": kept["ada"].pk, "by": "player"}
    assert record.user is None


def test_a_replaced_link_downloads_nothing(kept, organizer):
    old = kept["link"].token
    player_link_issue(club=kept["club"], player=kept["ada"], user=organizer.player.user)

    answer = Client().post(reverse("public:player-own-data", args=[old]))

    assert answer.status_code == 404
    assert not SeasonRecord.objects.filter(action=SeasonRecord.Action.DATA_SENT).exists()


def test_the_download_is_a_post(kept):
    url = reverse("public:player-own-data", args=[kept["link"].token])

    assert Client().get(url).status_code == 405


def test_his_own_copy_shows_the_others_as_his_pages_do_and_no_organizers_trace(kept, organizer):
    """Issue 44: the download named unlisted players in full (the card draws keyed
    by names too) and carried the organizers' user ids and addresses."""
    club_record_add(
        ClubRecord.Action.MEMBER,
        club=kept["club"],
        user=organizer.player.user,
        address="203.0.113.5",
        player="Ada Quill",
        role="member",
    )
    answer = Client().post(
        reverse("public:player-own-data", args=[kept["link"].token]), REMOTE_ADDR="198.51.100.9"
    )

    text = answer.content.decode()
    data = json.loads(text)
    for unlisted, initials in (("Ben Ash", "B. A."), ("Dan Ives", "D. I.")):
        assert unlisted not in text
        assert initials in text
    assert "Cleo Birch" not in text
    assert data["player"]["name"] == "Ada Quill" and "Ada Quill" in json.dumps(data["records"])
    organizer_id = organizer.player.user_id
    for lines in data["records"].values():
        for line in lines:
            assert line.get("user_id") in (None, kept["ada"].user_id)
            assert "address" not in line or line.get("user_id") == kept["ada"].user_id
    assert f'"user_id": {organizer_id}' not in text
    assert "203.0.113.5" not in text


def test_a_member_who_agreed_to_be_listed_is_named_in_full_in_his_copy(kept):
    kept["club"].memberships.filter(player=kept["ben"]).update(listed=True)

    answer = Client().post(reverse("public:player-own-data", args=[kept["link"].token]))

    assert "Ben Ash" in answer.content.decode()
