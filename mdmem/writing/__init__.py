"""The agent's write path: a module per command and the pieces they share."""
