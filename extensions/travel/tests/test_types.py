"""The travel slot types `place` and `travelDate`: the catalog says what a slot takes, and a
wrong value fails when the arguments are bound, before any search, saying what to write."""

from __future__ import annotations

import re
from typing import Any

import dialectic_datetime.plugin as dt
import dialectic_travel.plugin as travel
import pytest
from dialectic_travel.types import Place, TravelDate

from dialectic import Runtime

CONTEXT = {"now": "2023-10-10T08:00:00-07:00", "timezone": "America/Los_Angeles"}
RT = Runtime(plugins=(travel, dt), load_entry_points=False)


def run(source: str) -> Any:
    return RT.run(source, lang="plan", context=CONTEXT | {"travel_latency": 0})


def test_the_catalog_names_the_types() -> None:
    text = RT.describe("compact")
    assert "flights(origin?: place, destination?: place, departing?: travelDate," in text
    assert "trains(from?: place, to?: place, date?: travelDate)" in text
    # (conversions grouped by the type converted: `string->date/place/symbol/travelDate`)
    assert re.search(r"string->[\w/]*\bplace\b", text), text
    assert re.search(r"array->[\w/]*\btravelDate\b", text), text


@pytest.mark.parametrize(
    ("call", "slot", "message"),
    [
        ("{origin: '', destination: 'LAX'}", "origin", "an empty text is not a place"),
        ("{origin: {a: 1}, destination: 'LAX'}", "origin", "expected a place, got an object"),
        ("{origin: ['SFO', ['OAK']]}", "origin", "a place is text, not a list"),
        ("{origin: ['SFO', 'x\\ny']}", "origin", "is not an airport code or a city name"),
        ("{origin: []}", "origin", "an empty list is not a place"),
        ("{origin: 'SFO', departing: 'banana'}", "departing", "cannot read a date from 'banana'"),
        ("{origin: 'SFO', departing: true}", "departing", "cannot read a date from 'true'"),
        ("{origin: 'SFO', departing: []}", "departing", "an empty list is not a travel date"),
        ("{origin: 'SFO', date: ['10/12/23', 'soon']}", "departing", "'soon'"),
    ],
)
def test_wrong_values_fail_before_the_search(call: str, slot: str, message: str) -> None:
    out = run(f"return flights({call});")
    assert out.status == "failure" and out.error is not None
    assert out.error.code in ("conversion_failed", "type_mismatch")
    assert f"argument `{slot}` of `flights`" in out.message
    assert message in out.message
    assert out.calls == [] or all(c.get("status") != "success" for c in out.calls or [])


def test_text_lists_and_date_values_convert() -> None:
    out = run(
        "return flights({origin: ['SFO', 'Oakland'], destination: 'Los Angeles', "
        "departing: ['2023-10-12', next(Thursday), 'Oct 13']}).length;"
    )
    same = run(
        "return flights({origin: ['SFO', 'OAK'], destination: 'LAX', "
        "departing: ['2023-10-12', '2023-10-13']}).length;"
    )  # next(Thursday) is 2023-10-12 here
    assert out.status == same.status == "success" and out.value == same.value > 0
    one = run("return flights({origin: 'SFO', destination: 'LAX', departing: '2023-10-12'});")
    listed = run("return flights({origin: ['SFO'], destination: ['LAX'], date: ['10/12/23']});")
    assert one.status == listed.status == "success" and one.value == listed.value


def test_the_values_are_tuples_of_alternatives() -> None:
    assert Place(["SFO", "OAK"]) == ("SFO", "OAK")
    assert isinstance(TravelDate(["2023-10-12"]), tuple)
    out = run("return [place(['SFO', 'OAK']), `${place('SFO')}`];")
    assert out.status == "success", out.message
    assert out.to_json()["value"][1] == "SFO"
