"""The package's floors: imports point down features -> classifiers -> scoring -> api/datasets ->
cli, and no two modules import each other, directly or round a loop, at their top."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "seog"
FLOORS = {"features": 0, "classifiers": 1, "scoring": 2, "api": 3, "datasets": 3, "cli": 4}


def _imports(path: Path, top_only: bool) -> set[str]:
    """The seog modules a file imports (at its top only, or anywhere)."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_only else ast.walk(tree)
    out = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("seog"):
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names
                       if (PACKAGE.parent / f"{node.module}.{a.name}".replace(".", "/")).with_suffix(".py").exists())
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("seog"))
    return {m for m in out if (PACKAGE.parent / m.replace(".", "/")).with_suffix(".py").exists()}


def _modules() -> dict[str, Path]:
    return {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts): p
            for p in PACKAGE.rglob("*.py") if p.name != "__init__.py"}


def _floor(module: str) -> int | None:
    parts = module.split(".")
    return FLOORS.get(parts[1]) if len(parts) > 2 else None


def test_imports_point_down_the_floors():
    upward, checked = [], 0
    for name, path in _modules().items():
        here = _floor(name)
        for target in _imports(path, top_only=False):
            there = _floor(target)
            checked += here is not None and there is not None
            if here is not None and there is not None and there > here:
                upward.append(f"{name} -> {target}")
    assert checked > 100  # the walk sees the package's imports
    assert upward == []


def test_no_module_imports_itself_round_a_loop():
    graph = {name: _imports(path, top_only=True) for name, path in _modules().items()}
    assert "seog.classifiers.eyespace" in graph["seog.classifiers.status"]  # the pipeline, at the top
    state: dict[str, int] = {}
    loops = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                loops.append(trail[trail.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert loops == []
