"""The cardc rules language: grammar, parser, AST nodes with spans, diagnostics.

``dsl`` imports neither ``compiler`` nor ``engine``.
"""
