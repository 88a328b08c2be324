"""Explanations: the seed documents' worked examples (more to come: see issue 4)."""

from .seeds import SEED_EXAMPLES, SeedExample

__all__ = ["SEED_EXAMPLES", "SeedExample"]
