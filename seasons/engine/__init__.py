"""A club's season as plain Python: ratings, season tables and gin statistics."""
