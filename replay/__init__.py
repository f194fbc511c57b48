"""tribes."""
