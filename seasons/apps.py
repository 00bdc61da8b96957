from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "seasons"

    def ready(self):
        # Ratings are kept like the other derived data: after the commit of every
        # change to a club's scores, from the parties as stored (seasons.tasks).
        from scoring import versions
        from seasons.tasks import send_ratings_update

        versions.after_scores_change(send_ratings_update)
