"""Tests of the action/observation encodings and of the optional adapters."""
