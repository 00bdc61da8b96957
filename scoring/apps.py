from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self):
        from scoring import selectors, versions

        # Each party's score kept as its hands change (`models.KeptScore`).
        versions.after_party_change(selectors.keep_party_score)
