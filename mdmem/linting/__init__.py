"""Lint: its codes and findings, the checks (pure), and `run`, which reads and checks a memory."""
