"""Admin for rare repairs of results. Nothing registered yet."""
