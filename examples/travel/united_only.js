// Only United's flights from SFO to LAX next Thursday: their numbers and the total of all fares.
const options = flights({origin: 'SFO', destination: 'LAX', departing: next(Thursday)});
const united = options.filter(f => f.airline === 'United');
return {
  flights: united.map(f => `${f.flight} at ${f.departs.slice(11, 16)}`),
  total_usd: united.reduce((sum, f) => sum + f.price_usd, 0),
};
