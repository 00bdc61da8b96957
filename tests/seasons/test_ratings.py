"""The ratings: a finished party moves its players' ratings after the commit, and
a rebuild equals what was kept. Per game (issue 28): a party of Chinchón, Canasta,
Blaue Vierzehn or Cruzo is one openskill match of its sides ranked by their places
at the table, moving that game's ratings only; Gin Rummy's are rated as before."""

from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Party
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_cancel, party_start
from seasons.models import Rating, RatingChange
from seasons.player_pages import player_page
from seasons.services import ratings_rebuild, ratings_update
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.seasons.conftest import GOOD, POOR, gin, play_game_party, play_party

pytestmark = pytest.mark.django_db


def kept(club):
    ratings = {
        r.player_id: (round(r.mu, 9), round(r.sigma, 9), r.parties, r.won, r.last_played)
        for r in Rating.objects.filter(club=club)
    }
    fields = ("party_id", "player_id", "won", "plus_minus", "boxes", "shutout_made")
    history = sorted(
        (*(getattr(c, f) for f in fields), round(c.mu, 9), round(c.sigma, 9), repr(c.games))
        for c in RatingChange.objects.filter(club=club)
    )
    return ratings, history


@pytest.fixture
def club():
    return ClubFactory()


@pytest.fixture
def ada_ben_cleo(club):
    return [MembershipFactory(club=club, player__name=n).player for n in ("Ada", "Ben", "Cleo")]


def test_a_confirmed_party_moves_both_ratings_after_the_commit(club, ada_ben_cleo, after_commit):
    ada, ben, _ = ada_ben_cleo
    with after_commit():
        play_party(club, [ada, ben], winner=ada)
    ratings = {r.player_id: r for r in Rating.objects.filter(club=club)}
    assert ratings[ada.pk].mu > 25 > ratings[ben.pk].mu
    assert (ratings[ada.pk].parties, ratings[ada.pk].won) == (1, 1)
    assert (ratings[ben.pk].parties, ratings[ben.pk].won) == (1, 0)


def test_a_rebuild_equals_the_ratings_kept_through_corrections_and_cancels(
    club, ada_ben_cleo, after_commit
):
    ada, ben, cleo = ada_ben_cleo
    organizer = UserFactory()
    with after_commit():
        first = play_party(club, [ada, ben], winner=ada)
        play_party(club, [ben, cleo], winner=ben)
        third = play_party(club, [ada, cleo], winner=cleo)
        play_party(club, [ada, ben], winner=ben)
        # The first party's hand goes to Ben after all; the third never counted.
        hand = first.hands.get()
        ben_seat = first.seats.get(player=ben)
        hand_decide(
            hand=hand,
            user=organizer,
            entry=gin(ben_seat.position),
            reason="Wrong seat entered",
            disputed=False,
        )
        party_cancel(party=third, user=organizer, reason="Started by mistake")
    incremental = kept(club)

    ratings_rebuild(club_id=club.pk)

    assert kept(club) == incremental
    ratings = {r.player_id: r for r in Rating.objects.filter(club=club)}
    assert (ratings[ben.pk].parties, ratings[ben.pk].won) == (3, 3)
    assert (ratings[cleo.pk].parties, ratings[cleo.pk].won) == (1, 0)
    assert (ratings[ada.pk].parties, ratings[ada.pk].won) == (2, 0)


def test_a_corrected_hand_moves_the_ratings_again(club, ada_ben_cleo, after_commit):
    ada, ben, _ = ada_ben_cleo
    with after_commit():
        party = play_party(club, [ada, ben], winner=ada)
    before = Rating.objects.get(club=club, player=ada).mu
    ben_seat = party.seats.get(player=ben)
    with after_commit():
        hand_decide(
            hand=party.hands.get(),
            user=UserFactory(),
            entry=gin(ben_seat.position),
            reason="Ben had gin",
            disputed=False,
        )
    assert Rating.objects.get(club=club, player=ada).mu < 25 < before


def test_a_cancelled_party_never_counts(club, ada_ben_cleo, after_commit):
    ada, ben, _ = ada_ben_cleo
    with after_commit():
        party = play_party(club, [ada, ben], winner=ada)
        party_cancel(party=party, user=UserFactory(), reason="Wrong players")
    assert party.__class__.objects.get(pk=party.pk).status == Party.Status.CANCELLED
    assert not Rating.objects.filter(club=club).exists()
    assert not RatingChange.objects.filter(club=club).exists()


def test_an_update_twice_changes_nothing(club, ada_ben_cleo, after_commit):
    ada, ben, _ = ada_ben_cleo
    with after_commit():
        play_party(club, [ada, ben], winner=ada)
    once = kept(club)
    assert ratings_update(club_id=club.pk) == 0
    assert kept(club) == once


def test_the_rebuild_command_names_an_unknown_club():
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="No club"):
        call_command("rebuild_ratings", "--club", "nowhere")


@pytest.mark.parametrize(("format", "count"), [("rotation", 3), ("chouette", 3), ("partners", 4)])
def test_every_format_rates_each_player_as_the_settlement_pays(club, after_commit, format, count):
    from random import Random

    from scoring.selectors import state_for
    from scoring.services.hands import hand_confirm, hand_enter
    from scoring.services.parties import party_start
    from tests.seasons.conftest import gin

    players = [MembershipFactory(club=club).player for _ in range(count)]
    with after_commit():
        party = party_start(club=club, format=format, players=players, rng=Random(7))
        for _ in range(30):
            state, _ = state_for(party)
            if state.finished:
                break
            seats = {seat.position: seat for seat in state.seats}
            for table in state.tables:
                knocker = seats[table.forehand]
                defender = seats[table.dealer]
                hand_enter(seat=knocker, number=state.number, entry=gin(knocker.position))
                hand_confirm(seat=defender, number=state.number, version=1)
    state, _ = state_for(party)
    assert state.finished
    ratings = {r.player_id: r for r in Rating.objects.filter(club=club)}
    assert set(ratings) == {p.pk for p in players}
    result = {seat.player_id: state.outcome.plus_minus[seat.position] for seat in state.seats}
    # Who collected most rose, who paid most fell: every player was rated.
    assert ratings[max(result, key=result.get)].mu > 25 > ratings[min(result, key=result.get)].mu
    incremental = kept(club)
    ratings_rebuild(club_id=club.pk)
    assert kept(club) == incremental


def test_a_rebuild_writes_a_batch_of_parties_rating_changes_in_one_statement():
    """What made a rebuild of 100,000 parties take minutes: every change made into a
    model and its values prepared one by one, in statements of some eighty rows.
    Now one statement is run for every row of a batch (``executemany``)."""
    from random import Random

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from benchmarks.seasons import club_with_parties

    club, _ = club_with_parties(slug="many", players=12, nights=3, parties=300, rng=Random(5))
    with CaptureQueriesContext(connection) as queries:
        assert ratings_rebuild(club_id=club.pk) == 300
    table = RatingChange._meta.db_table
    inserts = [q for q in queries.captured_queries if f'INSERT INTO "{table}"' in q["sql"]]
    assert len(inserts) == 1
    changes = RatingChange.objects.filter(club=club)
    assert changes.count() == 600
    # Read back as written: the time, the player's result and what each paid.
    change = changes.select_related("party").order_by("finished_at", "party_id").first()
    assert change.finished_at == change.party.finished_at
    assert change.plus_minus != 0 and len(change.games) == 1
    assert change.games[0][1] == change.plus_minus
    ratings = {r.player_id: r for r in Rating.objects.filter(club=club)}
    assert sum(r.parties for r in ratings.values()) == 600
    assert sum(r.won for r in ratings.values()) == 300


def test_the_gin_rate_rests_on_the_hands_someone_ended_and_leaves_a_no_game_out(
    club, ada_ben_cleo, after_commit
):
    ada, ben, _ = ada_ben_cleo
    party = party_start(club=club, format="two", players=[ada, ben], rng=Random(3))
    mine, theirs = sorted(party.seats.all(), key=lambda s: s.player_id != ada.pk)
    with after_commit():
        hand_enter(seat=mine, number=1, entry=Result("no_game"))
        hand_confirm(seat=theirs, number=1, version=1)
        hand_enter(seat=mine, number=2, entry=gin(mine.position))
        hand_confirm(seat=theirs, number=2, version=1)
    stats = player_page(club=club, player=ada, public=False)["stats"]
    assert (stats.hands, stats.gin_rate.value, stats.gin_rate.of) == (1, 1.0, 1)


# ----------------------------------------------------------------- every game


def members(club, count):
    return [MembershipFactory(club=club).player for _ in range(count)]


def kept_by_game(club):
    ratings = sorted(
        (r.game, r.player_id, round(r.mu, 9), round(r.sigma, 9), r.parties, r.won, r.last_played)
        for r in Rating.objects.filter(club=club)
    )
    fields = ("game", "party_id", "player_id", "won", "plus_minus", "place", "games")
    history = sorted(
        (*(repr(getattr(c, f)) for f in fields), round(c.mu, 9), round(c.sigma, 9))
        for c in RatingChange.objects.filter(club=club)
    )
    return ratings, history


def test_a_chinchon_party_of_four_orders_the_new_ratings_by_place(after_commit):
    club = ClubFactory()
    players = members(club, 4)
    with after_commit():
        party = play_game_party(
            club, "chinchon", players, [{"closer": 0, "penalties": [0, 10, 20, 30]}] * 4
        )
    assert party.status == Party.Status.FINISHED
    ratings = {r.player_id: r for r in Rating.objects.filter(club=club)}
    mus = [ratings[p.pk].mu for p in players]
    assert mus == sorted(mus, reverse=True) and len(set(mus)) == 4
    assert {r.game for r in ratings.values()} == {"chinchon"}
    assert [ratings[p.pk].won for p in players] == [1, 0, 0, 0]
    changes = {c.player_id: c for c in RatingChange.objects.filter(party=party)}
    assert [changes[p.pk].place for p in players] == [1, 2, 3, 4]
    assert sum(changes[p.pk].plus_minus for p in players) == 0


def test_a_canasta_partnership_is_rated_as_one_team(after_commit):
    club = ClubFactory()
    ada, ben, cleo, dan = members(club, 4)
    with after_commit():
        play_game_party(club, "canasta", [ada, ben, cleo, dan], [{"sides": [GOOD, POOR]}] * 3)
    ratings = {r.player_id: r for r in Rating.objects.filter(club=club, game="canasta")}
    # Seats 1 and 3 play together across the table, as do 2 and 4.
    assert ratings[ada.pk].mu == ratings[cleo.pk].mu > 25 > ratings[ben.pk].mu == ratings[dan.pk].mu
    assert (ratings[ada.pk].won, ratings[ben.pk].won) == (1, 0)


def test_each_game_keeps_its_own_rating_and_gin_is_rated_as_before(after_commit):
    club = ClubFactory()
    ada, ben = members(club, 2)
    with after_commit():
        play_party(club, [ada, ben], winner=ada)
    gin_before = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(club=club)}
    with after_commit():
        play_game_party(
            club, "cruzo", [ada, ben], [{"went_out": [1], "cards_left": {0: 4}}], {"games": 1}
        )
    gin = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(club=club, game="gin_rummy")}
    cruzo = {r.player_id: r.mu for r in Rating.objects.filter(club=club, game="cruzo")}
    assert gin == gin_before
    assert cruzo[ben.pk] > 25 > cruzo[ada.pk]
    assert Rating.objects.filter(club=club, player=ada).count() == 2


def test_a_rebuild_of_every_game_equals_the_fold_after_each_commit(after_commit):
    club = ClubFactory()
    ada, ben, cleo, dan = members(club, 4)
    with after_commit():
        play_party(club, [ada, ben], winner=ben)
        play_game_party(club, "canasta", [ada, ben, cleo, dan], [{"sides": [POOR, GOOD]}] * 3)
        play_game_party(
            club, "blaue_vierzehn", [ada, ben, cleo], [{"points": [20, 20, 16]}], {"deals": 1}
        )
        play_game_party(club, "chinchon", [cleo, dan], [{"closer": 1, "penalties": [50, 0]}] * 2)
    folded = kept_by_game(club)
    assert ratings_rebuild(club_id=club.pk) == 4
    assert kept_by_game(club) == folded
    # Fewest points win Blaue Vierzehn; a tie is a shared place: Ada and Ben second.
    places = dict(
        RatingChange.objects.filter(club=club, game="blaue_vierzehn").values_list(
            "player_id", "place"
        )
    )
    assert places == {ada.pk: 2, ben.pk: 2, cleo.pk: 1}


def _entries(game, count, draw):
    """Entries that finish a party of ``game`` for ``count`` players."""
    if game == "chinchon":
        closers = draw(st.lists(st.integers(0, count - 1), min_size=8, max_size=8))
        return [
            {"closer": c, "penalties": [0 if n == c else 50 for n in range(count)]} for c in closers
        ], None
    if game == "canasta":
        first = draw(st.booleans())
        return [{"sides": [GOOD, POOR] if first else [POOR, GOOD]}] * 3, None
    if game == "blaue_vierzehn":
        deals = DEALS[count]
        return [{"points": draw(st.permutations(draw(st.sampled_from(deals))))}], {"deals": 1}
    out = draw(st.integers(0, count - 1))
    left = {n: draw(st.integers(1, 6)) for n in range(count) if n != out}
    return [{"went_out": [out], "cards_left": left}], {"games": 1}


SIZES = {"chinchon": (2, 3, 4), "canasta": (2, 4), "blaue_vierzehn": (3, 4), "cruzo": (2, 3, 4)}
#: Deals of Blaue Vierzehn that the cards can make (56 points in all).
DEALS = {3: [[20, 20, 16], [2, 41, 13]], 4: [[10, 20, 13, 13], [0, 5, 13, 38], [20, 20, 16, 0]]}


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_the_ratings_after_a_rebuild_equal_those_folded_party_by_party(data, after_commit):
    club = ClubFactory()
    people = members(club, 5)
    for _ in range(data.draw(st.integers(1, 4))):
        game = data.draw(st.sampled_from(["gin_rummy", *SIZES]))
        if game == "gin_rummy":
            pair = data.draw(st.permutations(people))[:2]
            with after_commit():
                play_party(club, pair, winner=pair[0])
            continue
        count = data.draw(st.sampled_from(SIZES[game]))
        table = data.draw(st.permutations(people))[:count]
        entries, options = _entries(game, count, data.draw)
        with after_commit():
            play_game_party(club, game, table, entries, options)
    folded = kept_by_game(club)
    ratings_rebuild(club_id=club.pk)
    assert kept_by_game(club) == folded


def test_a_cancelled_party_of_another_game_takes_its_ratings_back(after_commit):
    from scoring.services.parties import party_cancel
    from tests.factories import UserFactory

    club = ClubFactory()
    ada, ben = members(club, 2)
    with after_commit():
        play_party(club, [ada, ben], winner=ada)
        party = play_game_party(
            club, "cruzo", [ada, ben], [{"went_out": [1], "cards_left": {0: 4}}], {"games": 1}
        )
    assert Rating.objects.filter(club=club, game="cruzo").count() == 2
    gin = [row for row in kept_by_game(club)[0] if row[0] == "gin_rummy"]
    with after_commit():
        party_cancel(party=party, user=UserFactory(), reason="Wrong table")
    assert not Rating.objects.filter(club=club, game="cruzo").exists()
    assert not RatingChange.objects.filter(party=party).exists()
    assert kept_by_game(club)[0] == gin


def test_a_chinchon_wins_the_party_at_once_and_places_its_player_first(after_commit):
    club = ClubFactory()
    ada, ben = members(club, 2)
    with after_commit():
        party = play_game_party(
            club,
            "chinchon",
            [ada, ben],
            [
                {"closer": 1, "penalties": [30, 0]},
                {"closer": 0, "chinchon": True, "penalties": [0, 5]},
            ],
        )
    assert party.status == Party.Status.FINISHED
    # Ada's total (20) is above Ben's (−5), yet the Chinchón won the party.
    places = dict(RatingChange.objects.filter(party=party).values_list("player_id", "place"))
    assert places == {ada.pk: 1, ben.pk: 2}
    ratings = {r.player_id: r for r in Rating.objects.filter(club=club, game="chinchon")}
    assert ratings[ada.pk].mu > ratings[ben.pk].mu and ratings[ada.pk].won == 1
