"""The rules of Forty-fives, in pure Python (see docs/engine.md)."""
