// Seed 000: the smallest plan, one call of an (async) domain.
return domainA({slot1: 'hello'});
