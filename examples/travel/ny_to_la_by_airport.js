// Seed 001: the same search combined with an object literal with explicit property names.
jfk = flights({origin: 'JFK', destination: 'LAX', departing: tomorrow});
lga = flights({origin: 'LGA', destination: 'LAX', departing: tomorrow});
ewr = flights({origin: 'EWR', destination: 'LAX', departing: tomorrow});
return {option1: jfk, option2: lga, option3: ewr};
