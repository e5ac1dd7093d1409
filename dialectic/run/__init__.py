"""Run-time machinery: per-run state, concurrency, timeouts."""
