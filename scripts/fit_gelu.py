"""Where `chunklab.embeddings.transformer.GELU_LOGIT` comes from: `python scripts/fit_gelu.py`.

The encoder computes GELU(x) = x Phi(x) as x / (1 + 2**(x H(x^2))), where x H(x^2) is
-log2(e) times the logit of Phi: log(Phi(x) / (1 - Phi(x))). This fits H, a polynomial of degree
6 in s = x^2, to that function of x sampled on (0, 6], by least squares weighted so that each
sample counts as much as GELU's error there would against the bound the tests hold it to
(rtol 1e-6, atol 5e-7): an error dH moves GELU by about x^2 Phi (1 - Phi) dH / log2(e).

Why degree 6: degree 4 leaves GELU ten times that bound away near x = -4, and degree 5 ends on a
positive coefficient, so that for large x the polynomial turns around and GELU of -40 comes out
as -40 instead of 0. Past x = 6 no fitting is needed: Phi is 1 in float32 and the polynomial
only has to keep growing, which a negative last coefficient does.

Phi and its complement come from `math.erfc` in float64, each computed directly (never as 1
minus the other), so the logit stays exact far into the tails.
"""

from __future__ import annotations

import math

import numpy as np

DEGREE = 6
FIT_UP_TO = 6.0
SAMPLES = 24_001


def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def logit_coefficients() -> tuple[float, ...]:
    """The coefficients of H, from the constant term up, as float32 numbers."""
    x = np.linspace(1e-4, FIT_UP_TO, SAMPLES)
    below = np.array([normal_cdf(v) for v in x])
    above = np.array([normal_cdf(-v) for v in x])  # 1 - Phi(x), without the cancellation
    target = -math.log2(math.e) * (np.log(below) - np.log(above)) / x
    gelu_bound = 5e-7 + 1e-6 * x * below
    weight = x**2 * below * above / gelu_bound
    coefficients = np.polynomial.polynomial.polyfit(x**2, target, DEGREE, w=weight)
    return tuple(float(np.float32(c)) for c in coefficients)


if __name__ == "__main__":
    for c in logit_coefficients():
        print(f"{str(np.float32(c))},")  # float32's shortest repr, as GELU_LOGIT lists them
