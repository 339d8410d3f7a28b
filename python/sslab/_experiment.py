"""``run`` and ``theory``: the CLI's commands as functions."""

import os
import tempfile

import pandas as pd

from . import _sslab


def run(config, out=None, threads=None):
    """Run a TOML experiment and return its rows.

    Parameters
    ----------
    config : str or path-like
        The experiment file (as ``sslab run CONFIG``).
    out : str or path-like, default=None
        Folder of the run (``out/<name>/``: splits, ``rows.log``, ``results.csv``); a
        temporary folder, removed afterwards, when None.
    threads : int, default=None
        Threads of the run (None: one per core).

    Returns
    -------
    rows : pandas.DataFrame
        The rows of ``results.csv``.

    Examples
    --------
    >>> import sslab
    >>> rows = sslab.run("configs/quickstart.toml")  # doctest: +SKIP
    >>> rows.groupby("method").error.mean()  # doctest: +SKIP
    """
    if out is None:
        with tempfile.TemporaryDirectory(prefix="sslab-run-") as tmp:
            return pd.read_csv(_sslab.run(os.fspath(config), tmp, threads))
    return pd.read_csv(_sslab.run(os.fspath(config), os.fspath(out), threads))


def theory(dim, labeled, unlabeled, mean_norm, alpha_l, alpha_u, lambda_="max_eig_all",
           epsilon=None):
    """The isotropic theory of QLDS (Theorem 1), as ``sslab theory`` computes it.

    Parameters
    ----------
    dim : int
        Dimension d.
    labeled, unlabeled : int or (int, int)
        Labeled and unlabeled counts per class.
    mean_norm : float
        ‖μ‖ with μ₁ = −μ₂.
    alpha_l, alpha_u : float
        QLDS weights.
    lambda_ : float or {"max_eig_all", "max_eig_unlabeled"}, default="max_eig_all"
        λ or its policy.
    epsilon : float, default=None
        Margin of the eigenvalue policies (the CLI's default when None).

    Returns
    -------
    result : dict
        ``lambda`` and ``valid``; when valid ``m_1``, ``m_2``, ``sigma``, ``error`` and
        ``delta``, else ``reason``.

    Examples
    --------
    >>> import sslab
    >>> r = sslab.theory(dim=100, labeled=10, unlabeled=500, mean_norm=2.0,
    ...                  alpha_l=1.0, alpha_u=1.0)
    >>> sorted(r)[:3]
    ['delta', 'error', 'lambda']
    """
    pair = lambda v: (v, v) if isinstance(v, int) else tuple(v)  # noqa: E731
    kwargs = {} if epsilon is None else {"epsilon": float(epsilon)}
    return _sslab.theory(dim, pair(labeled), pair(unlabeled), float(mean_norm), float(alpha_l),
                         float(alpha_u), str(lambda_), **kwargs)
