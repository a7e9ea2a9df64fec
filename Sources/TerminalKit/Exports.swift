// Its clients see TextKit, the pure text below the terminal, as its own.
@_exported import TextKit
