import CommandKit
import Foundation
import PTP
import Testing

@testable import Shell

/// Tab after `prop`: the camera's property names, then the named property's allowed values (every one of
/// a list, only the ends of a wide range, nothing for free text).
@Suite struct PropertyCompletionTests {
    let engine = CompletionEngine()
    let interpreter: Interpreter

    init() {
        (interpreter, _, _) = makeInterpreter()
    }

    @Test func namesThenAllowedValues() {
        #expect(interpreter.run(line: "open sim:") == .success)
        let context = interpreter.completion
        #expect(engine.complete(marked: "prop whi|", in: context).line == "prop whitebalance |")
        #expect(engine.complete(marked: "prop |", in: context).candidates.contains("exposuretime"))
        let values = engine.complete(marked: "prop whitebalance |", in: context).candidates
        #expect(values.contains("daylight") && values.contains("auto") && values.count >= 4, "\(values)")
        #expect(engine.complete(marked: "prop WhiteBalance da|", in: context).line == "prop WhiteBalance daylight |")
        #expect(engine.complete(marked: "prop --json exposuretime 1/10|", in: context).line == "prop --json exposuretime 1/1000 |")
        #expect(engine.complete(marked: "prop fnumber f/5|", in: context).line == "prop fnumber f/5.6 |")
        // battery is 0..100 in steps of 1: its ends, not a hundred and one words.
        #expect(engine.complete(marked: "prop battery |", in: context).candidates == ["0%", "100%"])
        #expect(engine.complete(marked: "prop datetime |", in: context).candidates.isEmpty)
        #expect(engine.complete(marked: "prop whitebalance daylight |", in: context).candidates.isEmpty)
        #expect(engine.complete(marked: "prop nosuch |", in: context).candidates.isEmpty)
    }

    @Test func withoutACameraNothingIsOffered() {
        #expect(engine.complete(marked: "prop |", in: interpreter.completion).candidates.isEmpty)
    }
}
