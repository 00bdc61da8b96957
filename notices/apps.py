from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "notices"

    def ready(self):
        # The players are told of what happens in the apps below, which cannot
        # import this one: what tells them registers on their hooks here.
        from anymail.signals import tracking

        from clubs import backups
        from notices import bounces, erasing, restored, tasks
        from scoring import changes
        from seasons import erasure
        from tournaments import records

        changes.after_party_start(tasks.send_party_started)
        changes.after_party_change(tasks.send_party_changed)
        records.after_tournament_change(tasks.send_tournament_changed)
        # A restored database sends nothing twice (notices/restored.py).
        backups.after_restore(restored.notices_restored)
        # An erased player's name leaves the notices that told others of him.
        erasure.after_erasure(erasing.notices_erased)
        # A mail provider's bounces and complaints, through its webhook (anymail's
        # own hook, like Django's for logins in clubs/apps.py).
        tracking.connect(bounces.tracking_received, dispatch_uid="notices-tracking")
