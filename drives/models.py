"""Models of a drive and its night. None yet."""
