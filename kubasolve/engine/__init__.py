"""JSON-lines engine: frontends in any language use kubasolve as their AI over stdin/stdout."""

from kubasolve.engine.server import handle_request, serve

__all__ = ["handle_request", "serve"]
