"""What the kit hands a test: the sandbox's answers as small typed objects."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

JSON = dict[str, Any]


def parse_time(text: str) -> datetime:
    """An ISO 8601 time from the sandbox (``…Z``) as an aware datetime (Python 3.10 reads no ``Z``)."""
    return datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)


@dataclass(frozen=True)
class ClockState:
    """A workspace's clock, as ``GET /sandbox/clock`` answers."""

    now: datetime
    #: how far the clock stands from real time, in ms
    offset_ms: int
    frozen: bool
    #: jobs that fell due and ran because of this call (advance, resume)
    ran: int | None = None

    @classmethod
    def of(cls, answer: Mapping[str, Any]) -> ClockState:
        return cls(parse_time(answer["now"]), answer["offset_ms"], answer["frozen"], answer.get("ran"))


@dataclass(frozen=True)
class FiredEvent:
    """An event a clock advance recorded: its type, id, and what it is about."""

    type: str
    id: str
    resource_id: str | None


@dataclass(frozen=True)
class Advance(ClockState):
    """The clock after an advance, and what fell due on the way."""

    events: tuple[FiredEvent, ...] = ()
    #: webhook delivery attempts made on the way
    deliveries: int = 0
    jobs: int = 0

    @property
    def event_types(self) -> list[str]:
        return [event.type for event in self.events]

    @classmethod
    def of(cls, answer: Mapping[str, Any]) -> Advance:
        fired = answer.get("fired") or {}
        return cls(
            parse_time(answer["now"]),
            answer["offset_ms"],
            answer["frozen"],
            answer.get("ran"),
            tuple(FiredEvent(e["type"], e["id"], e.get("resource_id")) for e in fired.get("events", [])),
            fired.get("deliveries", 0),
            fired.get("jobs", 0),
        )


@dataclass(frozen=True)
class Webhook:
    """A webhook the workspace's inbox received: the delivery as sent, and its event."""

    #: the inbox message's number (in order of arrival)
    message_id: int
    #: the event type (``checkout.partial``); None for a body that is not an event envelope
    event: str | None
    #: the delivery's id (``id`` of the envelope, stable across retries)
    delivery_id: str | None
    #: the event's data: for a checkout event, the checkout
    data: JSON
    #: the body's bytes, exactly as delivered: what the signature is over
    raw_body: bytes
    #: the request's headers, lowercase names
    headers: Mapping[str, str]
    #: whether the inbox found the signature right with the endpoint's secret (None: no endpoint)
    signature_valid: bool | None
    received_at: str

    @property
    def signature(self) -> str | None:
        return self.headers.get("x-svc-signature")

    def json(self) -> Any:
        return json.loads(self.raw_body)

    @classmethod
    def of(cls, message: Mapping[str, Any]) -> Webhook:
        body: str = message["body"]
        event: str | None = None
        delivery: str | None = None
        data: JSON = {}
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and isinstance(parsed.get("event"), str):
            event = parsed["event"]
            delivery = parsed.get("id")
            found = parsed.get("data")
            data = found if isinstance(found, dict) else {}
        return cls(
            message["id"],
            event,
            delivery,
            data,
            body.encode("utf-8"),
            dict(message.get("headers") or {}),
            message.get("signature_valid"),
            message["received_at"],
        )


def contains(actual: Any, wanted: Any) -> bool:
    """Whether ``actual`` holds ``wanted``: the fields given, at any depth (lists compared whole)."""
    if isinstance(wanted, Mapping):
        return isinstance(actual, Mapping) and all(
            key in actual and contains(actual[key], value) for key, value in wanted.items()
        )
    return bool(actual == wanted)


@dataclass(frozen=True)
class VerifiedRequest:
    """A ``/v1`` request the verification looked at, briefly."""

    id: str
    created_at: str
    env: str
    method: str
    path: str
    status: int
    request_body: str | None

    @classmethod
    def of(cls, item: Mapping[str, Any]) -> VerifiedRequest:
        return cls(
            item["id"],
            item["created_at"],
            item["env"],
            item["method"],
            item["path"],
            item["status"],
            item.get("request_body"),
        )


@dataclass(frozen=True)
class NearMiss:
    request: VerifiedRequest
    #: what differed: ``body.amount: expected 5000, actual 1000``
    differences: tuple[str, ...]


@dataclass(frozen=True)
class VerifyResult:
    """``POST /sandbox/request-log/verify``'s answer."""

    ok: bool
    matched: int
    #: the expectation applied: ``{"gte": 1}`` unless given
    count: Mapping[str, int]
    #: the matching requests, newest first (at most 20)
    requests: tuple[VerifiedRequest, ...]
    near_misses: tuple[NearMiss, ...]

    @classmethod
    def of(cls, answer: Mapping[str, Any]) -> VerifyResult:
        return cls(
            answer["ok"],
            answer["matched"],
            dict(answer["count"]),
            tuple(VerifiedRequest.of(r) for r in answer["requests"]),
            tuple(NearMiss(VerifiedRequest.of(m["request"]), tuple(m["differences"])) for m in answer["near_misses"]),
        )


class RequestVerificationError(AssertionError):
    """A failed ``workspace.verify``: reads like a test failure, naming the near misses."""

    def __init__(self, criteria: Mapping[str, Any], result: VerifyResult) -> None:
        self.criteria = dict(criteria)
        self.result = result
        words = {"eq": "exactly", "gte": "at least", "lte": "at most"}
        expected = " and ".join(f"{words.get(op, op)} {n}" for op, n in result.count.items())
        wanted = json.dumps({k: v for k, v in criteria.items() if k != "count"}, separators=(",", ":"))
        lines = [f"expected {expected} request(s) matching {wanted}, found {result.matched}"]
        if result.near_misses:
            lines.append("near misses:")
            for miss in result.near_misses:
                r = miss.request
                lines.append(f"  {r.method} {r.path} ({r.status}, {r.id})")
                lines.extend(f"    {d}" for d in miss.differences)
        elif result.matched == 0:
            lines.append("no other requests were sent")
        super().__init__("\n".join(lines))


class WebhookTimeoutError(AssertionError):
    """No matching webhook reached the inbox in time; names the event types that did arrive."""


class ScenarioFailedError(AssertionError):
    """A built-in scenario (``workspace.trigger``) whose steps did not all hold."""


@dataclass(frozen=True)
class Coverage:
    """What was reached: each event type and state transition with a count (0: unreached)."""

    #: ``[{"type", "count"}]``, every event type of the spec
    events: tuple[Mapping[str, Any], ...]
    #: ``[{"machine", "from", "to", "via", "count"}]``; ``from`` is ``(new)`` for a first status
    transitions: tuple[Mapping[str, Any], ...]
    #: how many workspaces it adds up
    workspaces: int = 1

    def count(self, event_type: str) -> int:
        """How often that event type was recorded."""
        return sum(int(e["count"]) for e in self.events if e["type"] == event_type)

    def transition(self, machine: str, to: str, from_: str | None = None) -> int:
        """How often that state machine moved to ``to`` (from ``from_``, when given)."""
        return sum(
            int(t["count"])
            for t in self.transitions
            if t["machine"] == machine and t["to"] == to and (from_ is None or t["from"] == from_)
        )

    @property
    def reached_events(self) -> list[str]:
        return [e["type"] for e in self.events if e["count"] > 0]

    @property
    def unreached_events(self) -> list[str]:
        return [e["type"] for e in self.events if e["count"] == 0]

    def as_json(self) -> JSON:
        return {"events": [dict(e) for e in self.events], "transitions": [dict(t) for t in self.transitions]}

    @classmethod
    def of(cls, answer: Mapping[str, Any], workspaces: int = 1) -> Coverage:
        return cls(tuple(answer["events"]), tuple(answer["transitions"]), workspaces)

    @classmethod
    def add(cls, reports: Iterable[Coverage]) -> Coverage:
        """Several reports added up (a test run's workspaces), as ``run --coverage`` does."""
        events: dict[str, dict[str, Any]] = {}
        transitions: dict[tuple[str, str, str], dict[str, Any]] = {}
        total = 0
        for report in reports:
            total += report.workspaces
            for e in report.events:
                seen = events.setdefault(e["type"], {**e, "count": 0})
                seen["count"] += e["count"]
            for t in report.transitions:
                seen = transitions.setdefault((t["machine"], t["from"], t["to"]), {**t, "count": 0})
                seen["count"] += t["count"]
        return cls(tuple(events.values()), tuple(transitions.values()), total)

    def summary(self) -> str:
        events = len(self.reached_events)
        moves = sum(1 for t in self.transitions if t["count"] > 0)
        return (
            f"{events} of {len(self.events)} event types and {moves} of {len(self.transitions)} "
            f"state transitions reached, over {self.workspaces} workspace{'' if self.workspaces == 1 else 's'}"
        )

    def markdown(self) -> str:
        """A Markdown report: the summary, the events, one table per state machine; unreached in bold."""

        def reached(n: int) -> str:
            return "**0 (unreached)**" if n == 0 else str(n)

        def cell(text: str) -> str:
            return text.replace("|", "\\|")

        lines = ["# svc-sandbox coverage", "", self.summary() + ".", "", "## Events", ""]
        lines += ["| event | count |", "|---|---|"]
        lines += [f"| {e['type']} | {reached(e['count'])} |" for e in self.events]
        machines: list[str] = []
        for t in self.transitions:
            if t["machine"] not in machines:
                machines.append(t["machine"])
        for machine in machines:
            lines += ["", f"## {machine}", "", "| from | to | via | count |", "|---|---|---|---|"]
            lines += [
                f"| {cell(t['from'])} | {cell(t['to'])} | {cell(t['via'])} | {reached(t['count'])} |"
                for t in self.transitions
                if t["machine"] == machine
            ]
        return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class TriggerRun:
    """A built-in scenario run (``svc-sandbox trigger``): its steps, and what it changed."""

    name: str
    ok: bool
    steps: tuple[Mapping[str, Any], ...]
    #: ``[{"step", "name", "id", "made"}]``: the merchants its steps made or reused
    merchants: tuple[Mapping[str, Any], ...] = ()
    #: how many events of each type it fired
    events: Mapping[str, int] = field(default_factory=dict)
    #: ``{"from", "to", "moved_seconds"}``: how far its clock steps moved the clock
    clock: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, answer: Mapping[str, Any]) -> TriggerRun:
        changes = answer.get("changes") or {}
        return cls(
            answer["name"],
            answer["ok"],
            tuple(answer["steps"]),
            tuple(changes.get("merchants", [])),
            {e["type"]: e["count"] for e in changes.get("events", [])},
            dict(changes.get("clock", {})),
        )

    def failure(self) -> str:
        lines = [f"scenario {self.name}: {sum(1 for s in self.steps if not s['ok'])} step(s) failed"]
        for step in self.steps:
            if not step["ok"]:
                lines.append(f"  ✗ {step['index']} {step['label']} (line {step.get('line')})")
                lines.extend(f"      {line}" for line in str(step.get("error") or "").splitlines())
        return "\n".join(lines)


def as_id(thing: str | Mapping[str, Any]) -> str:
    """An object's id: the object as the API answered it, or its id itself."""
    if isinstance(thing, str):
        return thing
    value = thing.get("id")
    if not isinstance(value, str):
        raise TypeError("svc-sandbox: expected an id, or an object with one (as the API answers it)")
    return value


def words(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "nothing"
