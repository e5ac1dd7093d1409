// Seed 000's `use` keyword: the value goes back to the model for another step (outcome mode
// "use") instead of on to the next stage of the pipeline (mode "return").
a = domainA({slot1: 'foo'});
use {checksum: a.field1};
