"""cardc's compiler: checking, lowering to IR, schema validation, emitters and the CLI."""

__version__ = "0.1.0"
