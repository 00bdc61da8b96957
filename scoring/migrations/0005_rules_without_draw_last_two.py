from django.db import migrations


def drop_draw_last_two(apps, schema_editor):
    """Parties copied their rules with a ``draw_last_two`` switch that no score ever
    depended on; the rules no longer know it, so the stored copies lose it too."""
    Party = apps.get_model("scoring", "Party")
    for party in Party.objects.filter(rules__has_key="draw_last_two").only("rules"):
        party.rules.pop("draw_last_two")
        party.save(update_fields=["rules"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0004_party_cancelled"),
    ]

    operations = [
        migrations.RunPython(drop_draw_last_two, migrations.RunPython.noop),
    ]
