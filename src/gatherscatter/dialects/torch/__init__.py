"""PyTorch (torch 2.13, CPU) gather and scatter ops, under torch's own names and arguments.

Mutating torch methods (``scatter_``, ``index_put_`` ...) are the functional
forms here: every op returns a new array and never writes into its inputs.

>>> import gatherscatter as gs
>>> gs.torch.gather([[1, 2], [3, 4]], 1, [[0, 0], [1, 0]]).tolist()
[[1, 1], [4, 3]]
"""

from .embedding import embedding
from .embedding_bag import embedding_bag
from .gather import gather
from .index_add import index_add
from .index_copy import index_copy
from .index_fill import index_fill
from .index_put import index_put
from .index_reduce import index_reduce
from .index_select import index_select
from .scatter import scatter
from .scatter_add import scatter_add
from .scatter_reduce import scatter_reduce
from .segment_reduce import segment_reduce
from .take import take
from .take_along_dim import take_along_dim

__all__ = [
    "embedding", "embedding_bag", "gather", "index_add", "index_copy", "index_fill", "index_put", "index_reduce",
    "index_select", "scatter", "scatter_add", "scatter_reduce", "segment_reduce", "take", "take_along_dim",
]
