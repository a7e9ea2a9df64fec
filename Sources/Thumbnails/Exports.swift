// Thumbnails's clients see CameraFacts's types as they saw them here before they moved (issue 47).
@_exported import CameraFacts
