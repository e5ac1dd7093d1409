// Fan out over airports with map: the three flight searches run concurrently; airports with
// no flight are left out, the others sorted by their cheapest fare.
const airports = ['SFO', 'OAK', 'SEA'];
const found = airports.map(code => ({
  airport: code,
  fares: flights({origin: code, destination: 'LAX', departing: next(Thursday)}).map(f => f.price_usd),
}));
return found
  .filter(a => a.fares.length > 0)
  .map(a => ({airport: a.airport, cheapest: Math.min(...a.fares), flights: a.fares.length}))
  .toSorted((a, b) => a.cheapest - b.cheapest);
