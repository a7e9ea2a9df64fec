// Its clients see CameraFacts, the facts it reports (computed, below it, where Words reads them), as its own.
@_exported import CameraFacts
