"""Storage: loading a memory from disk, the atomic writer and its lock, derived caches."""
