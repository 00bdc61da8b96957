"""The append-only records admit one change: an erasure's (`seasons.erasure`).

On PostgreSQL the club, party and tournament records refuse every UPDATE and DELETE
(clubs 0004, scoring 0003, tournaments 0003). A player's erasure must still take
his name out of the words those records keep. Here their guards are written again
to let through an UPDATE that (1) comes from a transaction that set
``knock.redaction`` (only `seasons.erasure._redacting` does, and the setting ends
with the transaction) and (2) changes nothing but those words: the row compared
without them must be the same, so who did what, when, from where and to which row
still cannot be rewritten. DELETE stays refused. It lives here, with the erasure
that needs it, since seasons stands above the apps whose tables it guards."""

from django.db import migrations

#: The guarded tables, the message of each refusal, and the columns holding words.
GUARDS = [
    ("clubs_clubrecord", "club records", ["details", "username"]),
    ("scoring_auditrecord", "audit records", ["before", "after", "reason"]),
    ("tournaments_tournamentrecord", "tournament records", ["details"]),
]


def _function(table: str, what: str, words: list[str] | None) -> str:
    allowed = ""
    if words:
        without = "".join(f" - '{column}'" for column in words)
        allowed = f"""
    IF TG_OP = 'UPDATE'
            AND current_setting('knock.redaction', true) = 'on'
            AND to_jsonb(NEW){without} = to_jsonb(OLD){without} THEN
        RETURN NEW;
    END IF;"""
    return f"""
CREATE OR REPLACE FUNCTION {table}_append_only() RETURNS trigger AS $$
BEGIN{allowed}
    RAISE EXCEPTION '{what} are append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""


FORWARD = "".join(_function(table, what, words) for table, what, words in GUARDS)
BACKWARD = "".join(_function(table, what, None) for table, what, _ in GUARDS)


class PostgreSQLOnly(migrations.RunSQL):
    """Runs its SQL on PostgreSQL and does nothing elsewhere."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class Migration(migrations.Migration):

    dependencies = [
        ("seasons", "0007_player_data_records"),
        ("clubs", "0004_club_records_append_only"),
        ("scoring", "0003_audit_append_only"),
        ("tournaments", "0003_tournament_records"),
    ]

    operations = [PostgreSQLOnly(FORWARD, BACKWARD)]
