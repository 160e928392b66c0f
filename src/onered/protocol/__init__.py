"""The JSON protocols of ``shared/spec``: the referee protocol and the shot protocol."""
