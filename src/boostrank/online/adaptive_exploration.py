"""Adaptive exploration rates gamma_t for the Banditron: Valizadegan (2010), *Boosting and Online
Learning for Classification and Ranking*, chapter 6 (Algorithm 10, section 6.3).

The rules (section 6.4.1 names them):

- ``ag0``: gamma_t = 1/2 t^(-1/3), Kakade et al.'s choice for the agnostic case;
- ``ag1``: Eq. 6.4, gamma_t = omega'(sum_{i<t} (1 + mu_i)) / (2 L)   (section 6.3.3);
- ``ag2``: Eq. 6.5, gamma_t = omega_2'(t) / (2 omega_1'(sum_{i<t} tau_i))   (section 6.3.4);
- ``ag3``: Eq. 6.3, gamma_t = omega_2'(sum_{i<t} (1 + mu_i)) / (2 omega_1'(sum_{i<t} tau_i))
  (section 6.3.2);

with the good support function omega(z) = (1 + z)^lambda (Proposition 6 with a = 1, so its
Lipschitz constant is L = lambda), lambda = 0.1 for omega, omega_1 and omega_2 (section 6.4.1).

mu_t and tau_t (section 6.3.1) bound [y_hat_t = y_t] and [y_hat_t != y_t] through the only
observable event, I_t = [y_hat_t = y~_t][y~_t = y_t] (the exploited label was right). The text
writes them as expectations over y~_t (mu_t = 2 E_t[I_t], tau_t = 1 - E_t[I_t]), which need the
unobserved y_t; the implementable reading used here is the realised one, mu_t = 2 I_t and
tau_t = 1 - I_t (so mu_t <= 2, as the proof of Proposition 7 uses).

Each rule maps (t, S_mu, S_tau) -> gamma_t for all runs at once: t is the 1-based trial,
S_mu = sum_{i<t} mu_i and S_tau = sum_{i<t} tau_i are (R,) arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boostrank.errors import BoostrankError

RULES = ("ag0", "ag1", "ag2", "ag3")


def omega_prime(z: np.ndarray | float, lam: float) -> np.ndarray:
    """omega'(z) of omega(z) = (1 + z)^lambda: lambda (1 + z)^(lambda - 1)."""
    return lam * np.power(1.0 + np.asarray(z, dtype=np.float64), lam - 1.0)


@dataclass(frozen=True)
class AdaptiveGamma:
    """One of the rules ag0..ag3; ``lam1``/``lam2`` are omega_1's and omega_2's lambda
    (``lam1`` is ag1's single omega)."""

    rule: str
    lam1: float = 0.1
    lam2: float = 0.1

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise BoostrankError(f"unknown exploration rule '{self.rule}'; known: {RULES}")
        for lam in (self.lam1, self.lam2):
            if not 0 < lam <= 1:
                raise BoostrankError(f"omega's lambda must lie in (0, 1]; got {lam}")
        if self.rule in ("ag2", "ag3") and self.lam1 < self.lam2:
            # omega_1' >= omega_2' everywhere (section 6.3.2) needs lambda_1 >= lambda_2 at z=0
            raise BoostrankError("ag2/ag3 need omega_1' >= omega_2', i.e. lam1 >= lam2")

    def __call__(self, t: int, s_mu: np.ndarray, s_tau: np.ndarray) -> np.ndarray:
        """gamma_t of every run, (R,)."""
        if self.rule == "ag0":
            return np.full(np.shape(s_mu), 0.5 * float(t) ** (-1.0 / 3.0))
        if self.rule == "ag1":  # Eq. 6.4, L = lambda for (1 + z)^lambda
            return omega_prime((t - 1) + s_mu, self.lam1) / (2.0 * self.lam1)
        if self.rule == "ag2":  # Eq. 6.5
            return omega_prime(float(t), self.lam2) / (2.0 * omega_prime(s_tau, self.lam1))
        # ag3, Eq. 6.3
        return omega_prime((t - 1) + s_mu, self.lam2) / (2.0 * omega_prime(s_tau, self.lam1))


def exploit_estimates(hit_exploit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mu_t, tau_t) from I_t = [y_hat = y~][y~ = y] (section 6.3.1, realised reading)."""
    i = hit_exploit.astype(np.float64)
    return 2.0 * i, 1.0 - i
