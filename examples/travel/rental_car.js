// Seed 001: "Find me rental car options for a trip I'm planning for 10/10 through the 15th.
// My flights are United 5117 outbound, returning on flight 5030."
// The two flight look-ups are independent and run concurrently; `car` waits for both.
outbound = flights({date: '10/10/23', airline: 'United', number: 5117})[0];
inbound = flights({date: '10/15/23', airline: 'United', number: 5030})[0];
return car({
  location: outbound.destination,
  pickup: outbound.arrives,
  dropoff: inbound.departs.minus(1, hour),
});
