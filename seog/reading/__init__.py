"""Reading: a board made for search (play and undo in place) and the searches that use it."""
