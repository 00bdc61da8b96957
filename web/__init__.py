"""What every app's pages and API share of a request: the client's address, the
checks of what a form or a body may hold, the throttle and the link guard, the
spreadsheet answer, the API's refusals. Below every app (the layer contract in
pyproject.toml): the apps import it, it imports none of them."""
