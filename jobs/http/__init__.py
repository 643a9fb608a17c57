"""The HTTP side: the server (`interview serve`), its keys, and the push client that sends to it."""
