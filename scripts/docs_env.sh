#!/usr/bin/env bash
# The environment of the documentation site (docs/documentation-site.md): a virtual environment
# at .venv-docs (or $1) from Debian's python3, kept apart from .venv so that the site's tools
# never change the test environment, with from PyPI: MkDocs, mkdocstrings' Python handler
# (griffe reads the package's sources and its _core.pyi stub without importing them),
# pymdown-extensions (the GitHub-style heading anchors the docs link to) and ruff (it wraps the
# API page's signatures). The bounds keep the major versions that mkdocs.yml and
# tools/docs_site/ are written for. Does nothing when all are there.
set -euo pipefail
venv="${1:-.venv-docs}"
packages=("mkdocs>=1.6,<2" "mkdocstrings>=1.0,<2" "mkdocstrings-python>=2.0,<3"
          "pymdown-extensions>=10" ruff)
modules="import mkdocs, mkdocstrings, mkdocstrings_handlers.python, pymdownx.slugs, ruff"

"$(dirname "$0")/venv.sh" "$venv" "$modules" "${packages[@]}"
