"""Check-in at the door through the organizer's pages: tick boxes and "everyone"
in one POST, guests checked in as typed, a pasted name already there asked about,
the start button, the door's QR code, and the list that follows the door."""

import pytest
from django.urls import reverse

from tests.tournaments.manage.conftest import messages_of
from tournaments import registration
from tournaments.models import CheckIn, Tournament

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"manage:{name}", args=args)


@pytest.fixture
def registered(club, members):
    """A tournament in registration, the given members entered, none checked in."""

    def make(names=("Anna", "Ben", "Carl", "Dora"), **options):
        tournament = registration.tournament_create(club=club, name="Door Cup", **options)
        registration.entrant_register(tournament=tournament, players=members(*names))
        return tournament

    return make


def entrants(tournament):
    return {e.player.name: e for e in tournament.entrants.select_related("player")}


def test_the_ticked_entrants_are_checked_in_with_one_post(registered, post, organizer):
    tournament = registered()
    ticked = [entrants(tournament)[n].pk for n in ("Anna", "Carl")]

    page = post(url("entrants-check-in", tournament.slug), {"action": "in", "entrant": ticked})

    assert messages_of(page) == ["2 entrants checked in: Anna, Carl."]
    assert {n for n, e in entrants(tournament).items() if e.checked_in} == {"Anna", "Carl"}
    assert set(CheckIn.objects.values_list("user", flat=True)) == {organizer.player.user_id}
    assert "2 of 4 entrants checked in." in page.content.decode()


def test_everyone_not_yet_here_is_checked_in_and_a_ticked_one_checked_out(registered, post):
    tournament = registered()

    everyone = post(url("entrants-check-in", tournament.slug), {"action": "all"})
    ben = entrants(tournament)["Ben"].pk
    out = post(url("entrants-check-in", tournament.slug), {"action": "out", "entrant": [ben]})

    assert messages_of(everyone) == ["4 entrants checked in: Anna, Ben, Carl, Dora."]
    assert messages_of(out) == ["1 entrant checked out: Ben."]
    assert not entrants(tournament)["Ben"].checked_in
    assert "3 of 4 entrants checked in." in out.content.decode()


def test_nothing_ticked_or_another_tournaments_entrant_is_refused_with_a_message(registered, post):
    tournament, other = registered(), registered(("Eve",))
    eve = entrants(other)["Eve"].pk

    nothing = post(url("entrants-check-in", tournament.slug), {"action": "in"})
    junk = post(url("entrants-check-in", tournament.slug), {"entrant": ["9" * 40, "²", "x"]})
    foreign = post(url("entrants-check-in", tournament.slug), {"action": "in", "entrant": [eve]})

    assert messages_of(nothing) == messages_of(junk) == ["Tick the entrants first."]
    assert messages_of(foreign) == ["Only entrants of this tournament can be checked in."]
    assert not CheckIn.objects.exists()


def test_counts_are_plural_by_the_number_of_entrants_in_english_and_german(
    registered, post, client
):
    tournament = registered(("Anna", "Ben"))
    post(
        url("entrants-check-in", tournament.slug),
        {"action": "in", "entrant": [entrants(tournament)["Anna"].pk]},
    )

    english = client.get(url("tournament-detail", tournament.slug)).content.decode()
    german = client.get(
        url("tournament-detail", tournament.slug), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()

    assert "1 of 2 entrants checked in." in english
    assert "1 von 2 Teilnehmern anwesend." in german


def test_start_round_one_is_not_the_main_button_until_two_are_checked_in(registered, post, client):
    tournament = registered()
    desk = url("tournament-detail", tournament.slug)
    anna, ben = entrants(tournament)["Anna"].pk, entrants(tournament)["Ben"].pk

    nobody = client.get(desk).content.decode()
    post(url("entrants-check-in", tournament.slug), {"action": "in", "entrant": [anna]})
    one = client.get(desk).content.decode()
    post(url("entrants-check-in", tournament.slug), {"action": "in", "entrant": [ben]})
    two = client.get(desk).content.decode()

    why = "Round 1 needs at least two entrants checked in"
    for page in (nobody, one):
        assert 'class="primary" id="start"' not in page and why in page
    assert 'class="primary" id="start"' in two and why not in two


def test_guests_typed_on_the_day_are_checked_in_and_before_it_are_not(registered, post, client):
    today = registered()
    later = registered(("Eve",), date="2999-01-01")

    form_today = client.get(url("tournament-detail", today.slug)).context["guests_form"]
    form_later = client.get(url("tournament-detail", later.slug)).context["guests_form"]
    page = post(url("entrant-guests", today.slug), {"names": "Fritz\nGerda", "check_in": "on"})

    assert form_today["check_in"].value() is True and form_later["check_in"].value() is False
    assert messages_of(page) == ["Entered: Fritz, Gerda.", "The guests are checked in."]
    now = entrants(today)
    assert now["Fritz"].checked_in and now["Gerda"].checked_in


def test_a_pasted_name_already_entered_is_asked_about_then_skipped_or_entered(registered, post):
    tournament = registered(("Anna Berg", "Ben"))

    asked = post(url("entrant-guests", tournament.slug), {"names": "anna  berg\nCarl\ncarl"})
    page = asked.content.decode()
    skipped = post(
        url("entrant-guests", tournament.slug),
        {"names": "anna  berg\nCarl\ncarl", "duplicates": "skip"},
    )
    again = post(url("entrant-guests", tournament.slug), {"names": "Ben", "duplicates": "enter"})

    assert asked.status_code == 200
    assert "“anna  berg”: Anna Berg has already entered." in page
    assert "“carl” is pasted twice." in page
    assert messages_of(skipped) == ["Entered: Carl."]
    assert messages_of(again) == ["Entered: Ben."]
    names = sorted(e.player.name for e in tournament.entrants.select_related("player"))
    assert names == ["Anna Berg", "Ben", "Ben", "Carl"]


def test_the_door_page_opens_replaces_and_closes_the_self_check_in_link(registered, post):
    tournament = registered()

    shut = post(url("door", tournament.slug), follow=False)
    opened = post(url("door-link", tournament.slug))
    first = Tournament.objects.get().door_token
    renewed = post(url("door-link", tournament.slug))
    second = Tournament.objects.get().door_token
    closed = post(url("door-link", tournament.slug), {"close": "1"})

    assert shut.status_code == 405  # looking at the page changes nothing
    assert f"/door/{first}/" in opened.content.decode() and "<svg" in opened.content.decode()
    assert second != first and f"/door/{second}/" in renewed.content.decode()
    assert messages_of(renewed) == ["New link: the old QR code no longer works. Print this one."]
    assert Tournament.objects.get().door_token is None
    assert "Open self check-in" in closed.content.decode()


def test_one_entrant_checked_in_at_the_desk_is_on_the_record_with_the_organizer(
    registered, post, organizer
):
    tournament = registered()
    carl = entrants(tournament)["Carl"]

    post(url("entrant-check-in", tournament.slug, carl.pk), {"checked_in": "1"})
    post(url("entrant-check-in", tournament.slug, carl.pk), {"checked_in": "0"})

    records = CheckIn.objects.filter(entrant=carl).order_by("pk")
    assert [(r.checked_in, r.by, r.user_id) for r in records] == [
        (True, "organizer", organizer.player.user_id),
        (False, "organizer", organizer.player.user_id),
    ]


def test_the_polled_list_tells_the_desk_when_the_tournament_has_started(registered, post, client):
    tournament = registered()
    post(url("entrants-check-in", tournament.slug), {"action": "all"})
    before = client.get(url("entrant-rows", tournament.slug))
    post(url("round-start", tournament.slug))
    after = client.get(url("entrant-rows", tournament.slug))

    assert before["X-Tournament-Status"] == "registration"
    assert after["X-Tournament-Status"] == "running"


def test_the_entrants_list_shows_who_came_on_his_phone(registered, client):
    tournament = registration.door_link_issue(tournament=registered())
    ben = entrants(tournament)["Ben"]
    registration.entrant_check_in_self(tournament=tournament, entrant_id=ben.pk)

    rows = client.get(url("entrant-rows", tournament.slug)).content.decode()

    row = rows.split(f'id="entrant-{ben.pk}"')[1].split("</tr>")[0]
    assert 'data-by="self"' in row and "on their own phone" in row
    assert "1 of 4 entrants checked in." in rows and "1 of them on their own phone." in rows


ENTRANTS_PAGE = 14


def test_the_entrants_page_and_its_rows_take_the_same_queries_for_any_number(
    registered, client, django_assert_max_num_queries
):
    counts = []
    for size in (5, 40):
        tournament = registered([f"P{i:03d}" for i in range(size)])
        half = [e.pk for e in tournament.entrants.all()][: size // 2]
        registration.entrants_check_in(tournament=tournament, entrant_ids=half)
        for name in ("tournament-detail", "entrant-rows"):
            with django_assert_max_num_queries(ENTRANTS_PAGE) as queries:
                assert client.get(url(name, tournament.slug)).status_code == 200
            counts.append((name, len(queries)))
    assert counts[:2] == counts[2:]
