"""Privacy, walked: every public page (the URLconf's ``public`` namespace and the
site's own addresses) and every public read of the API (the OpenAPI document's
operations without a login or a seat), filled from a club with a Swiss and its
final, a season and a club night, names no member who did not agree to be
listed, nor a guest — not in full, not by surname — and shows nobody's e-mail
address (an invitation's page included)."""

import json
from datetime import date, timedelta

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from clubs.invitations import invitation_create
from clubs.models import Membership
from config.api import api
from scoring.services.nights import night_create
from seasons.services import player_link_issue, season_create
from tests.factories import MembershipFactory, OrganizerFactory
from tests.seasons.conftest import play_party
from tests.tournaments.conftest import play_out
from tests.tournaments.test_knockout_services import current_party, win_game
from tournaments import registration, rounds, tables, withdrawals
from tournaments.final.setup import final_stage_add, final_stage_start
from tournaments.models import Table

pytestmark = pytest.mark.django_db

UNLISTED = ["Ada Lovelace", "Grace Hopper", "Emmy Noether", "Charles Babbage", "Alan Turing"]
LISTED = "Lena Listed"
GUEST = "Cleo Walkin"
ORGANIZER = "Olga Ordnung"
# Addresses: the organizer's, a listed member's, an invited co-organizer's.
EMAILS = ["olga@example.org", "mia@example.org", "cora@example.org"]

# What the walk does not read, and why.
STREAMS = {"tournament-events"}  # a live stream of counters: it never ends, and names nobody


@pytest.fixture
def club_with_unlisted(django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    organizer = OrganizerFactory(player__name=ORGANIZER, player__email=EMAILS[0])
    organizer.player.user.email = EMAILS[0]
    organizer.player.user.save()
    club = organizer.club
    user = organizer.player.user
    players = [MembershipFactory(club=club, player__name=n).player for n in UNLISTED]
    MembershipFactory(club=club, player__name="Mia Mail", player__email=EMAILS[1], listed=True)
    lena = MembershipFactory(club=club, player__name=LISTED, listed=True).player
    guest = MembershipFactory(club=club, player__name=GUEST, role=Membership.Role.GUEST).player
    everyone = [*players, lena, guest]

    # A club night.
    night = night_create(club=club, user=user, name="Thursday night", date=date.today())
    with capture(execute=True):
        play_party(club, [players[0], lena], winner=players[0], night=night)
        play_party(club, [guest, players[1]], winner=guest, night=night, seed=7)

    # A Swiss of seven, published, one round, then a final of four with a withdrawal.
    tournament = registration.tournament_create(
        club=club,
        name="Spring Open",
        public_pairings=True,
        public_standings=True,
        public_results=True,
    )
    registration.entrant_register(tournament=tournament, players=everyone)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    with capture(execute=True):
        round = rounds.round_start(tournament=tournament)
    round.refresh_from_db()
    for view in tables.round_tables(round):
        if not view.table.bye:
            with capture(execute=True):
                play_out(view.table, view.entrants[0])
    rounds.round_close(round=round)
    final_stage_add(tournament=tournament, qualifiers=4, third_place=True)
    rounds.tournament_finish(tournament=tournament, final_draw=True)
    tournament.refresh_from_db()
    stage = final_stage_start(tournament=tournament)
    semi_1, semi_2 = stage.matches.filter(round=1).order_by("slot")
    win_game(current_party(semi_1), semi_1.first, capture)
    withdrawals.entrant_withdraw(entrant=semi_2.first)
    final = stage.matches.get(round=2, third_place=False)
    win_game(current_party(final), final.second, capture)

    season = season_create(
        club=club,
        user=user,
        name="This year",
        starts=date.today() - timedelta(days=30),
        ends=date.today() + timedelta(days=30),
        counts="both",
        scheme="plus_minus",
        published=True,
    )
    link = player_link_issue(club=club, player=lena, user=user)
    with capture(execute=True):
        _invitation, key = invitation_create(club=club, by=user, email=EMAILS[2])
    return {
        "invitation": key,
        "club": club,
        "tournament": tournament,
        "season": season,
        "players": everyone,
        "link": link,
    }


def _secrets() -> list[str]:
    """Each unlisted member's and the guest's full name and surname."""
    found = []
    for name in [*UNLISTED, GUEST, ORGANIZER]:
        found += [name, name.split()[-1]]
    return found + EMAILS


def _values(route: str, name: str, data) -> dict[str, list]:
    """Every value of each of the route's parameters, from the club's data."""
    tournament, club = data["tournament"], data["club"]
    return {
        "slug": [tournament.slug if route.startswith("t/") else club.slug],
        "number": [1],
        "entrant_id": list(tournament.entrants.values_list("pk", flat=True)),
        "part": ["standings", "tables", "screen", "final"],
        "what": ["pairings", "standings", "crosstable"],
        "pk": [data["season"].pk] if "seasons" in route else [p.pk for p in data["players"]],
        "token": [data["link"].token],
        "uidb64": ["MQ"],
        "key": [data["invitation"]],
        # The mail provider's webhook (a 404 without the operator's secret).
        "provider": ["postmark"],
    }


def _public_pages():
    """The public namespace's patterns and the site's own (no namespace)."""
    resolver = get_resolver()
    _, public = resolver.namespace_dict["public"]
    for pattern in public.url_patterns:
        yield "public:", pattern
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLPattern) and pattern.name:
            yield "", pattern
    assert any(isinstance(p, URLResolver) for p in resolver.url_patterns)


def _urls(prefix, pattern, data):
    route = str(pattern.pattern)
    params = list(pattern.pattern.converters)
    values = _values(route, pattern.name, data)
    combos = [{}]
    for param in params:
        combos = [{**c, param: v} for c in combos for v in values[param]]
    return [reverse(prefix + pattern.name, kwargs=kwargs) for kwargs in combos]


def test_no_public_page_names_an_unlisted_member(club_with_unlisted):
    anyone = Client()
    secrets = _secrets()
    walked = 0
    for prefix, pattern in _public_pages():
        if pattern.name in STREAMS or pattern.name in ("admin", None):
            continue
        for url in _urls(prefix, pattern, club_with_unlisted):
            answer = anyone.get(url)
            assert answer.status_code < 500, url
            if answer.status_code != 200 or getattr(answer, "streaming", False):
                continue
            body = answer.content.decode("utf-8-sig")
            leaked = [s for s in secrets if s in body]
            assert not leaked, f"{url} names {leaked}"
            walked += 1
    # The tournament's pages, its player pages, the exports, the club's, the season's.
    assert walked > 20


def _public_operations():
    schema = api.get_openapi_schema()
    for path, methods in schema["paths"].items():
        operation = methods.get("get")
        if operation is None or operation.get("security") or "seat" in operation["tags"]:
            continue
        yield path, [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"]


def test_no_public_api_answer_names_an_unlisted_member(club_with_unlisted):
    data = club_with_unlisted
    tournament = data["tournament"]
    parties = list(
        Table.objects.filter(round__tournament=tournament, party__isnull=False).values_list(
            "party_id", flat=True
        )
    )
    values = {
        "number": [1],
        "party_id": parties,
        "season_id": [data["season"].pk],
        "player_id": [p.pk for p in data["players"]],
        "token": [data["link"].token],
    }
    anyone = Client()
    secrets = _secrets()
    walked = 0
    for path, params in _public_operations():
        combos = [{}]
        for param in params:
            if param == "slug":
                choices = [tournament.slug if "/tournaments/" in path else data["club"].slug]
            else:
                choices = values[param]
            combos = [{**c, param: v} for c in combos for v in choices]
        for kwargs in combos:
            url = path.format(**kwargs)
            answer = anyone.get(url)
            assert answer.status_code < 500, url
            if answer.status_code != 200:
                continue
            body = json.dumps(answer.json(), ensure_ascii=False)
            leaked = [s for s in secrets if s in body]
            assert not leaked, f"{url} names {leaked}"
            walked += 1
    assert walked > 10
