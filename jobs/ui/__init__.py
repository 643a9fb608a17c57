"""`interview ui`: the memories in a browser (see `jobs.ui.app` for the pages)."""
