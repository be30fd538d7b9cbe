// Headers only; see include/clinux.h.
