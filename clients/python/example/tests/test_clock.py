"""The workspace's clock: frozen, advanced by durations, resumed; set up by the svc_workspace marker."""

from datetime import datetime, timedelta, timezone

import pytest

from svc_sandbox import parse_duration


def test_frozen_then_advanced_by_durations(workspace):
    frozen = workspace.clock.freeze()
    assert frozen.frozen
    assert workspace.clock.now() == frozen.now  # time stands still

    moved = workspace.clock.advance("2d")
    assert moved.now - frozen.now == timedelta(days=2)
    moved = workspace.clock.advance("1h30m")
    assert moved.now - frozen.now == timedelta(days=2, hours=1, minutes=30)
    assert workspace.clock.advance(timedelta(seconds=90)).offset_ms > 0

    assert not workspace.clock.resume().frozen


@pytest.mark.svc_workspace(clock_start="2030-01-01T09:00:00Z", frozen=True, seed="clock-marker")
def test_the_marker_starts_the_clock(workspace):
    assert workspace.clock.now() == datetime(2030, 1, 1, 9, tzinfo=timezone.utc)
    assert workspace.clock.state().frozen
    assert workspace.info["seed"] == "clock-marker"


def test_durations_read_as_the_cli_reads_them():
    assert [parse_duration(d) for d in ("90s", "15m", "1h", "2d", "1h30m", "45", 7)] == [
        90,
        900,
        3600,
        172800,
        5400,
        45,
        7,
    ]
    with pytest.raises(ValueError, match="not a duration"):
        parse_duration("2 days")
