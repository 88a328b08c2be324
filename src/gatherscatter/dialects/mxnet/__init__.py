"""mxnet gather and scatter ops (being written: see issue 3)."""

__all__: list[str] = []
