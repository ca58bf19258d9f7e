"""Command-line interface: thin edge over the public API (``kubasolve`` console script)."""
