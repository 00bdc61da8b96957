"""Whole parties of every format, played only through the seat pages.

The organizer starts the party on the club night page and prints the table cards;
each phone opens the link on its card. Before every hand each phone reads its page:
the hand's number, who plays whom, who deals, or that it sits out. One seat of each
table enters the hand (by the counts or from the cards), a seat of the other side
confirms it. At the end every seat shows the same sheet and the same settlement:
the seed's worked example where the seeds give one, otherwise numbers worked out
by hand from the seed's rules (the arithmetic is beside each party).

A hand is written ``(role, result)``: ``role`` is one of the seed's players, cast on
a seat from what the pages show for the first hand, and his table is the hand's
table. ``result`` is the points his side wins with a knock (negative: his opponent
knocks and wins them), ``None`` for a no-game, or `Cards` he knocks with. A
partnership round is a list of such hands, one per table.
"""

import re
from dataclasses import dataclass
from itertools import pairwise
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Player
from scoring.engine.rules import RULESETS
from scoring.engine.settlement import SideTotal
from scoring.models import AuditRecord, Hand, Party
from scoring.qr import qr_svg
from tests.factories import ClubNightFactory, MembershipFactory, OrganizerFactory

pytestmark = pytest.mark.django_db

CLASSIC = RULESETS["classic"]
NAMES = ["Ada", "Ben", "Cleo", "Dora", "Emil", "Fritz"]

CARD = re.compile(
    r'<section class="table-card".*?<h2 class="card-player"[^>]*>(.*?)</h2>'
    r'.*?<figure class="qr-code big"[^>]*>(.*?)</figure>.*?<p class="card-link">(.*?)</p>',
    re.S,
)
SHEET = re.compile(r'<table class="sheet score">.*?</table>', re.S)
SETTLEMENT = re.compile(r'<section class="card settlement">.*?</section>', re.S)


@dataclass(frozen=True)
class Cards:
    """A hand entered from the cards, and what it scores, counted here by hand."""

    knocker: str
    defender: str
    points: int


# The knocker's melds 2-3-4♥, 7♣ 7♦ 7♠ and 9-10-J♠ leave 2♣: 2 points.
KNOCKER = "2H 3H 4H 7C 7D 7S 9S TS JS 2C"
# K K K and Q Q Q leave A♦ 3♣ 4♠ 4♦ = 12, none of which fits the knocker's melds:
# the knocker writes 12 - 2 = 10 (seed 000 § 9).
KNOCK_10 = Cards(KNOCKER, "KC KD KH QC QD QH AD 3C 4S 4D", 10)
# K K K leaves A♥ 5♥ 8♦ 8♣ 6♠ Q♦ Q♣ = 48; A♥ and 5♥ go onto 2-3-4♥ (seed 000 § 10):
# 42 - 2 = 40.
KNOCK_40 = Cards(KNOCKER, "AH 5H KC KD KS 8D 8C 6S QD QC", 40)

# Seed 000, "Beispiel einer Abrechnung": A writes 23, 27, 35, 19 and B 32, 10. A is
# forehand of the first hand, B deals it. A no-game goes in before B's 32 (it writes
# nothing, the same dealer deals again), and B's 10 is entered from the cards.
TWO = [("A", 23), ("A", 27), ("B", None), ("B", 32), ("A", 35), ("B", KNOCK_10), ("A", 19)]

# Seed 000, "Gin Rummy zu dritt" 1, "Beispiel": A wins three hands for 102 points, B
# one for 17, C none. Only one order fits the rotation: A sits out the first hand,
# B beats C; then A (who sat out, and deals) beats B, C and B. A no-game between A
# and C goes in before A's second win.
ROTATION = [("B", 17), ("A", 30), ("C", None), ("A", 35), ("A", 37)]

# Chouette: X is the box. Three players: the team wins 25 + 45 + 31 = 101 to the
# box's 30 + 10, so the box pays each partner (101 + 3 × 20 + 100) − (40 + 2 × 20)
# = 261 − 80 = 181. Four players: the box wins 20 + 25 + 18 + 40 = 103 to the team's
# 15, and collects (103 + 4 × 20 + 100) − (15 + 20) = 283 − 35 = 248 from each partner.
CHOUETTE_3 = [("X", 30), ("X", None), ("X", -25), ("X", KNOCK_10), ("X", -45), ("X", -31)]
CHOUETTE_4 = [("X", 20), ("X", -15), ("X", 25), ("X", None), ("X", 18), ("X", KNOCK_40)]

# Partnerships: A, B (and C) are the team that deals the first round. Four players
# (to 125), first the seed's round: "Spieler A [verliert] 18 Punkte und sein Partner
# B [gewinnt] 25 Punkte": the team writes 7. Then 40, the other team's 50 and 78:
# A and B have 125 and three boxes, 125 + 60 + 100 − (50 + 20) = 285 − 70 = 215.
PARTNERS_4 = [
    [("A", -18), ("B", 25)],
    [("A", 40), ("B", None)],
    [("A", -30), ("B", -20)],
    [("A", KNOCK_40), ("B", 38)],
]
# Six players (to 150): 20, a round whose net is 0, the other team's 50, 115 and 15:
# 150 + 3 × 20 + 100 − (50 + 20) = 310 − 70 = 240.
PARTNERS_6 = [
    [("A", 30), ("B", -10), ("C", None)],
    [("A", 12), ("B", -12), ("C", None)],
    [("A", -40), ("B", -25), ("C", 15)],
    [("A", KNOCK_10), ("B", 60), ("C", 45)],
    [("A", 20), ("B", -5), ("C", None)],
]


class Phone:
    """A player's phone: its own browser on the seat link from the table card."""

    def __init__(self, link):
        self.client = Client()
        self.url = urlsplit(link).path
        self.open()

    @property
    def seat(self):
        return self.page.context["seat"]

    def open(self):
        self.page = self.client.get(self.url)
        assert self.page.status_code == 200
        return self.page

    def send(self, action, status=200, **data):
        """Submits a form of the page, with the page's key, and lands on the page
        again (a refused entry: the page with its form as sent, ``status`` 400)."""
        data = {"key": self.page.context["key"], **data}
        self.page = self.client.post(f"{self.url}{action}/", data, follow=True)
        assert self.page.status_code == status
        return self.page


@dataclass
class Deal:
    """What the phones show before a hand: its number, each table as (forehand,
    dealer) seat positions, the seats that sit out, and every phone's page."""

    number: int
    tables: list
    out: list
    pages: dict

    @property
    def sheet(self):
        return next(iter(self.pages.values())).context["sheet"]


@pytest.fixture
def night(client):
    """A club night under the classic rules (seeds 000 and 002), its organizer
    logged in on ``client``, and six members to seat."""
    organizer = OrganizerFactory()
    client.force_login(organizer.player.user)
    for name in NAMES:
        MembershipFactory(club=organizer.club, player__name=name)
    return ClubNightFactory(club=organizer.club, ruleset="classic")


def start(client, night, format, count):
    """The organizer starts the party and prints the table cards; each phone opens
    the link printed under its player's code. Returns the phones by seat position."""
    players = Player.objects.filter(name__in=NAMES[:count])
    night_url = reverse("manage:night-detail", args=[night.pk])
    response = client.post(night_url, {"format": format, "players": [p.pk for p in players]})
    assert response.status_code == 302
    party = Party.objects.get()
    cards = client.get(reverse("manage:party-cards", args=[party.pk])).text
    phones = {}
    for name, code, link in CARD.findall(cards):
        assert code.strip() == qr_svg(link)
        phone = Phone(link)
        assert phone.seat.player.name == name
        phones[phone.seat.position] = phone
    assert sorted(phone.seat.player.name for phone in phones.values()) == NAMES[:count]
    return phones


def said(page):
    return [str(message) for message in page.context["messages"]]


def look(phones):
    """Every phone opens its page: all show the same hand and the same sheet, each
    table's players agree on who plays and deals, and the others sit out."""
    pages = {position: phone.open() for position, phone in phones.items()}
    (number,) = {page.context["state"].number for page in pages.values()}
    (finished,) = {page.context["state"].finished for page in pages.values()}
    tables, out = set(), []
    for position, page in pages.items():
        players = [seat.position for seat in page.context["players"]]
        if not players:
            assert finished or "You sit out this hand" in page.text
            out.append(position)
            continue
        assert position in players
        assert f"<h1>Hand {number}</h1>" in page.text
        tables.add((players[0], page.context["dealer"].position))
    seated = sorted(p for table in tables for p in table)
    assert seated == sorted(set(pages) - set(out))  # one table each, seen alike
    assert len({SHEET.search(page.text).group() for page in pages.values()}) == 1
    return Deal(number, sorted(tables), out, pages)


def cast(format, deal):
    """The seed's players on the seats, from what the pages show for the first hand."""
    forehand, dealer = deal.tables[0]
    if format == "two":
        return {"A": forehand, "B": dealer}
    if format == "rotation":
        (sitting_out,) = deal.out
        return {"A": sitting_out, "B": forehand, "C": dealer}
    if format == "chouette":
        return {"X": forehand}  # the box; the first partner deals (seed 000 "zu dritt" 2)
    return dict(zip("ABC", sorted(dealer for _, dealer in deal.tables), strict=False))


def refuse_sitting_out(phones, deal):
    """A seat that sits out may not enter the hand: a message, and nothing stored."""
    forehand, _ = deal.tables[0]
    for position in deal.out:
        stored = Hand.objects.count()
        page = phones[position].send(
            "enter",
            400,
            number=deal.number,
            ending="knock",
            knocker=forehand,
            knocker_deadwood=2,
            defender_deadwood=30,
        )
        assert said(page) == ["You sit out this hand: the players at the table enter it."]
        assert Hand.objects.count() == stored


def play_hand(phones, number, table, me, result):
    """``me`` enters the hand at his table and his opponent confirms it. Returns
    ``(winner position, points)``, or None for a no-game."""
    (other,) = set(table) - {me}
    if result is None:
        action, data, won = "enter", {"ending": "no_game"}, None
    elif isinstance(result, Cards):
        action, won = "enter-cards", (me, result.points)
        data = {"knocker": me, "knocker_cards": result.knocker, "defender_cards": result.defender}
    else:
        knocker = me if result > 0 else other
        action, won = "enter", (knocker, abs(result))
        data = {"ending": "knock", "knocker": knocker, "knocker_deadwood": 2}
        data["defender_deadwood"] = 2 + abs(result)
    page = phones[me].send(action, number=number, **data)
    assert said(page) == [f"Hand {number} entered: waiting for confirmation."]
    shown = phones[other].open().context
    assert shown["can_confirm"]
    # The confirmation names the entry the phone shows.
    page = phones[other].send("confirm", number=number, version=shown["open_hand"].version)
    assert said(page) == [f"Hand {number} confirmed."]
    return won


def entries(results, sides):
    """One hand's (or round's) results as the core's sheet entries: None or (side, points)."""
    return [None if won is None else (sides[won[0]], won[1]) for won in results]


def outcome(format, results, sides):
    """What a hand writes on the sheet; a partnership round writes its tables' net
    (seed 000: "Addition der beiden Resultate"), nothing when that is 0."""
    tables = entries(results, sides)
    if format != "partners":
        return tables[0]
    net = sum(points if side == 0 else -points for side, points in filter(None, tables))
    return None if net == 0 else (0, net) if net > 0 else (1, -net)


def check_next_deal(format, previous, deal, results, sides):
    """Seed 000 and 002: the loser deals the next hand and the winner plays on; after
    a hand (or round) that scored nothing the same dealer deals again (seed 000 § 12)."""
    dealers = {dealer for _, dealer in deal.tables}
    written = outcome(format, results, sides)
    if written is None:
        assert dealers == {dealer for _, dealer in previous.tables}
    else:
        assert written[0] not in {sides[dealer] for dealer in dealers}
    playing = {p for table in deal.tables for p in table}
    assert {won[0] for won in results if won} <= playing


def play(phones, format, hands):
    """Plays the party hand by hand through the seat pages. Returns the cast (role:
    seat position), the deals (before each hand, and the end) and each hand's results."""
    sides = sides_of(phones)
    roles, deals, played = None, [], []
    for number, hand in enumerate(hands, start=1):
        deal = look(phones)
        assert deal.number == number
        if deals:
            check_next_deal(format, deals[-1], deal, played[-1], sides)
        else:
            roles = cast(format, deal)
        refuse_sitting_out(phones, deal)
        results = []
        steps = hand if isinstance(hand, list) else [hand]
        tables = [next((t for t in deal.tables if roles[role] in t), None) for role, _ in steps]
        assert sorted(tables) == deal.tables, f"hand {number}: {steps} do not fit {deal.tables}"
        for table, (role, result) in zip(tables, steps, strict=True):
            results.append(play_hand(phones, number, table, roles[role], result))
        deals.append(deal)
        played.append(results)
    deals.append(look(phones))
    return roles, deals, played


def party_over(phones, deal):
    """Every seat shows the party over with the same sheet and settlement; the party
    is finished and one more entry is refused, storing nothing. Returns one page."""
    pages = list(deal.pages.values())
    for page in pages:
        assert "<h1>Party over</h1>" in page.text
        assert 'id="quick-entry"' not in page.text
        assert 'id="cards-entry"' not in page.text
    assert len({SETTLEMENT.search(page.text).group() for page in pages}) == 1
    shown = {(tuple(page.context["totals"]), tuple(page.context["payments"])) for page in pages}
    assert len(shown) == 1
    assert Party.objects.get().status == Party.Status.FINISHED

    stored = Hand.objects.count(), AuditRecord.objects.count()
    phone = phones[0]
    page = phone.send(
        "enter",
        number=deal.number,
        ending="knock",
        knocker=0,
        knocker_deadwood=2,
        defender_deadwood=30,
    )
    assert [(m.level_tag, str(m)) for m in page.context["messages"]] == [
        ("error", "The party is over: no more hands can be entered.")
    ]
    assert (Hand.objects.count(), AuditRecord.objects.count()) == stored
    return pages[0]


def by_side(phones, per_seat):
    """Values given per seat position, in the order of the seats' columns (sides)."""
    return [per_seat[p] for p in sorted(per_seat, key=lambda p: phones[p].seat.side)]


def names(phones):
    return {position: phone.seat.player.name for position, phone in phones.items()}


def sides_of(phones):
    return {position: phone.seat.side for position, phone in phones.items()}


def shows_payments(page, payments):
    """The page names these payments, ``(payer, payee, amount)``, in any order."""
    assert sorted(page.context["payments"]) == sorted(payments)
    for payer, payee, amount in payments:
        assert f"{payer} pays {payee} {amount}" in page.text


def test_two_players_play_the_seeds_sheet_to_284_against_82(client, night):
    phones = start(client, night, "two", 2)
    roles, deals, _ = play(phones, "two", TWO)

    page = party_over(phones, deals[-1])
    a, b = roles["A"], roles["B"]
    # Seed 000: A 104 + 4 boxes 80 + game 100 = 284; B 42 + 2 boxes 40 = 82.
    expected = {a: SideTotal(104, 4, 80, 100), b: SideTotal(42, 2, 40)}
    assert page.context["totals"] == by_side(phones, expected)
    assert by_side(phones, {a: 284, b: 82}) == [t.total for t in page.context["totals"]]
    name = names(phones)
    shows_payments(page, [(name[b], name[a], 202)])


def test_three_players_in_rotation_settle_as_the_seeds_example(client, night):
    phones = start(client, night, "rotation", 3)
    roles, deals, _ = play(phones, "rotation", ROTATION)

    page = party_over(phones, deals[-1])
    a, b, c = roles["A"], roles["B"], roles["C"]
    # Seed 000: "A schreibt 262 Punkte, B 37 und C weiterhin 0 Punkte."
    expected = {a: SideTotal(102, 3, 60, 100), b: SideTotal(17, 1, 20), c: SideTotal(0, 0)}
    assert page.context["totals"] == by_side(phones, expected)
    assert by_side(phones, {a: 262, b: 37, c: 0}) == [t.total for t in page.context["totals"]]
    # "B zahlt an A die Differenz von 225 Punkten; C zahlt an A … 362 Punkte
    # insgesamt. Weiters zahlt C an B den Wert von 37 Punkten."
    name = names(phones)
    shows_payments(page, [(name[b], name[a], 225), (name[c], name[a], 362), (name[c], name[b], 37)])


@pytest.mark.parametrize(
    ("count", "hands", "box_total", "team_total", "margin", "box_wins"),
    [
        (3, CHOUETTE_3, SideTotal(40, 2, 40), SideTotal(101, 3, 60, 100), 181, False),
        (4, CHOUETTE_4, SideTotal(103, 4, 80, 100), SideTotal(15, 1, 20), 248, True),
    ],
    ids=["three players", "four players"],
)
def test_a_chouette_settles_the_box_with_every_partner(
    client, night, count, hands, box_total, team_total, margin, box_wins
):
    phones = start(client, night, "chouette", count)
    roles, deals, played = play(phones, "chouette", hands)

    box = roles["X"]
    partners = [p for p in phones if p != box]
    # Seed 000 "zu dritt" 2: a partner plays until he loses a hand, then the next
    # one takes over, each in turn.
    captains = [next(p for p in deal.tables[0] if p != box) for deal in deals[:-1]]
    box_won = [results[0] is not None and results[0][0] == box for results in played]
    for i in range(len(captains) - 1):
        assert (captains[i + 1] != captains[i]) == box_won[i]
    came_in = [c for i, c in enumerate(captains) if i == 0 or c != captains[i - 1]]
    assert len(set(came_in[: len(partners)])) == len(partners)
    assert all(c == came_in[i % len(partners)] for i, c in enumerate(came_in))

    page = party_over(phones, deals[-1])
    name = names(phones)
    assert page.context["totals"] == by_side(phones, {box: box_total, partners[0]: team_total})
    # "Der Alleinspieler zahlt, wenn er verliert, an beide Gegner den Gewinn aus, oder
    # er zieht von beiden Gegnern den Gewinn ein."
    if box_wins:
        shows_payments(page, [(name[p], name[box], margin) for p in partners])
    else:
        shows_payments(page, [(name[box], name[p], margin) for p in partners])


@pytest.mark.parametrize(
    ("count", "rounds", "target", "ours", "theirs", "margin"),
    [
        (4, PARTNERS_4, 125, SideTotal(125, 3, 60, 100), SideTotal(50, 1, 20), 215),
        (6, PARTNERS_6, 150, SideTotal(150, 3, 60, 100), SideTotal(50, 1, 20), 240),
    ],
    ids=["teams of two", "teams of three"],
)
def test_partnerships_settle_the_net_of_their_tables(
    client, night, count, rounds, target, ours, theirs, margin
):
    phones = start(client, night, "partners", count)
    # Seed 000: "bis eine Partei 125 Punkte erreicht hat"; six players play to 150.
    assert f"First to {target} points" in phones[0].page.text
    roles, deals, _ = play(phones, "partners", rounds)

    # Seed 000: after every round the partners change opponents.
    for before, after in pairwise(deals[:-1]):
        assert not {frozenset(t) for t in before.tables} & {frozenset(t) for t in after.tables}
    page = party_over(phones, deals[-1])
    sides = sides_of(phones)
    winner = sides[roles["A"]]  # A, B (and C) play for one team
    totals = [None, None]
    totals[winner], totals[1 - winner] = ours, theirs
    assert page.context["totals"] == totals
    headers = page.context["sheet"]["headers"]
    for position, name in names(phones).items():
        assert name in headers[sides[position]]
    shows_payments(page, [(headers[1 - winner], headers[winner], margin)])


def test_a_partnership_table_that_has_played_its_hand_of_the_round_is_told_so(client, night):
    phones = start(client, night, "partners", 4)
    deal = look(phones)
    table, _ = deal.tables
    forehand, _ = table
    play_hand(phones, 1, table, forehand, 20)

    stored = Hand.objects.count(), AuditRecord.objects.count()
    page = phones[forehand].send(
        "enter",
        number=1,
        ending="knock",
        knocker=forehand,
        knocker_deadwood=2,
        defender_deadwood=22,
    )
    assert [m.level_tag for m in page.context["messages"]] == ["error"]
    assert (Hand.objects.count(), AuditRecord.objects.count()) == stored


def running(format, played, sides):
    """The sheet's points and boxes per column after each hand, as the seed writes
    them: the winner's column adds the hand, a partnership's column its round's net."""
    columns = len(set(sides.values()))
    points, boxes, rows = [0] * columns, [0] * columns, []
    for results in played:
        written = outcome(format, results, sides)
        if written is not None:
            points[written[0]] += written[1]
            boxes[written[0]] += 1
        rows.append((list(points), list(boxes)))
    return rows


@pytest.mark.parametrize(
    ("format", "count", "hands"),
    [
        ("two", 2, TWO),
        ("rotation", 3, ROTATION),
        ("chouette", 3, CHOUETTE_3),
        ("chouette", 4, CHOUETTE_4),
        ("partners", 4, PARTNERS_4),
        ("partners", 6, PARTNERS_6),
    ],
)
def test_every_seat_sees_the_seeds_running_sheet(client, night, format, count, hands):
    phones = start(client, night, format, count)
    _, deals, played = play(phones, format, hands)

    shown = [(deal.sheet["points"], deal.sheet["boxes"]) for deal in deals[1:]]
    assert shown == running(format, played, sides_of(phones))
