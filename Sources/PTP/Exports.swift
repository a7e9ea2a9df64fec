// Its clients see PTPFacts, the codes, datasets and errors below it, as its own.
@_exported import PTPFacts
