"""The drive's full record: ``export`` writes it (JSON, format ``fortyfives-drive/1``) and
``restore`` brings a drive back from it."""
