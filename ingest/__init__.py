"""Trail parsers, events, windows and submit validation. Pure code: no models, no storage."""
