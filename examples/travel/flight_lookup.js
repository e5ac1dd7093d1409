// Seed 001: look a flight up by airline and number (no date: today, with a warning).
A = flights({airline: 'United', flight: 5117});
return A;
