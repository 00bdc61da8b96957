"""Every public page, on a phone and on a desktop, laid out within the window:
nothing wider than the viewport, and no table reaching past the box it stands in
or over the table beside it. One club holds a page of every kind (a Gin Rummy
Swiss with a bye and a round being played, a Chinchón tournament at tables of
four, a knockout, a season, a personal link, an invitation). Screenshots of every
page go to the test's temporary folder (and to KNOCK_SCREENSHOTS, when set), to be
looked at."""

import datetime
import os
from pathlib import Path

import pytest

from clubs.invitations import invitation_create
from clubs.models import Membership
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from seasons.services import player_link_issue, season_create
from tests.browser.conftest import close, paired_tables
from tests.factories import ClubFactory, MembershipFactory, OrganizerFactory
from tests.tournaments.test_table_tournaments import play_chinchon
from tournaments import registration, rounds
from tournaments.final.setup import final_stage_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

# Long names as a club has them, and short ones: twelve for three tables of four.
NAMES = [
    "Maximiliane Wilhelmine von Hohenzollern-Sigmaringen",
    "Anna-Katharina Oberhuber-Schwarzenbach",
    "Konstantinos Papadopoulos",
    "Friedrich Wilhelm Brandenburger",
    "Bea Bo",
    "Carl Christiansen",
    "Dora Dietrichstein",
    "Elena Esterházy",
    "Félix Fernández",
    "Gema Gutiérrez",
    "Hugo Hofmannsthal",
    "Inés Iglesias",
]

# What the page measures: the page against the window's width, and each table
# against the box it stands in and against the tables beside it (a grid of tables
# overlaps without widening the page). A table in a box the reader scrolls
# sideways (a crosstable of many rounds on a phone) may be wider than that box,
# which is then measured instead, and must be reachable by keyboard.
OVERFLOWS = """(width) => {
  const found = [];
  const root = document.documentElement;
  if (root.scrollWidth > width) {
    found.push(`the page is ${root.scrollWidth} px wide in a ${width} px window`);
  }
  const named = (table) => table.id || table.dataset.table && `table ${table.dataset.table}`
    || table.className || "a table";
  const beyond = (inner, outer) =>
    inner.getBoundingClientRect().right - outer.getBoundingClientRect().right;
  const tables = [...document.querySelectorAll("main table")].filter(
    (table) => table.getClientRects().length);
  for (const table of tables) {
    let box = table.parentElement;
    let inner = table;
    if (["auto", "scroll"].includes(getComputedStyle(box).overflowX)) {
      if (box.tabIndex < 0) found.push(`${named(table)} scrolls in a box no key reaches`);
      [inner, box] = [box, box.parentElement];
    }
    const over = beyond(inner, box);
    if (over > 1) found.push(`${named(table)} reaches ${Math.round(over)} px past its box`);
  }
  for (const [i, table] of tables.entries()) {
    const a = table.getBoundingClientRect();
    for (const other of tables.slice(i + 1)) {
      const b = other.getBoundingClientRect();
      const apart = a.right <= b.left + 1 || b.right <= a.left + 1
        || a.bottom <= b.top + 1 || b.bottom <= a.top + 1;
      if (!apart) found.push(`${named(table)} overlaps ${named(other)}`);
    }
  }
  return found;
}"""


def seats(view):
    by_player = {s.player_id: s for s in view.table.party.seats.all()}
    return [by_player[entrant.player_id] for entrant in view.entrants]


def started(club, players, **options):
    tournament = registration.tournament_create(club=club, **options)
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    return tournament


def gin_swiss(club, players):
    """Seven at Gin Rummy: round 1 played and closed, round 2 being played (one
    table finished, one waiting for a confirmation, one disputed, a bye)."""
    tournament = started(club, players[:7], name="Autumn Cup", slug="autumn-cup", rounds=3)
    first = rounds.round_start(tournament=tournament)
    for view in paired_tables(first):
        if not view.table.bye:
            a, b = seats(view)
            hand_enter(seat=a, number=1, entry=Result("gin", a.position, 0, 90))
            hand_confirm(seat=b, number=1, version=1)
    rounds.round_close(round=first)
    second = rounds.round_pair_next(tournament=tournament)
    done, waiting, disputed = [v for v in paired_tables(second) if not v.table.bye]
    a, b = seats(done)
    hand_enter(seat=a, number=1, entry=Result("gin", a.position, 0, 90))
    hand_confirm(seat=b, number=1, version=1)
    c, _ = seats(waiting)
    hand_enter(seat=c, number=1, entry=Result("knock", c.position, 3, 21))
    e, f = seats(disputed)
    hand_enter(seat=e, number=1, entry=Result("knock", e.position, 3, 21))
    hand_enter(seat=f, number=1, entry=Result("knock", e.position, 3, 12))
    return tournament


def chinchon_at_tables_of_four(club, players):
    """Twelve at three tables of four: table 1 finished, the others playing."""
    tournament = started(
        club, players, name="Chinchón Night", slug="chinchon-night", game="chinchon", table_size=4
    )
    first, *_ = paired_tables(rounds.round_start(tournament=tournament))
    play_chinchon(first.table.party, [0, 20, 40, 100])
    return tournament


def knockout(club, players):
    tournament = started(club, players[:5], name="Club Cup", slug="club-cup", format="knockout")
    final_stage_start(tournament=tournament)
    return tournament


def public_pages(monkeypatch) -> dict[str, str]:
    """The club with a page of every kind; its pages by name."""
    monkeypatch.setattr(rounds, "new_seed", lambda: 1909)
    club = ClubFactory(name="Café Pik", slug="cafe-pik")
    owner = OrganizerFactory(club=club, role=Membership.Role.OWNER, player__name="Olga Owner")
    user = owner.player.user
    players = [
        MembershipFactory(club=club, player__name=name, listed=True).player for name in NAMES
    ]
    swiss = gin_swiss(club, players)
    tables = chinchon_at_tables_of_four(club, players)
    cup = knockout(club, players)
    season = season_create(
        club=club,
        user=user,
        name="Season 2026",
        starts=datetime.date(2026, 1, 1),
        ends=datetime.date(2026, 12, 31),
        counts="both",
        scheme="plus_minus",
        published=True,
    )
    link = player_link_issue(club=club, player=players[0], user=user)
    _invitation, key = invitation_create(club=club, by=user)
    pages = {
        "home": "/",
        "login": "/login/",
        "signup": "/signup/",
        "password-reset": "/password-reset/",
        "invitation": f"/invitations/{key}/",
        "club": f"/clubs/{club.slug}/",
        "club-ratings": f"/clubs/{club.slug}/ratings/",
        "season": f"/clubs/{club.slug}/seasons/{season.pk}/",
        "club-player": f"/clubs/{club.slug}/players/{players[0].pk}/",
        "own-page": f"/me/{link.token}/",
        "own-notices": f"/me/{link.token}/notices/",
        "final": f"/t/{cup.slug}/final/",
        "knockout": f"/t/{cup.slug}/",
    }
    for tournament in (swiss, tables):
        slug = tournament.slug
        entrant = tournament.entrants.get(player=players[0])
        pages |= {
            f"{slug}": f"/t/{slug}/",
            f"{slug}-round-1": f"/t/{slug}/rounds/1/",
            f"{slug}-crosstable": f"/t/{slug}/crosstable/",
            f"{slug}-player": f"/t/{slug}/players/{entrant.pk}/",
            f"{slug}-screen": f"/t/{slug}/screen/",
            f"{slug}-print-pairings": f"/t/{slug}/print/pairings/",
            f"{slug}-print-standings": f"/t/{slug}/print/standings/",
            f"{slug}-print-crosstable": f"/t/{slug}/print/crosstable/",
        }
    pages[f"{swiss.slug}-round-2"] = f"/t/{swiss.slug}/rounds/2/"
    return pages


def test_every_public_page_fits_a_phone_and_a_desktop(chromium, live_server, monkeypatch, tmp_path):
    pages = public_pages(monkeypatch)
    folders = [tmp_path] + (
        [Path(os.environ["KNOCK_SCREENSHOTS"])] if "KNOCK_SCREENSHOTS" in os.environ else []
    )
    found = []
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context = chromium.new_context(
            viewport=viewport, locale="en-US", is_mobile=size == "phone", service_workers="block"
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        for name, path in pages.items():
            response = page.goto(live_server.url + path)
            assert response.status == 200, f"{path}: {response.status}"
            for folder in folders:
                page.screenshot(path=str(folder / f"{size}-{name}.png"), full_page=True)
            found += [
                f"{size} {path}: {problem}"
                for problem in page.evaluate(OVERFLOWS, viewport["width"])
            ]
        close(context)

    assert not found, "\n".join(found)
