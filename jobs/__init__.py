"""The CLI, settings, driver and scheduling: a thin shell over the library API."""
