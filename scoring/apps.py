from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self):
        from scoring import changes, scores, seat_stream  # noqa: F401 (its signals, its path)

        # Each party's score kept as its hands change (`models.KeptScore`).
        changes.after_party_change(scores.keep_party_score)
