from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        # The final stands above the rounds, which cannot import it: what it does
        # with a party's end, a correction and a withdrawal registers here.
        from scoring import changes, guards
        from tournaments import records, stored_board, tasks, withdrawals
        from tournaments.final import advance, forfeits
        from tournaments.public import parts

        # A party's end decides games of a knockout final: after the commit of
        # every change to a club's scores, its finals advance.
        changes.after_scores_change(advance.stages_advance)
        # The public board is built off the request path after every change to what
        # it shows: a hand at the club, a step of the tournament (tournaments.stored_board).
        changes.after_scores_change(tasks.boards_after_scores)
        records.after_tournament_change(tasks.send_board)
        # Its builder renders the parts spectators read with each new board, before
        # they are told: none of them renders one in a web process.
        stored_board.with_board(parts.parts_for_board)
        # A game that decided its match stays as it was: its winner has gone on.
        guards.before_correction(advance.game_decided_its_match)
        # A withdrawal gives his match in the final away; taken back, he plays it
        # again, as long as the final can take it back.
        withdrawals.when_withdrawn(forfeits.entrant_leaves_final)
        withdrawals.reinstate_check(forfeits.reinstate_refusal_in_final)
        withdrawals.when_reinstated(forfeits.entrant_returns_to_final)
