import Testing

@testable import BackofficeCore

/// Runs a test, or every test of a suite, with the interface in Ukrainian: for the texts that
/// came from the Ukrainian original and are checked word for word.
struct UkrainianInterface: TestTrait, SuiteTrait, TestScoping {
  var isRecursive: Bool { true }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await UILanguage.$current.withValue(.uk) { try await function() }
  }
}

extension Trait where Self == UkrainianInterface {
  static var ukrainian: Self { Self() }
}
