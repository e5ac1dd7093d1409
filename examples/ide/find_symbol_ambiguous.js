// RFC: `validateToken` is defined in auth.py and in utils.py, so the outcome is "ambiguous",
// with one refined program per definition.
return findSymbol({name: 'validateToken'});
