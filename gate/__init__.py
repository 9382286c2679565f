"""The outside world: the `cuticle` CLI, host hook adapters, the local server, init/doctor, the OpenClaw plugin."""

__all__: list[str] = []
