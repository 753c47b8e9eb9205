"""The "Check yourself" exercises: ``nbNN.name.check(answer)``, ``hint()`` and ``solution()``.

- ``nbNN``         the exercises of notebook NN (``from pe_utils.exercises import nb05``), each an
  ``Exercise`` or ``FunctionExercise`` with its question, answer, hint and typical mistakes
- ``engine``       how an answer is judged: ordered rule lists (``VALUE_RULES``, ``DIFFERENCES``,
  ``FUNCTION_RULES``), each rule a name, when it applies and its message; the first that applies
  gives the verdict
- ``_reading``     reading a learner's answer without trusting it (never raises, never runs away)
"""

from .engine import CORRECT, NOT_ATTEMPTED, PLACEHOLDER, CheckResult, Exercise, FunctionExercise

__all__ = ["CORRECT", "NOT_ATTEMPTED", "PLACEHOLDER", "CheckResult", "Exercise", "FunctionExercise"]
