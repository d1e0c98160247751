"""The printed documents: ``services`` asks for one and tracks it, ``tasks`` is the Celery task
that renders it, ``rendering`` renders (options, data, version, PDF), ``data`` reads the drive
into plain data and ``pdf`` draws it with reportlab; ``parts`` takes the documents of the apps
above scoring (the money's treasurer's sheet)."""
