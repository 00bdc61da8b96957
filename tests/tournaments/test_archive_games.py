"""Archives of the other games: a club night with a Chinchón party and a tournament
of Chinchón or Blaue Vierzehn at tables of three or four go out as one archive and
come back with every seat, hand entry, confirmation, dispute, correction, void and
audit record, so that the night's results, the party pages and the standings are
what they were. Every archive is written in one shape (version 3), whatever its
games."""

import json
import re

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.urls import reverse
from django.utils import translation

from scoring.engine.games import GAMES
from scoring.models import Hand, Party
from scoring.night_results import night_results
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.whole_table_sheet import game_sheet
from tests.factories import ClubFactory, ClubNightFactory, start_game_party, start_night_party
from tests.tournaments.api.test_api import bearer
from tests.tournaments.test_archive import party_rows, runs_too
from tests.tournaments.test_table_tournaments import (
    close_and_pair,
    play,
    play_chinchon,
    table_tournament,
    tables_of,
)
from tournaments.archive.export import night_export, tournament_export
from tournaments.archive.restore import ArchiveError, archive_import
from tournaments.explanations import round_explanation
from tournaments.models import Tournament
from tournaments.rounds import round_close
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db


def as_file(data: dict) -> dict:
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def game_party(party: Party) -> dict:
    """Everything a party of another game must keep, by seat position, not by id,
    and its sheet as read from that."""
    sheet = game_sheet(party)
    return party_rows(party) | {"sheet": (sheet.totals, sheet.places, sheet.margins, sheet.outcome)}


def page_text(client, party: Party) -> str:
    """The organizer's party page as its reader sees it: the text, without the
    markup (links and codes carry ids and seat links, which are new)."""
    html = client.get(reverse("manage:party-detail", args=[party.pk])).content.decode()
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    text = re.sub(r"https?://\S+/table/[\w-]+/", "LINK", text)
    text = text.replace(party.club.name, "CLUB").replace(f"#{party.pk}", "#N")
    return " ".join(text.split())


def results(night) -> tuple:
    found = night_results(night=night)
    rows = [
        (r["player"].name, r["played"], r["won"], r["plus_minus"], r["games"])
        for r in found["rows"]
    ]
    return rows, found["running"]


def seats_of(party):
    return list(party.seats.order_by("position"))


def chinchon_night(director):
    """A night of a Chinchón party of four with every kind of hand (confirmed by
    two, disputed and resolved, corrected, voided, and one waiting with one
    confirmation so far), a Chinchón party of three played to its end, and a Gin
    Rummy party."""
    night = ClubNightFactory(name="Friday")
    runs_too(night.club, director.username)
    party = start_game_party("chinchon", 4, night=night, user=director)
    a, b, c, d = seats_of(party)
    outcome = hand_enter(
        seat=a, number=1, entry={"closer": 0, "penalties": [0, 10, 20, 30]}, key="a-1"
    )
    outcome = hand_confirm(seat=b, number=1, version=outcome.hand.version, key="b-1")
    assert outcome.action == "noted"
    assert hand_confirm(seat=c, number=1, version=outcome.hand.version).action == "confirmed"
    hand_enter(seat=b, number=2, entry={"closer": 1, "penalties": [5, 0, 7, 9]})
    disputed = hand_enter(
        seat=c, number=2, entry={"closer": 1, "penalties": [5, 0, 8, 9]}, key="c-2"
    )
    assert disputed.action == "disputed"
    hand_decide(
        hand=disputed.hand,
        user=director,
        entry={"closer": 1, "penalties": [5, 0, 8, 9]},
        reason="Counted again",
        address="192.0.2.4",
    )
    outcome = hand_enter(seat=c, number=3, entry={"closer": 2, "penalties": [3, 4, 0, 6]})
    outcome = hand_confirm(seat=a, number=3, version=outcome.hand.version)
    outcome = hand_confirm(seat=d, number=3, version=outcome.hand.version)
    hand_decide(
        hand=outcome.hand,
        user=director,
        entry={"closer": 2, "penalties": [3, 4, 1, 6]},
        reason="The closer kept a card",
        disputed=False,
    )
    outcome = hand_enter(seat=d, number=4, entry={"closer": 3, "penalties": [2, 2, 2, 0]})
    outcome = hand_confirm(seat=a, number=4, version=outcome.hand.version)
    outcome = hand_confirm(seat=b, number=4, version=outcome.hand.version)
    hand_decide(hand=outcome.hand, user=director, entry=None, reason="Misdeal")
    outcome = hand_enter(seat=a, number=5, entry={"closer": 0, "penalties": [0, 1, 2, 3]})
    hand_confirm(seat=d, number=5, version=outcome.hand.version)
    ended = start_game_party("chinchon", 3, night=night)
    play_chinchon(ended, [0, 40, 100])
    start_night_party(night)
    return night, party


def test_a_chinchon_night_comes_back_with_its_results_and_party_pages(client):
    director = runs_too(ClubFactory(), "director")
    night, party = chinchon_night(director)
    statuses = [h.status for h in party.hands.order_by("number")]
    assert statuses == ["confirmed", "confirmed", "confirmed", "void", "pending"]
    data = as_file(night_export(night))
    assert data["version"] == 3
    elsewhere = ClubFactory(slug="elsewhere")
    runs_too(elsewhere, "director")

    copy = archive_import(data=data, club=elsewhere)

    assert results(copy) == results(night)
    assert results(night)[0] and results(night)[1] == 2  # the party of four and Gin run on
    originals = night.parties.exclude(game="gin_rummy").order_by("pk")
    copies = copy.parties.exclude(game="gin_rummy").order_by("pk")
    for original, restored in zip(originals, copies, strict=True):
        assert game_party(restored) == game_party(original)
        assert set(restored.seats.values_list("token", flat=True)).isdisjoint(
            original.seats.values_list("token", flat=True)
        )
    restored = copies.first()
    assert restored.hands.get(number=5).confirmations == [3]
    client.force_login(director)
    assert page_text(client, restored) == page_text(client, party)
    # The copy plays on: the waiting hand takes its last confirmation there.
    b = seats_of(restored)[1]
    waiting = restored.hands.get(number=5)
    assert hand_confirm(seat=b, number=5, version=waiting.version).action == "confirmed"


def test_a_cruzo_party_of_seven_comes_back_with_its_seventh_seat():
    night = ClubNightFactory()
    party = start_game_party("cruzo", 7, night=night)
    seats = seats_of(party)
    entry = {"went_out": [6], "cards_left": {str(n): n % 3 for n in range(6)}}
    outcome = hand_enter(seat=seats[6], number=1, entry=entry, key="last-seat")
    outcome = hand_confirm(seat=seats[0], number=1, version=outcome.hand.version)
    assert outcome.action == "noted"

    copy = archive_import(data=as_file(night_export(night)), club=ClubFactory())

    assert game_party(copy.parties.get()) == game_party(party)


#: A Canasta side's entries for one hand (`scoring.engine.games.canasta.side_score`).
GOOD = {"meld_points": 600, "natural_canastas": 2, "mixed_canastas": 1, "went_out": True}
POOR = {"meld_points": 300, "hand_points": 40}


def canasta_of_three_partnerships(night):
    """Six at Canasta in three partnerships: one hand confirmed, one waiting."""
    party = start_game_party("canasta", 6, {"partnerships": 3}, night=night)
    seats = seats_of(party)
    outcome = hand_enter(seat=seats[0], number=1, entry={"sides": [GOOD, POOR, POOR]})
    for seat in (seats[1], seats[2], seats[4]):
        if outcome.action != "confirmed":
            outcome = hand_confirm(seat=seat, number=1, version=outcome.hand.version)
    assert outcome.action == "confirmed"
    outcome = hand_enter(seat=seats[4], number=2, entry={"sides": [POOR, GOOD, POOR]})
    hand_confirm(seat=seats[0], number=2, version=outcome.hand.version)
    return party


def test_canasta_partnerships_come_back_on_their_sides():
    night = ClubNightFactory()
    party = canasta_of_three_partnerships(night)
    assert sorted({s.side for s in party.seats.all()}) == [0, 1, 2]

    copy = archive_import(data=as_file(night_export(night)), club=ClubFactory())

    restored = copy.parties.get()
    assert game_party(restored) == game_party(party)
    assert restored.hands.get(number=2).confirmations == [0]


def test_a_partner_on_another_side_is_refused():
    night = ClubNightFactory()
    canasta_of_three_partnerships(night)
    data = as_file(night_export(night))
    seat = next(s for s in data["parties"][0]["seats"] if s["position"] == 3)
    seat["side"] = 1
    problems = refusal(data)
    assert problems["parties.0.seats.3.side"] == "the seat in position 3 plays for side 0"


def test_every_archive_is_written_in_one_shape_whatever_its_games(started):
    night = ClubNightFactory()
    start_night_party(night)
    night_with_chinchon_of_two(night)
    tournament, _ = started(["Anna", "Ben", "Carl"])
    for data in (as_file(night_export(night)), as_file(tournament_export(tournament))):
        assert data["version"] == 3
        # Every party names its game; every hand gives the same fields, what its
        # game scored among them.
        assert all(party["game"] in GAMES for party in data["parties"])
        shapes = {tuple(hand) for party in data["parties"] for hand in party["hands"]}
        assert len(shapes) <= 1
    assert [party["game"] for party in as_file(night_export(night))["parties"]] == [
        "gin_rummy",
        "chinchon",
    ]
    played = as_file(night_export(night))["parties"][1]["hands"][0]
    assert (played["scores"], played["knocker"], played["kind"]) == ([-10, 30], None, "")
    assert as_file(tournament_export(tournament))["tournament"]["game"] == "gin_rummy"


def test_a_gin_rummy_table_playing_another_game_is_refused(started):
    tournament, _ = started(["Anna", "Ben"])
    data = as_file(tournament_export(tournament))
    night = ClubNightFactory()
    chinchon = as_file(night_export(night_with_chinchon_of_two(night)))["parties"][0]
    party = data["parties"][0]
    players = [seat["player"] for seat in party["seats"]]
    seats = [dict(s, player=p) for s, p in zip(chinchon["seats"], players, strict=True)]
    data["parties"][0] = chinchon | {"key": party["key"], "seats": seats}
    assert refusal(data)["tables.0.party"] == "the party plays another game than the tournament"


def night_with_chinchon_of_two(night):
    party = start_game_party("chinchon", 2, night=night)
    a, b = seats_of(party)
    outcome = hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 30]})
    hand_confirm(seat=b, number=1, version=outcome.hand.version)
    return night


def blaue_vierzehn_deals(party):
    """Every deal of a Blaue Vierzehn party (one each), the last seat taking the
    most; the party ends with the last deal."""
    count = party.seats.count()
    spread = {3: [10, 18, 28], 4: [8, 12, 16, 20]}[count]
    for deal in range(count):
        play(party, {"points": spread[deal % count :] + spread[: deal % count]})


def table_picture(tournament: Tournament) -> dict:
    """The tournament as its pages read it: standings, rounds with their tables,
    seatings, parties and explanations, by names."""
    entrants = {e.pk: e for e in tournament.entrants.select_related("player")}
    names = {pk: e.player.name for pk, e in entrants.items()}
    rounds = {}
    for round in tournament.round_set.order_by("number"):
        rounds[round.number] = {
            "fields": (round.status, round.how, round.seed, round.problem, round.started_at),
            "standings": [names[pk] for pk in round.standings],
            "points": {names[int(pk)]: v for pk, v in round.points.items()},
            "explanation": round_explanation(round, entrants),
            "tables": [
                (
                    view.table.number,
                    view.table.bye,
                    [str(e) for e in view.entrants],
                    view.table.party and game_party(view.table.party),
                )
                for view in tables_of(round)
            ],
        }
    standings = standings_for(tournament)
    return {
        "fields": (
            tournament.name,
            tournament.status,
            tournament.game,
            tournament.game_options,
            tournament.table_size,
            tournament.rounds,
        ),
        "rounds": rounds,
        "standings": [
            (
                line.place,
                line.shared,
                str(line.entrant),
                line.points,
                line.games,
                line.won,
                line.byes,
                line.score,
            )
            for line in standings.lines
        ],
        "after_round": standings.after_round,
    }


@pytest.mark.parametrize(
    ("game", "count", "size"),
    [("chinchon", 7, 4), ("blaue_vierzehn", 5, 4), ("blaue_vierzehn", 6, 3)],
)
def test_a_tournament_at_tables_comes_back_with_its_standings(club, committed, game, count, size):
    tournament, round = table_tournament(club, count, committed, game=game, size=size, rounds=3)
    for number in (1, 2, 3):
        for view in tables_of(round):
            if view.table.bye:
                continue
            party = view.table.party
            if number == 3 and view.table.number == 1:
                # The last round's first table has played one hand, still waiting.
                play_first_hand_only(party, game)
            elif game == "chinchon":
                play_chinchon(party, [0, *range(10, 10 * len(view.entrants) - 10, 10), 100])
            else:
                blaue_vierzehn_deals(party)
        if number < 3:
            round = close_and_pair(tournament, round, committed)
    tournament.refresh_from_db()
    before = table_picture(tournament)
    assert before["after_round"] == 2 and before["standings"][0][3] > 0
    data = as_file(tournament_export(tournament))
    assert data["version"] == 3

    copy = archive_import(data=data, club=ClubFactory())

    assert Tournament.objects.count() == 2
    assert table_picture(copy) == before
    if count == 5:  # a bye each round
        assert all(any(t[1] for t in r["tables"]) for r in before["rounds"].values())


def play_first_hand_only(party, game):
    seats = seats_of(party)
    entry = (
        {"closer": 0, "penalties": [0] + [5] * (len(seats) - 1)}
        if game == "chinchon"
        else {"points": {3: [10, 18, 28], 4: [8, 12, 16, 20]}[len(seats)]}
    )
    hand_enter(seat=seats[0], number=1, entry=entry)


def test_the_api_archives_a_night_of_another_game(client, organizer):
    night = ClubNightFactory(club=organizer.club)
    start_game_party("chinchon", 3, night=night)
    key = client.post("/manage/api-keys/", {"name": "backup"}).context["key"]
    answer = client.get(f"/api/manage/nights/{night.pk}/archive", **bearer(key))
    assert answer.status_code == 200
    assert answer.json()["parties"][0]["game"] == "chinchon"


# ---------------------------------------------------------------------------- refused


@pytest.fixture
def night_archive(db):
    night, _ = chinchon_night(runs_too(ClubFactory(), "director"))
    return as_file(night_export(night))


def refusal(data) -> dict:
    """What the import says of ``data``, and that it wrote nothing."""
    parties = Party.objects.count()
    hands = Hand.objects.count()
    club = ClubFactory()
    with pytest.raises(ArchiveError) as raised:
        archive_import(data=data, club=club)
    assert (Party.objects.count(), Hand.objects.count()) == (parties, hands)
    assert not club.nights.exists()
    return {e.field: e.message for e in raised.value.errors}


def four(data) -> dict:
    """The archive's Chinchón party of four."""
    return next(p for p in data["parties"] if p.get("game") and len(p["seats"]) == 4)


def test_an_archive_of_an_unknown_game_is_refused(night_archive):
    four(night_archive)["game"] = "poker"
    problems = refusal(night_archive)
    (field,) = [f for f in problems if f.endswith(".game")]
    assert "must be one of" in problems[field] and "chinchon" in problems[field]


def test_an_entry_for_a_seat_not_in_the_party_is_refused(night_archive):
    party = four(night_archive)
    party["hands"][0]["entered_by"] = 5
    party["hands"][1]["confirmations"] = [1, 6]
    problems = refusal(night_archive)
    at = f"parties.{night_archive['parties'].index(party)}.hands"
    assert problems[f"{at}.0.entered_by"] == "names a seat the archive does not hold"
    assert problems[f"{at}.1.confirmations.1"] == "names a seat the archive does not hold"


def test_an_entry_the_game_refuses_is_refused(night_archive):
    party = four(night_archive)
    party["hands"][0]["details"]["entry"] = {"closer": 7, "penalties": [0, 10, 20, 30]}
    party["hands"][2]["scores"] = [3, 4, -10, 6]
    problems = refusal(night_archive)
    at = f"parties.{night_archive['parties'].index(party)}.hands"
    assert problems[f"{at}.0.details.entry"].startswith("the game refuses this entry: Say who")
    assert problems[f"{at}.2.scores"] == "the game scores this entry 3, 4, 1, 6"


@pytest.mark.parametrize(
    ("field", "value", "rule"),
    [
        ("knocker", 1, "is not a field an archive may hold"),
        ("kind", "gin", "is not a field an archive may hold"),
        ("ending", "knock", "must be one of “scored”"),
        ("table", 2, "must be at most 1"),
        ("scores", None, "is missing"),
    ],
)
def test_a_hand_kept_otherwise_than_its_game_keeps_it_is_refused(night_archive, field, value, rule):
    # The party formats' columns, endings and tables are not a Chinchón hand's,
    # and its scores come with it.
    party = four(night_archive)
    if value is None:
        del party["hands"][0][field]
    else:
        party["hands"][0][field] = value
    problems = refusal(night_archive)
    at = f"parties.{night_archive['parties'].index(party)}.hands.0.{field}"
    assert problems[at] == rule


def test_options_the_game_does_not_have_are_refused(night_archive):
    party = four(night_archive)
    party["rules"] = {"deck": 52, "conga": False}
    problems = refusal(night_archive)
    at = f"parties.{night_archive['parties'].index(party)}.rules"
    assert problems[at] == "deck is one of 40, 48, not 52."


def test_a_version_1_archive_of_another_game_is_refused(night_archive):
    night_archive["version"] = 1
    # A night of Chinchón and Gin Rummy: version 1 knew Gin Rummy's parties only.
    games = {GAMES[party["game"]] for party in night_archive["parties"]}
    assert {bool(game.formats) for game in games} == {True, False}
    assert refusal(night_archive)["version"] == (
        "an archive of version 1 cannot hold a party of Chinchón"
    )


def test_refusals_speak_german(night_archive):
    party = four(night_archive)
    party["hands"][0]["details"]["entry"] = {"closer": 7, "penalties": [0, 10, 20, 30]}
    with translation.override("de"):
        problems = refusal(night_archive)
    at = f"parties.{night_archive['parties'].index(party)}.hands.0.details.entry"
    assert problems[at].startswith("das Kartenspiel nimmt diese Eingabe nicht an: ")


@pytest.fixture
def tournament_archive(club, committed):
    tournament, round = table_tournament(club, 7, committed, size=4, rounds=2)
    for view in tables_of(round):
        play_chinchon(view.table.party, [0, *range(10, 10 * len(view.entrants) - 10, 10), 100])
    round_close(round=round)
    return as_file(tournament_export(tournament))


def test_a_table_of_the_wrong_size_is_refused(tournament_archive):
    # Seat the three of table 2 at table 1 too: five at a table of four.
    seatings = tournament_archive["seatings"]
    moved = [s for s in seatings if s["table"] == [1, 2]][:1]
    for seating in moved:
        seating["table"] = [1, 1]
        seating["side"] = 4
    problems = refusal(tournament_archive)
    assert problems["tables.0"] == "a table seats 4 / 3 entrants, on the seats from 0 without a gap"
    assert problems["tables.1"] == "a table seats 4 / 3 entrants, on the seats from 0 without a gap"


def test_a_tournament_table_size_the_game_is_not_played_at_is_refused(tournament_archive):
    tournament_archive["tournament"]["table_size"] = 6
    problems = refusal(tournament_archive)
    assert "tables of 3, 4 players" in problems["tournament.game"]


def test_a_tables_party_of_other_players_is_refused(tournament_archive):
    party = next(p for p in tournament_archive["parties"] if len(p["seats"]) == 4)
    first, second = party["seats"][0]["player"], party["seats"][1]["player"]
    party["seats"][0]["player"], party["seats"][1]["player"] = second, first
    problems = refusal(tournament_archive)
    assert any(
        message == "the party's players are not the entrants at its table, in their seats"
        for message in problems.values()
    )


@pytest.mark.parametrize("kind", [{"table": 1}, ["table"]])
def test_a_round_line_whose_kind_is_no_word_is_refused_not_an_error(tournament_archive, kind):
    # Found by the mutation property test: a kind that is an object or a list made
    # the line's type lookup fail (a 500), not the archive's check.
    lines = [
        line for r in tournament_archive["rounds"] for line in r["explanation"] if "kind" in line
    ]
    lines[0]["kind"] = kind
    problems = refusal(tournament_archive)
    assert any(path.startswith("rounds.0.explanation.0") for path in problems), problems
