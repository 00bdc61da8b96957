"""A club night's results, whatever the games played at it: every player's parties
played and won, the plus/minus they add up to, and with a stake the amounts and the
fewest payments that settle the night.

Read at the app's level, not in an audience's folder: the results page, its CSV and
the organizer's API all read it here, so they give the same numbers."""

from clubs.models import Player
from scoring.engine.payments import settle_up
from scoring.models import Party
from scoring.results import party_results_of


def night_results(*, night) -> dict:
    """The night's results: every player who played a party of it, whatever the
    game, with the parties finished and won, the games played and the plus/minus
    they add up to (a cancelled party counts nowhere), as each party's result
    says (`scoring.results.party_results_of`): at Gin Rummy the settlement's
    plus/minus, a player winning with a plus; at another game each player's
    share of the side's margin (`player_margins`: the margins of the game's
    totals, the lower or the higher better as the game says), a player of a
    winning side winning. Every game pays its margins (each side settles with
    every other the difference of their totals); Cruzo, a placement game, pays
    the same way by its place points (the last place 0, each place above one
    more, added over the games agreed), so one game of three pays the first 1
    from the second and 2 from the last. With a stake per point, each player's
    amount and the fewest payments that settle the whole night
    (`scoring.engine.payments.settle_up`). A few queries, however many parties."""
    parties = list(night.parties.exclude(status=Party.Status.CANCELLED).order_by("pk"))
    read = party_results_of(parties)
    results = [  # (game, finished, plus/minus by player id, winners' player ids)
        (str(party.get_game_display()), result.finished, result.paid, result.won)
        for party in parties
        for result in [read.get(party.pk)]
        if result is not None
    ]
    ids = {pk for _game, _finished, plus_minus, _winners in results for pk in plus_minus}
    players = {player.pk: player for player in Player.objects.filter(pk__in=ids)}
    lines = {
        pk: {"player": player, "played": 0, "won": 0, "plus_minus": 0, "games": []}
        for pk, player in players.items()
    }
    running = 0
    for game, finished, plus_minus, winners in results:
        if not finished:
            running += 1
            continue
        for pk, amount in plus_minus.items():
            line = lines[pk]
            line["played"] += 1
            line["won"] += pk in winners
            line["plus_minus"] += amount
            if game not in line["games"]:
                line["games"].append(game)
    rows = sorted(
        (line for line in lines.values() if line["played"]),
        key=lambda line: (-line["plus_minus"], line["player"].name, line["player"].pk),
    )
    stake = night.stake
    payments = []
    if stake:
        for row in rows:
            row["amount"] = row["plus_minus"] * stake
        balances = {row["player"].pk: row["plus_minus"] for row in rows}
        payments = [
            {
                "payer": players[transfer.payer],
                "payee": players[transfer.payee],
                "points": transfer.amount,
                "amount": transfer.amount * stake,
            }
            for transfer in settle_up(balances)
        ]
    return {"rows": rows, "stake": stake, "payments": payments, "running": running}
