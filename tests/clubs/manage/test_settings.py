"""The club's settings: its organizers change the language its mails are written
in and the currency of its stakes; the mails follow at once."""

import pytest
from django.urls import reverse
from django.utils import translation

from clubs.models import ClubRecord, Membership
from notices.events import why
from notices.models import Kind
from tests.factories import ClubFactory, OrganizerFactory

pytestmark = pytest.mark.django_db


def settings_url(club):
    return reverse("manage:club-settings", args=[club.slug])


def test_an_organizer_switches_the_clubs_mails_to_german(
    client, django_capture_on_commit_callbacks, mailoutbox
):
    owner = OrganizerFactory(role=Membership.Role.OWNER)
    client.force_login(owner.player.user)
    club = owner.club
    assert club.language == "en"

    response = client.post(settings_url(club), {"language": "de", "currency": "CHF"}, follow=True)

    assert "The club&#x27;s settings are saved." in response.text
    club.refresh_from_db()
    assert (club.language, club.currency) == ("de", "CHF")
    record = club.records.get(action=ClubRecord.Action.SETTINGS)
    assert record.details == {"language": "de", "currency": "CHF"}
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("manage:invitation-list", args=[club.slug]), {"email": "cora@example.org"}
        )
    assert mailoutbox[0].subject == f"Organisieren Sie {club.name} auf Knock"


def test_the_settings_page_shows_the_clubs_language_and_a_wrong_one_is_refused(client, organizer):
    page = client.get(settings_url(organizer.club))
    assert 'value="en" selected' in page.text
    response = client.post(settings_url(organizer.club), {"language": "xx", "currency": "EUR"})
    assert response.status_code == 400
    organizer.club.refresh_from_db()
    assert organizer.club.language == "en"


def test_saving_the_same_settings_records_nothing(client, organizer):
    client.post(settings_url(organizer.club), {"language": "en", "currency": "EUR"})
    assert not organizer.club.records.filter(action=ClubRecord.Action.SETTINGS).exists()


def test_another_clubs_settings_are_a_404(client, organizer):
    assert client.get(settings_url(ClubFactory())).status_code == 404


def test_the_german_opt_out_names_the_club_with_its_article_and_the_notice_in_quotes(organizer):
    club = organizer.club
    club.name = "Knickerbocker Whist Club"
    with translation.override("de"):
        sentence = why(club, organizer.player, Kind.TABLE, None).splitlines()[0]
    assert sentence.startswith(
        "Sie bekommen diese Nachricht, weil Sie im Club „Knickerbocker Whist Club“ spielen und „"
    )
    assert sentence.endswith("“ nicht abgeschaltet haben.")
