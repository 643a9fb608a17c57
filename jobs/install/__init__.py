"""`interview install` / `uninstall`: one person's hooks, MCP entries and scheduled run, in the
real config files of Claude Code, Cursor and Codex, every edit reversible byte for byte."""
