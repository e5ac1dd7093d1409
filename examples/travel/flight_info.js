// Seed 000: an alias for a common subexpression. flightInfo runs once; both of its
// fields feed `other`.
flight = flightInfo({airline: 'AA', flight: 1234});
return other({start: flight.departs, end: flight.arrives});
