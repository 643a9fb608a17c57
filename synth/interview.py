"""One window's interview as pure steps around the model call: plan the chunk prompts, ask the
model (with one repair retry per chunk), then reduce and ground the answers into a report."""

from __future__ import annotations

from dataclasses import dataclass, field

from ingest.errors import BackendError
from ingest.windows import Window
from synth.backends import Completion, ModelBackend
from synth.chunking import CHUNK_MAX_CHARS, chunk_events
from synth.extract.prompt import InvalidLabels, labels_schema, labels_to_report, parse_labels
from synth.grounding import REASONS, SupportCheck, ground_items
from synth.extract.select import picks_to_report
from synth.prompt import EXTRACT_VARIANTS, ChunkPrompt, build_prompt
from synth.report import (
    InvalidReport,
    drop_instructions,
    ground_timestamps,
    merge_reports,
    parse_report,
    report_json_schema,
    unsynthesized_report,
)


@dataclass
class ChunkAnswer:
    report: dict | None
    error: str | None = None
    tries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.report is not None


@dataclass
class WindowReport:
    report: dict
    timestamps_dropped: int = 0
    instructions_dropped: int = 0
    unsupported: dict[str, int] = field(default_factory=lambda: dict.fromkeys(REASONS, 0))
    chunks: int = 0
    model_seconds: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    errors: list[str] = field(default_factory=list)
    paraphrased: int = 0  # items kept by closeness in meaning (few shared words)
    verify_calls: int = 0  # the verify pass (synth.support.verify): calls, tokens, seconds
    verify_tokens: int = 0
    verify_seconds: float = 0.0


def plan_prompts(window: Window, max_chunk_chars: int = CHUNK_MAX_CHARS,
                 variant: str = "contract") -> list[ChunkPrompt]:
    """The window's map-phase prompts. The learned `extract` variant reads the whole window at
    once (a later statement on the same subject replaces an earlier one, the end state wins);
    its prompt holds only the picks, so any context takes it."""
    if variant == "extract":
        return [build_prompt(list(window.events), agent_id=window.agent_id, variant=variant)]
    chunks = chunk_events(window.events, max_chunk_chars)
    return [
        build_prompt(chunk, agent_id=window.agent_id, part=i + 1, parts=len(chunks), variant=variant)
        for i, chunk in enumerate(chunks)
    ]


def schema_for(backend: ModelBackend, prompt: ChunkPrompt) -> dict:
    """The report schema for this chunk, within the backend's caps, timestamps from its events;
    for an `extract` prompt, one label per shortlisted statement."""
    if prompt.variant in EXTRACT_VARIANTS:
        return labels_schema(len(prompt.picks))
    return report_json_schema(**backend.schema_caps, timestamps=prompt.event_ts,
                              sessions=prompt.sessions, seqs=prompt.event_seqs,
                              evidence_first=prompt.variant == "lean")


def _take(answer: ChunkAnswer, prompt: ChunkPrompt, completion: Completion) -> str | None:
    """Count a completion into the answer and parse it; the refusal reason when it is no report."""
    answer.prompt_tokens += completion.prompt_tokens
    answer.completion_tokens += completion.completion_tokens
    answer.cached_tokens += completion.cached_tokens
    answer.seconds += completion.seconds
    try:
        if prompt.variant in EXTRACT_VARIANTS:
            labels = parse_labels(completion.text, len(prompt.picks))
            answer.report = labels_to_report(prompt.picks, labels)
        else:
            answer.report = parse_report(completion.text).as_dict()
    except (InvalidReport, InvalidLabels) as error:
        answer.error = str(error)
        return answer.error
    answer.error = None
    return None


def ask_model(backend: ModelBackend, prompt: ChunkPrompt, tries: int = 2) -> ChunkAnswer:
    """One chunk: `ask_model_many` of one."""
    return ask_model_many(backend, [prompt], tries)[0]


def ask_model_many(backend: ModelBackend, prompts: list[ChunkPrompt], tries: int = 2) -> list[ChunkAnswer]:
    """Ask the model for every prompt; a non-JSON or off-schema answer gets one repair retry, then
    fails. All first tries go in one `complete_many` call, then the repairs of those that failed."""
    answers = [ChunkAnswer(report=None) for _ in prompts]
    schemas = [schema_for(backend, prompt) for prompt in prompts]
    pending: list[tuple[int, str | None]] = []
    for i, prompt in enumerate(prompts):
        if prompt.variant in EXTRACT_VARIANTS and (
                not prompt.picks or not getattr(backend, "labels_statements", True)):
            # nothing worth asking about, or a backend whose answer the picks already are
            answers[i].report = picks_to_report([(pick, pick.section) for pick in prompt.picks])
        else:
            pending.append((i, None))
    for _ in range(tries):
        if not pending:
            break
        results = backend.complete_many([(prompts[i], schemas[i], repair) for i, repair in pending])
        retry = []
        for (i, _), result in zip(pending, results):
            answer = answers[i]
            answer.tries += 1
            if isinstance(result, BackendError):
                answer.error = str(result)
                answer.seconds += result.seconds
                retry.append((i, None))
                continue
            repair = _take(answer, prompts[i], result)
            if repair is not None:
                retry.append((i, repair))
        pending = retry
    return answers


@dataclass(frozen=True)
class WindowFailure:
    """A window whose chunks did not all answer: retried by later runs, then parked."""

    reason: str
    failed_chunks: int
    chunks: int


def window_outcome(window: Window, answers: list[ChunkAnswer],
                   check: SupportCheck | None = None) -> WindowReport | WindowFailure:
    """All chunks answered: the reduced report; otherwise why the window failed."""
    failures = [answer.error for answer in answers if not answer.ok]
    if failures:
        return WindowFailure(f"{len(failures)} of {len(answers)} chunks failed: {failures[0]}",
                             len(failures), len(answers))
    return reduce_answers(window, answers, check)


def reduce_answers(window: Window, answers: list[ChunkAnswer],
                   check: SupportCheck | None = None) -> WindowReport:
    """Merge chunk reports (§2.7), drop instruction-like items and items their cited events do
    not support (`check`: thresholds and closeness in meaning), and take each item's times from
    the events it cites."""
    merged, instructions = drop_instructions(merge_reports([answer.report for answer in answers]))
    check = check or SupportCheck()
    before = check.paraphrased
    supported, unsupported = ground_items(merged, list(window.events), check=check)
    grounded, dropped = ground_timestamps(supported, [event.ts for event in window.events],
                                          {event.seq: event.ts for event in window.events})
    return WindowReport(
        report=grounded,
        timestamps_dropped=dropped,
        instructions_dropped=instructions,
        unsupported=unsupported,
        chunks=len(answers),
        model_seconds=sum(a.seconds for a in answers),
        prompt_tokens=sum(a.prompt_tokens for a in answers),
        completion_tokens=sum(a.completion_tokens for a in answers),
        paraphrased=check.paraphrased - before,
    )


def unsynthesized(window: Window) -> WindowReport:
    events = window.events
    return WindowReport(
        report=unsynthesized_report(len(events), events[0].ts, events[-1].ts,
                                    node_id=window.node_id, cursor_from=window.cursor_from,
                                    cursor_to=window.cursor_to),
        chunks=0,
    )
