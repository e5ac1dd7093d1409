"""The resolver pass: names, argument binding, alias order; the canonical tree."""
