"""The MCP server: a front end beside the CLI over the same library (`mdmem mcp`).

`install` writes a client's configuration and needs nothing more than mdmem; the server
itself needs the official MCP SDK, the `mcp` extra (`pip install 'mdmem[mcp]'`), and is
imported only by the command that serves.
"""
