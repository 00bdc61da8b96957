"""The organizer's side of a player's data: he downloads it (recorded), and he
erases the player after typing his name; every page still works afterwards."""

import json

import pytest
from django.urls import reverse

from clubs.models import Membership, Player
from seasons.models import PlayerLink, SeasonRecord
from tests.conftest import messages_after
from tests.factories import ClubFactory, OrganizerFactory
from tests.seasons import everything

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept(organizer, after_commit):
    organizer.role = Membership.Role.OWNER
    organizer.save(update_fields=["role"])
    return everything.build(organizer, after_commit)


def data_url(kept, who="ada"):
    return reverse("manage:season-player-data", args=[kept["club"].slug, kept[who].pk])


def erase_url(kept, who="ada"):
    return reverse("manage:season-player-erase", args=[kept["club"].slug, kept[who].pk])


def test_the_organizer_downloads_a_players_data_as_a_json_file(client, kept):
    answer = client.post(data_url(kept))

    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/json"
    assert answer["Content-Disposition"].startswith("attachment;")
    assert "no-store" in answer["Cache-Control"]
    data = json.loads(answer.content)
    assert data["player"]["email"] == "ada@quill.example"
    assert data["tournament_entries"] and data["rating_history"]


def test_each_download_is_recorded(client, kept):
    client.post(data_url(kept))
    client.post(data_url(kept))

    records = SeasonRecord.objects.filter(action=SeasonRecord.Action.DATA_SENT)
    assert records.count() == 2
    assert records.first().details == {"player_id": kept["ada"].pk, "by": "organizer"}
    assert records.first().user.username == "director"


def test_a_download_is_a_post_never_a_link_a_prefetch_could_follow(client, kept):
    assert client.get(data_url(kept)).status_code == 405
    assert not SeasonRecord.objects.filter(action=SeasonRecord.Action.DATA_SENT).exists()


def test_the_organizer_of_another_club_gets_nothing(client, kept):
    other = OrganizerFactory(club=ClubFactory(), player__user__username="elsewhere")
    client.force_login(other.player.user)

    assert client.post(data_url(kept)).status_code == 404
    url = reverse("manage:season-player-data", args=[other.club.slug, kept["ada"].pk])
    assert client.post(url).status_code == 404
    assert client.post(erase_url(kept), {"name": "Ada Quill"}).status_code == 404
    assert not SeasonRecord.objects.filter(action=SeasonRecord.Action.DATA_SENT).exists()


def test_the_erase_page_asks_first_and_erases_nothing_by_itself(client, kept):
    page = client.get(erase_url(kept))

    assert page.status_code == 200
    assert 'name="name"' in page.text
    assert Player.objects.get(pk=kept["ada"].pk).name == "Ada Quill"


def test_a_wrong_name_erases_nothing_and_says_why(client, kept):
    page = client.post(erase_url(kept), {"name": "Ben Ash"})

    assert page.status_code == 200
    assert "That is not the player&#x27;s name" in page.text
    assert Player.objects.get(pk=kept["ada"].pk).name == "Ada Quill"


def test_the_typed_name_erases_the_player(client, kept):
    answer = client.post(erase_url(kept), {"name": "  ada   quill "})

    assert answer.status_code == 302
    assert Player.objects.get(pk=kept["ada"].pk).name == "Former member 1"
    assert messages_after(client, answer) == [
        "The player is erased: the results stay, under the name Former member 1."
    ]
    page = client.get(answer["Location"])
    assert "This player was erased." in page.text and 'id="player-erase"' not in page.text


def test_a_refusal_is_shown_on_the_page(client, kept):
    director = kept["club"].memberships.get(role="owner").player

    page = client.post(erase_url(kept | {"me": director}, "me"), {"name": director.name})

    assert page.status_code == 200
    assert "only owner" in page.text
    assert Player.objects.get(pk=director.pk).name == director.name


def test_every_page_works_after_the_erasure(client, kept, after_commit):
    club, ada = kept["club"], kept["ada"]
    ben_seat = kept["party"].seats.get(player=kept["ben"])
    own = reverse("public:player-own", args=[kept["link"].token])
    public_page = reverse("public:club-player", args=[club.slug, ada.pk])
    pages = [
        reverse("public:club-detail", args=[club.slug]),
        reverse("public:season-detail", args=[club.slug, kept["season"].pk]),
        reverse("public:tournament-detail", args=[kept["tournament"].slug]),
        reverse("public:crosstable", args=[kept["tournament"].slug]),
        reverse("public:standings-csv", args=[kept["tournament"].slug]),
        reverse("manage:season-players", args=[club.slug]),
        reverse("manage:season-player", args=[club.slug, ada.pk]),
        reverse("manage:season-detail", args=[kept["season"].pk]),
        reverse("manage:party-detail", args=[kept["party"].pk]),
        reverse("manage:night-detail", args=[kept["night"].pk]),
        reverse("manage:tournament-detail", args=[kept["tournament"].slug]),
        reverse("seat:table", args=[ben_seat.token]),
        f"/api/clubs/{club.slug}",
        f"/api/clubs/{club.slug}/ratings",
        f"/api/clubs/{club.slug}/seasons/{kept['season'].pk}",
        f"/api/manage/clubs/{club.slug}/players",
    ]
    # The pages (public ones from the cache) are read once before the erasure.
    for url in pages:
        assert client.get(url).status_code == 200, url
    assert "A. Q." in client.get(reverse("public:standings-csv", args=["cup"])).text
    with after_commit():
        client.post(erase_url(kept), {"name": "Ada Quill"})

    for url in pages:
        answer = client.get(url)
        assert answer.status_code == 200, url
        text = answer.content.decode()
        assert "Ada Quill" not in text and "A. Q." not in text, url
    # His own page and his public page are gone; his data stays reachable for the club.
    assert client.get(own).status_code == 404
    assert client.get(f"/api/me/{kept['link'].token}").status_code == 404
    assert client.get(public_page).status_code == 404
    assert client.get(f"/api/clubs/{club.slug}/players/{ada.pk}").status_code == 404
    for url in pages[5:9]:
        assert "Former member 1" in client.get(url).content.decode(), url
    # In public an unlisted player is shown by his initials: now the new name's.
    assert "F. m. 1." in client.get(pages[4]).content.decode()


def test_an_erased_player_gets_no_new_personal_link(client, kept):
    client.post(erase_url(kept), {"name": "Ada Quill"})
    url = reverse("manage:season-player-link", args=[kept["club"].slug, kept["ada"].pk])

    answer = client.post(url)

    assert "An erased player gets no personal link." in messages_after(client, answer)
    assert not PlayerLink.objects.filter(player=kept["ada"]).exists()
    assert 'id="player-link-issue"' not in client.get(answer["Location"]).text
