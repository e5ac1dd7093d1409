// The cheapest flight from SFO to LAX next Thursday, and what two tickets cost.
const options = await flights({origin: 'SFO', destination: 'LAX', departing: next(Thursday)});
const cheapest = options.toSorted((a, b) => a.price_usd - b.price_usd)[0];
return {flight: cheapest.flight, departs: cheapest.departs, price_usd: cheapest.price_usd,
        for_two: cheapest.price_usd * 2};
