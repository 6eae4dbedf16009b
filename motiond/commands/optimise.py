"""``motiond optimise walk``: search the gait's parameters in naosim (CMA-ES), write the best.

Every input is checked before the first walk: parameter names and bounds against the gait's
validated ranges, the budget, the bodies' model files, the start gait, the Ray address. The
search checkpoints after every generation (``--checkpoint``, default beside ``--out``); run
the same command again to resume it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

DEFAULT_OUT = "optimised_gait.yaml"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``motiond optimise``."""
    parser.add_argument("what", choices=["walk"], help="what to optimise")
    parser.add_argument(
        "--params",
        metavar="A,B,...",
        help="gait parameters to search (default: the walk's shape and balance terms)",
    )
    parser.add_argument(
        "--bounds",
        metavar="NAME=LO:HI",
        action="append",
        default=[],
        help="narrow one searched parameter's range (repeatable)",
    )
    parser.add_argument("--generations", type=int, default=20, help="CMA-ES generations")
    parser.add_argument("--population", type=int, default=8, help="candidates per generation")
    parser.add_argument("--seed", type=int, default=1, help="CMA-ES seed (same seed, same result)")
    parser.add_argument("--sigma", type=float, default=0.2, help="first step (unit cube)")
    parser.add_argument(
        "--perturb", type=int, default=2, metavar="N", help="perturbed NAOs judged besides ours"
    )
    parser.add_argument(
        "--model", action="append", default=[], metavar="FILE", help="a NAO MJCF body (repeat)"
    )
    parser.add_argument("--seeds", type=int, default=1, metavar="K", help="sensor seeds per body")
    parser.add_argument(
        "--walk",
        action="append",
        default=[],
        metavar="F,L,T",
        help="a judged walk: forward, left (m/s), turn (rad/s); repeat for several "
        "(default 0.4,0,0); e.g. --walk 0.4,0,0 --walk=-0.25,0,0 --walk 0,0.15,0 --walk 0,0,2 "
        "for every direction (a negative one needs the = form)",
    )
    parser.add_argument("--seconds", type=float, default=8.0, help="length of a judged walk, s")
    parser.add_argument("--settle", type=float, default=3.0, help="unmeasured start, s")
    parser.add_argument("--gait", metavar="FILE", help="start from this gait file")
    parser.add_argument("--workers", type=int, help="pool processes (default: every core)")
    parser.add_argument(
        "--ray",
        nargs="?",
        const=True,
        default=None,
        metavar="ADDRESS",
        help="run on Ray: a local runtime, or join the cluster at ADDRESS",
    )
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="FILE", help="the gait file")
    parser.add_argument("--checkpoint", metavar="FILE", help="default: OUT.ckpt")
    parser.add_argument("--plot", metavar="FILE", help="PNG of the search (default: OUT.png)")


def _bounds(items: list[str]) -> dict[str, tuple[float, float]]:
    from motiond.optimise import OptimiseError

    out = {}
    for item in items:
        name, _, span = item.partition("=")
        lo, _, hi = span.partition(":")
        try:
            out[name.strip()] = (float(lo), float(hi))
        except ValueError:
            raise OptimiseError(f"--bounds wants NAME=LO:HI, got {item!r}") from None
    return out


def _config(args: argparse.Namespace):
    from motiond.optimise import Body, OptimiseError, Protocol, SearchConfig, SearchSpace
    from naosim.binding import load_model_file
    from skills.walk.params import GaitError, load_gait

    names = [n.strip() for n in args.params.split(",") if n.strip()] if args.params else None
    space = SearchSpace.of(names, _bounds(args.bounds))
    protocols = []
    for walk in args.walk or ["0.4,0,0"]:
        try:
            forward, left, turn = (float(v) for v in walk.split(","))
            protocols.append(Protocol(forward, left, turn, args.settle, args.seconds))
        except ValueError as error:
            raise OptimiseError(f"--walk {walk}: {error} (wants F,L,T)") from None
    if args.perturb < 0 or args.seeds < 1:
        raise OptimiseError("--perturb must be >= 0 and --seeds >= 1")
    for model in args.model:
        try:
            load_model_file(model)
        except (OSError, ValueError) as error:
            raise OptimiseError(f"--model {model}: {error}") from None
    bodies = (
        Body(),
        *(Body(perturbation=i) for i in range(args.perturb)),
        *(Body(model=str(Path(m).resolve())) for m in args.model),
    )
    try:
        base = load_gait(args.gait)
    except GaitError as error:
        raise OptimiseError(str(error)) from None
    return SearchConfig(
        space,
        base,
        tuple(protocols),
        bodies=bodies,
        seeds=tuple(range(args.seeds)),
        generations=args.generations,
        population=args.population,
        sigma=args.sigma,
        seed=args.seed,
    )


def main(args: argparse.Namespace) -> int:
    """Run (or resume) the search; write the gait file and the plot."""
    from motiond.optimise import OptimiseError, Search, make_backend, plot_history, write_gait

    out = Path(args.out)
    checkpoint = Path(args.checkpoint) if args.checkpoint else out.with_name(out.name + ".ckpt")
    try:
        config = _config(args)
        backend = make_backend(args.ray, args.workers)
    except OptimiseError as error:
        print(f"motiond optimise: {error}", file=sys.stderr)
        return 2
    try:
        search = Search(config, backend, checkpoint)
    except OptimiseError as error:
        backend.close()
        print(f"motiond optimise: {error}", file=sys.stderr)
        return 2
    if search.history:
        print(f"resuming from {checkpoint}: {len(search.history)} generations done")
    print(
        f"searching {', '.join(config.space.names)} on {len(config.bodies)} bodies, "
        f"{config.evaluations} walks per generation, backend {backend.name} "
        f"({backend.workers} workers)",
        flush=True,
    )
    started = time.perf_counter()

    def speeds(candidate) -> str:
        return "/".join(f"{v:.3f}" for v in candidate.speeds)

    def progress(generation, best) -> None:
        rate = generation.evaluations / max(generation.seconds, 1e-9)
        print(
            f"  gen {generation.index + 1}/{config.generations}: best {generation.best.cost:.3f} "
            f"(speeds {speeds(generation.best)}, falls {generation.best.falls}), median "
            f"{generation.median_cost:.3f}; so far {best.cost:.3f} (speeds {speeds(best)}); "
            f"{rate:.1f} walks/s",
            flush=True,
        )

    try:
        result = search.run(progress)
    finally:
        backend.close()
    write_gait(out, result)
    try:
        plot = plot_history(result, args.plot or out.with_suffix(".png"))
    except ImportError:  # matplotlib is the optional extra ``motiond[plot]``
        plot = "not drawn (pip install 'motiond[plot]')"
    print(
        f"best: cost {result.best.cost:.3f}, truth speeds {speeds(result.best)}, falls "
        f"{result.best.falls}/{len(result.best.figures)}; gait written to {out}, plot {plot}; "
        f"{time.perf_counter() - started:.0f} s"
    )
    return 0
