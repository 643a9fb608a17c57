"""Masking, chunking, the shared prompt, model backends, map over Ray, and the reduce."""
