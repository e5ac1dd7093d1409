// RFC: the refined program suggested by the ambiguous findSymbol.
return findSymbol({name: 'validateToken', file: 'auth.py', line: 42});
