"""The club around its nights: its players from one drive to the next (``club.selectors``,
``club.services``), the organizer's players page (``club.views``) and the door's type-ahead
(``club.api``). The players themselves and the linking of each couple to two of them live in
``drives`` (``drives.models.Player``, ``drives.services.players_link``), which every way of
registering goes through."""
