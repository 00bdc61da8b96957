"""The JSON API at /api/: one NinjaAPI; each app adds its router."""

from ninja import NinjaAPI

api = NinjaAPI(title="Knock", version="1", urls_namespace="api")
