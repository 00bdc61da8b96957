"""The organizer's day through the pages: every step a POST answered by a redirect,
with a message the organizer understands. A tournament of any game: created from
the form with its game, players per table and options; at tables of three to six
the round page lists every player of a table with the table's score, margin, place
and tournament points, and the standings count tournament points, game score and
parties won."""

import re

import pytest
from django.urls import reverse

from scoring.models import Hand
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.conftest import messages_after
from tests.factories import MembershipFactory
from tests.tournaments.conftest import entrant, play_out
from tests.tournaments.manage.conftest import messages_of
from tests.tournaments.test_table_tournaments import (
    blaue_vierzehn,
    play_chinchon,
    table_tournament,
    tables_of,
)
from tournaments import registration
from tournaments.models import Round, Tournament
from tournaments.rounds import round_close
from tournaments.standings import draws_shown
from tournaments.tables import round_tables

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"manage:{name}", args=args)


FORM = {
    "name": "Chinchón Cup",
    "date": "2026-11-28",
    "format": "swiss",
    "ruleset": "classic",
    "target": "100",
    "bye_value": "0",
    "forfeit_value": "100",
    "confirmation_required": "on",
    "public_standings": "on",
}


def create(client, club, **more):
    """The tournament form sent with ``more`` over a Swiss of Gin Rummy's fields."""
    return client.post(url("tournament-create", club.slug), FORM | more)


def test_the_clubs_organizer_page_leads_to_its_tournaments(client, club):
    page = client.get(url("club-detail", club.slug)).content.decode()

    assert url("tournament-create", club.slug) in page


def test_the_create_form_offers_the_card_game_players_per_table_and_each_games_options(
    client, club
):
    page = client.get(url("tournament-create", club.slug)).text

    for game in ("gin_rummy", "chinchon", "canasta", "blaue_vierzehn", "cruzo"):
        assert f'name="game" value="{game}"' in page
    assert 'name="table_size"' in page
    # The club night's option fields, one group per game.
    for field in ("chinchon_deck", "chinchon_conga", "canasta_partnerships", "cruzo_games"):
        assert f'name="{field}"' in page
    assert "La Conga: out at 100" in page


@pytest.mark.parametrize(
    ("fields", "game", "table_size", "options", "shown"),
    [
        # Gin Rummy when the form leaves the game alone, two at a table; a number left
        # in another game's options is no reason to refuse it.
        ({"cruzo_games": "0"}, "gin_rummy", None, {}, None),
        (
            {"game": "chinchon", "table_size": "4", "chinchon_deck": "48"},
            "chinchon",
            4,
            {"deck": 48, "conga": False},
            "Chinchón at tables of 4",
        ),
    ],
)
def test_an_organizer_creates_a_tournament_and_the_rounds_wait_for_the_entrants(
    club, post, fields, game, table_size, options, shown
):
    response = post(
        url("tournament-create", club.slug),
        FORM | {"name": "Spring Open", "rounds": "", "round_minutes": "45"} | fields,
    )

    tournament = Tournament.objects.get(club=club)
    assert response.request["PATH_INFO"] == url("tournament-detail", tournament.slug)
    assert messages_of(response) == ["Tournament “Spring Open” created: register the entrants."]
    assert tournament.rounds is None and tournament.round_minutes == 45
    assert (tournament.public_standings, tournament.public_pairings) == (True, False)
    assert (tournament.game, tournament.table_size, tournament.game_options) == (
        game,
        table_size,
        options,
    )
    game_line = re.search(r'id="tournament-game">([^<]*)<', response.text)
    assert (game_line and game_line[1]) == shown


def test_the_tournament_form_sent_twice_creates_one_tournament_and_shows_it(
    client, club, sent_twice
):
    first, second = sent_twice(
        url("tournament-create", club.slug),
        {"name": "Spring Open", "date": "2025-04-05", "format": "swiss", "ruleset": "classic"}
        | {"target": "100", "bye_value": "0", "forfeit_value": "100"},
    )

    tournament = Tournament.objects.get(club=club)
    assert first["Location"] == second["Location"] == url("tournament-detail", tournament.slug)
    assert "This form was already sent: here is what it made." in messages_after(client, second)


@pytest.mark.parametrize(
    ("fields", "wrong"),
    [
        ({"name": "", "format": "chess", "target": "x"}, {"name", "format", "target"}),
        # A value no form offers.
        ({"game": "poker", "table_size": "4"}, {"game"}),
        ({"game": "chinchon", "table_size": "9"}, {"table_size"}),
        ({"game": "chinchon", "table_size": "4", "chinchon_deck": "52"}, {"chinchon_deck"}),
    ],
)
def test_a_bad_tournament_form_is_shown_again_with_what_is_wrong(client, club, fields, wrong):
    response = create(client, club, **fields)

    assert response.status_code == 400
    assert set(response.context["form"].errors) >= wrong
    assert not Tournament.objects.exists()


def test_members_and_pasted_guests_register_and_check_in_at_the_door(club, members, post):
    anna, ben = members("Anna", "Ben")
    post(
        url("tournament-create", club.slug),
        {
            "name": "Cup",
            "format": "swiss",
            "ruleset": "classic",
            "target": 100,
            "bye_value": 0,
            "forfeit_value": 100,
            "date": "2025-04-05",
        },
    )
    tournament = Tournament.objects.get()

    registered = post(url("entrant-register", tournament.slug), {"players": [anna.pk, ben.pk]})
    guests = post(url("entrant-guests", tournament.slug), {"names": "Carl\n\n  Dora  \n"})
    dora = entrant(tournament, "Dora")
    checked = post(url("entrant-check-in", tournament.slug, dora.pk), {"checked_in": "1"})

    assert messages_of(registered) == ["Entered: Anna, Ben."]
    assert messages_of(guests) == ["Entered: Carl, Dora."]
    assert messages_of(checked) == ["Dora is checked in."]
    assert sorted(e.player.name for e in tournament.entrants.filter(checked_in=True)) == ["Dora"]
    page = checked.content.decode()
    assert f'data-entrant="{dora.pk}" data-checked-in="1"' in page
    # The members already entered are no longer offered.
    assert f'value="{anna.pk}"' not in page.split('id="members-form"')[1].split("</form>")[0]


def test_a_swiss_day_from_the_first_lots_to_the_final_standings(tournament, members, post, client):
    t = tournament()
    anna, ben = entrant(t, "Anna"), entrant(t, "Ben")
    post(url("keep-apart", t.slug), {"first": anna.pk, "second": ben.pk})

    # Round 1: by lot; the table cards carry a QR code per seat.
    page = post(url("round-start", t.slug))
    first = t.round_set.get(number=1)
    assert first.status == Round.Status.PLAYING
    assert page.request["PATH_INFO"] == url("round-detail", t.slug, 1)
    assert page.content.decode().count('class="board card') == 3
    assert "drawn by lot" in page.content.decode()
    cards = client.get(url("round-cards", t.slug, 1)).content.decode()
    assert cards.count("<svg") == 4 and cards.count("deals first") == 4

    # A no-show at one table, the other is played out on the phones.
    games = [v for v in round_tables(first) if not v.table.bye]
    no_show, played = games
    absent = no_show.entrants[1]
    page = post(url("table-forfeit", t.slug, 1, no_show.table.number), {"absent": absent.pk})
    assert messages_of(page) == [
        f"Table {no_show.table.number}: {absent} did not come; the forfeit is recorded."
    ]
    play_out(played.table, played.entrants[0])
    fragment = client.get(url("round-tables", t.slug, 1))
    assert fragment["X-Round-Status"] == "playing"
    assert 'data-state="finished"' in fragment.content.decode()
    assert "Every table is finished" in fragment.content.decode()

    # Closing leads to the standings, where the next round is paired.
    standings = post(url("round-close", t.slug, 1))
    assert standings.request["PATH_INFO"] == url("standings", t.slug)
    assert messages_of(standings) == ["Round 1 is closed."]
    lines = standings.context["standings"].lines
    assert [line.points for line in lines] == sorted((line.points for line in lines), reverse=True)
    page = post(url("round-pair", t.slug))
    second = t.round_set.get(number=2)
    assert second.status == Round.Status.PLAYING
    explanation = page.context["explanation"]
    assert len(explanation) == 3 and all(" plays " in e or "has the bye" in e for e in explanation)

    # A withdrawal during round 2: still at his table, not paired again.
    leaver = round_tables(second)[0].entrants[0]
    page = post(url("entrant-withdraw", t.slug, leaver.pk))
    assert messages_of(page) == [
        f"{leaver} has withdrawn: not paired again, the results so far stay."
    ]
    for view in round_tables(second):
        if not view.table.bye:
            play_out(view.table, view.entrants[1])
    post(url("round-close", t.slug, 2))
    post(url("round-pair", t.slug))
    third = t.round_set.get(number=3)
    assert leaver.pk not in {e.pk for v in round_tables(third) for e in v.entrants}
    for view in round_tables(third):
        if not view.table.bye:
            play_out(view.table, view.entrants[0])
    post(url("round-close", t.slug, 3))

    # The finish, with a final card draw: one place each.
    final = post(url("tournament-finish", t.slug), {"final_draw": "on"})
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert messages_of(final) == ["The tournament is finished: these are the final standings."]
    html = final.content.decode()
    assert "<h1>Final standings</h1>" in html
    places = [line.place for line in final.context["standings"].lines]
    assert places == list(range(1, 6))
    entrants = {e.pk: e for e in t.entrants.select_related("player")}
    if t.final_draws:
        assert draws_shown(t.final_draws, entrants) in html


def test_a_final_card_draw_gives_tied_players_one_place_each(tournament, post):
    t = tournament(["Anna", "Ben", "Carl", "Dora"], rounds=1)
    post(url("round-start", t.slug))
    for view in round_tables(t.round_set.get()):
        play_out(view.table, view.entrants[0])
    shared = post(url("round-close", t.slug, 1)).context["standings"].lines
    assert [line.place for line in shared] == [1, 1, 3, 3]

    final = post(url("tournament-finish", t.slug), {"final_draw": "on"})

    lines = final.context["standings"].lines
    assert [line.place for line in lines] == [1, 2, 3, 4]
    html = final.content.decode()
    assert "Final card draw:" in html
    # Two ties of two, each with its own line: "Tied on +330 · Knock's card draw: …".
    shown = re.findall(r"Tied on [+-]\d+ · Knock's card draw: <strong>([^<]+)</strong>", html)
    assert [group.count(",") for group in shown] == [1, 1]
    for line in lines:
        assert f"{line.entrant} {line.draw}" in " ".join(shown)


def test_a_tie_is_ordered_by_the_cards_drawn_at_the_venue(tournament, post):
    t = tournament(["Anna", "Ben", "Carl", "Dora"])
    post(url("round-start", t.slug))
    for view in round_tables(t.round_set.get()):
        play_out(view.table, view.entrants[0])
    standings = post(url("round-close", t.slug, 1))
    winners, _ = standings.context["cards_form"].groups
    low, high = (line.entrant for line in winners)

    page = post(url("standings-draw", t.slug), {f"card-{low.pk}": "3c", f"card-{high.pk}": "K♥"})

    assert messages_of(page) == ["The cards drawn at the venue order the tied players."]
    top = page.context["standings"].lines[:2]
    assert [(line.entrant, line.place, line.draw) for line in top] == [
        (high, 1, "K♥"),
        (low, 2, "3♣"),
    ]
    assert f"Tied on +330 · drawn at the venue: <strong>{high} K♥, {low} 3♣</strong>" in (
        page.content.decode()
    )


def test_the_page_says_who_drew_what_where_tie_by_tie(tournament, post):
    t = tournament(["Anna", "Ben", "Carl", "Dora"])
    post(url("round-start", t.slug))
    for view in round_tables(t.round_set.get()):
        play_out(view.table, view.entrants[0])
    standings = post(url("round-close", t.slug, 1))
    before = standings.content.decode()
    knocks = re.search(r"Tied on -330 · Knock's card draw: <strong>[^<]+</strong>", before)
    assert knocks and "Tied on +330 · Knock's card draw" in before
    winners, _ = standings.context["cards_form"].groups
    low, high = (line.entrant for line in winners)

    page = post(url("standings-draw", t.slug), {f"card-{low.pk}": "3c", f"card-{high.pk}": "KH"})

    html = page.content.decode()
    assert f"Tied on +330 · drawn at the venue: <strong>{high} K♥, {low} 3♣</strong>" in html
    # The other tie keeps Knock's cards and order, and says so.
    assert knocks.group(0) in html
    losers = page.context["standings"].lines[2:]
    assert [line.place for line in losers] == [3, 4]
    # The form shows what was entered: entering the other tie keeps it.
    assert page.context["cards_form"][f"card-{high.pk}"].value() == "KH"


def test_a_card_that_is_not_a_card_is_refused_with_a_message(tournament, post):
    t = tournament(["Anna", "Ben", "Carl", "Dora"])
    post(url("round-start", t.slug))
    for view in round_tables(t.round_set.get()):
        play_out(view.table, view.entrants[0])
    standings = post(url("round-close", t.slug, 1))
    line = standings.context["cards_form"].groups[0][0]
    before = t.round_set.get(number=2).draws

    page = post(url("standings-draw", t.slug), {f"card-{line.entrant.pk}": "Z9"})

    assert messages_of(page) == ["“Z9” is not a card: write rank and suit, e.g. KH or 10♣."]
    assert t.round_set.get(number=2).draws == before


def test_a_swap_that_makes_a_rematch_is_made_with_a_warning(tournament, post):
    t = tournament(["Anna", "Ben", "Carl", "Dora"])
    post(url("round-start", t.slug))
    first = t.round_set.get()
    met = [tuple(v.entrants) for v in round_tables(first)]
    for view in round_tables(first):
        play_out(view.table, view.entrants[0])
    post(url("round-close", t.slug, 1))
    post(url("round-pair", t.slug))
    second = t.round_set.get(number=2)
    tables = sorted(round_tables(second), key=lambda v: v.table.number)
    # Put the first round's pair together again.
    a, b = met[0]
    mover = b if a in tables[0].entrants or a in tables[1].entrants else a
    stay = a if mover is b else b
    other_table = next(v for v in tables if stay in v.entrants)
    swap_with = next(e for e in other_table.entrants if e != stay)

    page = post(url("tables-swap", t.slug, 2), {"first": mover.pk, "second": swap_with.pk})

    texts = messages_of(page)
    assert texts[0] == f"{mover} and {swap_with} have changed tables: print their new table cards."
    assert any("have met before: this is a rematch." in text for text in texts[1:])
    together = [set(v.entrants) for v in round_tables(second)]
    assert {stay, mover} in together


def test_a_round_without_hands_is_undone_and_paired_again_from_its_seed(tournament, post):
    t = tournament()
    post(url("round-start", t.slug))
    before = round_tables(t.round_set.get())
    lots = [[e.pk for e in v.entrants] for v in before]

    undone = post(url("round-undo", t.slug, 1))
    assert messages_of(undone) == [
        "Round 1 is undone: its tables are gone; pair it again when ready."
    ]
    assert 'id="pair"' in undone.content.decode()
    post(url("round-pair", t.slug))

    again = round_tables(t.round_set.get())
    assert [[e.pk for e in v.entrants] for v in again] == lots


def test_a_round_with_a_hand_entered_cannot_be_undone(tournament, post):
    t = tournament(["Anna", "Ben"])
    post(url("round-start", t.slug))
    table = round_tables(t.round_set.get())[0].table
    seat = table.party.seats.first()
    hand_enter(
        seat=seat,
        number=1,
        entry=Result("gin", knocker=seat.position, knocker_deadwood=0, defender_deadwood=10),
    )

    page = post(url("round-undo", t.slug, 1))

    assert messages_of(page) == ["Hands are recorded: the round cannot be undone."]
    assert t.round_set.get().status == Round.Status.PLAYING


def test_a_disputed_table_comes_first_with_one_click_to_the_partys_decision(
    tournament, post, client
):
    t = tournament(["Anna", "Ben", "Carl", "Dora"])
    post(url("round-start", t.slug))
    last = max(round_tables(t.round_set.get()), key=lambda v: v.table.number)
    a, b = last.table.party.seats.order_by("position")
    hand_enter(
        seat=a,
        number=1,
        entry=Result("gin", knocker=a.position, knocker_deadwood=0, defender_deadwood=30),
    )
    hand_enter(
        seat=b,
        number=1,
        entry=Result("gin", knocker=a.position, knocker_deadwood=0, defender_deadwood=40),
    )
    assert last.table.party.hands.get().status == Hand.Status.DISPUTED

    html = client.get(url("round-tables", t.slug, 1)).content.decode()

    boards = re.findall(r'data-table="(\d+)"', html)
    assert boards[0] == str(last.table.number)
    assert f'href="{url("party-detail", last.table.party_id)}#hands" data-dispute' in html


def test_a_pending_hand_shows_as_waiting_and_the_running_score_per_player(tournament, post, client):
    t = tournament(["Anna", "Ben"])
    post(url("round-start", t.slug))
    view = round_tables(t.round_set.get())[0]
    a, b = view.table.party.seats.order_by("position")
    entered = hand_enter(
        seat=a,
        number=1,
        entry=Result("gin", knocker=a.position, knocker_deadwood=0, defender_deadwood=10),
    ).hand
    hand_confirm(seat=b, number=1, version=entered.version)
    hand_enter(
        seat=b,
        number=2,
        entry=Result("gin", knocker=b.position, knocker_deadwood=0, defender_deadwood=5),
    )

    html = client.get(url("round-tables", t.slug, 1)).content.decode()

    assert 'data-state="pending"' in html and "waiting for confirmation" in html
    assert "1 hand ·" in html
    gin = view.table.party.hands.get(number=1).points
    row = re.search(rf"{a.player.name}</span>\s*<span class=\"board-points\">(\d+)<", html)
    assert row and int(row.group(1)) == gin


def test_the_clock_shows_the_minutes_left_when_a_round_has_a_time_limit(tournament, post, client):
    t = tournament(["Anna", "Ben"], round_minutes=30)
    post(url("round-start", t.slug))

    html = client.get(url("round-tables", t.slug, 1)).content.decode()

    assert re.search(r'data-minutes-left="(29|30)"', html)
    assert "minutes left, until" in html


def test_no_pairing_without_a_rematch_offers_both_ways_out(tournament, post):
    t = tournament(["Anna", "Ben", "Carl"], rounds=4)
    post(url("round-start", t.slug))
    for number in (1, 2, 3):
        for view in round_tables(t.round_set.get(number=number)):
            if not view.table.bye:
                play_out(view.table, view.entrants[0])
        post(url("round-close", t.slug, number))
        page = post(url("round-pair", t.slug))
    fourth = t.round_set.get(number=4)

    assert fourth.status == Round.Status.STUCK
    html = page.content.decode()
    assert "No pairing without a rematch" in html
    assert 'id="pair-fewest"' in html and 'id="end"' in html
    page = post(url("round-pair", t.slug), {"fewest": "1"})
    fourth.refresh_from_db()
    assert fourth.status == Round.Status.PLAYING and fourth.how == Round.How.FEWEST_REMATCHES
    assert "a rematch" in " ".join(page.context["explanation"])


def test_a_late_entrant_starts_at_zero_from_the_next_round(tournament, members, post):
    t = tournament(["Anna", "Ben", "Carl", "Dora"])
    fay = members("Fay")[0]
    post(url("round-start", t.slug))

    page = post(url("entrant-register", t.slug), {"players": [fay.pk]})

    assert messages_of(page) == [
        "Late entrants, starting at 0 and paired from the next round: Fay."
    ]
    late = entrant(t, "Fay")
    assert (late.checked_in, late.joined_round) == (True, 2)


def test_a_five_player_round_robin_runs_from_the_pages_to_its_end(tournament, post):
    t = tournament(format="round_robin")
    post(url("round-start", t.slug))
    t.refresh_from_db()
    assert t.rounds == 5

    met = []
    for number in range(1, 6):
        round = t.round_set.get(number=number)
        for view in round_tables(round):
            if view.table.bye:
                continue
            met.append(frozenset(e.pk for e in view.entrants))
            play_out(view.table, view.entrants[0])
        page = post(url("round-close", t.slug, number))
        if number < 5:
            page = post(url("round-pair", t.slug))
            assert all("round-robin schedule" in line for line in page.context["explanation"])

    # Everyone met everyone once, and each sat out once.
    assert len(met) == len(set(met)) == 10
    assert [line.byes for line in page.context["standings"].lines] == [1] * 5
    assert "Finish with these standings" in page.content.decode()


# --- Tournaments at tables of another game ------------------------------------------


@pytest.mark.parametrize(
    "fields,message",
    [
        (
            {"game": "chinchon", "table_size": "5"},
            "Chinchón is played at tables of 3, 4 players in a tournament",
        ),
        ({"game": "chinchon"}, "Chinchón is played at tables of 3, 4 players"),
        (
            {"game": "chinchon", "table_size": "4", "format": "knockout"},
            "A tournament of Chinchón is played in the Swiss system",
        ),
        (
            {"game": "blaue_vierzehn", "table_size": "4", "format": "knockout"},
            "A tournament of Blaue Vierzehn is played in the Swiss system, as a round robin",
        ),
        ({"table_size": "4"}, "Gin Rummy is played two at a table"),
        (
            {"game": "canasta", "table_size": "4", "canasta_partnerships": "3"},
            "Canasta at a table of 4: 4 players play as two partnerships.",
        ),
        # Where twelve do not divide into sixes a table of five is seated, and five
        # cannot play three partnerships.
        (
            {"game": "canasta", "table_size": "6", "canasta_partnerships": "3"},
            "Canasta at a table of 5: 5 players play as two partnerships.",
        ),
    ],
)
def test_a_game_that_does_not_go_together_is_shown_again_with_why(client, club, fields, message):
    response = create(client, club, **fields)

    assert response.status_code == 400
    assert message in " ".join(response.context["form"].non_field_errors())
    assert not Tournament.objects.exists()


def test_the_round_page_lists_every_player_at_a_table_with_place_and_points(
    client, club, committed
):
    tournament, round = table_tournament(club, 12, committed)
    done, playing, _ = tables_of(round)
    play_chinchon(done.table.party, [0, 20, 40, 100])
    page = client.get(reverse("manage:round-detail", args=[tournament.slug, 1])).text

    board = page[page.index('id="table-1"') : page.index('id="table-2"')]
    for seated in done.entrants:
        assert seated.player.name in board
    places = re.findall(r"data-place>([^<]*)<", board)
    earned = re.findall(r"data-earned>([^<]*)<", board)
    assert places == ["1.", "2.", "3.", "4."] and earned == ["6", "4", "2", "0"]
    assert "+190" in board and "-250" in board
    # A table in play: all four, no places yet, its hands counted.
    second = page[page.index('id="table-2"') : page.index('id="table-3"')]
    assert all(e.player.name in second for e in playing.entrants)
    assert re.findall(r"data-earned>([^<]*)<", second) == ["", "", "", ""]
    assert "0 hands" in second
    # Forfeits and swaps are not made at tables of another game.
    assert "No-show?" not in page
    assert 'id="swap-form"' not in page and "Swap" not in page


def test_a_table_card_at_a_table_of_four_names_the_other_three_in_one_line(client, club, committed):
    tournament, round = table_tournament(club, 8, committed)
    first = tables_of(round)[0]
    page = client.get(reverse("manage:round-cards", args=[tournament.slug, 1])).text

    me, *others = first.table.party.seats.order_by("position")
    card = page[page.index(f'id="card-{me.pk}"') :]
    card = card[: card.index("</section>")]
    assert me.player.name in card
    a, b, c = (seat.player.name for seat in others)
    assert f"with {a}, {b} and {c}" in card
    assert "against" not in card
    # No card is drawn at tables of another game: the seats in order, no stray commas.
    assert " ," not in card


def test_the_standings_count_tournament_points_game_score_and_parties_won(client, club, committed):
    tournament, round = table_tournament(club, 8, committed)
    for view in tables_of(round):
        play_chinchon(view.table.party, [0, 20, 40, 100])
    round_close(round=round)
    page = client.get(reverse("manage:standings", args=[tournament.slug])).text

    head = page[page.index("<thead") : page.index("</thead>")]
    assert "Tournament points" in head and "Game score" in head and "Parties won" in head
    assert "Plus/minus" not in head and "Card" not in head
    assert "by tournament points from the places at the tables of Chinchón" in page
    # The two who closed clean share the first place: 6 points, +190.
    rows = re.findall(r"<tr[^>]*data-entrant[^>]*>(.*?)</tr>", page, re.S)
    first = re.sub(r"<[^>]+>", " ", rows[0]).split()
    assert first[0] == "1=" and "6" in first and "+190" in first
    # No final card draw at tables: ties are broken by game score and parties won.
    assert 'name="final_draw"' not in page


def test_the_standings_of_a_blaue_vierzehn_swiss_offer_no_card_draw_for_its_ties(
    client, club, committed
):
    tournament, round = table_tournament(
        club, 8, committed, game="blaue_vierzehn", game_options={"deals": 1}
    )
    # Both tables of four end alike: each place is tied on points, game score and
    # parties won with the same place at the other table.
    for view in tables_of(round):
        blaue_vierzehn(view.table.party, [0, 10, 13, 33])
    round_close(round=round)

    page = client.get(reverse("manage:standings", args=[tournament.slug])).text

    rows = re.findall(r"<tr[^>]*data-entrant[^>]*>(.*?)</tr>", page, re.S)
    assert re.sub(r"<[^>]+>", " ", rows[0]).split()[0] == "1="
    # The game score has ordered what it can; the rest share their place.
    assert 'id="draws-form"' not in page and "Cards drawn at the venue" not in page
    assert "card draw" not in page
    assert 'name="final_draw"' not in page


def test_the_desk_of_a_tournament_at_tables_offers_no_final(client, club, committed):
    tournament, _ = table_tournament(club, 8, committed)

    desk = client.get(reverse("manage:tournament-detail", args=[tournament.slug])).text

    assert "Chinchón at tables of 4" in desk
    assert 'id="final-form"' not in desk


def test_the_create_form_speaks_german(client, club):
    page = client.get(
        reverse("manage:tournament-create", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="de"
    ).text

    assert "Kartenspiel" in page and "Spieler pro Tisch" in page
    assert "Turnierpunkte nach dem Platz am Tisch" in page


def test_a_round_robin_of_another_game_is_created_and_offers_a_field_a_planned_schedule(
    client, club
):
    response = create(client, club, game="chinchon", table_size="4", format="round_robin")

    tournament = Tournament.objects.get(club=club)
    assert response.status_code == 302
    assert (tournament.format, tournament.game) == ("round_robin", "chinchon")
    players = [MembershipFactory(club=club).player for _ in range(10)]
    registration.entrant_register(tournament=tournament, players=players)
    for each in tournament.entrants.all():
        registration.entrant_check_in(entrant=each)
    desk = client.get(response["Location"]).text
    assert "No schedule seats every two of 10 entrants at one table exactly once" in desk
    assert "plays 3 rounds planned ahead" in desk

    client.post(reverse("manage:round-start", args=[tournament.slug]), follow=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.rounds == 3


def test_the_round_page_of_a_round_robin_says_each_table_is_the_schedules(client, club, committed):
    tournament, _ = table_tournament(club, 9, committed, size=3, format="round_robin")

    page = client.get(reverse("manage:round-detail", args=[tournament.slug, 1])).text
    public = client.get(reverse("public:round-detail", args=[tournament.slug, 1])).text

    assert page.count("the round-robin schedule&#x27;s table") == 3
    assert 'id="table-3"' in page and "round-robin schedule" in page
    # The public round shows the tables as it does for the Swiss at tables.
    assert re.findall(r'class="sheet at-table[^"]*" data-table="(\d)"', public) == ["1", "2", "3"]
