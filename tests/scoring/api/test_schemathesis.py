"""Schemathesis against the API's own OpenAPI document, on a live server (CI runs
this on SQLite and on PostgreSQL): requests generated from the schema, valid and
invalid, NUL bytes included, reach every endpoint with a real seat token, party,
hand, seat position and club night, and a logged-in organizer; not one is answered
with a 5xx, and every answer is one its operation documents: its status, its
content type, its headers and its body's schema.

In the suite the run is bounded: a fixed number of examples per operation from a
stored seed, and the examples that once failed (schemathesis keeps them in
.hypothesis/) tried first. ``make fuzz`` runs it deeper: fuzzing goes on for
FUZZ_SECONDS from a new seed, which it prints."""

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.request import Request, urlopen

import pytest
from django.test import Client

from clubs.services import api_token_create
from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.factories import ClubNightFactory, MembershipFactory, UserFactory, start_party
from tournaments import registration, rounds

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
ROOT = Path(__file__).resolve().parents[3]
# Examples per operation in the suite; make fuzz sets FUZZ_SECONDS instead.
SUITE_EXAMPLES = 12
FUZZ_SECONDS = int(os.environ.get("FUZZ_SECONDS") or 0)
# Any 32 letters: the CSRF check compares the cookie with the header.
CSRF = "k" * 32
CHECKS = [
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
]


# The document in three parts of about the same work, each a test of its own, so
# that the suite's processes share them out: in one piece it was the suite's
# longest test, and ran on alone at the end of a pass.
PARTS = {
    "organizer": r"^/api/manage/",
    "seat and parties": r"^/api/(tables|parties)/",
    "public": r"^/api/(?!manage/|tables/|parties/)",
}
# The old addresses a phone or script may still use answer by the same handlers as
# the one address of every game (documented as aliases): the suite leaves them to
# make fuzz, which tries every operation.
ALIASES = r"/game(/|$)|/decide-entry$"


@pytest.mark.skipif(not SCHEMATHESIS.exists(), reason="schemathesis is not installed")
@pytest.mark.timeout(900 + FUZZ_SECONDS)
@pytest.mark.parametrize("part", PARTS)
def test_every_answer_to_a_generated_request_is_one_the_document_lists(live_site, tmp_path, part):
    party = start_party()
    a, b = party.seats.order_by("position")
    hand = hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21)).hand
    # A tournament of the party's club under the club's own slug, its round 1
    # paired and a hand played at its table: the club's and the tournament's
    # addresses answer with real bodies too.
    club = party.club
    tournament = registration.tournament_create(club=club, name="Spring Open", slug=club.slug)
    players = [MembershipFactory(club=club).player for _ in range(2)]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    round = rounds.round_start(tournament=tournament)
    played = round.tables.get().party.seats.get(position=0)
    hand_enter(seat=played, number=1, entry=Result("gin", 0, 0, 30))
    # A night of its own, without parties: closing it is allowed once, and the
    # party's seats and hands stay open to the entries for the whole run.
    night = ClubNightFactory()
    organizer = Client()
    user = UserFactory(is_superuser=True)
    organizer.force_login(user)
    session = organizer.cookies["sessionid"].value
    cookie = f"sessionid={session}; csrftoken={CSRF}"
    # The organizer's API as a club's script calls it, with a personal key; the
    # parties' operations as the organizer's pages call them, with the session.
    _, key = api_token_create(user=user, name="fuzz")
    signed = (
        ["-H", f"Authorization: Bearer {key}"]
        if part == "organizer"
        else ["-H", f"Cookie: {cookie}", "-H", f"X-CSRFToken: {CSRF}"]
    )
    # The organizer's endpoints are reached as the organizer, not only refused.
    request = Request(f"{live_site.url}/api/parties/{party.pk}", headers={"Cookie": cookie})
    with urlopen(request, timeout=30) as answer:
        assert answer.status == 200
    config = tmp_path / "schemathesis.toml"
    config.write_text(
        "[parameters]\n"
        f'"path.token" = "{b.token}"\n'
        f'"path.party_id" = {party.pk}\n'
        f'"path.hand_id" = {hand.pk}\n'
        f'"path.night_id" = {night.pk}\n'
        f'"path.slug" = "{club.slug}"\n'
        '"path.number" = 1\n'
        '"path.position" = 0\n'
    )

    run = subprocess.run(
        [
            str(SCHEMATHESIS),
            "--config-file",
            str(config),
            "run",
            f"{live_site.url}/api/openapi.json",
            "--include-path-regex",
            PARTS[part],
            *([] if FUZZ_SECONDS else ["--exclude-path-regex", ALIASES]),
            "--checks",
            ",".join(CHECKS),
            *(
                ["--max-time", str(FUZZ_SECONDS), "--max-examples", "100000"]
                if FUZZ_SECONDS
                else ["--max-examples", str(SUITE_EXAMPLES), "--seed", "1909"]
            ),
            "--generation-database",
            str(ROOT / ".hypothesis" / "schemathesis"),
            # One worker: Python 3.11's parser is not safe to call from two threads at
            # once, and schemathesis parses while it generates.
            "--workers",
            "1",
            "--phases",
            "examples,coverage,fuzzing",
            "--generation-allow-x00",
            "true",
            *signed,
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=600 + FUZZ_SECONDS,
        cwd=tmp_path,
    )

    print(run.stdout[-3000:])  # its seed and what it covered (make fuzz shows it)
    # On a failure, what failed: schemathesis lists it before its summary.
    failures = run.stdout[max(0, run.stdout.find("FAILURES")) :][:12000]
    assert run.returncode == 0, failures + run.stdout[-2000:] + run.stderr[-2000:]
    assert live_site.errors == []


def test_the_parts_take_every_operation_once_and_leave_only_aliases_to_make_fuzz(client):
    document = client.get("/api/openapi.json").json()
    paths = list(document["paths"])
    assert len(paths) >= 25
    for path in paths:
        assert sum(bool(re.search(part, path)) for part in PARTS.values()) == 1, path
    left = [path for path in paths if re.search(ALIASES, path)]
    assert sorted(left) == [
        "/api/parties/{party_id}/hands/{hand_id}/decide-entry",
        "/api/tables/{token}/game",
        "/api/tables/{token}/game/hands",
        "/api/tables/{token}/game/hands/{number}/confirm",
    ]
    # Each alias has the operation it stands for beside it, in the suite's run.
    for path in left:
        assert re.sub(r"/game(?=/|$)|-entry$", "", path) in paths, path
