"""What an outside program sees: a client generated from the live `/api/openapi.json`
(openapi-python-client, as a club's developer would run it) plays a tournament's
party — two phones enter and confirm hands, a dispute is decided by the organizer
with his API key — and reads the sheet, the standings and the club. Every answer
is parsed into the documented model; a status the document does not list is an
error of the client."""

import importlib
import subprocess
import sys
from pathlib import Path
from urllib.request import urlopen

import pytest

from clubs.services import api_token_create
from tests.factories import OrganizerFactory, start_party

pytestmark = pytest.mark.django_db(transaction=True)

BIN = Path(sys.executable).parent
GENERATOR = BIN / "openapi-python-client"
PACKAGE = "knock_client"


def generate(url: str, where: Path):
    """Generates and imports the client from the document at ``url``."""
    document = where / "openapi.json"
    with urlopen(url, timeout=30) as answer:
        document.write_bytes(answer.read())
    # The generator formats its output with ruff: the virtualenv's own, named in
    # full, so that nothing is looked up on the PATH or fetched.
    ruff = BIN / "ruff"
    config = where / "generator.yaml"
    config.write_text(f'post_hooks:\n  - "{ruff} check . --fix-only"\n  - "{ruff} format ."\n')
    run = subprocess.run(
        [
            str(GENERATOR),
            *("generate", "--path", str(document), "--meta", "none"),
            *("--output-path", str(where / PACKAGE), "--config", str(config)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=where,
    )
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    # The generator warns about every part of the document it had to skip.
    assert "Warning" not in said, said
    sys.path.insert(0, str(where))
    try:
        package = importlib.import_module(PACKAGE)
        importlib.import_module(f"{PACKAGE}.client")
        importlib.import_module(f"{PACKAGE}.models")
        return package
    finally:
        sys.path.remove(str(where))


@pytest.fixture
def knock(live_server, tmp_path):
    yield generate(f"{live_server.url}/api/openapi.json", tmp_path)
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]


def operation(knock, name: str):
    """The operation by its id's last part (``table_detail``), whatever its tag."""
    for group in (Path(knock.__file__).parent / "api").iterdir():
        for module in group.glob(f"*_api_*_{name}.py"):
            return importlib.import_module(f"{PACKAGE}.api.{group.name}.{module.stem}")
    raise LookupError(name)


def call(knock, client, name: str, status: int, **arguments):
    """Calls the operation and returns its parsed answer, which must be ``status``."""
    response = operation(knock, name).sync_detailed(client=client, **arguments)
    assert response.status_code == status, response.content
    return response.parsed


def test_a_generated_client_plays_a_party_and_reads_the_sheet_and_the_standings(
    knock, live_server, started
):
    tournament, round = started(["Anna", "Ben"])
    party = round.tables.get().party
    first, second = party.seats.order_by("position")
    owner = OrganizerFactory(club=tournament.club).player.user
    _, key = api_token_create(user=owner, name="club website")
    models = knock.models
    phone = knock.client.Client(base_url=live_server.url, raise_on_unexpected_status=True)
    office = knock.client.AuthenticatedClient(
        base_url=live_server.url, token=key, raise_on_unexpected_status=True
    )

    table = call(knock, phone, "table_detail", 200, token=first.token)
    assert isinstance(table, models.SeatTableOut)
    assert (table.number, table.open_hand, table.sheet.rows) == (1, None, [])

    def knock_by(seat, number, mine, theirs, **more):
        # The document lists an entry's ways (`ResultIn`): a knock by its counts.
        entry = models.KnockHandEntryIn(
            number=number,
            ending="knock",
            knocker=seat.position,
            knocker_deadwood=mine,
            defender_deadwood=theirs,
            **more,
        )
        return call(knock, phone, "table_hand_enter", 201, token=seat.token, body=entry)

    entered = knock_by(first, 1, 3, 21)
    assert isinstance(entered, models.EntryOut)
    assert entered.outcome == models.EntryOutOutcome.ENTERED
    assert entered.table.open_hand.number == 1
    confirmed = call(
        knock,
        phone,
        "table_hand_confirm",
        200,
        token=second.token,
        number=1,
        body=models.ConfirmIn(version=entered.hand.version),
    )
    assert confirmed.outcome == models.EntryOutOutcome.CONFIRMED
    assert confirmed.hand.points == 18

    # Hand 2: the phones disagree, and the organizer takes the first version.
    pending = knock_by(first, 2, 5, 30).hand
    disputed = knock_by(second, 2, 5, 20, version=pending.version)
    assert disputed.outcome == models.EntryOutOutcome.DISPUTED
    # The phone cannot confirm it now: 409, with the entry as it stands.
    refused = call(
        knock,
        phone,
        "table_hand_confirm",
        409,
        token=second.token,
        number=2,
        body=models.ConfirmIn(version=disputed.hand.version),
    )
    assert isinstance(refused, models.ChangedOut)
    assert refused.code == "hand_disputed"
    decision = models.ResolveByAcceptingAVersionDecideIn(
        action="resolve",
        reason="The score pad says 30",
        version=models.ResolveByAcceptingAVersionDecideInVersion.ENTERED,
    )
    decided = call(
        knock,
        office,
        "party_hand_decide",
        200,
        party_id=party.pk,
        hand_id=disputed.hand.id,
        body=decision,
    )
    assert isinstance(decided, models.DecideOut)
    assert (decided.hand.status, decided.hand.points) == ("confirmed", 25)
    detail = call(knock, office, "party_detail", 200, party_id=party.pk)
    assert isinstance(detail, models.PartyDetailOut)
    assert [hand.decided for hand in detail.hands] == [False, True]

    sheet = call(knock, phone, "table_detail", 200, token=second.token).sheet
    assert [(row.number, row.points) for row in sheet.rows] == [(1, 18), (2, 25)]
    assert sheet.points == [43, 0]

    standings = call(knock, phone, "tournament_standings", 200, slug=tournament.slug)
    assert isinstance(standings, models.StandingsOut)
    assert standings.provisional
    assert {line.name for line in standings.lines} == {"Anna", "Ben"}
    played = call(knock, phone, "tournament_party", 200, slug=tournament.slug, party_id=party.pk)
    assert isinstance(played, models.TournamentPartyOut)
    assert [hand.points for hand in played.hands] == [18, 25]
    club = call(knock, phone, "club_detail", 200, slug=tournament.club.slug)
    assert isinstance(club, models.ClubDetailOut)
    assert (club.slug, club.nights) == (tournament.club.slug, [])


def test_a_generated_client_reads_each_refusal_as_the_error_it_is(knock, live_server):
    seat = start_party().seats.get(position=0)
    phone = knock.client.Client(base_url=live_server.url, raise_on_unexpected_status=True)
    missing = call(knock, phone, "table_detail", 404, token="no-such-seat")
    assert isinstance(missing, knock.models.ErrorOut)
    assert missing.code == "not_found"
    nobody = call(knock, phone, "managed_club_list", 401)
    assert nobody.code == "not_authenticated"
    # A knocker out of range: the generated class takes it, the server does not.
    entry = knock.models.KnockHandEntryIn(
        number=1, ending="knock", knocker=9, knocker_deadwood=3, defender_deadwood=21
    )
    invalid = call(knock, phone, "table_hand_enter", 422, token=seat.token, body=entry)
    assert invalid.code == "invalid_entry"
    assert [error.field for error in invalid.errors] == ["knocker"]
