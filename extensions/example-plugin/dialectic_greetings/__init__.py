"""dialectic-greetings: an example third-party dialectic extension."""
