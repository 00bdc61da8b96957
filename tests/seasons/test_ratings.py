from random import Random

import pytest

from scoring.models import Party
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_cancel, party_start
from seasons.models import Rating, RatingChange
from seasons.player_pages import player_page
from seasons.services import ratings_rebuild, ratings_update
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.seasons.conftest import gin, play_party

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
