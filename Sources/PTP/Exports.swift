// PTP's clients see its codes, datasets and errors (PTPFacts, below it) as part of it.
@_exported import PTPFacts
