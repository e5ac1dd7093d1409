// Fall back from flights to trains: United has no Oakland-LA flight next Thursday, so the
// train search runs; had there been a flight, it would not have run at all.
const united = flights({origin: 'OAK', destination: 'LAX', departing: next(Thursday), airline: 'United'});
return united.length > 0
  ? {by: 'air', options: united.map(f => f.flight)}
  : {by: 'rail', options: trains({from: 'San Francisco', to: 'Los Angeles', date: next(Thursday)})
                            .map(t => `${t.train} ${t.departs.slice(11, 16)}`)};
