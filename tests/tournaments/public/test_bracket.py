"""The final's public page and its wall-screen slide: the bracket once the final
has started, linked from the tournament's pages, and following the games by
itself (the same versions as the standings)."""

import pytest
from django.urls import reverse

from tests.tournaments.conftest import play_out
from tournaments import registration
from tournaments.final import setup
from tournaments.models import Match

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora", "Ed", "Fay", "Gus", "Hilde"]


@pytest.fixture
def cup(club, members):
    """A knockout cup of the given players, checked in; started unless asked not to."""

    def make(names=NAMES[:4], start=True):
        t = registration.tournament_create(club=club, name="Club Cup", format="knockout")
        registration.entrant_register(tournament=t, players=members(*names))
        registration.entrants_check_in(
            tournament=t, entrant_ids=[e.pk for e in t.entrants.all()], checked_in=True
        )
        if start:
            setup.final_stage_start(tournament=t)
        return t

    return make


def running_games(t):
    return [
        game
        for match in Match.objects.filter(stage__tournament=t).prefetch_related("games__party")
        for game in match.games.all()
        if game.party.status == "running"
    ]


def test_the_final_page_shows_the_bracket_with_seeds_and_no_organizers_links(cup, client):
    t = cup()

    page = client.get(reverse("public:final", args=[t.slug]))

    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('data-state="playing"') == 2
    assert html.count('data-state="waiting"') == 1
    assert "Semi-final" in html and "Final" in html
    for name in NAMES[:4]:
        assert name in html
    # The seat links are the organizer's: not one on the public page.
    assert "/table/" not in html and "did not come" not in html


def test_a_final_not_started_has_no_page_and_no_tab(cup, client):
    t = cup(start=False)

    assert client.get(reverse("public:final", args=[t.slug])).status_code == 404
    page = client.get(reverse("public:tournament-detail", args=[t.slug])).content.decode()
    assert reverse("public:final", args=[t.slug]) not in page


def test_the_tournaments_page_links_to_its_final_once_started(cup, client):
    t = cup()

    page = client.get(reverse("public:tournament-detail", args=[t.slug])).content.decode()

    assert f'href="{reverse("public:final", args=[t.slug])}"' in page
    assert "The final is being played: follow its bracket" in page


def test_the_bracket_follows_a_finished_game_by_itself(
    cup, client, django_capture_on_commit_callbacks
):
    t = cup()
    live = reverse("public:tournament-live", args=[t.slug, "final"])
    first = client.get(live)
    version = first["X-Board-Version"]
    assert client.get(live, {"v": version}).status_code == 204

    game = running_games(t)[0]
    with django_capture_on_commit_callbacks(execute=True):
        play_out(game, game.match.first)

    after = client.get(live, {"v": version})
    assert after.status_code == 200
    assert after["X-Board-Version"] != version
    html = after.content.decode()
    assert html.count('data-state="decided"') == 1
    assert f'data-entrant="{game.match.first_id}"' in html.split('class="match-side won"')[1][:40]


def test_the_wall_screen_has_a_bracket_slide_while_the_final_is_played(cup, client):
    t = cup(NAMES[:8])

    screen = client.get(reverse("public:tournament-screen", args=[t.slug])).content.decode()

    assert 'class="slide slide-final"' in screen
    assert screen.count('data-state="playing"') == 4


def test_the_wall_screen_of_a_tournament_without_a_final_has_no_bracket(started, client):
    tournament, _ = started(NAMES[:4])

    screen = client.get(reverse("public:tournament-screen", args=[tournament.slug]))

    assert "slide-final" not in screen.content.decode()


@pytest.mark.parametrize("size", [4, 8])
def test_the_final_page_takes_the_same_queries_for_any_bracket(
    cup, client, settings, django_assert_max_num_queries, size
):
    # No cache: every request builds the bracket, the worst case.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    t = cup(NAMES[:size])

    with django_assert_max_num_queries(10):
        assert client.get(reverse("public:final", args=[t.slug])).status_code == 200


def test_a_decided_final_shows_the_final_standings_by_how_far_they_came(
    cup, client, django_capture_on_commit_callbacks
):
    t = cup()
    assert "final-places" not in client.get(reverse("public:final", args=[t.slug])).text
    while games := running_games(t):
        for game in games:
            with django_capture_on_commit_callbacks(execute=True):
                play_out(game, game.match.second)

    page = client.get(reverse("public:final", args=[t.slug]))

    champion = Match.objects.get(stage__tournament=t, round=2).winner
    rows = page.text.split('id="final-places"')[1].split("<tbody>")[1].split("</tr>")
    assert f'data-entrant="{champion.pk}"' in rows[0] and "Winner" in rows[0]
    assert "Final" in rows[1] and "Semi-final" in rows[2] and "Semi-final" in rows[3]
    assert ">3=<" in rows[2] and ">3=<" in rows[3]


def test_a_knockout_cups_screen_shows_its_bracket_and_nothing_else_to_wait_for(cup, client):
    t = cup()

    screen = client.get(reverse("public:tournament-screen", args=[t.slug])).content.decode()

    assert "slide-final" in screen
    assert "Nothing to show yet." not in screen


def test_a_tournament_that_keeps_its_pairings_to_itself_keeps_its_bracket_too(cup, client):
    t = cup()
    t.public_pairings = False
    t.save(update_fields=["public_pairings"])

    assert client.get(reverse("public:final", args=[t.slug])).status_code == 404
    page = client.get(reverse("public:tournament-detail", args=[t.slug])).content.decode()
    assert reverse("public:final", args=[t.slug]) not in page
    screen = client.get(reverse("public:tournament-screen", args=[t.slug])).content.decode()
    assert "slide-final" not in screen
