import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db

MODELS = ["rating", "ratingchange", "ratingledger", "season", "playerlink", "seasonrecord"]


@pytest.fixture
def superuser(client, season_club):
    # After the club is made: its organizer logs the client in too.
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(user)
    return user


@pytest.mark.parametrize("model", MODELS)
def test_the_admin_lists_every_seasons_model(client, superuser, season_club, model):
    page = client.get(reverse(f"admin:seasons_{model}_changelist"))
    assert page.status_code == 200


def test_the_admin_changes_nothing_the_seasons_keep_derived_or_append_only(
    client, superuser, season_club
):
    from seasons.models import Rating, SeasonRecord

    rating = Rating.objects.filter(club=season_club["club"]).first()
    record = SeasonRecord.objects.filter(club=season_club["club"]).first()
    assert client.get(reverse("admin:seasons_rating_add")).status_code == 403
    assert client.get(reverse("admin:seasons_seasonrecord_add")).status_code == 403
    page = client.post(
        reverse("admin:seasons_rating_change", args=[rating.pk]), {"mu": 99, "sigma": 1}
    )
    assert page.status_code == 403
    assert (
        client.post(
            reverse("admin:seasons_seasonrecord_delete", args=[record.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    rating.refresh_from_db()
    assert rating.mu != 99 and SeasonRecord.objects.filter(pk=record.pk).exists()


def test_a_personal_links_token_is_not_shown_in_the_admin(
    client, superuser, season_club, organizer
):
    from seasons.services import player_link_issue

    link = player_link_issue(
        club=season_club["club"], player=season_club["ben"], user=organizer.player.user
    )
    html = client.get(reverse("admin:seasons_playerlink_change", args=[link.pk])).content.decode()
    assert "Ben Hur" in html and link.token not in html
