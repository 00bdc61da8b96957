"""A text that shows nothing (the right-to-left override U+202E alone, zero-width
spaces, a Hangul filler) is no name: refused by every form and every API schema
in the same words, never stored to become an empty line on the pages."""

import json

import pytest
from django.urls import reverse

from clubs.models import Club, ClubNight, Player
from web.validators import invisible

pytestmark = pytest.mark.django_db

NOTHING = ["\u202e", "\u202e\u202d", "\u200b\u200d", "\u3164", "\u2800", " \u200f ", "\u0301"]


@pytest.mark.parametrize("text", NOTHING)
def test_a_text_of_invisible_characters_shows_nothing(text):
    assert invisible(text)


@pytest.mark.parametrize("text", ["Anna", "A\u202e", "\u05d0", "\u4e00", "7", "–", "  ", ""])
def test_a_text_with_anything_to_see_or_blank_is_not_invisible(text):
    assert not invisible(text)


@pytest.mark.parametrize("text", NOTHING[:4])
def test_the_member_and_guest_forms_refuse_a_name_that_shows_nothing(client, organizer, text):
    slug = organizer.club.slug
    before = Player.objects.count()

    member = client.post(
        reverse("manage:member-add", args=[slug]), {"name": text, "role": "member"}
    )
    guest = client.post(reverse("manage:guest-add", args=[slug]), {"name": text})

    for answer in (member, guest):
        assert answer.status_code in (200, 400)
        assert "shows nothing" in answer.text
    assert Player.objects.count() == before


def test_a_club_whose_name_shows_nothing_is_not_founded(client, organizer):
    data = {"name": "\u202e", "slug": "blank", "language": "en", "time_zone": "Europe/Berlin"}

    answer = client.post(reverse("manage:club-create"), data)

    assert "shows nothing" in answer.text
    assert not Club.objects.filter(slug="blank").exists()


def test_the_api_refuses_a_night_whose_name_shows_nothing(client, organizer):
    body = {"name": "\u202e\u200b", "date": "2024-05-03"}

    answer = client.post(
        f"/api/manage/clubs/{organizer.club.slug}/nights",
        json.dumps(body),
        content_type="application/json",
    )

    assert answer.status_code == 422, answer.content
    assert "shows nothing" in answer.json()["detail"]
    assert not ClubNight.objects.exists()
