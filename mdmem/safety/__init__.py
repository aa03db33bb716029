"""Scanners that keep harm out of a memory: secrets, poisoning, the blocklist (pure)."""
