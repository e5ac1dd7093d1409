// Seed 001: "What are my options for getting from San Francisco to LA next Thursday?"
// The three searches are independent, so they run concurrently.
day = next(Thursday);
return {
  flights: flights({origin: 'SFO', destination: 'LAX', departing: day}),
  trains: trains({from: 'San Francisco', to: 'Los Angeles', date: day}),
  busses: busses({departing: 'San Francisco', arriving: 'Los Angeles', date: day}),
};
