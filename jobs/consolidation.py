"""The consolidation stage, composed: after a run's last commit (the driver calls `consolidate`)
and on its own for a lake filled before (`interview consolidate`). Which judge decides pairs is
chosen here; the pass is `synth.consolidate`, its storage `sinks.links`."""

from __future__ import annotations

import logging
from datetime import datetime

from jobs import faults
from jobs.settings import Settings
from sinks.links import ConsolidateResult, consolidate_lake
from synth.consolidate import Judge
from synth.embeddings import EMBEDDING_MODEL

log = logging.getLogger(__name__)

MODEL_JUDGES = ("openai", "vllm")  # served models good enough to be asked about pairs


def wants_model(settings: Settings) -> bool:
    """Whether pairs go to the model: `judge = "model"`, or `auto` with a served model."""
    judge = settings.consolidation.judge
    return judge == "model" or (judge == "auto" and settings.backend in MODEL_JUDGES)


def make_judge(settings: Settings, pool=None) -> Judge:
    """The rules (and the embedder), or the model of `pool` (a `ModelPool`) when it should ask."""
    if pool is None or not wants_model(settings):
        return Judge()
    from synth.judge import ModelJudge

    return ModelJudge(pool.complete, pool.info["model"])


def consolidate(con, settings: Settings, *, run_id: str, embedder=None, pool=None,
                project_glob: str = "*", now: datetime | None = None) -> ConsolidateResult:
    """Link the tenant's memories no pass has looked at to their project's (whole projects per
    transaction, up to `consolidation.batch_memories` memories; crash point
    `mid_consolidation`)."""
    judge = make_judge(settings, pool)
    result = consolidate_lake(con, settings.tenant_id, run_id=run_id, model=EMBEDDING_MODEL,
                              project_glob=project_glob, judge=judge, embedder=embedder, now=now,
                              batch_memories=settings.consolidation.batch_memories,
                              crash_hook=faults.crash_point)
    result.judge = judge.name
    return result


def consolidate_now(settings: Settings, *, project_glob: str = "*",
                    backend_factory=None) -> ConsolidateResult:
    """`interview consolidate`: the tenant's lake, with its own run record (kind `consolidate`);
    a model judge starts the backend's actors for the pass."""
    from sinks.lake import Lake
    from sinks.runs import finish_run, new_run_id, start_run
    from synth.embeddings import shared_embedder

    run_id = new_run_id()
    options = settings.embeddings
    embedder = shared_embedder(options.threads, options.batch_size) if options.enabled else None
    pool = _model_pool(settings, backend_factory) if wants_model(settings) else None
    try:
        with Lake(settings.lake_location, writer=True, create=False) as lake:
            start_run(lake.con, run_id, "consolidate", settings.backend, "consolidate-v1")
            try:
                result = consolidate(lake.con, settings, run_id=run_id, embedder=embedder,
                                     pool=pool, project_glob=project_glob)
            except BaseException:
                finish_run(lake.con, run_id, "failed", _model(pool), {}, [])
                raise
            finish_run(lake.con, run_id, "finished", _model(pool),
                       {"projects": result.projects, "memories": result.looked_at,
                        **{f"links_{k}": v for k, v in result.links.items()},
                        "seconds": result.seconds}, [])
            result.run_id = run_id
            return result
    finally:
        if pool is not None:
            pool.shutdown()


def _model(pool) -> str:
    return pool.info["model"] if pool is not None else "rules"


def _model_pool(settings: Settings, backend_factory):
    from jobs.cluster import ensure_ray
    from synth.mapreduce import ModelPool, pool_size

    ensure_ray(settings.ray)
    ray_settings = settings.ray
    return ModelPool(settings.backend, settings.backend_options(),
                     actors=pool_size(ray_settings.model_actors, ray_settings.actor_num_gpus),
                     num_cpus=ray_settings.actor_num_cpus, num_gpus=ray_settings.actor_num_gpus,
                     factory=backend_factory)
