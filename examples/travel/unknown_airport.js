// A failure outcome: the message says what is wrong, where, and what to do.
return flights({origin: 'Paris', destination: 'LAX', date: '2023-10-12'});
