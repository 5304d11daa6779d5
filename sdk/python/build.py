"""Builds svc-client's sdist and wheel offline with setuptools' PEP 517 backend, called directly.

    python3 build.py OUTDIR

Needs setuptools 61 or later and, before setuptools 70.1 (which carries ``bdist_wheel`` itself),
the ``wheel`` package: Debian's ``python3-setuptools`` and ``python3-wheel``. No network, no
``build`` frontend, no isolated environment.
"""

import contextlib
import os
import sys

from setuptools import build_meta

out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "dist")
os.makedirs(out, exist_ok=True)
os.chdir(os.path.dirname(os.path.abspath(__file__)))
# setuptools logs to stdout: send that to stderr, so that stdout names only the two files.
with contextlib.redirect_stdout(sys.stderr):
    sdist = build_meta.build_sdist(out)
    wheel = build_meta.build_wheel(out)
print(os.path.join(out, sdist))
print(os.path.join(out, wheel))
