"""The member import's preview shows each row as it will be taken: a guest as a
guest, and its e-mail, role, date and flags, so the organizer checks the list
before it is written."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

HEADER = "name,email,role,member since,active,listed publicly\n"


def preview_rows(client, club, content: str) -> dict[str, dict[str, str]]:
    """The preview's rows by name: each cell the page shows, by its column."""
    client.post(
        reverse("manage:member-import", args=[club.slug]),
        {"file": SimpleUploadedFile("members.csv", (HEADER + content).encode())},
    )
    page = client.get(reverse("manage:member-import-preview", args=[club.slug])).text
    rows = {}
    for row in re.findall(r'<tr class="verdict-\w+">(.*?)</tr>', page, re.S):
        name = re.findall(r"<td>([^<]*)</td>", row)[0]
        cells = dict(re.findall(r'<td data-cell="(\w+)">(.*?)</td>', row, re.S))
        rows[name] = {
            key: re.sub(r"<[^>]+>|\s+", " ", value).strip() for key, value in cells.items()
        }
    return rows


def test_the_preview_shows_a_new_guest_as_a_guest_with_every_cell(client, organizer):
    rows = preview_rows(
        client,
        organizer.club,
        "Ada Lovelace,ada@example.org,member,2021-03-04,yes,yes\n"
        "Bob Byte,,guest,2024-05-06,no,no\n",
    )
    assert rows["Ada Lovelace"] == {
        "email": "ada@example.org",
        "role": "member",
        "since": "March 4, 2021",
        "active": "yes",
        "listed": "yes",
        "taken": "new member",
    }
    assert rows["Bob Byte"] == {
        "email": "–",
        "role": "guest",
        "since": "May 6, 2024",
        "active": "no",
        "listed": "no",
        "taken": "new guest",
    }


def test_an_existing_guest_stays_a_guest_in_the_preview(client, organizer):
    MembershipFactory(club=organizer.club, player__name="Cleo Card", role="guest")
    rows = preview_rows(client, organizer.club, "Cleo Card,cleo@example.org,,,,\n")
    assert rows["Cleo Card"]["taken"].startswith("existing guest, changed")
    assert rows["Cleo Card"]["email"] == "cleo@example.org"
    assert rows["Cleo Card"]["role"] == "guest"
