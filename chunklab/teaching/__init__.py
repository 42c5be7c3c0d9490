"""The notebooks' helpers: pictures and tables, self-checks, and the exercises' checks.

- `report`:    tables and plots (the only module that imports pandas and matplotlib).
- `cuts`:      where the cuts fall: a document with each chunk's span coloured (HTML and text).
- `selfcheck`: `check(...)`: a notebook's claims re-computed from the library.
- `exercises`: the exercises' checks, which accept any correct answer.

May import everything below it; nothing in the library imports it.
"""
