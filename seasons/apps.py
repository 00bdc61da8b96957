from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "seasons"

    def ready(self):
        # Ratings are kept like the other derived data: after the commit of every
        # change to a club's scores, from the parties as stored (seasons.tasks).
        from clubs import services as clubs
        from scoring import changes
        from seasons.selectors import entrant_ratings
        from seasons.slides import season_slides
        from seasons.tasks import send_player_link, send_ratings_update
        from tournaments import screen, seeding

        changes.after_scores_change(send_ratings_update)
        # The season table is one more group of slides on a tournament's screen.
        screen.screen_slides(season_slides)
        # A knockout tournament is seeded by the club's ratings.
        seeding.rating_source(entrant_ratings)
        # A player who joins a club with an address is mailed his own page's link.
        clubs.after_member_joined(send_player_link)
