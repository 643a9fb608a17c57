"""gitleaks' default rules (MIT, see SOURCES.md and LICENSE here), package data of `synth`."""
