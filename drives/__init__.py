"""A night's data: clubs, members, drives, couples, tables, games and seatings.

The rules themselves live in ``engine``; this app stores what happened and calls the engine.
"""
