import Foundation
import Testing

@testable import KeyCatalog

/// How a lookup of one key and a copy of the whole domain combine to tell whether a UserDefaults
/// suite stores a key (Apple platforms, where the lookup is `CFPreferencesCopyValue`; Linux does
/// not reach it, so the decision is checked here with both answers given).
@Suite("UserDefaults: one key's lookup and the domain's copy")
struct PersistentDomainLookupTests {
    /// The copy's answer, and how many times it was asked.
    final class Copy {
        let holds: Bool
        var made = 0
        init(holds: Bool) { self.holds = holds }
        func ask() -> Bool {
            made += 1
            return holds
        }
    }

    static func answer(lookupFinds: Bool, verifies: Bool, copy: Copy, recorder: FailureRecorder) -> Bool {
        recorder.record {
            UserDefaults.domainStoresValue(
                forKey: "Theme", in: "group.example", store: "UserDefaults(suiteName: \"group.example\")",
                lookupFinds: lookupFinds, verifies: verifies, copyHolds: copy.ask)
        }
    }

    @Test(arguments: [false, true])
    func aLookupThatFindsNothingLeavesTheAnswerToTheCopy(verifies: Bool) {
        for holds in [false, true] {
            let copy = Copy(holds: holds)
            let recorder = FailureRecorder()
            #expect(Self.answer(lookupFinds: false, verifies: verifies, copy: copy, recorder: recorder) == holds)
            #expect(copy.made == 1)
            #expect(recorder.failures.isEmpty)
        }
    }

    @Test func aValueFoundIsStoredWithoutACopyInRelease() {
        let copy = Copy(holds: false)
        let recorder = FailureRecorder()
        #expect(Self.answer(lookupFinds: true, verifies: false, copy: copy, recorder: recorder))
        #expect(copy.made == 0, "the copy is what the lookup saves")
        #expect(recorder.failures.isEmpty)
    }

    @Test func aDebugBuildChecksTheLookupAgainstTheCopy() {
        let agreeing = Copy(holds: true)
        let recorder = FailureRecorder()
        #expect(Self.answer(lookupFinds: true, verifies: true, copy: agreeing, recorder: recorder))
        #expect(agreeing.made == 1)
        #expect(recorder.failures.isEmpty)

        let disagreeing = Copy(holds: false)
        #expect(!Self.answer(lookupFinds: true, verifies: true, copy: disagreeing, recorder: recorder), "the copy answers")
        #expect(recorder.failures.count == 1)
        let failure = recorder.failures.first
        #expect(failure?.operation == .read)
        #expect(failure?.key == "Theme")
        #expect(failure?.store == "UserDefaults(suiteName: \"group.example\")")
        #expect(failure?.message.contains("domain 'group.example'") == true)
    }
}
