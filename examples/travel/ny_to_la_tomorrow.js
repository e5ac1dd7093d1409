// Seed 001: "Show me flights tomorrow from New York to Los Angeles?"
// Three independent aliases (run concurrently), combined with an array literal.
jfk = flights({origin: 'JFK', destination: 'LAX', departing: tomorrow});
lga = flights({origin: 'LGA', destination: 'LAX', departing: tomorrow});
ewr = flights({origin: 'EWR', destination: 'LAX', departing: tomorrow});
return [jfk, lga, ewr];
