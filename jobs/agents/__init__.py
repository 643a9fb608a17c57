"""What agents read: the MCP server (`interview mcp`) and the session digest (`interview context`)."""
