"""The member list in bulk: a file is read, every row shown as it will be taken,
and only a confirmation writes; the export reads back in unchanged."""

import csv
import datetime
import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import P
from openpyxl import Workbook, load_workbook

from clubs.models import ClubRecord, Membership
from clubs.roster import MAX_BYTES, MAX_ROWS
from tests.conftest import messages_after
from tests.factories import MembershipFactory, OrganizerFactory

pytestmark = pytest.mark.django_db

HEADER = "name,email,role,member since,active,listed publicly\n"


def xlsx(rows, more_sheets=()) -> bytes:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    for title in more_sheets:
        book.create_sheet(title).append(["name"])
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def ods_cell(value, repeated=1):
    """A cell as LibreOffice writes it: typed, with its text shown."""
    more = {"numbercolumnsrepeated": repeated} if repeated > 1 else {}
    if value is None:
        return TableCell(**more)
    if isinstance(value, bool):
        cell = TableCell(valuetype="boolean", booleanvalue=str(value).lower(), **more)
    elif isinstance(value, datetime.date):
        cell = TableCell(valuetype="date", datevalue=value.isoformat(), **more)
    else:
        cell = TableCell(valuetype="string", **more)
    cell.addElement(P(text=str(value)))
    return cell


def ods(rows, more_sheets=()) -> bytes:
    """``rows``: lists of values, or ("repeat", n) for n empty rows in one element."""
    document = OpenDocumentSpreadsheet()
    for title in ["members", *more_sheets]:
        sheet = Table(name=title)
        for row in rows if title == "members" else [["name"], ["Other Sheet"]]:
            if row and row[0] == "repeat":
                element = TableRow(numberrowsrepeated=row[1])
                element.addElement(TableCell(numbercolumnsrepeated=1024))
            else:
                element = TableRow()
                for value in row:
                    element.addElement(ods_cell(value))
                element.addElement(ods_cell(None, repeated=1000))
            sheet.addElement(element)
        document.spreadsheet.addElement(sheet)
    stream = io.BytesIO()
    document.save(stream)
    return stream.getvalue()


SPREADSHEETS = {"xlsx": xlsx, "ods": ods}


def upload(client, club, content: bytes | str, filename="members.csv"):
    if isinstance(content, str):
        content = content.encode()
    return client.post(
        reverse("manage:member-import", args=[club.slug]),
        {"file": SimpleUploadedFile(filename, content)},
    )


def preview(client, club):
    return client.get(reverse("manage:member-import-preview", args=[club.slug]))


def confirm(client, club, seen=None):
    if seen is None:
        seen = preview(client, club).context["seen"]
    return client.post(reverse("manage:member-import-preview", args=[club.slug]), {"seen": seen})


def verdicts(client, club):
    return {v.line: v for v in preview(client, club).context["verdicts"]}


def test_a_csv_shows_new_rows_in_the_preview_and_writes_nothing_until_confirmed(client, organizer):
    club = organizer.club
    response = upload(
        client,
        club,
        HEADER + "Ada Lovelace,ada@example.org,member,2021-03-04,yes,yes\nBob Byte,,guest,,,\n",
    )
    assert response.status_code == 302
    rows = verdicts(client, club)
    assert [(v.name, v.kind) for v in rows.values()] == [
        ("Ada Lovelace", "new"),
        ("Bob Byte", "new"),
    ]
    assert not club.memberships.filter(player__name="Ada Lovelace").exists()

    response = confirm(client, club)
    assert response.status_code == 302
    assert "2 added, 0 changed" in messages_after(client, response)[0]
    ada = club.memberships.select_related("player").get(player__name="Ada Lovelace")
    assert (ada.player.email, ada.role, ada.since, ada.active, ada.listed) == (
        "ada@example.org",
        "member",
        datetime.date(2021, 3, 4),
        True,
        True,
    )
    assert club.memberships.get(player__name="Bob Byte").role == "guest"
    imported = ClubRecord.objects.get(club=club, action=ClubRecord.Action.IMPORTED)
    assert imported.details == {"file": "members.csv", "added": 2, "changed": 0, "refused": 0}
    assert ClubRecord.objects.filter(club=club, action=ClubRecord.Action.MEMBER).count() == 2
    record = client.get(reverse("manage:club-detail", args=[club.slug])).text
    assert "member list imported" in record
    assert "File: members.csv · Added: 2 · Changed: 0 · Refused: 0" in record


def test_german_headers_a_bom_and_semicolons_are_read(client, organizer):
    club = organizer.club
    text = "\ufeffName;E-Mail;Rolle;Mitglied seit;aktiv;öffentlich genannt\n"
    text += "Jürgen Müller;jm@example.de;Gast;31.12.2019;ja;nein\n"
    upload(client, club, text.encode("utf-8"))
    (row,) = verdicts(client, club).values()
    assert row.kind == "new"
    assert row.values == {
        "name": "Jürgen Müller",
        "email": "jm@example.de",
        "role": "guest",
        "since": datetime.date(2019, 12, 31),
        "active": True,
        "listed": False,
    }


def test_a_windows_csv_of_a_german_spreadsheet_keeps_its_umlauts(client, organizer):
    upload(client, organizer.club, "Name;E-Mail\nGünther Öz;\n".encode("cp1252"))
    (row,) = verdicts(client, organizer.club).values()
    assert row.name == "Günther Öz"


def test_an_existing_member_is_matched_by_email_and_the_preview_says_what_changes(
    client, organizer
):
    club = organizer.club
    member = MembershipFactory(
        club=club, player__name="Ada King", player__email="ada@example.org", role="guest"
    )
    MembershipFactory(club=club, player__name="Cy Young")
    upload(client, club, HEADER + "Ada Lovelace,ADA@example.org,member,,,\nCy Young,,,,,\n")
    rows = verdicts(client, club)
    assert rows[2].kind == "same" and rows[2].membership == member
    assert rows[2].notes == ("name: Ada King → Ada Lovelace", "role: guest → member")
    assert rows[3].kind == "same" and rows[3].notes == ()
    assert "existing member, changed" in preview(client, club).text

    confirm(client, club)
    member.refresh_from_db()
    member.player.refresh_from_db()
    assert (member.player.name, member.role) == ("Ada Lovelace", "member")
    role = ClubRecord.objects.get(club=club, action=ClubRecord.Action.ROLE)
    assert role.details == {"player": "Ada Lovelace", "before": "guest", "after": "member"}


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        (",x@example.org,,,,", "No name."),
        ("\u202e,x@example.org,,,,", "No name."),
        ("\u200b\u3164,,,,,", "No name."),
        ("Ann,not-an-address,,,,", "is no e-mail address"),
        ("Ann,,captain,,,", "“captain” is no role"),
        ("Ann,,organizer,,,", "An import does not make organizers"),
        ("Ann,,Vereinsinhaber,,,", "is no role"),
        ("Ann,,,next tuesday,,", "“next tuesday” is no date"),
        ("Ann,,,31.02.2020,,", "is no date"),
        ("Ann,,,,perhaps,,", "neither yes nor no"),
        ("Ann\x07Bell,,,,,", "invisible control character"),
    ],
)
def test_a_bad_row_is_refused_with_its_reason_and_the_others_are_still_taken(
    client, organizer, row, reason
):
    club = organizer.club
    upload(client, club, HEADER + row + "\nGood Gus,,,,,\n")
    rows = verdicts(client, club)
    assert rows[2].kind == "refused"
    assert any(reason in note for note in rows[2].notes), rows[2].notes
    assert rows[3].kind == "new"
    confirm(client, club)
    assert club.memberships.filter(player__name="Good Gus").exists()
    assert club.memberships.count() == 2


def test_a_second_row_for_the_same_player_is_refused(client, organizer):
    upload(
        client,
        organizer.club,
        HEADER + "Ann Bell,ann@example.org,,,,\nann  bell,,,,,\nAnn B.,Ann@Example.org,,,,\n",
    )
    rows = verdicts(client, organizer.club)
    assert rows[2].kind == "new"
    assert rows[3].notes == ("The same player as row 2.",)
    assert rows[4].notes == ("The same player as row 2.",)


def test_a_name_the_club_has_under_another_email_is_refused(client, organizer):
    MembershipFactory(club=organizer.club, player__name="Ann Bell", player__email="a@example.org")
    upload(client, organizer.club, HEADER + "Ann Bell,b@example.org,,,,\n")
    (row,) = verdicts(client, organizer.club).values()
    assert row.kind == "refused"
    assert "another e-mail" in row.notes[0]


def test_an_organizer_is_not_demoted_or_deactivated_by_an_import(client, organizer):
    name = organizer.player.name
    upload(client, organizer.club, HEADER + f"{name},,member,,,\n")
    assert "only the owner changes that" in verdicts(client, organizer.club)[2].notes[0]
    upload(client, organizer.club, HEADER + f"{name},,,,no,\n")
    assert "the owner revokes that first" in verdicts(client, organizer.club)[2].notes[0]


def test_a_list_changed_since_the_preview_is_not_imported(client, organizer):
    club = organizer.club
    upload(client, club, HEADER + "Ann Bell,,,,,\n")
    seen = preview(client, club).context["seen"]
    MembershipFactory(club=club, player__name="Ann Bell", role="guest")
    response = confirm(client, club, seen=seen)
    assert "changed since the preview" in " ".join(str(m) for m in response.context["messages"])
    assert club.memberships.filter(player__name="Ann Bell").count() == 1
    assert not ClubRecord.objects.filter(club=club, action=ClubRecord.Action.IMPORTED).exists()


def test_confirming_twice_imports_once(client, organizer):
    club = organizer.club
    upload(client, club, HEADER + "Ann Bell,,,,,\n")
    seen = preview(client, club).context["seen"]
    confirm(client, club, seen=seen)
    response = confirm(client, club, seen=seen)
    assert response.status_code == 302
    assert response["Location"] == reverse("manage:member-import", args=[club.slug])
    assert club.memberships.filter(player__name="Ann Bell").count() == 1


def test_cancelling_forgets_the_file(client, organizer):
    club = organizer.club
    upload(client, club, HEADER + "Ann Bell,,,,,\n")
    client.post(reverse("manage:member-import-cancel", args=[club.slug]))
    assert preview(client, club).status_code == 302
    assert not club.memberships.filter(player__name="Ann Bell").exists()


@pytest.mark.parametrize(
    ("filename", "content", "message"),
    [
        ("members.xlsx", b"\x00\xff\xfe garbage \x89PNG", "not a .xlsx spreadsheet"),
        ("members.ods", b"PK\x03\x04\x14\x00broken zip", "not a .ods spreadsheet"),
        ("members.csv", b"name\n\x00\x01\x02", "not a CSV file"),
        ("members.csv", b"", "file is empty"),
        ("members.csv", b"vorname,nachname\nAnn,Bell\n", "names no column"),
        ("members.pdf", b"%PDF-1.4", "Upload a .csv, .xlsx or .ods file"),
        ("members.csv", b"name\n" + b"x" * (MAX_BYTES + 1), "larger than 2 MB"),
    ],
)
def test_a_file_that_is_not_a_member_list_gets_a_message(
    client, organizer, filename, content, message
):
    response = upload(client, organizer.club, content, filename=filename)
    assert response.status_code == 400
    assert message in response.text
    assert preview(client, organizer.club).status_code == 302


def test_an_xlsx_named_ods_and_a_zip_bomb_are_refused(client, organizer):
    response = upload(client, organizer.club, xlsx([["name"], ["Ann"]]), filename="members.ods")
    assert "not a .ods spreadsheet" in response.text
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as packed:
        packed.writestr("[Content_Types].xml", b"0" * (50 * 1024 * 1024))
    response = upload(client, organizer.club, bomb.getvalue(), filename="members.xlsx")
    assert response.status_code == 400
    assert "unpacks to too much" in response.text


def test_an_ods_with_an_entity_bomb_is_refused(client, organizer):
    laughs = "".join(f'<!ENTITY l{n} "{f"&l{n - 1};" * 10}">' for n in range(1, 9))
    content = (
        f'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY l0 "lol">{laughs}]>'
        "<office:document-content "
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0">&l8;'
        "</office:document-content>"
    )
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w") as packed:
        packed.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        packed.writestr("content.xml", content)
    response = upload(client, organizer.club, stream.getvalue(), filename="members.ods")
    assert response.status_code == 400
    assert "not a .ods spreadsheet" in response.text


@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_a_spreadsheet_is_read_with_its_dates_yes_no_cells_and_row_numbers(client, organizer, kind):
    rows = [
        ["Name", "Mitglied seit", "Aktiv", "Notes"],
        ["Ann Bell", datetime.date(2018, 5, 6), True, "plays Tuesdays"],
        [None, None, None, None],
        ["Bo Kim", None, False, None],
    ]
    content = SPREADSHEETS[kind](rows, more_sheets=["Old list"])
    upload(client, organizer.club, content, filename=f"Members.{kind.upper()}")
    page = preview(client, organizer.club)
    assert page.context["ignored"] == ["Notes"]
    found = {v.name: v for v in page.context["verdicts"]}
    assert set(found) == {"Ann Bell", "Bo Kim"}
    assert found["Ann Bell"].values["since"] == datetime.date(2018, 5, 6)
    assert found["Bo Kim"].values["active"] is False
    # The numbers of the rows in the sheet, the empty one counted.
    assert (found["Ann Bell"].line, found["Bo Kim"].line) == (2, 4)


def test_the_empty_rest_of_an_ods_sheet_is_not_read_row_by_row(client, organizer):
    # LibreOffice writes a sheet's unused rows as one row repeated a million times.
    content = ods([["name"], ["Ann Bell"], ("repeat", 1_048_000), ["Bo Kim"]])
    upload(client, organizer.club, content, filename="members.ods")
    found = {v.name: v.line for v in preview(client, organizer.club).context["verdicts"]}
    assert found == {"Ann Bell": 2, "Bo Kim": 1_048_003}


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_file_of_more_rows_than_a_member_list_is_refused(client, organizer, kind):
    rows = [["name"], *([f"Player {n}"] for n in range(MAX_ROWS + 1))]
    content = "\n".join(row[0] for row in rows).encode() if kind == "csv" else xlsx(rows)
    response = upload(client, organizer.club, content, filename=f"members.{kind}")
    assert response.status_code == 400
    assert f"more than {MAX_ROWS} rows" in response.text


def export(client, club, kind):
    return client.get(reverse(f"manage:member-export-{kind}", args=[club.slug]))


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_an_exported_list_imports_back_unchanged(client, organizer, kind):
    club = organizer.club
    MembershipFactory(
        club=club,
        player__name="=HYPERLINK(1)",
        player__email="-dash@example.org",
        role="guest",
        since=datetime.date(2015, 1, 2),
        listed=True,
    )
    MembershipFactory(club=club, player__name="Gone Greta", active=False)
    response = export(client, club, kind)
    assert response.status_code == 200
    assert f"{club.slug}-members.{kind}" in response["Content-Disposition"]
    upload(client, club, response.content, filename=f"export.{kind}")
    rows = preview(client, club).context["verdicts"]
    assert len(rows) == 3
    assert all(v.kind == "same" and v.notes == () for v in rows), [
        (v.name, v.kind, v.notes) for v in rows
    ]
    assert "0 new, 0 changed, 3 unchanged, 0 refused" in preview(client, club).text
    assert ClubRecord.objects.filter(club=club, action=ClubRecord.Action.EXPORTED).count() == 1


def test_the_xlsx_export_holds_no_formula(client, organizer):
    MembershipFactory(club=organizer.club, player__name="=1+1")
    book = load_workbook(io.BytesIO(export(client, organizer.club, "xlsx").content))
    cells = [cell for row in book.active.iter_rows() for cell in row]
    assert [c.value for c in cells[:6]] == [
        "name",
        "email",
        "role",
        "member since",
        "active",
        "listed publicly",
    ]
    assert not [c for c in cells if c.data_type == "f"]


def test_a_control_character_stored_before_the_forms_refused_it_does_not_break_the_export(
    client, organizer
):
    MembershipFactory(club=organizer.club, player__name="Old\x07Entry")
    book = load_workbook(io.BytesIO(export(client, organizer.club, "xlsx").content))
    assert "OldEntry" in [row[0] for row in book.active.iter_rows(values_only=True)]


def test_the_csv_export_names_the_columns_the_import_reads(client, organizer):
    text = export(client, organizer.club, "csv").content.decode("utf-8-sig")
    assert text.splitlines()[0] == HEADER.strip()
    assert organizer.player.name in text


def test_another_clubs_organizer_can_neither_import_nor_export(client, organizer):
    other = OrganizerFactory().club
    MembershipFactory(club=other, player__name="Secret Sam", player__email="sam@example.org")
    assert upload(client, other, HEADER + "Ann,,,,,\n").status_code == 404
    assert preview(client, other).status_code == 404
    assert export(client, other, "csv").status_code == 404
    assert export(client, other, "xlsx").status_code == 404
    assert confirm(client, other, seen="x").status_code == 404
    assert not other.memberships.filter(player__name="Ann").exists()


def test_a_visitor_is_sent_to_log_in(client):
    club = MembershipFactory().club
    response = client.get(reverse("manage:member-export-csv", args=[club.slug]))
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_one_clubs_preview_is_not_another_clubs(client, organizer):
    second = OrganizerFactory(player=organizer.player).club
    upload(client, organizer.club, HEADER + "Ann Bell,,,,,\n")
    assert preview(client, second).status_code == 302


@pytest.mark.parametrize("rows", [1, 80])
def test_the_preview_query_count_does_not_grow_with_rows(
    client, organizer, django_assert_max_num_queries, rows
):
    club = organizer.club
    MembershipFactory.create_batch(rows, club=club)
    lines = [f"Player {n},p{n}@example.org,member,,,\n" for n in range(rows)]
    upload(client, club, HEADER + "".join(lines))
    with django_assert_max_num_queries(7):
        response = preview(client, club)
    assert len(response.context["verdicts"]) == rows


def test_the_pages_speak_german(client, organizer):
    upload(client, organizer.club, HEADER + "Ann,,captain,,,\n")
    response = client.get(
        reverse("manage:member-import-preview", args=[organizer.club.slug]),
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert "abgelehnt" in response.text
    assert "ist keine Rolle" in response.text


def test_membership_roles_from_an_import_are_only_member_and_guest(client, organizer):
    upload(client, organizer.club, HEADER + "Ann,,owner,,,\nBo,,club owner,,,\n")
    assert {v.kind for v in verdicts(client, organizer.club).values()} == {"refused"}
    assert set(Membership.objects.values_list("role", flat=True)) == {"organizer"}


def test_a_control_character_in_the_files_name_stays_out_of_the_record(client, organizer):
    club = organizer.club
    upload(client, club, HEADER + "Ann Bell,,,,,\n", filename="mem\x1b[2Jbers.csv")
    confirm(client, club)
    imported = ClubRecord.objects.get(club=club, action=ClubRecord.Action.IMPORTED)
    assert imported.details["file"] == "mem[2Jbers.csv"


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
@pytest.mark.parametrize("exported, imported", [("de", "en"), ("de", "de"), ("en", "de")])
def test_a_list_exported_in_one_language_imports_back_in_either(
    client, organizer, kind, exported, imported
):
    club = organizer.club
    MembershipFactory(
        club=club,
        player__name="Jürgen Größe",
        role="guest",
        since=datetime.date(1909, 3, 1),
        listed=True,
    )
    MembershipFactory(club=club, player__name="Gone Greta", active=False)
    response = client.get(
        reverse(f"manage:member-export-{kind}", args=[club.slug]), HTTP_ACCEPT_LANGUAGE=exported
    )
    client.post(
        reverse("manage:member-import", args=[club.slug]),
        {"file": SimpleUploadedFile(f"export.{kind}", response.content)},
        HTTP_ACCEPT_LANGUAGE=imported,
    )
    page = client.get(
        reverse("manage:member-import-preview", args=[club.slug]), HTTP_ACCEPT_LANGUAGE=imported
    )
    rows = page.context["verdicts"]
    assert [(v.kind, v.notes) for v in rows] == [("same", ())] * 3


def test_the_german_csv_export_opens_in_a_german_spreadsheet(client, organizer):
    MembershipFactory(
        club=organizer.club,
        player__name="Jürgen Größe",
        role="guest",
        since=datetime.date(1909, 3, 1),
        listed=True,
    )
    response = client.get(
        reverse("manage:member-export-csv", args=[organizer.club.slug]), HTTP_ACCEPT_LANGUAGE="de"
    )
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == ["Name", "E-Mail", "Rolle", "Mitglied seit", "aktiv", "öffentlich genannt"]
    assert ["Jürgen Größe", "", "Gast", "01.03.1909", "ja", "ja"] in rows


def test_the_import_page_names_the_dates_and_yes_no_values_it_reads(client, organizer):
    club = organizer.club
    page = client.get(reverse("manage:member-import", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="de")
    assert "ein Datum wie 31.03.2024 oder 2024-03-31" in page.text
    assert "ja oder nein (auch j oder n, x, 1 oder 0" in page.text
    # What the help names is read so.
    upload(client, club, HEADER + "Ann,,Gast,31.03.2024,j,x\nBen,,member,2024-03-31,0,n\n")
    taken = {v.name: v.values for v in verdicts(client, club).values()}
    assert taken["Ann"]["since"] == taken["Ben"]["since"] == datetime.date(2024, 3, 31)
    assert (taken["Ann"]["role"], taken["Ann"]["active"], taken["Ann"]["listed"]) == (
        "guest",
        True,
        True,
    )
    assert (taken["Ben"]["active"], taken["Ben"]["listed"]) == (False, False)
