"""The package version, at the bottom of the layers so every front door can name it.

Also the one source of the version for the build (`[tool.hatch.version]` in pyproject.toml).
"""
__version__ = "0.1.2"
