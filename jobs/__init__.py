"""The run machinery (settings, planning, driver) and the front doors, one folder each: `cli/`,
`http/` (server and push), `agents/` (MCP and the session digest), `ui/`."""
