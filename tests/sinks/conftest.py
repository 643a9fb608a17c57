"""The sinks tests run on every catalog: `lake_dir` here is a folder lake and a Postgres one."""

import pytest


@pytest.fixture
def lake_dir(any_lake):
    return any_lake
