"""The package's floors: imports point down features -> reading -> classifiers -> scoring -> gtp ->
api/datasets -> cli, never sideways between api and datasets, and no two modules import each
other, directly or round a loop, at their top."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "seog"
FLOORS = {"features": 0, "reading": 1, "classifiers": 2, "scoring": 3, "gtp": 4, "api": 5, "datasets": 5,
          "cli": 6}


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


def _wrong_way(name: str, path: Path) -> tuple[list[str], int]:
    """The imports of module ``name`` (its file ``path``) that point up a floor, or sideways to
    another package of its floor; and how many of its imports were between floors at all."""
    here, wrong, checked = _floor(name), [], 0
    for target in _imports(path, top_only=False):
        there = _floor(target)
        if here is None or there is None:
            continue
        checked += 1
        if there > here or (there == here and target.split(".")[1] != name.split(".")[1]):
            wrong.append(f"{name} -> {target}")
    return wrong, checked


def test_imports_point_down_the_floors():
    wrong, checked = [], 0
    for name, path in _modules().items():
        w, c = _wrong_way(name, path)
        wrong += w
        checked += c
    assert checked > 100  # the walk sees the package's imports
    assert "seog.gtp.client" in _imports(PACKAGE / "datasets" / "labels.py", top_only=True)
    assert wrong == []


def test_the_check_sees_an_import_up_or_sideways(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("from seog.api import http\n"
                      "from seog.datasets.labels import GtpEngine\n"
                      "from seog.gtp import client\n"
                      "from seog.scoring.score import score\n")
    assert sorted(_wrong_way("seog.gtp.m", source)[0]) == ["seog.gtp.m -> seog.api.http",
                                                          "seog.gtp.m -> seog.datasets.labels"]
    assert _wrong_way("seog.datasets.m", source)[0] == ["seog.datasets.m -> seog.api.http"]
    assert _wrong_way("seog.cli.m", source)[0] == []
    assert sorted(_wrong_way("seog.scoring.m", source)[0]) == [
        f"seog.scoring.m -> {m}" for m in ("seog.api.http", "seog.datasets.labels", "seog.gtp.client")]


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


def test_reading_sits_between_features_and_classifiers(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("from seog.features.board import Board\nfrom seog.classifiers import status\n")
    assert _wrong_way("seog.reading.m", source)[0] == ["seog.reading.m -> seog.classifiers.status"]
    source.write_text("from seog.reading.board import SearchBoard\n")
    assert _wrong_way("seog.features.m", source)[0] == ["seog.features.m -> seog.reading.board"]
    assert _wrong_way("seog.classifiers.m", source)[0] == []


MAX_FUNCTION_LINES = 100


def _long_functions(source: str, name: str) -> list[str]:
    """'module.function (N lines)' for each function of ``source`` over MAX_FUNCTION_LINES lines."""
    return [f"{name}.{node.name} ({node.end_lineno - node.lineno + 1} lines)" for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]


def test_no_function_runs_over_100_lines():
    """A long function is steps that want names of their own."""
    long = [f for path in sorted(PACKAGE.rglob("*.py"))
            for f in _long_functions(path.read_text(), str(path.relative_to(PACKAGE.parent)))]
    assert long == []


def test_the_length_check_sees_a_long_function_and_its_nested_ones():
    body = "".join(f"    x{i} = {i}\n" for i in range(99))
    nested = "def outer():\n    def inner():\n" + "".join(f"        y{i} = {i}\n" for i in range(101)) + "    return inner\n"
    assert _long_functions(f"def short():\n{body}", "m") == []
    assert _long_functions(f"def long():\n{body}    return 1\n", "m") == ["m.long (101 lines)"]
    assert _long_functions(nested, "m") == ["m.outer (104 lines)", "m.inner (102 lines)"]
