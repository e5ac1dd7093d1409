// No airline: two airlines fly a flight numbered 1234, so the outcome is "ambiguous",
// with one refined program per candidate.
return flightInfo({flight: 1234});
