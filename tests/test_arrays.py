"""The numpy toolbox against scipy's public functions, and a scoring process that never imports them."""

import subprocess
import sys

import numpy as np
import pytest
from scipy import ndimage

from conftest import EXAMPLES
from seog.features.arrays import EIGHT, FOUR, STACK, grow, label, shrink


@pytest.mark.parametrize("seed", range(20))
def test_label_numbers_blocks_as_scipy_does(seed):
    rng = np.random.default_rng(seed)
    size = int(rng.choice([9, 13, 19]))
    mask = rng.random((size, size)) < rng.uniform(0.2, 0.8)
    for structure in (FOUR, EIGHT):
        ours, n = label(mask, structure)
        theirs, m = ndimage.label(mask, structure)
        assert n == m and ours.dtype == np.int32 and (ours == theirs).all()
    stack = rng.random((5, size, size)) < 0.5
    ours, n = label(stack, STACK)
    theirs, m = ndimage.label(stack, STACK)
    assert n == m and (ours == theirs).all()


def test_label_of_an_empty_board_and_a_full_one():
    assert label(np.zeros((19, 19), dtype=bool))[1] == 0
    full, n = label(np.ones((9, 9), dtype=bool))
    assert n == 1 and (full == 1).all()


@pytest.mark.parametrize("seed", range(10))
def test_grow_and_shrink_match_scipy_morphology(seed):
    rng = np.random.default_rng(seed)
    mask = rng.random((19, 19)) < 0.15
    for steps in (1, 3):
        assert (grow(mask, steps) == ndimage.binary_dilation(mask, FOUR, iterations=steps)).all()
    dense = rng.random((19, 19)) < 0.8
    assert (shrink(dense) == ndimage.binary_erosion(dense, FOUR, border_value=1)).all()


def test_scoring_a_game_imports_no_scipy_package():
    """``seog score`` loads scipy's compiled cores alone: the packages cost more than the scoring."""
    code = ("import sys; from seog.cli import main; main(['score', sys.argv[1]]); "
            "print(sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['scipy', 'ndimage'], ['scipy', 'sparse'], ['scipy', 'linalg']) and '._' not in m))")
    game = sorted(EXAMPLES.glob("*.sgf"))[0]
    out = subprocess.run([sys.executable, "-c", code, str(game)], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_scoring_a_game_leaves_the_version_lookup_alone_and_version_still_answers():
    """``importlib.metadata`` (and the email parser under it) is loaded for ``--version`` only."""
    code = ("import sys; from seog.cli import main; main(['score', sys.argv[1]]); "
            "print('importlib.metadata' in sys.modules)")
    game = sorted(EXAMPLES.glob("*.sgf"))[0]
    out = subprocess.run([sys.executable, "-c", code, str(game)], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"
    version = subprocess.run([sys.executable, "-m", "seog", "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.startswith("seog ") and not version.stderr
