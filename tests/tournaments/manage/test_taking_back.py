"""Asking first and taking back, through the organizer's pages: every action that
changes results is a question on a page of its own (GET) that names what it does,
answered by one button (POST); forfeits, withdrawals and kept-apart pairs are
taken back the same way, and refused with a message once that would harm someone."""

import pytest
from django.urls import reverse

from tests.tournaments.conftest import entrant, play_out
from tests.tournaments.manage.conftest import messages_of
from tournaments import registration, tables
from tournaments.models import Round, Tournament, TournamentRecord

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"manage:{name}", args=args)


def started(tournament, post, names=("Anna", "Ben", "Carl", "Dora"), **options):
    t = tournament(list(names), **options)
    post(url("round-start", t.slug))
    return t, t.round_set.get(number=1)


def confirm_page(response):
    """The question's title, its sentences and where its button posts."""
    assert response.status_code == 200
    assert response.templates[0].name == "tournaments/manage/action_confirm.html"
    context = response.context
    return context["title"], " ".join(map(str, context["lines"])), context["action"]


def test_a_forfeit_is_asked_first_then_recorded_with_who_did_it(
    tournament, post, client, organizer
):
    t, round = started(tournament, post)
    view = tables.round_tables(round)[0]
    absent, present = view.entrants[1], view.entrants[0]
    address = url("table-forfeit", t.slug, 1, view.table.number)

    title, text, action = confirm_page(client.get(address, {"absent": absent.pk}))

    assert title == f"Table {view.table.number}: {absent} did not come?"
    assert f"{absent} loses 100 points, {present} scores them" in text
    assert "take it back while round 1 is played" in text
    assert action == address
    view.table.refresh_from_db()
    assert view.table.absent is None and not TournamentRecord.objects.exists()

    page = post(address, {"absent": absent.pk})
    assert messages_of(page)[0].endswith("the forfeit is recorded.")
    record = TournamentRecord.objects.get()
    assert (record.action, record.user) == ("forfeit", organizer.player.user)
    assert record.address == "127.0.0.1"


def test_a_forfeit_is_taken_back_from_its_table_while_the_round_is_played(tournament, post, client):
    t, round = started(tournament, post)
    view = tables.round_tables(round)[0]
    number = view.table.number
    post(url("table-forfeit", t.slug, 1, number), {"absent": view.entrants[0].pk})
    page = client.get(url("round-detail", t.slug, 1))
    undo = url("table-forfeit-undo", t.slug, 1, number)
    assert f'href="{undo}"' in page.text
    # A forfeit is no reason to keep the round from being undone: no card is played.
    assert f'href="{url("round-undo", t.slug, 1)}"' in page.text

    title, text, _ = confirm_page(client.get(undo))
    assert title == f"Table {number}: take back the forfeit?"
    assert f"{view.entrants[0]} is recorded as a no-show" in text
    page = post(undo)

    assert messages_of(page) == [
        f"Table {number} plays again: the forfeit is taken back. Print its table cards."
    ]
    view.table.refresh_from_db()
    assert view.table.absent is None and view.table.party.status == "running"
    assert list(t.records.order_by("pk").values_list("action", flat=True)) == [
        "forfeit",
        "forfeit_undone",
    ]


def test_a_forfeit_of_a_closed_round_is_refused_with_a_message(tournament, post, client):
    t, round = started(tournament, post)
    views = tables.round_tables(round)
    post(
        url("table-forfeit", t.slug, 1, views[0].table.number), {"absent": views[0].entrants[0].pk}
    )
    play_out(views[1].table, views[1].entrants[0])
    post(url("round-close", t.slug, 1))
    undo = url("table-forfeit-undo", t.slug, 1, views[0].table.number)

    page = post(undo)

    assert messages_of(page) == ["Round 1 is closed: its forfeits stand."]
    views[0].table.refresh_from_db()
    assert views[0].table.absent is not None
    # Nothing to take back on a table that has no forfeit: the question says so.
    other = url("table-forfeit-undo", t.slug, 1, views[1].table.number)
    assert client.get(other).context["refused"].endswith("has no forfeit to take back.")


def test_a_withdrawal_is_asked_first_and_taken_back_from_the_desk(tournament, post, client):
    t, _ = started(tournament, post)
    carl = entrant(t, "Carl")
    withdraw = url("entrant-withdraw", t.slug, carl.pk)

    title, text, _ = confirm_page(client.get(withdraw))
    assert title == "Withdraw Carl?"
    assert "reinstate the player until the next round is paired" in text
    carl.refresh_from_db()
    assert carl.withdrawn_after is None

    desk = post(withdraw)
    reinstate = url("entrant-reinstate", t.slug, carl.pk)
    assert f'href="{reinstate}"' in desk.text
    assert confirm_page(client.get(reinstate))[0] == "Reinstate Carl?"
    desk = post(reinstate)

    assert messages_of(desk) == ["Carl is reinstated and paired again."]
    carl.refresh_from_db()
    assert carl.withdrawn_after is None
    assert [text for _, text in desk.context["records"]] == [
        "Carl is reinstated.",
        "Carl withdrew after round 1.",
    ]


def test_a_withdrawal_stands_once_a_round_was_paired_without_him(tournament, post, client):
    t, round = started(tournament, post, rounds=2)
    carl = entrant(t, "Carl")
    post(url("entrant-withdraw", t.slug, carl.pk))
    for view in tables.round_tables(round):
        play_out(view.table, view.entrants[0])
    post(url("round-close", t.slug, 1))
    post(url("round-pair", t.slug))

    question = client.get(url("entrant-reinstate", t.slug, carl.pk))
    desk = post(url("entrant-reinstate", t.slug, carl.pk))

    assert question.context["refused"] == (
        "Round 2 was paired without Carl, who can no longer be reinstated."
    )
    assert messages_of(desk) == [
        "Round 2 was paired without Carl, who can no longer be reinstated."
    ]
    carl.refresh_from_db()
    assert carl.withdrawn_after == 1


def test_a_pair_kept_apart_is_removed_after_asking(tournament, post, client):
    t = tournament()
    anna, ben = entrant(t, "Anna"), entrant(t, "Ben")
    desk = post(url("keep-apart", t.slug), {"first": anna.pk, "second": ben.pk})
    pair = t.apart.get()
    remove = url("keep-apart-remove", t.slug, pair.pk)
    assert f'href="{remove}"' in desk.text

    title, text, _ = confirm_page(client.get(remove))
    assert title == "No longer keep Anna and Ben apart?"
    assert "Rounds already paired stay as they are." in text
    assert t.apart.exists()
    desk = post(remove)

    assert messages_of(desk) == ["Anna and Ben are no longer kept apart."]
    assert not t.apart.exists()
    assert client.get(remove).status_code == 404


def test_undoing_a_round_asks_first_and_names_the_forfeits_it_drops(tournament, post, client):
    t, round = started(tournament, post)
    view = tables.round_tables(round)[0]
    absent = view.entrants[1]
    post(url("table-forfeit", t.slug, 1, view.table.number), {"absent": absent.pk})
    undo = url("round-undo", t.slug, 1)

    title, text, _ = confirm_page(client.get(undo))
    assert title == "Undo round 1?"
    assert f"The forfeits of {absent} go with it." in text
    round.refresh_from_db()
    assert round.status == Round.Status.PLAYING

    post(undo)
    round.refresh_from_db()
    assert round.status == Round.Status.PENDING
    assert t.records.last().details == {"round": 1, "forfeits_dropped": [str(absent)]}


def test_finishing_asks_first_and_says_how_places_are_given(tournament, post, client):
    t, round = started(tournament, post, rounds=1)
    for view in tables.round_tables(round):
        play_out(view.table, view.entrants[0])
    post(url("round-close", t.slug, 1))
    finish = url("tournament-finish", t.slug)

    title, text, _ = confirm_page(client.get(finish, {"final_draw": "on"}))
    assert title == "Finish the tournament?"
    assert "Tied players draw cards" in text
    assert client.get(finish).context["hidden"] == {}
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING

    post(finish, {"final_draw": "on"})
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.final_seed is not None
    assert t.records.get().action == "finished"


def test_ending_early_names_the_round_that_is_not_played(tournament, post, client):
    t, round = started(tournament, post, rounds=3)
    for view in tables.round_tables(round):
        play_out(view.table, view.entrants[0])
    post(url("round-close", t.slug, 1))

    title, text, _ = confirm_page(client.get(url("tournament-finish", t.slug)))

    assert title == "End the tournament now?"
    assert "Round 2 is not played; the standings after round 1 are final." in text


def test_a_swiss_with_more_rounds_than_its_entrants_can_pair_is_warned(club, post, tournament):
    created = post(
        url("tournament-create", club.slug),
        {
            "name": "Long Night",
            "date": "2025-04-05",
            "format": "swiss",
            "ruleset": "classic",
            "target": "100",
            "rounds": "7",
            "bye_value": "0",
            "forfeit_value": "100",
        },
    )
    assert messages_of(created)[1] == (
        "7 rounds of Swiss need at least 7 entrants: n entrants can meet at most n−1 "
        "opponents. The usual number is 3 rounds for 5–8 entrants, 4 for 9–16, 5 for 17–32."
    )

    t = tournament(["Anna", "Ben", "Carl", "Dora"], rounds=4)
    started_page = post(url("round-start", t.slug))
    warning = (
        "4 entrants can meet at most 3 opponents: only 3 of the 4 rounds can be paired "
        "without a rematch. After that you will be asked to end the tournament or pair "
        "with the fewest rematches. The usual number is 3 rounds for 5–8 entrants, 4 "
        "for 9–16, 5 for 17–32."
    )
    assert messages_of(started_page) == ["Round 1 is drawn by lot.", warning]


def test_the_desk_warns_while_registering_and_not_for_the_seeds_rounds(tournament, client):
    long = tournament(["Anna", "Ben", "Carl", "Dora"], rounds=4)
    usual = tournament(["Ed", "Fay", "Gus", "Hal"], rounds=3)

    warned = client.get(url("tournament-detail", long.slug))
    quiet = client.get(url("tournament-detail", usual.slug))

    assert "only 3 of the 4 rounds can be paired" in warned.context["rounds_warning"]
    assert 'id="rounds-warning"' in warned.text
    assert quiet.context["rounds_warning"] == ""


def test_the_desk_of_a_tournament_without_entrants_warns_of_nothing(tournament, client):
    empty = tournament([], rounds=4)
    two = tournament(["Anna", "Ben"], rounds=4)

    quiet = client.get(url("tournament-detail", empty.slug))
    warned = client.get(url("tournament-detail", two.slug))

    assert quiet.context["rounds_warning"] == ""
    assert 'id="rounds-warning"' not in quiet.text
    assert warned.context["rounds_warning"].startswith(
        "2 entrants can meet at most 1 opponent: only 1 of the 4 rounds can be paired"
    )


@pytest.mark.parametrize("actions", [1, 30])
def test_the_desk_takes_the_same_queries_however_long_its_record(
    tournament, client, actions, django_assert_max_num_queries
):
    t = tournament()
    anna, ben = entrant(t, "Anna"), entrant(t, "Ben")
    for _ in range(actions):
        pair = registration.keep_apart_add(tournament=t, first=anna, second=ben)
        registration.keep_apart_remove(pair=pair)

    with django_assert_max_num_queries(14):
        page = client.get(url("tournament-detail", t.slug))
    # The newest fifty: the desk stays one page long however busy the day was.
    assert len(page.context["records"]) == min(2 * actions, 50)


def test_a_question_that_would_be_refused_says_so_instead_of_offering_the_button(
    tournament, post, client
):
    t, round = started(tournament, post)
    view = tables.round_tables(round)[0]
    play_out(view.table, view.entrants[0])

    finish = client.get(url("tournament-finish", t.slug))
    undo = client.get(url("round-undo", t.slug, 1))
    reinstate = client.get(url("entrant-reinstate", t.slug, entrant(t, "Anna").pk))

    assert finish.context["refused"] == "Close the round being played first."
    assert undo.context["refused"] == "Hands are recorded: the round cannot be undone."
    assert reinstate.context["refused"] == "Anna has not withdrawn."
    for page in (finish, undo, reinstate):
        assert 'id="confirm-button"' not in page.text and 'id="confirm-refused"' in page.text
