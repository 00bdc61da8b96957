"""Backups and restores (clubs/backups.py, `manage.py backup` and `restore`), on the
database the suite runs on: SQLite, or PostgreSQL with pg_dump and pg_restore. The
drill backs up the demo with its finished tournaments, restores it into an empty
database and finds every row of every club as it was."""

import datetime
import os
from pathlib import Path

import pytest
import yaml
from django.apps import apps
from django.core import mail
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection, connections
from django.db.utils import load_backend

from clubs.backups import backups_prune
from clubs.models import Club, ClubRecord
from demo.loader import load_demo
from notices import tasks
from notices.models import Notice
from notices.restored import REASON
from scoring.models import AuditRecord, Hand, Party
from seasons.models import Rating
from tests.factories import MembershipFactory
from tournaments.models import Entrant, KeptResult, Tournament

POSTGRES = connection.vendor == "postgresql"
DRILL = "drill"


def backup_file(directory: Path) -> Path:
    call_command("backup", dir=str(directory))
    (made,) = directory.iterdir()
    return made


def every_row(alias: str) -> dict[str, list[tuple]]:
    """Every row of every table the site has (the many-to-many ones included), in
    the order of its key."""
    return {
        model._meta.label: list(
            model._base_manager.using(alias)
            .order_by("pk")
            .values_list(*[field.attname for field in model._meta.concrete_fields])
        )
        for model in apps.get_models(include_auto_created=True)
    }


@pytest.fixture
def empty_database(tmp_path):
    """An empty database of the suite's kind, open under the alias ``drill`` once the
    test has filled it: its address for --into. A PostgreSQL one is created for the
    test, under a name of its own, and dropped after it."""
    name = f"{connection.settings_dict['NAME']}_drill"
    if POSTGRES:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            cursor.execute(f'CREATE DATABASE "{name}"')
        settings_dict = {**connection.settings_dict, "NAME": name, "OPTIONS": {}, "TEST": {}}
        url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + f"/{name}"
    else:
        path = tmp_path / "drill.sqlite3"
        settings_dict = {**connection.settings_dict, "NAME": str(path), "TEST": {}}
        url = f"sqlite:///{path}"
    connections[DRILL] = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(settings_dict, DRILL)
    yield url
    connections[DRILL].close()
    del connections[DRILL]
    if POSTGRES:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.django_db(transaction=True)
def test_a_backup_of_the_demo_restored_into_an_empty_database_holds_every_club_as_it_was(
    tmp_path, empty_database, settings
):
    settings.DEBUG = True
    load_demo()
    finished = Tournament.objects.filter(status=Tournament.Status.FINISHED)
    assert finished.exists(), "the demo holds a finished tournament"
    # What the drill compares holds something for every club: it could not pass empty.
    for club in Club.objects.all():
        assert Party.objects.filter(club=club).exists()
        assert Hand.objects.filter(party__club=club).exists()
        entrants = Entrant.objects.filter(tournament__club=club).values("pk")
        assert KeptResult.objects.filter(entrant__in=entrants).exists()
        assert Rating.objects.filter(club=club).exists()
        assert AuditRecord.objects.filter(party__club=club).exists()
        assert ClubRecord.objects.filter(club=club).exists()
    before = every_row("default")

    call_command(
        "restore", str(backup_file(tmp_path / "backups")), into=empty_database, interactive=False
    )

    assert every_row(DRILL) == before
    # The restored database takes new rows after the old (PostgreSQL's sequences too).
    club = Club.objects.using(DRILL).create(name="After the restore", slug="after-the-restore")
    assert club.pk > max(pk for pk, *_ in before["clubs.Club"])


@pytest.mark.django_db(transaction=True)
def test_a_restore_sends_no_notice_twice(tmp_path, settings):
    """A notice waiting when the backup was made went out before the restore: the
    restored database holds it as waiting, and neither the task left in the broker
    nor the catch-up sends it again. One sent before the backup stays sent."""
    member = MembershipFactory(player__email="ada@example.org")
    told = {"club": member.club, "player": member.player, "kind": "table", "channel": "email"}
    sent = Notice.objects.create(**told, key="sent", subject="Round 1", status=Notice.Status.SENT)
    waiting = Notice.objects.create(**told, key="waiting", subject="Round 2")
    backup = backup_file(tmp_path)
    tasks.deliver_notice.delay(waiting.pk)
    assert [m.subject for m in mail.outbox] == ["Round 2"]

    call_command("restore", str(backup), interactive=False)

    waiting.refresh_from_db()
    assert (waiting.status, waiting.error) == (Notice.Status.FAILED, REASON)
    tasks.deliver_notice.delay(waiting.pk)
    assert [m.subject for m in mail.outbox] == ["Round 2"]
    sent.refresh_from_db()
    assert sent.status == Notice.Status.SENT


@pytest.mark.django_db(transaction=True)
def test_a_restore_keeps_the_seat_links_and_starts_the_counters_again(tmp_path):
    """An open seat page's link is in the restored rows and opens; the counters its
    page follows are forgotten, so the page fetches the restored sheet."""
    member = MembershipFactory()
    backup = backup_file(tmp_path)
    cache.set("seat-counter:1", 41, None)
    Club.objects.filter(pk=member.club_id).update(name="Renamed after the backup")

    call_command("restore", str(backup), interactive=False)

    assert Club.objects.get(pk=member.club_id).name == member.club.name
    assert cache.get("seat-counter:1") is None


@pytest.mark.django_db
def test_a_backup_of_the_other_kind_of_database_is_refused(tmp_path):
    other = tmp_path / ("knock-20261128T230000Z." + ("sqlite3" if POSTGRES else "pgdump"))
    other.write_bytes(b"not this kind")
    with pytest.raises(CommandError, match="is not a backup of a"):
        call_command("restore", str(other), interactive=False)


@pytest.mark.parametrize("url", ["nonsense", "mysql://knock@db/knock"])
def test_a_database_to_restore_into_that_knock_cannot_back_up_is_refused_in_words(url):
    with pytest.raises(CommandError, match=r"Nothing restored|no database address"):
        call_command("restore", "knock-20261128T230000Z.sqlite3", into=url, interactive=False)


@pytest.mark.django_db
def test_a_file_that_is_no_backup_is_refused_and_nothing_is_restored(tmp_path):
    club = MembershipFactory().club
    junk = tmp_path / ("knock-20261128T230000Z." + ("pgdump" if POSTGRES else "sqlite3"))
    junk.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    with pytest.raises(CommandError, match="Nothing restored"):
        call_command("restore", str(junk), interactive=False)
    assert Club.objects.filter(pk=club.pk).exists()


def test_backups_are_kept_for_the_days_set_and_the_newest_copies_always(tmp_path):
    now = datetime.datetime(2026, 11, 28, 23, 0, tzinfo=datetime.UTC)
    for days in (0, 1, 2, 20, 21, 30):
        made = now - datetime.timedelta(days=days)
        (tmp_path / f"knock-{made:%Y%m%dT%H%M%SZ}.sqlite3").touch()
    (tmp_path / "notes.txt").touch()

    removed = backups_prune(directory=tmp_path, now=now, keep_days=14, keep_copies=4)

    assert sorted(p.name for p in removed) == [
        "knock-20261029T230000Z.sqlite3",
        "knock-20261107T230000Z.sqlite3",
    ]
    assert len(list(tmp_path.iterdir())) == 5
    assert backups_prune(directory=tmp_path, now=now, keep_days=0, keep_copies=4) == []


def test_compose_backs_up_on_a_schedule_with_a_pg_dump_of_the_database_s_version():
    """The production image's pg_dump is of the compose database's major version (an
    older one refuses a newer server), and the backup service writes into a volume."""
    root = Path(__file__).resolve().parents[2] / "docker"
    compose = yaml.safe_load((root / "compose.yaml").read_text())
    major = compose["services"]["db"]["image"].split(":")[1].split(".")[0]
    assert f"postgresql-client-{major} " in (root / "Dockerfile").read_text().replace("\\\n", " ")
    backup = compose["services"]["backup"]
    assert "python manage.py backup" in backup["command"]
    directory = backup["environment"]["BACKUP_DIR"]
    assert f"backups:{directory}" in backup["volumes"]
    assert f"install -d -o knock -g knock {directory}" in (root / "Dockerfile").read_text()
