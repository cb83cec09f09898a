"""The hostile suite: seeded fuzz and fault cases for every surface of plies (issue 22).

``corpus.py`` holds the cases and the judge; one test file per surface runs them.
``benchmarks/hostile.py`` runs the same corpus against any source tree.
"""
