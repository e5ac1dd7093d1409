// RFC: the user's current selection in the editor (given with --selection).
return getCurrentSelection();
