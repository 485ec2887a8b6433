// expected-error: 'launchCount' is inaccessible due to 'fileprivate' protection level
// with: Tests/Fixtures/Goldens/basic/Expected.swift
// A generated key cannot be handed to a store it was not declared for (issue 12): outside the
// generated file it exists only bound to its store, as `Keys().$launchCount`.
import Foundation
import KeyCatalog

func readsFromTheWrongStore() -> Int {
    UserDefaults.standard.get(.launchCount)
}
