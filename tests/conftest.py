"""Shared test setup: a headless plotting backend and hypothesis settings."""

import matplotlib
import pytest
from hypothesis import HealthCheck, settings

matplotlib.use("Agg")  # this process only; notebook kernels draw inline

# Deterministic example generation keeps CI reproducible; "thorough" explores more.
settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")
