// Its clients see Failures (the SystemError it throws) as its own.
@_exported import Failures
