"""The organizer's import page: an archive file downloaded from one club comes
back in another with everything it held; a file that is not a whole archive is
refused with a message and leaves nothing behind."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import ClubNight, ClubRecord, Membership, Player
from scoring.models import AuditRecord, Party
from tests.conftest import messages_after
from tests.factories import ClubFactory, ClubNightFactory, MembershipFactory, start_night_party
from tests.tournaments.test_archive import finished_tournament, picture, runs_too
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def elsewhere(organizer):
    """A second club the same organizer runs: where the archive goes."""
    club = ClubFactory(slug="elsewhere")
    MembershipFactory(club=club, player=organizer.player, role=Membership.Role.ORGANIZER)
    return club


def upload(client, club, content: bytes, name="archive.json"):
    return client.post(
        reverse("manage:archive-import", args=[club.slug]),
        {"file": SimpleUploadedFile(name, content, content_type="application/json")},
    )


def downloaded(client, tournament) -> bytes:
    """The archive as the organizer downloads it from the API."""
    response = client.get(f"/api/manage/tournaments/{tournament.slug}/archive")
    assert response.status_code == 200
    return response.content


def without_links(seen: dict) -> dict:
    # The seat links are taken here by the original's seats: the copy gets new ones.
    for round in seen["rounds"].values():
        round["tables"] = [
            (*table[:4], table[4] and {**table[4], "seats": [s[:3] for s in table[4]["seats"]]})
            for table in round["tables"]
        ]
    return seen


def test_an_archive_file_comes_back_in_another_club_and_the_page_shows_it(
    client, started, committed, confirmed, elsewhere
):
    tournament = finished_tournament(started, committed, confirmed)
    runs_too(elsewhere, "director")
    before = without_links(picture(tournament))

    response = upload(client, elsewhere, downloaded(client, tournament))

    copy = Tournament.objects.get(club=elsewhere)
    assert response.status_code == 302
    assert response["Location"] == reverse("manage:tournament-detail", args=[copy.slug])
    assert without_links(picture(copy)) == before
    page = client.get(response["Location"])
    assert f"Tournament “{tournament.name}” imported." in page.text


def test_a_club_nights_archive_comes_back_as_a_night(client, organizer, elsewhere):
    night = ClubNightFactory(club=organizer.club, name="Friday")
    start_night_party(night)
    archived = client.get(f"/api/manage/nights/{night.pk}/archive").content

    response = upload(client, elsewhere, archived)

    copy = ClubNight.objects.get(club=elsewhere)
    assert response["Location"] == reverse("manage:night-detail", args=[copy.pk])
    assert (copy.name, copy.parties.count()) == ("Friday", 1)


def test_the_import_form_sent_twice_brings_the_archive_back_once(
    client, organizer, elsewhere, sent_twice
):
    night = ClubNightFactory(club=organizer.club, name="Friday")
    start_night_party(night)
    archived = client.get(f"/api/manage/nights/{night.pk}/archive").content

    first, second = sent_twice(
        reverse("manage:archive-import", args=[elsewhere.slug]),
        lambda: {"file": SimpleUploadedFile("archive.json", archived, "application/json")},
    )

    copy = ClubNight.objects.get(club=elsewhere)
    assert first["Location"] == second["Location"] == reverse("manage:night-detail", args=[copy.pk])
    assert "This form was already sent: here is what it made." in messages_after(client, second)


def stored() -> dict:
    models = (Tournament, ClubNight, Party, AuditRecord, Player, Membership, ClubRecord)
    return {model.__name__: model.objects.count() for model in models}


def damaged(client, started, committed, confirmed) -> bytes:
    """A real archive whose last table names a round it does not hold: the import
    has written the tournament, its entrants and parties when it finds out."""
    data = json.loads(downloaded(client, finished_tournament(started, committed, confirmed)))
    data["tables"][-1]["round"] = 99
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    "content, message",
    [
        (b"{not json", "This file is not JSON"),
        ("Turnier".encode("utf-16"), "This file is not JSON"),
        (b"[" * 5000 + b"]" * 5000, "This file is not JSON"),
        (b"[]", "This is not a Knock archive."),
        (b'{"format": "other"}', "This is not a Knock archive."),
        (b'{"format": "knock-archive", "version": 9}', "another version of Knock"),
        (b'{"format": "knock-archive", "version": 1}', "must be “tournament” or “night”"),
        ("damaged", "names a round the archive does not hold"),
    ],
    ids=[
        "bad-json",
        "not-utf8",
        "too-deep-to-parse",
        "a-list",
        "another-format",
        "another-version",
        "no-kind",
        "damaged-inside",
    ],
)
def test_a_file_that_is_no_whole_archive_gets_a_message_and_stores_nothing(
    client, started, committed, confirmed, elsewhere, content, message
):
    if content == "damaged":
        content = damaged(client, started, committed, confirmed)
    before = stored()

    response = upload(client, elsewhere, content)

    assert response.status_code == 400
    assert message in response.text
    assert stored() == before


def test_a_file_over_the_limit_gets_a_message_and_stores_nothing(
    client, started, committed, confirmed, elsewhere, settings
):
    content = downloaded(client, finished_tournament(started, committed, confirmed))
    settings.ARCHIVE_UPLOAD_MAX_BYTES = 1000
    before = stored()

    response = upload(client, elsewhere, content)

    assert response.status_code == 400
    assert "The file is too large" in response.text and "at most 1000" in response.text
    assert stored() == before


def test_without_a_file_the_form_asks_for_one(client, elsewhere):
    response = client.post(reverse("manage:archive-import", args=[elsewhere.slug]), {})

    assert response.status_code == 400
    assert "This field is required." in response.text


def test_the_clubs_tournament_list_leads_to_the_import_page(client, organizer):
    club = organizer.club
    page = client.get(reverse("manage:tournament-create", args=[club.slug]))

    assert reverse("manage:archive-import", args=[club.slug]) in page.text
    form = client.get(reverse("manage:archive-import", args=[club.slug]))
    assert form.status_code == 200
    assert 'enctype="multipart/form-data"' in form.text
