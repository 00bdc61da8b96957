from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self):
        from scoring import tasks, versions

        # Each party's score kept as its hands change (`models.KeptScore`), by the worker.
        versions.after_party_change(tasks.send_party_score)
