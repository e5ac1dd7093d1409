// RFC: a composed operation. findReferences wants a symbol, getCurrentSelection returns a
// selection: the runtime converts selection -> symbol automatically.
return findReferences({target: getCurrentSelection()});
