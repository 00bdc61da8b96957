from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        # A party's end decides games of a knockout final: after the commit of
        # every change to a club's scores, its finals advance.
        from scoring import versions
        from tournaments.knockout import stages_advance

        versions.after_scores_change(stages_advance)
