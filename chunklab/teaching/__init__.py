"""The notebooks' helpers: pictures and tables, self-checks, and the exercises' checks.

- `report`:    tables and plots (the only module that imports pandas and matplotlib).
- `selfcheck`: `check(...)`: a notebook's claims re-computed from the library.
- `exercises`: the exercises' checks, which accept any correct answer.

May import everything below it; nothing in the library imports it.
"""
