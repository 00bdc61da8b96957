"""On PostgreSQL the club records table refuses UPDATE and DELETE: a record, once written,
stands, whoever holds a connection (the admin, a shell, a bug). SQLite has no such
guard; there the models' PROTECT is what keeps records from being deleted."""

from django.db import migrations

FORWARD = """
CREATE FUNCTION clubs_clubrecord_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'club records are append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER clubs_clubrecord_append_only
    BEFORE UPDATE OR DELETE ON clubs_clubrecord
    FOR EACH ROW EXECUTE FUNCTION clubs_clubrecord_append_only();
"""

BACKWARD = """
DROP TRIGGER clubs_clubrecord_append_only ON clubs_clubrecord;
DROP FUNCTION clubs_clubrecord_append_only();
"""


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
        ("clubs", "0003_club_records"),
    ]

    operations = [PostgreSQLOnly(FORWARD, BACKWARD)]
