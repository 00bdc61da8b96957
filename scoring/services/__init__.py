"""Writes for scoring, one transaction each, one module per thing written:
hands, parties, seats (their links), nights."""
