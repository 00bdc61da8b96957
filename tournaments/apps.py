from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        # A party's end decides games of a knockout final: after the commit of
        # every change to a club's scores, its finals advance.
        from scoring import guards, versions
        from tournaments.knockout import game_decided_its_match, stages_advance

        versions.after_scores_change(stages_advance)
        # A game that decided its match stays as it was: its winner has gone on.
        guards.before_correction(game_decided_its_match)
