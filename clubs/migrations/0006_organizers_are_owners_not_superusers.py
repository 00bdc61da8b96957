"""Organizer logins used to be made superusers, which opened every club and the
admin to them. From now on an organizer reaches only their own club: their logins
lose the superuser and staff flags, and the organizers a club already has become
its owners, so nobody loses a right they had in their own club (the site's admin
can make one of several owners a plain organizer)."""

from django.conf import settings
from django.db import migrations


def organizers_become_owners(apps, schema_editor):
    Membership = apps.get_model("clubs", "Membership")
    Membership.objects.filter(role="organizer").update(role="owner")


def organizer_logins_lose_superuser(apps, schema_editor):
    User = apps.get_model(settings.AUTH_USER_MODEL)
    User.objects.filter(player__memberships__role__in=["organizer", "owner"]).update(
        is_superuser=False, is_staff=False
    )


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0005_membership_roles_active_listed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(organizers_become_owners, migrations.RunPython.noop),
        migrations.RunPython(organizer_logins_lose_superuser, migrations.RunPython.noop),
    ]
