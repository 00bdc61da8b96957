"""Pairing and standings for tournaments, plain Python: no Django, no database."""
