// TerminalKit's clients see TextKit's types (the pure text below the terminal) as part of it.
@_exported import TextKit
