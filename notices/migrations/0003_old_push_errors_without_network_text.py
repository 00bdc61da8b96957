"""Push failures written before the push fix kept the network's own error text
("HTTPSConnectionPool(host='10.0.0.5', port=8080) … Connection refused"), which
says what listens where inside the server's network, and the organizer's list of
notices still showed it. Each part of such an error becomes what is written now:
the push service's status ("410 from the push service") where the old text began
with one, else "not reached"; the parts written since are kept as they are."""

import re

from django.db import migrations

#: The parts of a push failure written since (`notices.delivery.send_push`,
#: `notices.services`, `notices.catchup`, `notices.restored`).
KEPT = {
    "not reached",
    "not a push service's address",
    "the push service's name was not found",
    "no phone subscribed",
    "push is off at this site",
    "not sent: its worker stopped at every try",
    "not sent: the database was restored from a backup made before it was known to be sent",
}
STATUS_NOW = re.compile(r"\d{3} from the push service")
STATUS_BEFORE = re.compile(r"(\d{3})\b")


def without_network_text(error: str) -> str:
    parts = []
    for part in (p.strip() for p in error.split("; ")):
        if not part:
            continue
        if part not in KEPT and not STATUS_NOW.fullmatch(part):
            status = STATUS_BEFORE.match(part)
            part = f"{status.group(1)} from the push service" if status else "not reached"
        if part not in parts:
            parts.append(part)
    return "; ".join(parts)


def forwards(apps, schema_editor):
    Notice = apps.get_model("notices", "Notice")
    failed = Notice.objects.filter(channel="push").exclude(error="")
    for pk, error in failed.values_list("pk", "error").iterator():
        cleaned = without_network_text(error)
        if cleaned != error:
            Notice.objects.filter(pk=pk).update(error=cleaned)


class Migration(migrations.Migration):
    dependencies = [
        ("notices", "0002_notice_tried_at"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
