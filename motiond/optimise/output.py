"""What a search leaves behind: the best gait as a YAML gait file, and a plot of the search."""

from __future__ import annotations

from pathlib import Path

from motiond.optimise.search import SearchResult
from skills.walk.params import PARAMETER_RANGES, load_gait

#: Written beside the searched values: the limits that let the judged request through.
_LIMITS = ("max_forward", "max_backward", "max_left", "max_turn")


def record_lines(result: SearchResult) -> list[str]:
    """How the gait was found, as lines (written as the gait file's header comments)."""
    c = result.config
    best = result.best
    p = c.protocols[0]
    lines = [
        "Found by `motiond optimise walk` (CMA-ES, package cma).",
        f"searched: {', '.join(f'{n} [{lo:g}, {hi:g}]' for n, lo, hi in _bounds(result))}",
        f"budget: {c.generations} generations x {c.population} candidates x "
        f"{len(c.protocols)} walks x {len(c.bodies)} bodies x {len(c.seeds)} seeds = "
        f"{c.generations * c.evaluations} walks; CMA-ES seed {c.seed}, sigma {c.sigma:g}",
        f"bodies: {', '.join(b.label for b in c.bodies)}; seeds: "
        f"{', '.join(str(s) for s in c.seeds)}",
        f"judged walks: {', '.join(w.describe() for w in c.protocols)} asked (m/s, m/s, "
        f"rad/s), measured {p.settle:g}-{p.seconds:g} s after the request",
        "cost = "
        + " + ".join(
            f"{getattr(c.weights, k):g} x {what}"
            for k, what in (
                ("speed", "|1 - speed / asked|"),
                ("fall", "(1 + share not walked) per fall"),
                ("sway", "torso sway (rad)"),
                ("energy", "mean current (A)"),
                ("odometry", "odometry error share"),
            )
        ),
        f"best: cost {best.cost:.4f} ({', '.join(f'{k} {v:.4f}' for k, v in best.terms.items())})"
        f", truth speeds {', '.join(f'{v:.3f}' for v in best.speeds)}, falls "
        f"{best.falls}/{len(best.figures)}, "
        f"generation {_found_in(result)} of {len(result.history)}",
    ]
    return lines


def _bounds(result: SearchResult):
    space = result.config.space
    return zip(space.names, space.lower, space.upper, strict=True)


def _found_in(result: SearchResult) -> int:
    for generation in result.history:
        if generation.best is result.best:
            return generation.index + 1
    return len(result.history)


def write_gait(path: str | Path, result: SearchResult) -> Path:
    """Write the best gait as a gait file (keys override the shipped gait; see load_gait)."""
    path = Path(path)
    gait = result.gait()
    lines = [f"# {line}" for line in record_lines(result)]
    # The searched values, the limits, and whatever else the search started from that is not
    # the shipped gait's (a start of one's own, or a shipped value changed since): a file of
    # only the searched keys would load the shipped values there, a gait never judged.
    shipped = load_gait()
    start = [n for n in PARAMETER_RANGES if getattr(gait, n) != getattr(shipped, n)]
    for name in dict.fromkeys((*result.config.space.names, *_LIMITS, *start)):
        unit = PARAMETER_RANGES[name][2]
        lines.append(f"{name}: {getattr(gait, name)!r}  # {unit}")
    path.write_text("\n".join(lines) + "\n")
    return path


def plot_history(result: SearchResult, path: str | Path) -> Path:
    """Best and median cost per generation, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    generations = [g.index + 1 for g in result.history]
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    ax.plot(generations, [g.best.cost for g in result.history], "o-", label="best")
    ax.plot(generations, [g.median_cost for g in result.history], "s--", label="median")
    ax.set_xlabel("generation")
    ax.set_ylabel("cost (lower is better)")
    ax.set_title("motiond optimise walk")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path)
    plt.close(fig)
    return path
