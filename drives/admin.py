"""Admin for rare repairs of drives. Nothing registered yet."""
