"""Git integration: every call into git, through GitPython, lives here."""
