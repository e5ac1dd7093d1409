// Seed 000: domainA and domainB do not depend on each other, so they run at the same time;
// domainC waits for both. With --context travel_latency=1 this takes about 2 s, not 3 s.
return domainC({
  slot3: domainA({slot1: 'foo'}).field1,
  slot4: domainB({slot2: 'bar'})[0].field2,
});
