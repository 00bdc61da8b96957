"""Many rows read as the database driver returns them."""

from django.core.exceptions import EmptyResultSet
from django.db import connections


def plain_rows(values) -> list[tuple]:
    """A ``values_list`` query's rows as tuples straight from the driver, without
    Django's conversion of each value: for columns of ids, numbers and text, whose
    driver values are already what Python wants (booleans come as 0/1 from SQLite).
    A championship's board reads some 20,000 such rows a build, and the conversion
    loop cost more than the database did."""
    try:
        sql, params = values.query.sql_with_params()
    except EmptyResultSet:  # a filter no row can pass (``__in`` an empty list)
        return []
    with connections[values.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
