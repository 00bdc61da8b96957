"""The final stage: a knockout of a tournament's best placed, or a knockout
tournament on its own. It stands above the rounds: they never import it."""
