"""The notebooks' helpers: pictures and tables, self-checks, and the exercises' checks.

- `report`:    tables and plots (with `figures`, the only modules that import pandas and
  matplotlib).
- `figures`:   the experiment's figures (re-exported by `report`), every legend outside the data.
- `cuts`:      where the cuts fall: a document with each chunk's span coloured (HTML and text).
- `selfcheck`: `check(...)`: a notebook's claims re-computed from the library.
- `exercises`: the exercises' checks, which accept any correct answer.
- `exercises_10`: notebook 10's check (precision-Ω of fixed windows), joined into `exercises`.
- `checking`:  what every exercise check shares: the verdict, "not yet", short renderings.

May import everything below it; nothing in the library imports it.
"""
