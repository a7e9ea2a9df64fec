import Failures
import Testing

/// A caller decides from an error's category, never from its words: an error says its own, the one
/// cancellation error is `.cancelled`, and anything else is `.other`, never a guess.
@Suite struct FailureCategoryTests {
    struct Refused: CategorizedError {
        var category: FailureCategory
    }
    struct Unknown: Error {}

    @Test(arguments: FailureCategory.allCases)
    func anErrorSaysItsOwnCategory(category: FailureCategory) {
        let error: any Error = Refused(category: category)
        #expect(error.failureCategory == category)
        #expect(error.isCancellation == (category == .cancelled))
    }

    @Test func cancellationIsOneErrorAndAnythingElseIsOther() {
        #expect(CancellationError().failureCategory == .cancelled)
        #expect(CancellationError().isCancellation)
        #expect(Unknown().failureCategory == .other)
        #expect(!Unknown().isCancellation)
        // Held as any Error, too.
        let boxed: any Error = CancellationError()
        #expect(boxed.isCancellation)
    }
}
