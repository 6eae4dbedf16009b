"""Gait optimisation: CMA-ES over the walk's parameters, every candidate judged in naosim.

``space`` (what is searched), ``evaluate`` (one judged walk and its cost), ``backends`` (serial,
process pool, Ray), ``search`` (the CMA-ES loop, checkpoints), ``output`` (the gait file, the
plot). ``motiond optimise walk`` is the command line over them.
"""

from motiond.optimise.backends import PoolBackend, RayBackend, SerialBackend, make_backend
from motiond.optimise.evaluate import Body, CostWeights, Figures, Protocol, run_walk
from motiond.optimise.output import plot_history, write_gait
from motiond.optimise.search import Search, SearchConfig, SearchResult
from motiond.optimise.space import DEFAULT_PARAMETERS, OptimiseError, SearchSpace

__all__ = [
    "DEFAULT_PARAMETERS",
    "Body",
    "CostWeights",
    "Figures",
    "OptimiseError",
    "PoolBackend",
    "Protocol",
    "RayBackend",
    "Search",
    "SearchConfig",
    "SearchResult",
    "SearchSpace",
    "SerialBackend",
    "make_backend",
    "plot_history",
    "run_walk",
    "write_gait",
]
