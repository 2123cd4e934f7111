"""The runtime that generated handlers call: state, tracks, zones, dice, choices, game flows.

``engine`` never imports ``compiler``.
"""
