import Foundation
import Testing

@testable import KeyCatalog

/// A reference set once and read without a lock: the first object set stays, later ones are not
/// kept, and the one kept is released with its holder.
@Suite struct SetOnceReferenceTests {
    final class Object: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    final class Holder: Sendable {
        let reference = _SetOnceReference<Object>()
    }

    @Test func theFirstObjectSetStaysAndIsReleasedWithItsHolder() {
        weak var first: Object?
        weak var second: Object?
        var holder: Holder? = Holder()
        #expect(holder?.reference.withObject { $0.number } == nil)
        do {
            let one = Object(1), two = Object(2)
            first = one
            second = two
            #expect(holder?.reference.setIfNone(one) === one)
            #expect(holder?.reference.setIfNone(two) === one, "the first stays")
        }
        #expect(holder?.reference.withObject { $0.number } == 1)
        #expect(first != nil)
        #expect(second == nil, "an object set after the first is not kept")
        holder = nil
        #expect(first == nil, "the object kept is released with its holder")
    }

    @Test func concurrentSettersAgreeOnOneObject() async {
        let holder = Holder()
        let seen = await withTaskGroup(of: Int?.self) { group in
            for number in 0..<64 {
                group.addTask {
                    let kept = holder.reference.setIfNone(Object(number))
                    #expect(holder.reference.withObject { $0 === kept } == true)
                    return kept.number
                }
            }
            return await group.reduce(into: Set<Int?>()) { $0.insert($1) }
        }
        #expect(seen.count == 1)
        #expect(seen.first! != nil)
        #expect(seen.first! == holder.reference.withObject { $0.number })
    }
}
