// Seed 001: the same search combined with a shorthand object literal ({jfk} = {jfk: jfk}).
jfk = flights({origin: 'JFK', destination: 'LAX', departing: tomorrow});
lga = flights({origin: 'LGA', destination: 'LAX', departing: tomorrow});
ewr = flights({origin: 'EWR', destination: 'LAX', departing: tomorrow});
return {jfk, lga, ewr};
