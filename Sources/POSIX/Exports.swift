// POSIX's clients see the failures it throws (SystemError) as part of it.
@_exported import Failures
