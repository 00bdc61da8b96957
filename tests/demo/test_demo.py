import importlib
import re
import shlex
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from clubs.models import Club, ClubNight, Membership, Player
from scoring.models import Hand
from scoring.services.whole_table_sheet import game_sheet
from tournaments.models import Tournament
from tournaments.tables import round_tables

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def development(settings):
    settings.DEBUG = True


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo, loaded once for the tests of this module that read it (about two
    seconds a load), as `make demo` loads it: committed. Each test runs in its own
    transaction on top, rolled back after it, so none sees another's changes; a
    test that loads the demo again makes the second load. At the end the database
    is emptied, as after a transactional test. What the load sends after its
    commit (the final, the ratings, the boards) runs in this process, as the
    tests' own tasks do (tests/conftest.py, tasks_in_process)."""
    from config.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with django_db_blocker.unblock(), override_settings(DEBUG=True):
            call_command("load_demo")
    finally:
        app.conf.task_always_eager = eager
    yield
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


def test_demo_is_refused_in_production(settings):
    settings.DEBUG = False
    clubs = Club.objects.count()
    with pytest.raises(CommandError, match="only with DEBUG on"):
        call_command("load_demo")
    assert Club.objects.count() == clubs


def test_demo_has_the_knickerbocker_club_with_twelve_members_and_an_organizer(demo):
    club = Club.objects.get(slug="knickerbocker")
    assert (club.name, club.city, club.founded) == ("Knickerbocker Whist Club", "New York", 1909)
    assert club.memberships.count() >= 12
    assert club.memberships.filter(role=Membership.Role.OWNER, player__user__isnull=False)


def test_loading_the_demo_twice_duplicates_nothing(demo, capsys):
    counts = (Club.objects.count(), Player.objects.count(), Membership.objects.count())
    call_command("load_demo")
    assert (Club.objects.count(), Player.objects.count(), Membership.objects.count()) == counts
    assert "organizer / knock-1909" in capsys.readouterr().out


def test_demo_night_holds_the_seed_sheet_party_settled_284_to_82(demo):
    from scoring.selectors import state_for

    call_command("load_demo")
    club = Club.objects.get(slug="knickerbocker")
    night = club.nights.get(name="Demo night")
    seeded = night.parties.get(label__startswith="Seed sheet")
    state, _ = state_for(seeded)
    assert [side.total for side in state.outcome.sides] == [284, 82]
    assert state.outcome.margin == 202
    a, b = (seat.player.name for seat in state.seats)
    assert seeded.label == f"Seed sheet: {a} (A) 284, {b} (B) 82"
    assert [seat.side for seat in state.seats] == [0, 1]
    assert night.parties.filter(status="running").exists()
    formats = set(night.parties.values_list("format", flat=True))
    assert formats == {"two", "rotation", "chouette", "partners"}


def test_demo_has_a_swiss_tournament_in_round_two_and_a_finished_round_robin(demo):
    from tournaments import registration
    from tournaments.explanations import round_explanation
    from tournaments.models import Round, Tournament
    from tournaments.standings import standings_for
    from tournaments.tables import round_tables

    call_command("load_demo")

    swiss = Tournament.objects.get(slug="knickerbocker-spring-open")
    assert (swiss.format, swiss.status, swiss.entrants.count()) == ("swiss", "running", 12)
    assert list(swiss.round_set.values_list("number", "status")) == [
        (1, Round.Status.CLOSED),
        (2, Round.Status.PLAYING),
    ]
    tables = round_tables(swiss.round_set.get(number=2))
    finished = [v for v in tables if v.finished]
    waiting = [v for v in tables if v.score.pending]
    assert len(tables) == 6 and len(finished) == 3 and len(waiting) == 1
    assert round_explanation(
        swiss.round_set.get(number=2), {e.pk: e for e in registration.tournament_entrants(swiss)}
    )

    robin = Tournament.objects.get(slug="knickerbocker-round-robin")
    assert (robin.format, robin.status, robin.entrants.count()) == ("round_robin", "finished", 6)
    assert robin.round_set.filter(status=Round.Status.CLOSED).count() == robin.rounds == 5
    standings = standings_for(robin)
    assert [line.parties for line in standings.lines] == [5] * 6
    assert [line.place for line in standings.lines] == [1, 2, 3, 4, 5, 6]
    # The two above, the Autumn Cup with its final, the Blue Fourteen and its mixer.
    assert Tournament.objects.count() == 5


def test_demo_has_a_season_in_progress_with_real_statistics_and_kept_ratings(client, demo):
    from django.urls import reverse

    from seasons.models import Rating, Season
    from seasons.services import ratings_rebuild

    club = Club.objects.get(slug="knickerbocker")
    season = Season.objects.get(club=club, published=True)
    table = client.get(reverse("public:season-detail", args=[club.slug, season.pk]))
    assert len(table.context["rows"]) >= 8
    rated = Rating.objects.filter(club=club).order_by("-parties").first()
    page = client.get(reverse("public:club-player", args=[club.slug, rated.player_id]))
    stats = page.context["stats"]
    assert stats.parties >= 3 and stats.knocks_won.of > 0 and stats.gin_rate.of > 10
    kept = sorted(Rating.objects.filter(club=club).values_list("player_id", "mu", "parties"))
    ratings_rebuild(club_id=club.pk)
    rebuilt = sorted(Rating.objects.filter(club=club).values_list("player_id", "mu", "parties"))
    assert rebuilt == kept


def test_demo_has_a_finished_swiss_with_its_final_being_played(demo):
    from tournaments.final import bracket
    from tournaments.models import Tournament

    call_command("load_demo")

    cup = Tournament.objects.get(slug="knickerbocker-autumn-cup")
    assert (cup.status, cup.entrants.count(), cup.rounds) == ("finished", 8, 3)
    stage = cup.final_stage
    assert (stage.status, len(stage.seeds)) == ("playing", 4)
    rounds = bracket.bracket(stage, public=False)
    assert [r.key for r in rounds] == ["semi-final", "final", "third-place"]
    assert [v.status for r in rounds for v in r.matches] == [
        "decided",
        "decided",
        "playing",
        "decided",
    ]
    assert rounds[1].matches[0].party_id is not None


def test_the_guides_archive_commands_run_on_the_demo(tmp_path, monkeypatch, demo):
    # Word for word as the guide gives them, from a checkout with the demo loaded.
    guide = Path(__file__).resolve().parents[2] / "docs" / "organizers.md"
    readme = guide.read_text(encoding="utf-8")
    commands = re.findall(
        r"^\.venv/bin/python manage\.py ((?:ex|im)port_archive .*)$", readme, re.M
    )
    assert [c.split()[0] for c in commands] == ["export_archive", "import_archive"]
    monkeypatch.chdir(tmp_path)
    for command in commands:
        call_command(*shlex.split(command))
    assert (tmp_path / "spring-open.json").exists()


def test_demo_has_a_games_night_and_a_blue_fourteen_tournament_in_play(client, demo):
    night = ClubNight.objects.get(name="Games night")
    parties = {party.game: party for party in night.parties.all()}
    assert set(parties) == {"chinchon", "canasta", "blaue_vierzehn", "cruzo"}
    statuses = [hand.status for hand in parties["chinchon"].hands.order_by("number")]
    assert statuses == [Hand.Status.CONFIRMED, Hand.Status.CONFIRMED, Hand.Status.PENDING]
    assert game_sheet(parties["canasta"]).totals == [1500, 305]
    # Every seat page of the night opens, each made for its game.
    for party in parties.values():
        seat = party.seats.first()
        assert client.get(f"/table/{seat.token}/").status_code == 200

    blue = Tournament.objects.get(slug="knickerbocker-blue-fourteen")
    assert (blue.game, blue.table_size) == ("blaue_vierzehn", 4)
    first = blue.round_set.get(number=1)
    hands = [
        [hand.status for hand in view.table.party.hands.order_by("number")]
        for view in round_tables(first)
    ]
    assert sorted(map(len, hands)) == [0, 3, 4]
    assert client.get(f"/t/{blue.slug}/").status_code == 200


def test_the_demo_seasons_parties_are_dated_by_the_night_they_were_played(client, demo):
    from django.urls import reverse

    from seasons.models import Rating

    club = Club.objects.get(slug="knickerbocker")
    nights = dict(club.nights.values_list("name", "date"))
    seen = []
    for rating in Rating.objects.filter(club=club):
        page = client.get(reverse("public:club-player", args=[club.slug, rating.player_id]))
        seen += [(p.label, p.day) for p in page.context["recent"] if p.label in nights]
    assert seen
    assert all(day == nights[label] for label, day in seen), seen


def test_every_demo_hand_keeps_scores_and_facts_and_the_migration_makes_the_same(demo):
    """Every hand keeps what the engine made of it in `scores` and `facts`
    (migration 0013): run over the demo's rows as they were before it, the
    migration writes what the services write, and no party's sheet changes."""
    from django.apps import apps

    from scoring.engine.games import GAMES
    from scoring.engine.games.game import HandScore
    from scoring.models import Party
    from scoring.scores import computed_scores
    from scoring.selectors import state_for
    from scoring.services.whole_table_sheet import side_count

    migration = importlib.import_module("scoring.migrations.0013_hand_facts_for_every_game")
    parties = list(Party.objects.order_by("pk"))
    drawn = [p for p in parties if GAMES[p.game].formats]
    assert drawn and len(drawn) < len(parties)

    def sheets():
        read = {}
        for party in parties:
            if GAMES[party.game].formats:
                state, _ = state_for(party)
                read[party.pk] = (state.outcome, computed_scores([party.pk]).get(party.pk))
            else:
                sheet = game_sheet(party)
                read[party.pk] = (sheet.totals, sheet.places, sheet.outcome)
        return read

    def rows():
        return {h.pk: (h.scores, h.facts, h.details) for h in Hand.objects.order_by("pk")}

    written, before = rows(), sheets()
    # The rows as they were: another game's facts in its details, no scores or
    # facts for a hand of the party formats.
    for hand in Hand.objects.all():
        if hand.ending == Hand.Ending.SCORED:
            Hand.objects.filter(pk=hand.pk).update(
                details={**hand.details, "facts": hand.facts}, facts={}
            )
        else:
            Hand.objects.filter(pk=hand.pk).update(scores=None, facts={})

    migration.forwards(apps, None)

    assert rows() == written
    assert sheets() == before
    # What the settlement says of each party of the formats, the game says from
    # the kept scores and facts.
    for party in drawn:
        state, hands = state_for(party)
        kept = [HandScore(tuple(h.scores), h.facts) for h in hands if h.status == "confirmed"]
        standing = GAMES[party.game].standing(kept, side_count(state.seats), party.rules)
        assert standing.over == state.outcome.finished, party
        if state.outcome.finished and state.outcome.winner is not None:
            assert standing.winners == {state.outcome.winner}, party
