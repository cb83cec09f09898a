"""The version of plies (also ``plies.__version__``), for records that name it."""

__version__ = "0.1.0"
