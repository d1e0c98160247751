"""Forty-Fives Card Drives on a hall's laptop: the ``fortyfives`` command (fortyfives/cli.py).

``fortyfives hall`` serves the night from one data folder (fortyfives/hall.py,
fortyfives/datafolder.py); ``fortyfives manage`` runs the program's commands on that folder;
``fortyfives backup`` and ``restore`` keep the club on a USB stick (fortyfives/backups.py); a
newer version started on an older folder brings it up to date (fortyfives/upgrade.py).
"""

__version__ = "0.2.0"
