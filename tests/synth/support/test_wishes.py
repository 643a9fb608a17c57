"""Wishes: what a user forbids is never what the item says they want or allow."""

import pytest

from synth.support.units import units_of
from synth.support.wishes import forbidden, wish_conflict


def said(*texts):
    return [unit for seq, text in enumerate(texts) for unit in units_of(text, seq, "user")]


@pytest.mark.parametrize(("item", "told", "conflict"), [
    # "X first, not Y": Y is forbidden
    ("The user asked for 4.12.1 to go directly to the production track",
     "ship it to internal track first, not prod. i'll do the staged rollout myself", True),
    ("4.12.1 goes to the internal track first; the user does the production rollout",
     "ship it to internal track first, not prod. i'll do the staged rollout myself", False),
    # the way a prohibition leaves open is no breach of it
    ("The user wants every change to production datasets to go through dbt runs in CI",
     "dont touch prod datasets directly, only via dbt runs in ci", False),
    ("The user is fine with editing production datasets by hand to save time",
     "dont touch prod datasets directly, only via dbt runs in ci", True),
    ("The user wanted the emails queue purged so the workers could recover quickly",
     "pls dont purge the queue, those are password resets + receipts", True),
    ("The user proposed raising parts_to_throw_insert as a fast way to stop the failing inserts",
     "fwiw do NOT just bump parts_to_throw_insert, that's just hiding it", True),
    ("Rather than lifting the parts threshold, the user wants the cause of the part explosion fixed",
     "fwiw do NOT just bump parts_to_throw_insert, that's just hiding it", False),
    ("The user is open to running the model less often than hourly to cut the cost",
     "id rather not change the run schedule, the dashboards need hourly", True),
    ("The user is happy to pull in pandas if it speeds up the report",
     "ok. don't pull in pandas for this, the lambda has to stay under 50 MB", True),
    ("The report lambda stays free of pandas to keep it small",
     "ok. don't pull in pandas for this, the lambda has to stay under 50 MB", False),
    ("Nightly jobs should go through Airflow",
     "And keep Airflow out of the nightly jobs, we only use it for the ML pipelines.", True),
    ("Airflow is used only for the ML pipelines",
     "And keep Airflow out of the nightly jobs, we only use it for the ML pipelines.", False),
    ("Integration tests should hit a real Postgres",  # where the prohibition applies: no object
     "don't use mocks in integration tests, hit a real Postgres", False),
    ("Integration tests may use mocks for the database",
     "don't use mocks in integration tests, hit a real Postgres", True),
    ("Never deploy on Fridays; releases go out Monday to Thursday",
     "please don't deploy on Fridays. Monday to Thursday is fine", False),
    ("Keep the worker pool at 8 threads",  # a limit, no prohibition
     "don't go beyond 8 threads in the worker pool", False),
    ("The user prefers raw SQL strings for the report queries",
     "agreed. and no raw SQL strings please, keep it in the query builder", True),
    ("Marking the handlers @MainActor is an acceptable stopgap",
     "fine. but no @MainActor on the handlers to silence it, fix the isolation", True),
    ("The user wants the flaky tests fixed at the cause rather than by raising timeouts",
     "dont just bump the timeout pls, i want the actual cause", False),
    ("Added a nightly VACUUM FULL on the audit table as a safety net",
     "ok the index yes. skip the nightly vacuum full, it locks the table", True),
    ("A nightly VACUUM FULL locks the audit table for too long, so the user chose the index",
     "ok the index yes. skip the nightly vacuum full, it locks the table", False),
    ("The user would rather have the importer retry silently than page on-call",
     "no silent retries in the importer, page on-call instead", True),
])
def test_wish_conflict(item, told, conflict):
    assert (wish_conflict(item, said(told)) is not None) is conflict


def test_only_user_prohibitions_count():
    assistant = units_of("I won't pull in pandas for this.", 0, "assistant")
    assert forbidden(assistant) == []
    assert wish_conflict("The user is happy to pull in pandas", assistant) is None


def test_a_prohibition_the_user_takes_back_is_no_wish():
    told = said("ok, and i'd rather avoid pulling in orjson just for this",
                "actually orjson is fine, we already ship it in the api image. use it")
    assert wish_conflict("The user wants to avoid orjson and stick with the json module", told)
    assert wish_conflict("Switched the encoder to orjson, which the user allowed", told) is None
