from .core import sqlite_backup  # noqa

__all__ = ["sqlite_backup"]
