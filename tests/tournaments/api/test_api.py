"""The documented API: the public's reads respect what is published, a program
runs a whole tournament with an organizer's personal key, and keys reach only
their owner's clubs and stop working when revoked. A tournament of any game: the
organizer creates it with its game, players per table and options (what does not
go together is a 422 with a JSON body that says why); a round's answers carry every
seat of a table with its total, margin, place at the table and tournament points,
and the standings the game score."""

import pytest
from django.test import Client

from clubs.models import ApiToken
from clubs.names import initials
from tests.factories import ClubFactory, MembershipFactory, OrganizerFactory
from tests.tournaments.conftest import first_table, play_out
from tests.tournaments.test_table_tournaments import play_chinchon, table_tournament, tables_of
from tournaments.models import Tournament
from tournaments.tables import round_tables

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora"]


def post(client, url, data=None, **headers):
    return client.post(url, data or {}, content_type="application/json", **headers)


@pytest.fixture
def keyholder(client):
    """An organizer of a club with a personal key made on the keys page."""
    membership = OrganizerFactory(player__user__username="director")
    client.force_login(membership.player.user)
    page = client.post("/manage/api-keys/", {"name": "club website"})
    key = page.context["key"]
    client.logout()
    return membership.club, key


def bearer(key):
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def test_the_index_lists_the_endpoints_and_the_documents(client):
    index = client.get("/api/").json()
    paths = {e["path"] for e in index["endpoints"]}
    assert {"/api/tournaments/{slug}/standings", "/api/clubs", "/api/tables/{token}"} <= paths
    assert index["openapi"].endswith("/api/openapi.json")
    assert client.get("/api/openapi.json").status_code == 200
    assert client.get("/api/docs").status_code == 200


def test_the_public_reads_a_running_tournament(started, confirmed, client):
    tournament, round = started(NAMES)
    table = first_table(round)
    confirmed(table, deadwood=30)

    listed = client.get("/api/tournaments", {"club": tournament.club.slug}).json()
    standings = client.get(f"/api/tournaments/{tournament.slug}/standings").json()
    rounds = client.get(f"/api/tournaments/{tournament.slug}/rounds").json()
    tables = client.get(f"/api/tournaments/{tournament.slug}/rounds/1").json()["tables"]
    party = client.get(f"/api/tournaments/{tournament.slug}/parties/{table.party_id}").json()

    assert [t["slug"] for t in listed] == [tournament.slug]
    assert sorted(line["name"] for line in standings["lines"]) == NAMES
    assert [r["number"] for r in rounds] == [1]
    mine = next(t for t in tables if t["number"] == table.number)
    assert [s["points"] for s in mine["sides"]] == [50, 0]
    assert [(h["number"], h["kind"], h["points"]) for h in party["hands"]] == [(1, "gin", 50)]
    assert "token" not in str(party)  # no seat link reaches the public


def test_the_public_reads_every_seat_of_a_table_and_the_game_score(
    client, organizer, committed, django_capture_on_commit_callbacks
):
    tournament, round = table_tournament(organizer.club, 12, committed)
    done = tables_of(round)[0]
    with django_capture_on_commit_callbacks(execute=True):
        play_chinchon(done.table.party, [0, 20, 40, 100])

    tables = client.get(f"/api/tournaments/{tournament.slug}/rounds/1").json()["tables"]
    standings = client.get(f"/api/tournaments/{tournament.slug}/standings").json()

    assert [len(t["sides"]) for t in tables] == [4, 4, 4]
    first = tables[0]
    assert first["finished"] and first["hands"] == 1
    assert [s["entrant"] for s in first["sides"]] == [e.pk for e in done.entrants]
    assert [s["total"] for s in first["sides"]] == [-10, 20, 40, 100]
    assert [s["points"] for s in first["sides"]] == [190, 70, -10, -250]
    assert [s["table_place"] for s in first["sides"]] == [1, 2, 3, 4]
    assert [s["earned"] for s in first["sides"]] == [6, 4, 2, 0]
    playing = tables[1]
    assert not playing["finished"]
    assert {s["earned"] for s in playing["sides"]} == {None}
    top = standings["lines"][0]
    assert (top["points"], top["score"], top["won"]) == (6, 190, 1)
    assert standings["lines"][-1]["score"] == -250


def test_a_party_of_another_game_is_read_like_any_other(client, organizer, committed):
    tournament, round = table_tournament(organizer.club, 8, committed)
    party = tables_of(round)[0].table.party
    play_chinchon(party, [0, 20, 40, 100])
    names = [s.player.name for s in party.seats.select_related("player").order_by("position")]

    response = client.get(f"/api/tournaments/{tournament.slug}/parties/{party.pk}")

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["game"], body["status"]) == ("chinchon", "finished")
    # The public sees initials only, as on every public page.
    assert [side["players"] for side in body["sides"]] == [[initials(name)] for name in names]
    assert [side["total"] for side in body["sides"]] == [-10, 20, 40, 100]
    assert {side["boxes"] for side in body["sides"]} == {None}
    [hand] = body["hands"]
    assert (hand["number"], hand["status"], hand["scores"]) == (1, "confirmed", [-10, 20, 40, 100])
    assert hand["ending"] == "scored"


def test_a_gin_rummy_party_s_columns_carry_its_boxes(started, confirmed, client):
    tournament, round = started(NAMES)
    table = first_table(round)
    confirmed(table, deadwood=30)

    party = client.get(f"/api/tournaments/{tournament.slug}/parties/{table.party_id}").json()

    assert party["game"] == "gin_rummy"
    # The gin's 50 and its box go to the side that made it, whichever that is.
    columns = [(s["points"], s["boxes"]) for s in party["sides"]]
    assert sorted(columns) == [(0, 0), (50, 1)]
    assert party["hands"][0]["scores"] == [points for points, _boxes in columns]


def test_unpublished_parts_are_404_with_a_json_body(started, client):
    tournament, round = started(NAMES)
    party = first_table(round).party_id
    Tournament.objects.filter(pk=tournament.pk).update(public_standings=False)
    Tournament.objects.filter(pk=tournament.pk).update(public_pairings=False, public_results=False)

    for path in ["", "/standings", "/rounds/1", f"/parties/{party}"]:
        response = client.get(f"/api/tournaments/{tournament.slug}{path}")
        assert response.status_code == 404, path
        assert response.json()["code"] == "not_found"
    assert client.get("/api/tournaments").json() == []


def test_the_round_in_play_follows_the_pairings_flag_and_closed_ones_the_results(
    started, committed, client
):
    from tournaments.rounds import round_close, round_pair_next

    tournament, round = started(NAMES)
    for view in round_tables(round):
        play_out(view.table, view.entrants[0])
    committed(round_close, round=round)
    committed(round_pair_next, tournament=tournament)
    Tournament.objects.filter(pk=tournament.pk).update(public_pairings=False)

    numbers = [r["number"] for r in client.get(f"/api/tournaments/{tournament.slug}/rounds").json()]

    assert numbers == [1]
    assert client.get(f"/api/tournaments/{tournament.slug}/rounds/2").status_code == 404


def test_hostile_names_come_back_as_plain_data(started, client):
    hostile = "<script>alert(1)</script>\"'&"
    tournament, _ = started([hostile, "Ben"])
    response = client.get(f"/api/tournaments/{tournament.slug}/standings")
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert hostile in [line["name"] for line in response.json()["lines"]]


def test_a_program_runs_a_tournament_with_a_personal_key(
    keyholder, client, django_capture_on_commit_callbacks
):
    club, key = keyholder
    members = [MembershipFactory(club=club, player__name=n, listed=True).player for n in NAMES[:3]]
    auth = bearer(key)
    anonymous = Client()

    created = post(
        client, f"/api/manage/clubs/{club.slug}/tournaments", {"name": "Cup", "rounds": 2}, **auth
    )
    assert created.status_code == 201, created.content
    slug = created.json()["slug"]
    entered = post(
        client,
        f"/api/manage/tournaments/{slug}/entrants",
        {"players": [p.pk for p in members], "guests": ["Gast <b>Eins</b>"]},
        **auth,
    )
    assert entered.status_code == 201, entered.content
    for entrant in entered.json():
        checked = post(
            client, f"/api/manage/tournaments/{slug}/entrants/{entrant['id']}/check-in", **auth
        )
        assert checked.json()["checked_in"] is True
    # Starting pairs round 1 (eagerly here, after the commit).
    with django_capture_on_commit_callbacks(execute=True):
        started = post(client, f"/api/manage/tournaments/{slug}/start", **auth)
    assert started.status_code == 200, started.content

    for number in (1, 2):
        detail = client.get(f"/api/manage/tournaments/{slug}", **auth).json()
        round = detail["rounds_played"][number - 1]
        assert round["status"] == "playing"
        for table in round["tables"]:
            # Each table plays through the seat API, with the links the organizer reads.
            seats = client.get(f"/api/parties/{table['party']}", **auth).json()["seats"]
            a, b = seats
            hand = {"number": 1, "ending": "gin", "knocker": a["position"], "defender_deadwood": 90}
            assert post(anonymous, f"/api/tables/{a['token']}/hands", hand).status_code == 201
            # The other phone confirms the entry in the version it shows.
            shown = anonymous.get(f"/api/tables/{b['token']}").json()["open_hand"]
            confirm = post(
                anonymous,
                f"/api/tables/{b['token']}/hands/1/confirm",
                {"version": shown["version"]},
            )
            assert confirm.json()["table"]["settlement"] is not None
        closed = post(client, f"/api/manage/tournaments/{slug}/rounds/{number}/close", **auth)
        assert closed.status_code == 200, closed.content
        if number == 1:
            with django_capture_on_commit_callbacks(execute=True):
                paired = post(client, f"/api/manage/tournaments/{slug}/rounds/next", **auth)
            assert paired.status_code == 200

    finished = post(client, f"/api/manage/tournaments/{slug}/finish", {"final_draw": True}, **auth)
    assert finished.json()["status"] == "finished"
    standings = anonymous.get(f"/api/tournaments/{slug}/standings").json()
    # Every party is won by what its loser loses: the points add up to nothing.
    assert sum(line["points"] for line in standings["lines"]) == 0
    # The public sees a guest by his initials (clubs.names), the listed members in full.
    assert sorted(line["name"] for line in standings["lines"]) == sorted(
        [*NAMES[:3], initials("Gast <b>Eins</b>")]
    )


def test_the_organizers_detail_carries_every_seat_of_each_table(client, organizer, committed):
    tournament, round = table_tournament(organizer.club, 10, committed)
    play_chinchon(tables_of(round)[0].table.party, [0, 20, 40, 100])

    body = client.get(f"/api/manage/tournaments/{tournament.slug}").json()

    assert (body["game"], body["table_size"]) == ("chinchon", 4)
    tables = body["rounds_played"][0]["tables"]
    # Ten at tables of four: one of four and two of three.
    assert [len(t["sides"]) for t in tables] == [4, 3, 3]
    assert [s["earned"] for s in tables[0]["sides"]] == [6, 4, 2, 0]


@pytest.mark.parametrize(
    ("fields", "game", "table_size", "options"),
    [
        # Gin Rummy when the body leaves the game out, two at a table.
        ({}, "gin_rummy", None, {}),
        (
            {"game": "chinchon", "table_size": 4, "options": {"deck": 48}},
            "chinchon",
            4,
            {"deck": 48, "conga": False},
        ),
    ],
)
def test_the_organizer_creates_a_tournament_of_its_game(
    client, organizer, fields, game, table_size, options
):
    response = post(
        client, f"/api/manage/clubs/{organizer.club.slug}/tournaments", {"name": "Cup"} | fields
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["game"], body["table_size"], body["options"]) == (game, table_size, options)
    detail = client.get(f"/api/tournaments/{body['slug']}").json()
    assert (detail["game"], detail["table_size"]) == (game, table_size)


@pytest.mark.parametrize(
    "fields,words",
    [
        ({"game": "chinchon", "table_size": 5}, "tables of 3, 4 players"),
        ({"game": "chinchon"}, "tables of 3, 4 players"),
        ({"game": "chinchon", "table_size": 4, "format": "knockout"}, "Swiss system"),
        ({"game": "cruzo", "table_size": 4, "format": "knockout"}, "or planned ahead"),
        ({"table_size": 4}, "Gin Rummy is played two at a table"),
        ({"options": {"deck": 40}}, "Gin Rummy is played two at a table"),
        ({"game": "chinchon", "table_size": 4, "options": {"trumps": 1}}, "no rule called"),
        ({"game": "chinchon", "table_size": 4, "options": {"deck": 52}}, "deck is one of"),
        (
            {"game": "canasta", "table_size": 4, "options": {"partnerships": 3}},
            "two partnerships",
        ),
    ],
)
def test_a_game_that_does_not_go_together_is_a_422_that_says_why(client, organizer, fields, words):
    response = post(
        client, f"/api/manage/clubs/{organizer.club.slug}/tournaments", {"name": "Cup"} | fields
    )

    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_game"
    assert words in body["detail"]


@pytest.mark.parametrize(
    "fields",
    [
        {"game": "poker", "table_size": 4},
        {"game": "chinchon", "table_size": 7},
        {"game": "chinchon", "table_size": 4, "options": {"deck": "forty"}},
        {"game": "chinchon", "table_size": 4, "options": [40]},
    ],
)
def test_a_body_that_does_not_fit_is_a_422_naming_the_field(client, organizer, fields):
    response = post(
        client, f"/api/manage/clubs/{organizer.club.slug}/tournaments", {"name": "Cup"} | fields
    )

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_entry"


def test_a_refused_action_is_a_409_and_bad_input_a_422(keyholder, client):
    club, key = keyholder
    created = post(
        client, f"/api/manage/clubs/{club.slug}/tournaments", {"name": "Cup"}, **bearer(key)
    )
    slug = created.json()["slug"]

    early = post(client, f"/api/manage/tournaments/{slug}/start", **bearer(key))
    bad = post(
        client, f"/api/manage/clubs/{club.slug}/tournaments", {"name": "", "x": 1}, **bearer(key)
    )
    stranger = post(
        client, f"/api/manage/tournaments/{slug}/entrants", {"players": [10**6]}, **bearer(key)
    )

    assert (early.status_code, early.json()["code"]) == (409, "refused")
    assert "two entrants" in early.json()["detail"]
    assert (bad.status_code, bad.json()["code"]) == (422, "invalid_entry")
    assert (stranger.status_code, stranger.json()["code"]) == (409, "refused")


def test_a_check_in_needs_no_body(keyholder, client):
    club, key = keyholder
    slug = post(
        client, f"/api/manage/clubs/{club.slug}/tournaments", {"name": "Cup"}, **bearer(key)
    ).json()["slug"]
    member = MembershipFactory(club=club).player
    entrant = post(
        client, f"/api/manage/tournaments/{slug}/entrants", {"players": [member.pk]}, **bearer(key)
    ).json()[0]
    url = f"/api/manage/tournaments/{slug}/entrants/{entrant['id']}/check-in"

    bare = client.generic("POST", url, **bearer(key))  # no body at all (curl -X POST)
    assert (bare.status_code, bare.json()["checked_in"]) == (200, True), bare.content
    out = post(client, url, {"checked_in": False}, **bearer(key))
    assert out.json()["checked_in"] is False
    assert post(client, url, **bearer(key)).json()["checked_in"] is True  # {} as before


def test_a_key_reaches_only_its_owners_clubs(keyholder, client):
    _, key = keyholder
    other = ClubFactory()
    MembershipFactory(club=other)

    players = client.get(f"/api/manage/clubs/{other.slug}/players", **bearer(key))
    create = post(
        client, f"/api/manage/clubs/{other.slug}/tournaments", {"name": "X"}, **bearer(key)
    )

    # As for anyone who does not organize the club: nothing there.
    assert (players.status_code, players.json()["code"]) == (404, "not_found")
    assert create.status_code == 404
    assert other.name not in players.content.decode() + create.content.decode()
    assert not Tournament.objects.exists()


def test_only_a_hash_of_the_key_is_stored_and_a_revoked_key_stops_working(keyholder, client):
    club, key = keyholder
    token = ApiToken.objects.get()
    assert key not in (token.digest, token.prefix, token.name)
    assert key.startswith(token.prefix)
    assert client.get(f"/api/manage/clubs/{club.slug}/players", **bearer(key)).status_code == 200

    client.force_login(token.user)
    client.post(f"/manage/api-keys/{token.pk}/revoke/")
    client.logout()

    refused = client.get(f"/api/manage/clubs/{club.slug}/players", **bearer(key))
    assert (refused.status_code, refused.json()["code"]) == (401, "not_authenticated")
    assert client.get("/api/manage/clubs", **bearer("knock_guess")).status_code == 401


def test_nobody_revokes_another_organizers_key(keyholder, client):
    token = ApiToken.objects.get()
    someone = OrganizerFactory(player__user__username="other").player.user
    client.force_login(someone)
    assert client.post(f"/manage/api-keys/{token.pk}/revoke/").status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None


def test_the_keys_page_escapes_the_key_name(client, organizer):
    page = client.post("/manage/api-keys/", {"name": "<script>x</script>"})
    assert "<script>x</script>" not in page.text
    assert "&lt;script&gt;x&lt;/script&gt;" in page.text


def test_a_night_and_a_party_are_started_with_a_key(keyholder, client):
    club, key = keyholder
    a, b = (MembershipFactory(club=club).player for _ in range(2))
    night = post(
        client,
        f"/api/manage/clubs/{club.slug}/nights",
        {"name": "Friday", "date": "2026-01-09"},
        **bearer(key),
    )
    assert night.status_code == 201, night.content
    party = post(
        client,
        f"/api/manage/nights/{night.json()['id']}/parties",
        {"players": [a.pk, b.pk]},
        **bearer(key),
    )
    assert party.status_code == 201, party.content
    assert {s["player"] for s in party.json()["seats"]} == {a.name, b.name}
    listed = client.get(f"/api/manage/clubs/{club.slug}/nights", **bearer(key)).json()
    assert [n["name"] for n in listed] == ["Friday"]


def test_an_organizer_downloads_a_tournament_and_uploads_it_to_another_club(
    keyholder, client, started
):
    club, key = keyholder
    tournament, _ = started(NAMES)
    from tournaments.models import Tournament as T

    T.objects.filter(pk=tournament.pk).update(club=club)
    # The same organizer runs a second club.
    other = OrganizerFactory(player=ApiToken.objects.get().user.player).club

    archive = client.get(f"/api/manage/tournaments/{tournament.slug}/archive", **bearer(key))
    assert archive.status_code == 200
    imported = post(
        client, f"/api/manage/clubs/{other.slug}/archive", archive.json(), **bearer(key)
    )
    damaged = post(
        client,
        f"/api/manage/clubs/{other.slug}/archive",
        {"format": "x", "version": 1, "kind": "night"},
        **bearer(key),
    )

    assert imported.status_code == 201, imported.content
    copy = T.objects.get(slug=imported.json()["slug"])
    assert copy.club == other
    assert sorted(e.player.name for e in copy.entrants.select_related("player")) == NAMES
    assert (damaged.status_code, damaged.json()["code"]) == (422, "invalid_archive")


def test_a_refusal_is_worded_in_the_readers_language(keyholder, client):
    club, key = keyholder
    created = post(
        client, f"/api/manage/clubs/{club.slug}/tournaments", {"name": "Cup"}, **bearer(key)
    )
    early = post(
        client,
        f"/api/manage/tournaments/{created.json()['slug']}/start",
        HTTP_ACCEPT_LANGUAGE="de",
        **bearer(key),
    )
    assert early.json()["detail"] == "Mindestens zwei Teilnehmer müssen anwesend sein."
