"""Ratings per game (issue 28): a finished party of Chinchón, Canasta, Blaue
Vierzehn or Cruzo is one openskill match of its sides ranked by their places at the
table, moving that game's ratings only; Gin Rummy's are rated as before."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Party
from seasons.models import Rating, RatingChange
from seasons.services import ratings_rebuild
from tests.factories import ClubFactory, MembershipFactory
from tests.seasons.conftest import play_game_party, play_party

pytestmark = pytest.mark.django_db

GOOD = {"meld_points": 600, "natural_canastas": 2, "mixed_canastas": 1, "went_out": True}
POOR = {"meld_points": 300, "hand_points": 40}


def members(club, count):
    return [MembershipFactory(club=club).player for _ in range(count)]


def kept(club):
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
    folded = kept(club)
    assert ratings_rebuild(club_id=club.pk) == 4
    assert kept(club) == folded
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
    folded = kept(club)
    ratings_rebuild(club_id=club.pk)
    assert kept(club) == folded


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
    gin = [row for row in kept(club)[0] if row[0] == "gin_rummy"]
    with after_commit():
        party_cancel(party=party, user=UserFactory(), reason="Wrong table")
    assert not Rating.objects.filter(club=club, game="cruzo").exists()
    assert not RatingChange.objects.filter(party=party).exists()
    assert kept(club)[0] == gin


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
