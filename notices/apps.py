from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "notices"

    def ready(self):
        # The players are told of what happens in the apps below, which cannot
        # import this one: what tells them registers on their hooks here.
        from clubs import backups
        from notices import restored, tasks
        from scoring import changes
        from tournaments import records

        changes.after_party_start(tasks.send_party_started)
        changes.after_party_change(tasks.send_party_changed)
        records.after_tournament_change(tasks.send_tournament_changed)
        # A restored database sends nothing twice (notices/restored.py).
        backups.after_restore(restored.notices_restored)
