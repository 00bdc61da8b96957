"""The club's record: nights opened, members added, roles changed and logins, each
with who did it and from where, shown to the club's organizers."""

import datetime
import re

import pytest
from django.urls import reverse

from clubs import services
from clubs.invitations import invitation_accept, invitation_create, invitation_revoke
from clubs.models import ClubRecord, Membership
from scoring.services.nights import night_create
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def club_url(club):
    return reverse("manage:club-detail", args=[club.slug])


def details_shown(page) -> str:
    """The club record's details column, row after row."""
    box = page.text[page.text.index('id="club-records"') :]
    return "\n".join(re.findall(r"<td>([^<]*)</td>\s*</tr>", box))


def test_opening_a_night_is_recorded_and_shown_to_the_clubs_organizers(client, organizer):
    club = organizer.club
    client.post(
        club_url(club),
        {"name": "Friday night", "date": "2026-01-09", "ruleset": "classic"},
        REMOTE_ADDR="198.51.100.7",
    )

    record = ClubRecord.objects.get(club=club, action=ClubRecord.Action.NIGHT)
    assert (record.user, record.address) == (organizer.player.user, "198.51.100.7")
    assert record.details["night"] == "Friday night"
    assert record.details["date"] == "2026-01-09"
    page = client.get(club_url(club))
    assert 'data-record="night"' in page.text
    assert "Friday night" in page.text


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", ["Club night: Friday night", "Rules: Classic club rules", "Confirmation: yes"]),
        ("de", ["Clubabend: Friday night", "Regeln: Klassische Clubregeln", "Bestätigung: ja"]),
    ],
)
def test_the_club_record_reads_in_words_not_stored_keys(client, organizer, language, words):
    club = organizer.club
    client.post(
        club_url(club),
        {
            "name": "Friday night",
            "date": "2026-01-09",
            "ruleset": "classic",
            "confirmation_required": "on",
        },
    )

    page = client.get(club_url(club), HTTP_ACCEPT_LANGUAGE=language)

    box = page.text[page.text.index('id="club-records"') :]
    for stored in ("confirmation_required", "ruleset", "True", "classic", "before:"):
        assert stored not in box
    for word in words:
        assert word in box


@pytest.mark.parametrize(
    "language, words",
    [
        (
            "en",
            [
                "Invitation made: Nov. 28, 2026 6:37 p.m.",
                "Sent by e-mail: yes · Valid until: Dec. 5, 2026 6:37 p.m.",
                "Club night: Friday night · Date: Nov. 27, 2026 · Stake per point: €0.05 · "
                "Before: –",
                "Club name: Café Pik · Address of its pages: cafe-pik · Language: German",
            ],
        ),
        (
            "de",
            [
                "Einladung erstellt: 28. November 2026 18:37",
                "Per E-Mail verschickt: ja · Gültig bis: 5. Dezember 2026 18:37",
                "Clubabend: Friday night · Datum: 27. November 2026 · "
                "Einsatz pro Punkt: 0,05\u00a0€ · Vorher: –",
                "Name des Clubs: Café Pik · Adresse seiner Seiten: cafe-pik · Sprache: Deutsch",
            ],
        ),
    ],
)
def test_the_club_record_reads_dates_flags_and_invitations_as_a_person_does(
    client, organizer, language, words
):
    club, director = organizer.club, organizer.player.user
    # What the services store: moments in ISO form, in UTC; Berlin is an hour ahead.
    services.club_record_add(
        ClubRecord.Action.FOUNDED,
        club=club,
        user=director,
        name="Café Pik",
        slug="cafe-pik",
        language="de",
        time_zone="Europe/Berlin",
    )
    services.club_record_add(
        ClubRecord.Action.STAKE,
        club=club,
        user=director,
        night="Friday night",
        date="2026-11-27",
        stake="0.05",
        was=None,
    )
    services.club_record_add(
        ClubRecord.Action.INVITED,
        club=club,
        user=director,
        by_email=True,
        expires="2026-12-05T17:37:48.214906+00:00",
    )
    services.club_record_add(
        ClubRecord.Action.INVITE_REVOKED,
        club=club,
        user=director,
        made="2026-11-28T17:37:48.214906+00:00",
    )

    page = client.get(club_url(club), HTTP_ACCEPT_LANGUAGE=language)

    box = details_shown(page)
    # No stored key (small letters), no ISO moment, no Python value.
    assert not re.search(r"(^|· )[a-z_]+:", box, re.MULTILINE)
    for stored in ("T17:37", "2026-1", "True"):
        assert stored not in box
    for word in words:
        assert word in box


def test_an_invitation_made_and_taken_back_is_named_in_words(client, organizer, committed):
    organizer.role = Membership.Role.OWNER
    organizer.save(update_fields=["role"])
    director = organizer.player.user
    invitation, _key = committed(
        invitation_create, club=organizer.club, by=director, email="new@example.org"
    )
    invitation_revoke(invitation=invitation, by=director)

    page = client.get(club_url(organizer.club))

    box = details_shown(page)
    assert "Sent by e-mail: yes · Valid until: " in box
    assert "Invitation made: " in box
    assert not re.search(r"(^|· )[a-z_]+:", box, re.MULTILINE)
    assert f"{invitation.made_at:%Y-%m-%d}" not in box


def test_a_new_member_and_a_changed_role_are_recorded():
    club = ClubFactory()
    director = UserFactory()
    membership = services.member_add(club=club, name="Ada", user=director)
    services.member_add(club=club, name="Ada", role=Membership.Role.ORGANIZER, user=director)
    services.member_add(club=club, name="Ada", role=Membership.Role.ORGANIZER)

    records = list(club.records.order_by("pk").values_list("action", "user", "details"))
    assert records == [
        ("member", director.pk, {"player": "Ada", "role": "member"}),
        ("role", director.pk, {"player": "Ada", "before": "member", "after": "organizer"}),
    ]
    services.membership_end(membership=Membership.objects.get(pk=membership.pk), user=director)
    assert club.records.last().action == ClubRecord.Action.LEFT
    assert not Membership.objects.filter(pk=membership.pk).exists()


def test_a_role_changed_in_the_admin_is_recorded(client):
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    client.force_login(admin)
    membership = MembershipFactory()
    url = reverse("admin:clubs_membership_change", args=[membership.pk])

    response = client.post(
        url,
        {
            "player": membership.player.pk,
            "club": membership.club.pk,
            "role": "organizer",
            "since": membership.since.isoformat(),
        },
    )

    assert response.status_code == 302
    record = membership.club.records.get()
    assert (record.action, record.user) == (ClubRecord.Action.ROLE, admin)
    assert record.details["after"] == "organizer"


def test_logins_and_failed_logins_are_recorded(client):
    UserFactory(username="director")
    client.post(reverse("login"), {"username": "director", "password": "wrong"})
    client.post(
        reverse("login"),
        {"username": "director", "password": "correct horse battery"},
        REMOTE_ADDR="192.0.2.1",
    )

    records = list(ClubRecord.objects.order_by("pk"))
    assert [(r.action, r.username) for r in records] == [
        ("login_failed", "director"),
        ("login", "director"),
    ]
    assert records[1].user.username == "director"
    assert records[1].address == "192.0.2.1"


def test_the_club_record_is_for_the_clubs_organizers_only(client):
    club = ClubFactory()
    night_create(club=club, name="Secret night", date=datetime.date(2026, 1, 9))
    client.force_login(MembershipFactory(club=club, player__user=UserFactory()).player.user)
    # A member who does not organize the club is told nothing of it: a 404.
    assert client.get(club_url(club)).status_code == 404


def test_the_club_page_shows_the_latest_records_in_a_fixed_number_of_queries(
    client, organizer, django_assert_max_num_queries
):
    for number in range(60):
        services.member_add(club=organizer.club, name=f"Member {number}", user=UserFactory())
    with django_assert_max_num_queries(7):
        response = client.get(club_url(organizer.club))
    assert len(response.context["records"]) == 30
    assert "Member 59" in response.text


def test_the_member_list_writes_its_changes_into_the_club_record(organizer):
    club, director = organizer.club, organizer.player.user
    membership = services.member_create(club=club, name="Walk-in", role="guest", by=director)
    services.member_update(
        membership=membership, name="Walk-in", email="", role="member", listed=True, by=director
    )
    services.member_deactivate(membership=membership, by=director)
    services.member_reactivate(membership=membership, by=director)

    records = list(club.records.order_by("pk").values_list("action", "details", "user"))
    assert records[-4:] == [
        ("member", {"player": "Walk-in", "role": "guest"}, director.pk),
        ("role", {"player": "Walk-in", "before": "guest", "after": "member"}, director.pk),
        ("deactivated", {"player": "Walk-in"}, director.pk),
        ("reactivated", {"player": "Walk-in"}, director.pk),
    ]


def test_making_and_revoking_an_api_key_are_recorded_without_the_key(client, organizer):
    page = client.post(
        reverse("manage:token-list"), {"name": "club website"}, REMOTE_ADDR="198.51.100.7"
    )
    key = page.context["key"]
    token = organizer.player.user.api_tokens.get()
    client.post(reverse("manage:token-revoke", args=[token.pk]), REMOTE_ADDR="198.51.100.8")
    client.post(reverse("manage:token-revoke", args=[token.pk]))  # twice: recorded once

    records = list(ClubRecord.objects.filter(club=None, action__startswith="key").order_by("pk"))
    assert [(r.action, r.user, r.address) for r in records] == [
        ("key_made", organizer.player.user, "198.51.100.7"),
        ("key_revoked", organizer.player.user, "198.51.100.8"),
    ]
    assert records[0].details == {"key": "club website", "prefix": token.prefix}
    assert all(key not in str(r.details) for r in records)


def test_the_club_record_names_no_organizer_by_a_login(client, organizer, committed):
    """A signed-up login is its owner's e-mail address: the record names who did
    what by name, in the "Who" column and in the details alike."""
    owner = organizer
    owner.role = Membership.Role.OWNER
    owner.save(update_fields=["role"])
    greta = owner.player.user
    greta.username = greta.email = "greta@example.org"
    greta.save(update_fields=["username", "email"])
    member = MembershipFactory(club=owner.club, player__email="cora@example.org")
    services.organizer_invite(membership=member, username="cora@example.org", by=greta)
    _, key = committed(invitation_create, club=owner.club, by=greta, email="eve@example.org")
    eve = UserFactory(username="eve@example.org", email="eve@example.org")
    invitation_accept(key=key, user=eve)
    services.club_settings_change(club=owner.club, language="de", currency="CHF", by=greta)
    client.force_login(eve)

    page = client.get(club_url(owner.club)).text
    box = page[page.index('id="club-records"') :]

    assert "@" not in box
