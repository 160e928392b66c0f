"""The JSON protocols: the referee protocol (``docs/referee-protocol.md``) and the shot
protocol (``docs/shot-protocol.md``)."""
