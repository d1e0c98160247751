"""Models of results, standings and prizes. None yet."""
